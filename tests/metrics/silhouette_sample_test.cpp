// The silhouette on a sample of the points: the standard error it states (hand-computed, and against the spread
// of the scores over many samples), and the `silhouette` measure's sample: drawn once per dataset at the run's
// `silhouette_sample`, described beside the value, every point when the dataset is no larger.
#include <gtest/gtest.h>

#include <algorithm>
#include <any>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/metric.hpp"
#include "core/rng.hpp"
#include "metrics/kmeans_measures.hpp"
#include "metrics/silhouette.hpp"

namespace dpclust {
namespace {

// Points 0, 2 | 10, 12 on a line. On every point the score is exact: no standard error, in any order.
TEST(SilhouetteEstimate, EveryPointIsExact) {
  const std::vector<double> x = {0, 2, 10, 12};
  const Labels labels = {0, 0, 1, 1};
  const SilhouetteEstimate all = silhouette_estimate(x.data(), 4, 1, labels, {3, 1, 0, 2});
  EXPECT_NEAR(all.score, (9.0 / 11.0 + 7.0 / 9.0) / 2.0, 1e-15);
  EXPECT_EQ(all.standard_error, 0.0);
  // The sample {0, 2, 10}: s = 0.8, 0.75 and 0 (10 alone in its cluster); the same double as silhouette_score.
  const SilhouetteEstimate some = silhouette_estimate(x.data(), 4, 1, labels, {0, 1, 2});
  EXPECT_NEAR(some.score, (0.8 + 0.75) / 3.0, 1e-15);
  EXPECT_EQ(some.score, silhouette_score(x.data(), 4, 1, labels, {0, 1, 2}));
  // Undefined (one label): NaN, as the score.
  EXPECT_TRUE(std::isnan(silhouette_estimate(x.data(), 4, 1, Labels{5, 5, 5, 5}, {0, 1, 2}).standard_error));
}

// s(i) of each listed point among the listed points, by the definition (Rousseeuw 1987).
std::vector<double> point_silhouettes(const std::vector<double>& x, const Labels& labels,
                                      const std::vector<std::size_t>& rows) {
  std::vector<double> out;
  for (std::size_t i : rows) {
    std::map<Label, std::pair<double, int>> to;  // label -> (distance sum, points)
    for (std::size_t j : rows)
      if (j != i) {
        auto& t = to[labels[j]];
        t.first += std::hypot(x[2 * i] - x[2 * j], x[2 * i + 1] - x[2 * j + 1]);
        ++t.second;
      }
    if (to[labels[i]].second == 0) {
      out.push_back(0.0);
      continue;
    }
    const double a = to[labels[i]].first / to[labels[i]].second;
    double b = 1e300;
    for (const auto& [label, t] : to)
      if (label != labels[i] && t.second > 0) b = std::min(b, t.first / t.second);
    out.push_back((b - a) / std::max(a, b));
  }
  return out;
}

// The standard error by brute force: the sample's points grouped as silhouette.cpp documents (each label's
// points, labels ascending, in sample order, cut into G = 16 contiguous chunks: chunk g of a label of c points
// is its positions [c g / 16, c (g + 1) / 16)), the score recomputed without each group by silhouette_score,
// the labels' shares p_l and mean s(i) score_l from the definition, and
// SE^2 = (1 - m / n) ((G - 1) / G sum_g (score_-g - their mean)^2 + sum_l p_l (score_l - score)^2 / m).
TEST(SilhouetteEstimate, JackknifeEqualsTheScoresWithoutEachGroup) {
  constexpr std::size_t n = 90, m = 60, G = 16;
  std::vector<double> x(2 * n);
  Labels labels(n);
  Rng rng(31);
  for (std::size_t i = 0; i < n; ++i) {
    labels[i] = static_cast<Label>(i % 3) * 2 - 1;  // -1, 1, 3: noise is one more label
    x[2 * i] = 4.0 * static_cast<double>(i % 3) + rng.normal();
    x[2 * i + 1] = rng.normal();
  }
  const std::vector<std::size_t> rows = silhouette_sample(n, m, 5);
  std::vector<std::vector<std::size_t>> groups(G);
  for (Label label : {-1, 1, 3}) {
    std::vector<std::size_t> mine;
    for (std::size_t r : rows)
      if (labels[r] == label) mine.push_back(r);
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t p = mine.size() * g / G; p < mine.size() * (g + 1) / G; ++p) groups[g].push_back(mine[p]);
  }
  std::vector<double> without(G);
  double mean = 0;
  for (std::size_t g = 0; g < G; ++g) {
    std::vector<std::size_t> kept;
    for (std::size_t r : rows)
      if (std::find(groups[g].begin(), groups[g].end(), r) == groups[g].end()) kept.push_back(r);
    without[g] = silhouette_score(x.data(), n, 2, labels, kept);
    mean += without[g] / G;
  }
  double squares = 0;
  for (double v : without) squares += (v - mean) * (v - mean);
  const std::vector<double> s = point_silhouettes(x, labels, rows);
  double score = 0, shares = 0;
  for (double v : s) score += v / m;
  for (Label label : {-1, 1, 3}) {
    double sum = 0;
    int count = 0;
    for (std::size_t p = 0; p < m; ++p)
      if (labels[rows[p]] == label) sum += s[p], ++count;
    shares += count / static_cast<double>(m) * (sum / count - score) * (sum / count - score);
  }
  const double want = std::sqrt((1.0 - static_cast<double>(m) / n) * ((G - 1.0) / G * squares + shares / m));
  const SilhouetteEstimate e = silhouette_estimate(x.data(), n, 2, labels, rows);
  EXPECT_GT(want, 0.0);
  EXPECT_NEAR(e.standard_error, want, 1e-12 * want);
  EXPECT_EQ(e.score, silhouette_score(x.data(), n, 2, labels, rows));
  EXPECT_NEAR(e.score, score, 1e-12);
}

// n points in 2-D around `clusters` centres on a circle of radius `radius` (sd 1), labelled by their centre.
struct Blobs {
  std::vector<double> x;
  Labels labels;
  std::size_t n;
};
Blobs circle_blobs(std::size_t n, int clusters, double radius, std::uint64_t seed) {
  Blobs b{std::vector<double>(2 * n), Labels(n), n};
  Rng rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    const int c = static_cast<int>(i % static_cast<std::size_t>(clusters));
    const double angle = 2.0 * 3.141592653589793 * c / clusters;
    b.x[2 * i] = radius * std::cos(angle) + rng.normal();
    b.x[2 * i + 1] = radius * std::sin(angle) + rng.normal();
    b.labels[i] = c;
  }
  return b;
}

// Over 300 samples of 400 of 4000 points, the root-mean-square error of the estimate against the score on every
// point (bias included) and the mean stated error; and how many samples lie within 1.96 stated errors.
struct Calibration {
  double spread = 0, stated = 0;
  int within = 0;
};
template <class Estimate>
Calibration calibrate(const Blobs& b, Estimate&& estimate) {
  constexpr int kSamples = 300;
  const double exact = silhouette_score(b.x.data(), b.n, 2, b.labels);
  Calibration c;
  for (int s = 0; s < kSamples; ++s) {
    const SilhouetteEstimate e = estimate(static_cast<std::uint32_t>(s));
    c.spread += (e.score - exact) * (e.score - exact) / kSamples;
    c.stated += e.standard_error / kSamples;
    c.within += std::fabs(e.score - exact) <= 1.96 * e.standard_error;
  }
  c.spread = std::sqrt(c.spread);
  return c;
}

// Overlapping clusters (radius 3, sd 1), so that the points' s(i) vary widely and the error is not negligible:
// both estimates scatter around the score on every point as their stated errors say (within 15%, and about 95%
// of the samples within 1.96 errors; binomial sd at 300 samples: 1.3%).
TEST(SilhouetteEstimate, StandardErrorMatchesTheSpreadOverSamples) {
  const Blobs b = circle_blobs(4000, 4, 3.0, 17);
  const Calibration subset = calibrate(b, [&](std::uint32_t seed) {
    return silhouette_estimate(b.x.data(), b.n, 2, b.labels, silhouette_sample(b.n, 400, seed));
  });
  const Calibration stratified = calibrate(b, [&](std::uint32_t seed) {
    return silhouette_stratified(b.x.data(), b.n, 2, b.labels, silhouette_order(b.n, seed), 400);
  });
  for (const Calibration& c : {subset, stratified}) {
    EXPECT_GT(c.stated, 0.005);  // not a trivial case
    EXPECT_NEAR(c.spread / c.stated, 1.0, 0.15) << "spread " << c.spread << ", stated " << c.stated;
    EXPECT_GE(c.within, 270);
    EXPECT_LE(c.within, 297);
  }
}

// Five points of one cluster given a label of their own: the score on every point falls (those five are the
// nearest other cluster of many points), but a subset of 400 holds none of them in most samples, so its score
// lies far above, beyond what its stated error allows; the stratified sample holds the five whole.
TEST(SilhouetteEstimate, StratifiedIsNotMisledByATinyCluster) {
  Blobs b = circle_blobs(4000, 4, 3.0, 17);
  int relabelled = 0;
  for (std::size_t i = 0; i < b.n && relabelled < 5; ++i)
    if (b.labels[i] == 1) b.labels[i] = 9, ++relabelled;
  const Calibration subset = calibrate(b, [&](std::uint32_t seed) {
    return silhouette_estimate(b.x.data(), b.n, 2, b.labels, silhouette_sample(b.n, 400, seed));
  });
  const Calibration stratified = calibrate(b, [&](std::uint32_t seed) {
    return silhouette_stratified(b.x.data(), b.n, 2, b.labels, silhouette_order(b.n, seed), 400);
  });
  EXPECT_GT(subset.spread / subset.stated, 1.5) << "spread " << subset.spread << ", stated " << subset.stated;
  EXPECT_NEAR(stratified.spread / stratified.stated, 1.0, 0.2)
      << "spread " << stratified.spread << ", stated " << stratified.stated;
  EXPECT_GE(stratified.within, 255);
}

// The stratified estimate by its definition: each label's first r_l points of the order, r_l = min(n_l,
// max(floor, ceil(m n_l / n))), floor = max(2, min(50, m / L)); the weighted mean of the labels' mean s(i) among
// the sampled points; the jackknife over 16 groups (each sampled label's points cut into 16 contiguous chunks, a
// label held whole in no group), SE^2 = (1 - f) (G - 1) / G sum_g (estimate_-g - mean)^2.
TEST(SilhouetteEstimate, StratifiedEqualsItsDefinition) {
  constexpr std::size_t n = 300, m = 60, G = 16;
  std::vector<double> x(2 * n);
  Labels labels(n);
  Rng rng(8);
  for (std::size_t i = 0; i < n; ++i) {
    labels[i] = i < 4 ? 7 : static_cast<Label>(i % 2);  // a four-point label, held whole
    x[2 * i] = 3.0 * static_cast<double>(labels[i] % 3) + rng.normal();
    x[2 * i + 1] = rng.normal();
  }
  const std::vector<std::size_t> order = silhouette_order(n, 21);
  const std::map<Label, std::size_t> sizes = {{0, 148}, {1, 148}, {7, 4}};
  const std::size_t floor = std::max<std::size_t>(2, std::min<std::size_t>(50, m / 3));  // 20
  std::map<Label, std::vector<std::size_t>> picked;
  for (std::size_t r : order) {
    const std::size_t want = std::min(sizes.at(labels[r]), std::max(floor, (m * sizes.at(labels[r]) + n - 1) / n));
    if (picked[labels[r]].size() < want) picked[labels[r]].push_back(r);
  }
  EXPECT_EQ(picked[0].size(), 30u);  // ceil(60 * 148 / 300)
  EXPECT_EQ(picked[7].size(), 4u);
  auto weighted = [&](const std::map<Label, std::vector<std::size_t>>& groups) {
    std::vector<std::size_t> rows;
    for (const auto& [label, members] : groups) rows.insert(rows.end(), members.begin(), members.end());
    const std::vector<double> s = point_silhouettes(x, labels, rows);
    double score = 0;
    std::size_t at = 0;
    for (const auto& [label, members] : groups) {
      double sum = 0;
      for (std::size_t k = 0; k < members.size(); ++k) sum += s[at++];
      score += static_cast<double>(sizes.at(label)) / n * sum / static_cast<double>(members.size());
    }
    return score;
  };
  const double want = weighted(picked);
  std::vector<double> without(G);
  double mean = 0;
  for (std::size_t g = 0; g < G; ++g) {
    std::map<Label, std::vector<std::size_t>> kept;
    for (const auto& [label, members] : picked)
      for (std::size_t p = 0; p < members.size(); ++p)
        if (label == 7 || !(p >= members.size() * g / G && p < members.size() * (g + 1) / G))
          kept[label].push_back(members[p]);
    without[g] = weighted(kept);
    mean += without[g] / G;
  }
  double squares = 0;
  for (double v : without) squares += (v - mean) * (v - mean);
  const double f = 60.0 / 296.0;  // the two sampled labels: 30 + 30 of 148 + 148
  const double want_error = std::sqrt((1 - f) * (G - 1.0) / G * squares);
  std::size_t points = 0;
  const SilhouetteEstimate e = silhouette_stratified(x.data(), n, 2, labels, order, m, &points);
  EXPECT_EQ(points, 64u);
  EXPECT_NEAR(e.score, want, 1e-12);
  EXPECT_NEAR(e.standard_error, want_error, 1e-12 * want_error);
  // A sample that takes every point is the score on every point, exactly.
  EXPECT_EQ(silhouette_stratified(x.data(), n, 2, labels, order, 299).score,
            silhouette_score(x.data(), n, 2, labels));  // 148 + 148 + 4
}

struct MeasureTrial {
  Dataset data;
  MethodResult result;
  ParamSet params;
  MethodInfo method;
  std::map<std::string, std::any> cache;
  explicit MeasureTrial(const Blobs& b) {
    data.name = "blobs";
    data.d = 2;
    data.n = b.n;
    data.coords = b.x;
    result.labels = b.labels;
    method.name = "labels_only";
  }
  double silhouette(const EvaluationSettings* settings, SampledValue* sampled, DatasetCache* dataset_cache = nullptr) {
    cache.clear();
    const MetricInput in{data, result, params, method, 0, cache, dataset_cache, settings, sampled};
    for (const MetricInfo& m : kmeans_measures())
      if (m.name == "silhouette") return m.compute(in);
    throw std::logic_error("no silhouette measure");
  }
};

TEST(SilhouetteMeasure, SampleOfTheConfiguredSizeDrawnOncePerDataset) {
  const Blobs b = circle_blobs(5000, 3, 6.0, 5);
  MeasureTrial t(b);
  const double exact = silhouette_score(b.x.data(), b.n, 2, b.labels);
  // The default: stratified, about 2000 points of 5000 (ceil(2000 * 1667 / 5000) = 667 of each label), described,
  // and the value of that sample.
  SampledValue sampled;
  const double by_default = t.silhouette(nullptr, &sampled);
  EXPECT_EQ(sampled.points, 2000u);
  EXPECT_EQ(sampled.design, "stratified");
  std::size_t read = 0;
  silhouette_stratified(b.x.data(), b.n, 2, b.labels, silhouette_order(b.n, static_cast<std::uint32_t>(sampled.seed)),
                        2000, &read);
  EXPECT_EQ(read, 667u + 667u + 667u);
  EXPECT_EQ(sampled.population, 5000u);
  EXPECT_GT(sampled.standard_error, 0.0);
  const auto seed = static_cast<std::uint32_t>(sampled.seed);
  EXPECT_EQ(by_default, silhouette_stratified(b.x.data(), b.n, 2, b.labels, silhouette_order(b.n, seed), 2000).score);
  EXPECT_NEAR(by_default, exact, 4 * sampled.standard_error);
  // A configured size; the order comes from the run's cache once (a second trial reads it).
  DatasetCache cache;
  const EvaluationSettings five_hundred{500, SilhouetteSampling::stratified};
  SampledValue first, second;
  const double a = t.silhouette(&five_hundred, &first, &cache), b2 = t.silhouette(&five_hundred, &second, &cache);
  EXPECT_EQ(a, b2);
  EXPECT_EQ(first.points, 500u);
  EXPECT_EQ(first.seed, sampled.seed);  // the seed depends on the data only
  EXPECT_EQ(first.standard_error, second.standard_error);
  const std::size_t entries = cache.size();  // the fingerprint and the order
  t.silhouette(&five_hundred, nullptr, &cache);
  EXPECT_EQ(cache.size(), entries);
  // subset: scikit-learn's silhouette_score(X, labels, sample_size=500, random_state=seed).
  const EvaluationSettings subset{500, SilhouetteSampling::subset};
  SampledValue drawn;
  EXPECT_EQ(t.silhouette(&subset, &drawn),
            silhouette_score(b.x.data(), b.n, 2, b.labels, silhouette_sample(b.n, 500, seed)));
  EXPECT_EQ(drawn.points, 500u);
  EXPECT_EQ(drawn.design, "subset");
  // No larger than the sample, or `all`: every point, exact, nothing described.
  for (const EvaluationSettings s :
       {EvaluationSettings{5000}, EvaluationSettings{0}, EvaluationSettings{5000, SilhouetteSampling::subset}}) {
    SampledValue none;
    EXPECT_EQ(t.silhouette(&s, &none), exact);
    EXPECT_EQ(none.points, 0u);
  }
}

// The exact silhouette of a small dataset from its distances, computed once per dataset: the same double as from the
// coordinates, for labels that group the points in other orders, with few and with many clusters (both passes of
// point_scores), and through the measure with a run's cache (computed by the first trial, read by the next).
TEST(SilhouetteDistances, TheSameDoubleAsFromTheCoordinates) {
  Rng rng(11);
  const std::size_t n = 700, d = 9;
  std::vector<double> x(n * d);
  for (double& v : x) v = rng.uniform(-3, 3);
  const SilhouetteDistances distances = silhouette_distances(x.data(), n, d);
  ASSERT_EQ(distances.values.size(), n * n);
  for (std::size_t k : {2u, 7u, 350u}) {
    Labels labels(n);
    for (auto& l : labels) l = static_cast<Label>(rng.below(k));
    EXPECT_EQ(silhouette_score(distances, labels), silhouette_score(x.data(), n, d, labels)) << k << " labels";
  }
  const Blobs b = circle_blobs(1500, 3, 6.0, 5);
  MeasureTrial t(b);
  const double exact = silhouette_score(b.x.data(), b.n, 2, b.labels);
  DatasetCache cache;
  EXPECT_EQ(t.silhouette(nullptr, nullptr, &cache), exact);
  const std::size_t entries = cache.size();  // the distances (and nothing per trial)
  EXPECT_EQ(t.silhouette(nullptr, nullptr, &cache), exact);
  EXPECT_EQ(cache.size(), entries);
}
}  // namespace
}  // namespace dpclust
