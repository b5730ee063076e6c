#include "metrics/clustering_scores.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <random>
#include <stdexcept>

namespace dpclust {
namespace {

const double kLog2 = std::log(2.0);

// ---------------------------------------------------------------------------------------------------
// Hand-computed case: truth [0,0,1,1], pred [0,0,1,2].
//
// Contingency (rows = truth, cols = pred): n_00 = 2, n_11 = 1, n_12 = 1; a = (2, 2), b = (2, 1, 1), N = 4.
//
// ARI over the 6 unordered pairs: same in truth {01, 23}, same in pred {01}.
//   TP = 1 (01), FN = 1 (23), FP = 0, TN = 6 - 1 - 1 - 0 = 4.
//   ARI = 2 (TP TN - FN FP) / ((TP+FN)(FN+TN) + (TP+FP)(FP+TN)) = 2 (4 - 0) / (2*5 + 1*4) = 8/14 = 4/7.
//   (scikit-learn's ordered-pair counts are all doubled; the ratio is unchanged.)
// MI = sum n_ij/N log(N n_ij / (a_i b_j)):
//   (2/4) log(4*2/(2*2)) + (1/4) log(4*1/(2*1)) + (1/4) log(4*1/(2*1)) = (1/2 + 1/4 + 1/4) log 2 = log 2.
// H_true = log 2; H_pred = -(1/2 log 1/2 + 2 * 1/4 log 1/4) = (1/2 + 1) log 2 = 3/2 log 2.
// NMI = log 2 / ((log 2 + 3/2 log 2) / 2) = 1 / (5/4) = 4/5.
// EMI = sum_ij sum_nij (nij/N) log(N nij/(a_i b_j)) P(nij), P hypergeometric = C(a,nij) C(N-a,b-nij) / C(N,b):
//   (a=2, b=2), two such cells, nij in {1, 2}: nij=1 term has log(4/4) = 0; nij=2: (2/4) log 2 *
//     C(2,2)C(2,0)/C(4,2) = (1/2) log 2 * 1/6 = log 2 / 12; both rows: log 2 / 6.
//   (a=2, b=1), four such cells, nij = 1: (1/4) log(4/2) * C(2,1)C(2,0)/C(4,1) = (1/4) log 2 * 1/2 = log 2 / 8;
//     four cells: log 2 / 2.
//   EMI = (1/6 + 1/2) log 2 = 2/3 log 2.
// AMI = (MI - EMI) / (mean(H) - EMI) = (1 - 2/3) / (5/4 - 2/3) = (1/3) / (7/12) = 4/7.
TEST(HandComputed, TwoClustersVersusThree) {
  const Labels truth = {0, 0, 1, 1}, pred = {0, 0, 1, 2};
  const PairConfusion pc = pair_confusion_matrix(truth, pred);
  EXPECT_EQ(pc.tp, 2);  // ordered pairs: twice the unordered counts above
  EXPECT_EQ(pc.fn, 2);
  EXPECT_EQ(pc.fp, 0);
  EXPECT_EQ(pc.tn, 8);
  EXPECT_NEAR(adjusted_rand_score(truth, pred), 4.0 / 7.0, 1e-12);
  EXPECT_NEAR(mutual_info_score(truth, pred), kLog2, 1e-12);
  EXPECT_NEAR(entropy(truth), kLog2, 1e-12);
  EXPECT_NEAR(entropy(pred), 1.5 * kLog2, 1e-12);
  EXPECT_NEAR(normalized_mutual_info_score(truth, pred), 0.8, 1e-12);
  EXPECT_NEAR(expected_mutual_information(contingency_table(truth, pred)), 2.0 / 3.0 * kLog2, 1e-12);
  EXPECT_NEAR(adjusted_mutual_info_score(truth, pred), 4.0 / 7.0, 1e-12);
}

// truth [0,0,0,1,1,1] vs pred [0,0,1,1,2,2]: a = (3,3), b = (2,2,2), cells (0,0)=2,(0,1)=1,(1,1)=1,(1,2)=2.
// Unordered pairs (15): same in truth 3+3 = 6, same in pred 1+1+1 = 3, same in both: 1 (from n_00) + 1
// (from n_12) = 2. TP = 2, FN = 4, FP = 1, TN = 15 - 7 = 8.
// ARI = 2 (2*8 - 4*1) / ((2+4)(4+8) + (2+1)(1+8)) = 24 / (72 + 27) = 24/99 = 8/33.
// MI = (2/6) log(6*2/6) * 2 + (1/6) log(6*1/6) * 2 = (2/3) log 2.
// H_true = log 2, H_pred = log 3, NMI = (2/3) log 2 / ((log 2 + log 3)/2) = (4/3) log 2 / log 6.
TEST(HandComputed, TwoClustersVersusThreeOverlapping) {
  const Labels truth = {0, 0, 0, 1, 1, 1}, pred = {0, 0, 1, 1, 2, 2};
  EXPECT_NEAR(adjusted_rand_score(truth, pred), 8.0 / 33.0, 1e-12);
  EXPECT_NEAR(mutual_info_score(truth, pred), 2.0 / 3.0 * kLog2, 1e-12);
  EXPECT_NEAR(normalized_mutual_info_score(truth, pred), 4.0 / 3.0 * kLog2 / std::log(6.0), 1e-12);
}

// ---------------------------------------------------------------------------------------------------
// scikit-learn reference values. All computed offline with scikit-learn 1.2.1 (Debian python3-sklearn
// 1.2.1+dfsg-1): adjusted_rand_score, adjusted_mutual_info_score, normalized_mutual_info_score,
// mutual_info_score (default arguments: average_method="arithmetic") and
// sklearn.metrics.cluster._expected_mutual_info_fast.expected_mutual_information on the same labels.

struct Reference {
  double ari, ami, nmi, mi, emi;
};

void expect_reference(const Labels& truth, const Labels& pred, const Reference& ref) {
  const ContingencyTable t = contingency_table(truth, pred);
  EXPECT_NEAR(adjusted_rand_score(t), ref.ari, 1e-10);
  EXPECT_NEAR(adjusted_mutual_info_score(t), ref.ami, 1e-10);
  EXPECT_NEAR(normalized_mutual_info_score(t), ref.nmi, 1e-10);
  EXPECT_NEAR(mutual_info_score(t), ref.mi, 1e-10);
  EXPECT_NEAR(expected_mutual_information(t), ref.emi, 1e-10);
  // The bundle agrees with the individual functions.
  const ClusteringScores s = score_labelings(truth, pred);
  EXPECT_NEAR(s.ari, ref.ari, 1e-10);
  EXPECT_NEAR(s.ami, ref.ami, 1e-10);
  EXPECT_NEAR(s.nmi, ref.nmi, 1e-10);
  EXPECT_NEAR(s.mi, ref.mi, 1e-10);
  EXPECT_NEAR(s.emi, ref.emi, 1e-10);
}

TEST(ScikitLearnReference, HandCase) {
  // values from scikit-learn 1.2.1 adjusted_rand_score / adjusted_mutual_info_score /
  // normalized_mutual_info_score / mutual_info_score([0,0,1,1], [0,0,1,2])
  expect_reference(
      {0, 0, 1, 1}, {0, 0, 1, 2},
      {0.5714285714285714, 0.5714285714285715, 0.7999999999999999, 0.6931471805599452, 0.4620981203732966});
}

TEST(ScikitLearnReference, WithNoise) {
  // values from scikit-learn 1.2.1 adjusted_rand_score(...), adjusted_mutual_info_score(...), etc. of
  // ([0,0,0,1,1,1,2,2,2,-1], [0,0,1,1,1,-1,2,2,-1,-1])
  expect_reference(
      {0, 0, 0, 1, 1, 1, 2, 2, 2, -1}, {0, 0, 1, 1, 1, -1, 2, 2, -1, -1},
      {0.2028985507246377, 0.2662693564010163, 0.5920135846617088, 0.7932960961038705, 0.5948996544603091});
  // values from scikit-learn 1.2.1 of ([-1,-1,0,0,0,5,5,5,5,7,7,-1], [3,3,3,1,1,1,-1,-1,2,2,2,2])
  expect_reference(
      {-1, -1, 0, 0, 0, 5, 5, 5, 5, 7, 7, -1}, {3, 3, 3, 1, 1, 1, -1, -1, 2, 2, 2, 2},
      {0.1378809869375907, 0.21113664362311274, 0.5104259822899803, 0.6931471805599455, 0.5152074701632263});
}

TEST(ScikitLearnReference, FormulaLabels5000WithNoise) {
  // truth[i] = (i*7919 + i*i*104729) % 5, pred[i] = i % 9 == 0 ? -1 : (2 truth[i] + (i % 3 == 0)) % 7.
  Labels truth, pred;
  for (std::int64_t i = 0; i < 5000; ++i) {
    const std::int64_t t = (i * 7919 + i * i * 104729) % 5;
    truth.push_back(static_cast<Label>(t));
    pred.push_back(i % 9 == 0 ? kNoise : static_cast<Label>((t * 2 + (i % 3 == 0 ? 1 : 0)) % 7));
  }
  // values from scikit-learn 1.2.1 adjusted_rand_score(...), adjusted_mutual_info_score(...),
  // normalized_mutual_info_score(...), mutual_info_score(...) and expected_mutual_information(...)
  expect_reference(
      truth, pred,
      {0.4066827994732289, 0.47165277039055054, 0.47199255982217186, 0.5880541820246424, 0.0008012584499658253});
}

TEST(ScikitLearnReference, ManySparseLabels) {
  // 212 x 1148 distinct labels on 3000 points (sparse table path, hash relabelling path).
  Labels truth, pred;
  for (std::int64_t i = 0; i < 3000; ++i) {
    truth.push_back(static_cast<Label>(((i * i * 104729 + i * 7919) % 1500) * 1000000));
    pred.push_back(static_cast<Label>((i * 13 + (i * i) % 17) % 1200 - 1));
  }
  // values from scikit-learn 1.2.1 adjusted_rand_score(...), adjusted_mutual_info_score(...), etc.
  expect_reference(
      truth, pred,
      {0.0008356383439425759, 0.0035757385286101597, 0.6828050087711797, 4.141462399924266, 4.134558335965916});
}

TEST(ScikitLearnReference, FormulaLabels200kLargeClusters) {
  // Clusters of up to 20000 points: the EMI tail pruning is exercised.
  // truth[i] = (i*7919 + i*i*104729) % 40, pred[i] = (truth[i] + ((i*i*31 + i*17) % 5 == 0 ? i % 40 : 0)) % 40
  Labels truth, pred;
  for (std::int64_t i = 0; i < 200000; ++i) {
    const std::int64_t t = (i * 7919 + i * i * 104729) % 40;
    truth.push_back(static_cast<Label>(t));
    pred.push_back(static_cast<Label>((t + ((i * i * 31 + i * 17) % 5 == 0 ? i % 40 : 0)) % 40));
  }
  // values from scikit-learn 1.2.1 adjusted_rand_score(...), adjusted_mutual_info_score(...), etc.
  expect_reference(
      truth, pred,
      {0.4911512455322856, 0.7497864743476017, 0.7498264908113189, 1.93443534728019, 0.0004125925333612605});
}

TEST(ScikitLearnReference, KnuthHash200kWithNoise) {
  // truth[i] = ((i * 2654435761) mod 2^32) % 37,
  // pred[i] = i % 97 == 0 ? -1 : (truth[i] + (((i*40503) % 65536) % 7 == 0 ? i % 23 : 0)) % 31
  Labels truth, pred;
  for (std::int64_t i = 0; i < 200000; ++i) {
    const std::int64_t t = ((i * 2654435761LL) % 4294967296LL) % 37;
    truth.push_back(static_cast<Label>(t));
    pred.push_back(i % 97 == 0 ? kNoise : static_cast<Label>((t + (((i * 40503) % 65536) % 7 == 0 ? i % 23 : 0)) % 31));
  }
  // values from scikit-learn 1.2.1 adjusted_rand_score(...), adjusted_mutual_info_score(...), etc.
  expect_reference(
      truth, pred,
      {0.6341793344031526, 0.7253544318102639, 0.7255726154820525, 2.5511571245745106, 0.0027932253505259944});
}

TEST(ScikitLearnReference, TwoByThree200kFewHugeClusters) {
  // Few clusters of ~1e5 points: EMI computes log-factorials on demand instead of tabulating them.
  // truth[i] = ((i * 2654435761) mod 2^32) % 2,
  // pred[i] = ((i*40503) % 65536) % 5 == 0 ? i % 3 : truth[i] + (i % 7 == 0)
  Labels truth, pred;
  for (std::int64_t i = 0; i < 200000; ++i) {
    const std::int64_t t = ((i * 2654435761LL) % 4294967296LL) % 2;
    truth.push_back(static_cast<Label>(t));
    pred.push_back(static_cast<Label>(((i * 40503) % 65536) % 5 == 0 ? i % 3 : t + (i % 7 == 0 ? 1 : 0)));
  }
  // values from scikit-learn 1.2.1 adjusted_rand_score(...), adjusted_mutual_info_score(...), etc.
  expect_reference(
      truth, pred,
      {0.4047293551516567, 0.32978771672873775, 0.3297917225556599, 0.2758902081899328, 5.000072870714145e-06});
}

TEST(ScikitLearnReference, OneSideSingleCluster) {
  // values from scikit-learn 1.2.1: every score is 0.0 for ([4]*6, [0,1,2,0,1,2]) and for
  // ([0,1,2,3,4], [7]*5)
  expect_reference({4, 4, 4, 4, 4, 4}, {0, 1, 2, 0, 1, 2}, {0.0, 0.0, 0.0, 0.0, 0.0});
  expect_reference({0, 1, 2, 3, 4}, {7, 7, 7, 7, 7}, {0.0, 0.0, 0.0, 0.0, 0.0});
}

// ---------------------------------------------------------------------------------------------------
// ARI without overflow at N = 20M, on a table built directly (pair counts ~4e14, products ~1e29).

ContingencyTable two_by_two(std::int64_t n00, std::int64_t n01, std::int64_t n10, std::int64_t n11) {
  ContingencyTable t;
  t.n = n00 + n01 + n10 + n11;
  t.row_labels = {0, 1};
  t.col_labels = {0, 1};
  t.row_sums = {n00 + n01, n10 + n11};
  t.col_sums = {n00 + n10, n01 + n11};
  t.cells = {{0, 0, n00}, {0, 1, n01}, {1, 0, n10}, {1, 1, n11}};
  return t;
}

TEST(AdjustedRand, TwentyMillionPointsDoNotOverflow) {
  // value from scikit-learn 1.2.1's formula evaluated with Python integers:
  // 2.0 * (tp*tn - fn*fp) / ((tp+fn)*(fn+tn) + (tp+fp)*(fp+tn)) with tp = 103999980000000,
  // fp = fn = 96000000000000, tn = 104000000000000 (exact rational value 0.0399999519999952...)
  EXPECT_NEAR(adjusted_rand_score(two_by_two(6000000, 4000000, 4000000, 6000000)), 0.039999951999995204, 1e-15);
  // same formula for cells (12M, 1M, 2M, 5M)
  EXPECT_NEAR(adjusted_rand_score(two_by_two(12000000, 1000000, 2000000, 5000000)), 0.48254868123276135, 1e-15);
}

// ---------------------------------------------------------------------------------------------------
// The EMI tail pruning against the plain triple sum (every n_ij from max(1, a+b-N) to min(a, b)).
// k = 2 makes few large clusters (log-factorials computed on demand), k = 7 more and smaller ones
// (log-factorials tabulated); the skewed 2x2 puts the mode at the edge of its range.

// Written with scikit-learn's operations in scikit-learn's order (so that rounding is the same as in
// the library and the comparison isolates the pruning).
double naive_emi(const ContingencyTable& t) {
  const double n = static_cast<double>(t.n);
  auto lf = [](double k) { return std::lgamma(k + 1.0); };
  double emi = 0.0;
  for (std::int64_t a : t.row_sums)
    for (std::int64_t b : t.col_sums)
      for (std::int64_t nij = std::max<std::int64_t>(1, a + b - t.n); nij <= std::min(a, b); ++nij) {
        const double x = static_cast<double>(nij);
        const double ad = static_cast<double>(a), bd = static_cast<double>(b);
        const double term2 = (std::log(n) + std::log(x)) - std::log(ad) - std::log(bd);
        const double gln =
            lf(ad) + lf(bd) + lf(n - ad) + lf(n - bd) - (lf(x) + lf(n)) - lf(ad - x) - lf(bd - x) - lf(n - ad - bd + x);
        emi += x / n * term2 * std::exp(gln);
      }
  return emi;
}

TEST(ExpectedMutualInformation, PrunedSumEqualsFullSum) {
  std::mt19937_64 rng(20240611);
  for (int k : {2, 3, 7}) {
    Labels x(30000), y(30000);
    for (auto& v : x) v = static_cast<Label>(rng() % static_cast<std::uint64_t>(k));
    for (auto& v : y) v = static_cast<Label>(rng() % static_cast<std::uint64_t>(k + 1));
    const ContingencyTable t = contingency_table(x, y);
    const double full = naive_emi(t);
    EXPECT_NEAR(expected_mutual_information(t), full, 1e-14 * std::abs(full)) << "k = " << k;
  }
  // A very unbalanced table, where the mode sits at the edge of the range.
  const ContingencyTable skew = two_by_two(29000, 500, 400, 100);
  EXPECT_NEAR(expected_mutual_information(skew), naive_emi(skew), 1e-14 * naive_emi(skew));
}

// ---------------------------------------------------------------------------------------------------
// Identities

Labels random_labels(std::size_t n, std::uint64_t k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Labels out(n);
  for (auto& v : out) v = static_cast<Label>(rng() % k);
  return out;
}

TEST(Identities, PerfectLabelsScoreOne) {
  Labels truth = random_labels(1000, 7, 1);
  for (std::size_t i = 0; i < truth.size(); i += 11) truth[i] = kNoise;
  const ClusteringScores s = score_labelings(truth, truth);
  EXPECT_DOUBLE_EQ(s.ari, 1.0);
  EXPECT_NEAR(s.ami, 1.0, 1e-12);
  EXPECT_NEAR(s.nmi, 1.0, 1e-12);
}

TEST(Identities, PermutingLabelIdsChangesNothing) {
  const Labels truth = random_labels(2000, 6, 2);
  Labels pred = random_labels(2000, 5, 3);
  for (std::size_t i = 0; i < pred.size(); ++i)
    if (i % 3 == 0) pred[i] = truth[i] == 5 ? kNoise : truth[i];  // correlated, with noise
  // Relabel the prediction by a bijection of its values (noise moved to an ordinary id and back).
  const Label map[] = {/* -1 -> */ 40, /* 0 -> */ -1,        /* 1 -> */ 999,
                       /* 2 -> */ 7,   /* 3 -> */ 123456789, /* 4 -> */ -5};
  Labels pred2(pred.size());
  for (std::size_t i = 0; i < pred.size(); ++i) pred2[i] = map[pred[i] + 1];
  Labels truth2(truth.size());
  for (std::size_t i = 0; i < truth.size(); ++i) truth2[i] = static_cast<Label>((5 - truth[i]) * 1000);
  const ClusteringScores a = score_labelings(truth, pred);
  const ClusteringScores b = score_labelings(truth2, pred2);
  EXPECT_DOUBLE_EQ(a.ari, b.ari);
  EXPECT_NEAR(a.ami, b.ami, 1e-12);
  EXPECT_NEAR(a.nmi, b.nmi, 1e-12);
  EXPECT_NEAR(a.mi, b.mi, 1e-12);
  EXPECT_GT(a.ari, 0.1);  // the labelings are genuinely related
}

TEST(Identities, SymmetricInTheArguments) {
  const Labels x = random_labels(3000, 4, 4);
  Labels y = random_labels(3000, 9, 5);
  for (std::size_t i = 0; i < y.size(); i += 2) y[i] = x[i] * 2 - 1;  // includes -1
  const ClusteringScores a = score_labelings(x, y);
  const ClusteringScores b = score_labelings(y, x);
  EXPECT_EQ(a.ari, b.ari);  // the integer formula is symmetric, so the bits are too
  EXPECT_NEAR(a.ami, b.ami, 1e-12);
  EXPECT_NEAR(a.nmi, b.nmi, 1e-12);
  EXPECT_NEAR(a.mi, b.mi, 1e-12);
  EXPECT_NEAR(a.emi, b.emi, 1e-12);
}

TEST(Identities, IndependentRandomLabelingsScoreNearZero) {
  const Labels x = random_labels(100000, 10, 0x5eed0001);
  const Labels y = random_labels(100000, 10, 0x5eed0002);
  const ClusteringScores s = score_labelings(x, y);
  EXPECT_LT(std::abs(s.ari), 0.01);
  EXPECT_LT(std::abs(s.ami), 0.01);
  EXPECT_GT(s.nmi, 0.0);  // NMI is not adjusted for chance: small but positive
  EXPECT_LT(s.nmi, 0.01);
}

TEST(SpecialCases, BothSingleClusterScoreOne) {
  // scikit-learn: both labelings a single cluster (any label values, even different ones) -> 1.0.
  for (const auto& [t, p] :
       {std::pair<Labels, Labels>{{0, 0, 0}, {0, 0, 0}}, std::pair<Labels, Labels>{{3, 3, 3, 3}, {-1, -1, -1, -1}},
        std::pair<Labels, Labels>{{9}, {2}}}) {
    EXPECT_EQ(adjusted_rand_score(t, p), 1.0);
    EXPECT_EQ(adjusted_mutual_info_score(t, p), 1.0);
    EXPECT_EQ(normalized_mutual_info_score(t, p), 1.0);
    EXPECT_EQ(mutual_info_score(t, p), 0.0);
    const ClusteringScores s = score_labelings(t, p);
    EXPECT_EQ(s.ari, 1.0);
    EXPECT_EQ(s.ami, 1.0);
    EXPECT_EQ(s.nmi, 1.0);
  }
}

TEST(SpecialCases, EntropyEdgeCases) {
  EXPECT_EQ(entropy({}), 1.0);  // scikit-learn's entropy([])
  EXPECT_EQ(entropy({5, 5, 5}), 0.0);
  EXPECT_NEAR(entropy({-1, 0, 1, 2}), std::log(4.0), 1e-15);
}

TEST(SpecialCases, MismatchedOrEmptyLabelingsThrow) {
  EXPECT_THROW(adjusted_rand_score({0, 1, 1}, {0, 1}), std::invalid_argument);
  EXPECT_THROW(adjusted_mutual_info_score({0, 1}, {0, 1, 1}), std::invalid_argument);
  EXPECT_THROW(normalized_mutual_info_score({0}, {}), std::invalid_argument);
  EXPECT_THROW(mutual_info_score({0}, {0, 0}), std::invalid_argument);
  EXPECT_THROW(score_labelings({1, 2}, {1}), std::invalid_argument);
  EXPECT_THROW(score_labelings({}, {}), std::invalid_argument);
  EXPECT_THROW(adjusted_rand_score({}, {}), std::invalid_argument);
}

TEST(Counts, ClustersAndNoise) {
  const Labels labels = {-1, 3, 3, -1, 8, -1, 0};
  EXPECT_EQ(n_clusters(labels), 3u);
  EXPECT_EQ(n_noise(labels), 3u);
  EXPECT_EQ(n_clusters({}), 0u);
  EXPECT_EQ(n_clusters({-1, -1}), 0u);
  EXPECT_EQ(n_noise({0, 1}), 0u);
  const ClusteringScores s = score_labelings({0, 0, 1, 1, 2, 2, 2}, labels);
  EXPECT_EQ(s.n_clusters_true, 3u);
  EXPECT_EQ(s.n_noise_true, 0u);
  EXPECT_EQ(s.n_clusters_pred, 3u);
  EXPECT_EQ(s.n_noise_pred, 3u);
}

// ---------------------------------------------------------------------------------------------------
// Scale: N = 1,000,000 with 40 x 40 labels. No timing assertion; the AMI time is printed.

TEST(Scale, OneMillionPointsFortyByForty) {
  const std::size_t n = 1000000;
  std::mt19937_64 rng(0xD1CE);
  Labels truth(n), pred(n);
  for (std::size_t i = 0; i < n; ++i) {
    truth[i] = static_cast<Label>(rng() % 40);
    pred[i] = (rng() % 5 == 0) ? static_cast<Label>(rng() % 40) : truth[i];
  }
  const auto t0 = std::chrono::steady_clock::now();
  const double ami = adjusted_mutual_info_score(truth, pred);
  const auto t1 = std::chrono::steady_clock::now();
  const ClusteringScores s = score_labelings(truth, pred);
  const auto t2 = std::chrono::steady_clock::now();
  const ContingencyTable table = contingency_table(truth, pred);
  const auto t3 = std::chrono::steady_clock::now();
  const double emi = expected_mutual_information(table);
  const auto t4 = std::chrono::steady_clock::now();
  auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
  std::cout << "[ timing ] N=1e6, 40x40: adjusted_mutual_info_score " << ms(t1 - t0) << " ms, score_labelings "
            << ms(t2 - t1) << " ms, contingency_table " << ms(t3 - t2) << " ms, expected_mutual_information "
            << ms(t4 - t3) << " ms\n";
  ::testing::Test::RecordProperty("ami_ms", std::to_string(ms(t1 - t0)));
  for (double v : {ami, s.ari, s.ami, s.nmi}) {
    EXPECT_TRUE(std::isfinite(v));
    EXPECT_GE(v, -1.0);
    EXPECT_LE(v, 1.0);
  }
  EXPECT_EQ(ami, s.ami);
  EXPECT_GT(emi, 0.0);
  EXPECT_LT(emi, 0.01);   // chance MI of 40x40 labels on 1e6 points is ~ (39*39)/(2N) nats
  EXPECT_GT(s.ami, 0.5);  // 80% of the points copy their true label
}

}  // namespace
}  // namespace dpclust
