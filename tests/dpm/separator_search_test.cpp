// DPM's separator search: the candidate grid, the scores by hand, the exponential mechanism's probabilities
// by hand and a fixed-seed frequency test that rejects a mis-scaled mechanism.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "dpm/interval_size.hpp"
#include "dpm/separator_search.hpp"
#include "dpm/split_tree.hpp"
#include "privacy/exponential.hpp"

namespace dpclust::dpm {
namespace {

TEST(DpmCandidates, GridMatchesNumpyArangePlusHalfInterval) {
  // int(200 / 14.75) = 13 candidates at -100 + 14.75 i + 7.375 (synth_10d's grid).
  const CandidateGrid g = candidate_grid({-100.0, 0.0}, {100.0, 9.0}, 14.75, HistogramBins::reference);
  ASSERT_EQ(g.count.size(), 2u);
  EXPECT_EQ(g.count[0], 13u);
  EXPECT_EQ(g.count[1], 0u);  // 9 / 14.75 < 1: no candidate in the second dimension
  EXPECT_EQ(g.total(), 13u);
  EXPECT_DOUBLE_EQ(g.position[0], -92.625);
  EXPECT_DOUBLE_EQ(g.position[12], -100 + 12 * 14.75 + 7.375);
}

TEST(DpmScores, CentrenessByHand) {
  // N = 120, q = 1/12 (q N = 10), t = 0.3.
  const double q = 1.0 / 12, t = 0.3;
  EXPECT_NEAR(centreness(120, q, t, 0), 0.0, 1e-12);
  EXPECT_NEAR(centreness(120, q, t, 5), 5 * 0.3 / 10, 1e-12);
  EXPECT_NEAR(centreness(120, q, t, 10), 0.3, 1e-12);  // t at q N (both branches agree)
  EXPECT_NEAR(centreness(120, q, t, 35), (0.3 - 2 * q) / (1 - 2 * q) + 35 * 0.7 / 50, 1e-12);
  EXPECT_NEAR(centreness(120, q, t, 60), 1.0, 1e-12);  // the median
  EXPECT_NEAR(centreness(120, q, t, 110), 0.3, 1e-12);
  EXPECT_NEAR(centreness(120, q, t, 120), 0.0, 1e-12);
}

TEST(DpmScores, SensitivityTakesTheSteeperRamp) {
  ScoreWeights w;  // the reference's: w_c (t / q) + w_e = 3.6 + 5
  EXPECT_NEAR(score_sensitivity(w, 100), 8.6 / 100, 1e-12);
  w.t = 0.3;
  w.q = 0.4;  // inner slope 2 (1 - t) / (1 - 2q) = 7 > t / q = 0.75: the reference's formula would undercharge
  EXPECT_NEAR(score_sensitivity(w, 10), (7.0 + 5.0) / 10, 1e-12);
}

// The sensitivity a node's split is charged must cover its scores, which divide by the node's released N. One
// record added to a node changes its scores by up to (w_c slope + w_e) / N; the reference's N' = max(N +
// ln(2 delta_c) / eps_c, 1) is below N for N >= 1 (more noise), but a continuous noisy count in (0, 1)
// (sampler: textbook) is below N' = 1, and a sensitivity on N' alone then undercharges: here by 1 / 0.25 = 4x.
TEST(DpmScores, SplitSensitivityCoversTheScoresOfANoisyCountBelowOne) {
  const ScoreWeights w;
  const double delta_c = 1e-5 / 8, eps_c = 0.03;
  // N >= 1: the reference's N' (the smaller).
  EXPECT_DOUBLE_EQ(split_score_sensitivity(w, 500, delta_c, eps_c),
                   score_sensitivity(w, count_lower_bound(500, delta_c, eps_c)));
  EXPECT_LT(count_lower_bound(500, delta_c, eps_c), 500);
  // N = 0.25: N itself.
  const double n = 0.25;
  EXPECT_DOUBLE_EQ(count_lower_bound(n, delta_c, eps_c), 1.0);
  EXPECT_DOUBLE_EQ(split_score_sensitivity(w, n, delta_c, eps_c), score_sensitivity(w, n));
  // The scores of D (one point) and D' (one point more) at the released N = 0.25 differ by more than the
  // reference's charge and by no more than the charged sensitivity.
  const CandidateGrid g = candidate_grid({0.0}, {8.0}, 2.0, HistogramBins::aligned);
  const std::vector<double> x = {2.5, 2.6};
  const std::vector<std::uint32_t> members = {0, 1};
  std::vector<double> d, d2;
  ScoreScratch scratch;
  node_scores(x.data(), 1, members.data(), 1, g, n, w, d, scratch);
  node_scores(x.data(), 1, members.data(), 2, g, n, w, d2, scratch);
  double worst = 0;
  for (std::size_t i = 0; i < d.size(); ++i) worst = std::max(worst, std::abs(d2[i] - d[i]));
  EXPECT_GT(worst, score_sensitivity(w, count_lower_bound(n, delta_c, eps_c)));
  EXPECT_LE(worst, split_score_sensitivity(w, n, delta_c, eps_c) * (1 + 1e-12));
}

TEST(DpmScores, TinyNodeByHand) {
  // 1-D box [0, 8], w = 2: candidates 1, 3, 5, 7; the reference's bins coincide with the intervals here.
  const std::vector<double> x = {0.5, 0.6, 2.5, 6.0, 6.5, 7.5};
  const std::vector<std::uint32_t> members = {0, 1, 2, 3, 4, 5};
  for (HistogramBins bins : {HistogramBins::reference, HistogramBins::aligned}) {
    const CandidateGrid g = candidate_grid({0.0}, {8.0}, 2.0, bins);
    std::vector<double> scores;
    ScoreScratch scratch;
    node_scores(x.data(), 1, members.data(), members.size(), g, 6.0, ScoreWeights{}, scores, scratch);
    ASSERT_EQ(scores.size(), 4u);
    // histogram 2, 1, 0, 3 -> emptiness 2/3, 5/6, 1, 1/2; points below 2, 3, 3, 5 -> centreness (N = 6, q N = 1/2)
    // 0.16 + 2 * 0.7 / 2.5, 0.16 + 3 * 0.7 / 2.5, the same, 0.16 + 0.7 / 2.5.
    EXPECT_NEAR(scores[0], 0.72 + 5.0 * 2 / 3, 1e-12);
    EXPECT_NEAR(scores[1], 1.0 + 5.0 * 5 / 6, 1e-12);
    EXPECT_NEAR(scores[2], 1.0 + 5.0, 1e-12);
    EXPECT_NEAR(scores[3], 0.44 + 2.5, 1e-12);
  }
}

TEST(DpmScores, ReferenceBinsDriftFromTheCandidatesIntervals) {
  // Box [0, 9], w = 2: 4 candidates (1, 3, 5, 7), the reference's 4 bins of width 2.25. A point at 2.1 is in
  // the reference's bin 0 but in the interval [2, 4) of candidate 1.
  const std::vector<double> x = {2.1};
  const std::uint32_t member = 0;
  std::vector<double> ref, aligned;
  ScoreScratch scratch;
  node_scores(x.data(), 1, &member, 1, candidate_grid({0.0}, {9.0}, 2.0, HistogramBins::reference), 1.0, ScoreWeights{},
              ref, scratch);
  node_scores(x.data(), 1, &member, 1, candidate_grid({0.0}, {9.0}, 2.0, HistogramBins::aligned), 1.0, ScoreWeights{},
              aligned, scratch);
  // Emptiness 0 where the point is counted (N = 1), 1 elsewhere; the centreness is the same in both.
  EXPECT_NEAR(ref[1] - aligned[1], 5.0, 1e-12);
  EXPECT_NEAR(ref[0] - aligned[0], -5.0, 1e-12);
  EXPECT_NEAR(ref[2] - aligned[2], 0.0, 1e-12);
}

TEST(DpmScores, NonPositiveNoisyCountGivesZeroScores) {
  const std::vector<double> x = {1.0, 2.0};
  const std::vector<std::uint32_t> m = {0, 1};
  std::vector<double> scores;
  ScoreScratch scratch;
  node_scores(x.data(), 1, m.data(), 2, candidate_grid({0.0}, {8.0}, 2.0, HistogramBins::reference), -3.0,
              ScoreWeights{}, scores, scratch);
  for (double s : scores) EXPECT_EQ(s, 0.0);
}

// The exponential mechanism's probabilities by hand: exp(eps (s - max) / (2 Delta)), up to the quantisation
// to 1/4096 of Delta and the charged K + 2 units.
TEST(DpmChoice, ExactProbabilitiesByHand) {
  const std::vector<double> scores = {6.0, 5.1, 4.05, 2.94};
  const double sensitivity = 0.5, eps = 2.0;
  const std::vector<std::uint64_t> dist = candidate_distances(scores, sensitivity);
  EXPECT_EQ(dist[0], 0u);
  EXPECT_EQ(dist[1], static_cast<std::uint64_t>(std::floor(6.0 * 8192) - std::floor(5.1 * 8192)));
  const auto em = privacy::ExponentialMechanism::unrecorded(eps, kQualityUnits + 2);
  const std::vector<double> p = em.block_probabilities(std::vector<std::uint64_t>(4, 1), dist);
  double z = 0;
  std::vector<double> want(4);
  for (int i = 0; i < 4; ++i) z += want[i] = std::exp(eps * (scores[i] - 6.0) / (2 * sensitivity));
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(p[i], want[i] / z, 0.01) << i;  // K / (K + 2) flattening and 1/K rounding
  // In the units: exactly exp(-gamma distance), gamma = eps / (2 (K + 2)) rounded down to a dyadic.
  double zz = 0;
  for (int i = 0; i < 4; ++i) zz += std::exp(-em.gamma() * static_cast<double>(dist[i]));
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(p[i], std::exp(-em.gamma() * static_cast<double>(dist[i])) / zz, 1e-12);
}

// Frequencies of 40000 fixed-seed draws against the calibrated probabilities: within 4.5 standard errors
// for the mechanism built at eps, and far outside for one that is not (noise halved: eps doubled).
double worst_z(const std::vector<double>& freq, const std::vector<double>& p, double draws) {
  double worst = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    worst = std::max(worst, std::abs(freq[i] - p[i]) / std::sqrt(std::max(p[i] * (1 - p[i]), 1e-12) / draws));
  return worst;
}

TEST(DpmChoice, FrequenciesRejectAMisScaledMechanism) {
  const std::vector<double> scores = {1.0, 0.8, 0.8, 0.3, 0.0};
  const double sensitivity = 0.25, eps = 1.0;
  const int draws = 40000;
  auto probabilities = [&](double e) {
    std::vector<double> p(scores.size());
    double z = 0;
    for (std::size_t i = 0; i < scores.size(); ++i) z += p[i] = std::exp(e * (scores[i] - 1.0) / (2 * sensitivity));
    for (double& v : p) v /= z;
    return p;
  };
  for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
    for (double noise : {1.0, 0.5}) {
      const auto em = privacy::ExponentialMechanism::unrecorded(eps, kQualityUnits + 2, noise);
      Rng rng(20240);
      std::vector<double> freq(scores.size(), 0);
      for (int i = 0; i < draws; ++i)
        freq[choose_candidate(scores, sensitivity, s, &em, eps, noise, rng)] += 1.0 / draws;
      const double calibrated = worst_z(freq, probabilities(eps), draws);
      if (noise == 1.0) EXPECT_LT(calibrated, 4.5) << privacy::to_string(s);
      else EXPECT_GT(calibrated, 10.0) << privacy::to_string(s) << ": a mechanism with half the noise passed";
    }
  }
}

TEST(DpmChoice, NoiselessPicksTheFirstBest) {
  const std::vector<double> scores = {1.0, 3.0, 3.0, 2.0};
  const auto em = privacy::ExponentialMechanism::unrecorded(1.0, kQualityUnits + 2, 0.0);
  Rng rng(1);
  EXPECT_EQ(choose_candidate(scores, 0.1, privacy::Sampler::secure, &em, 1.0, 0.0, rng), 1u);
  EXPECT_EQ(choose_candidate(scores, 0.1, privacy::Sampler::textbook, nullptr, 1.0, 0.0, rng), 1u);
}

}  // namespace
}  // namespace dpclust::dpm
