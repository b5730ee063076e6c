// Google's demo's pair counts and FastLloyd's validity indices (metrics/pair_counting.hpp, validity_indices.hpp,
// paper_measures.hpp): hand-computed cases, the undefined cases, agreement with scikit-learn and scipy on random
// sets (tests/metrics/sklearn_paper_measures_reference.py), and the metrics as a config names them.
#include "metrics/paper_measures.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <any>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/numpy_random.hpp"
#include "metrics/kmeans_measures.hpp"
#include "metrics/nearest_centre.hpp"
#include "metrics/pair_counting.hpp"
#include "metrics/validity_indices.hpp"

namespace dpclust::paper_measures_test {
namespace {

const MetricInfo& measure(const std::string& name) {
  for (const auto& m : paper_measures())
    if (m.name == name) return m;
  for (const auto& m : kmeans_measures())
    if (m.name == name) return m;
  throw std::out_of_range("no measure " + name);
}

RowMatrix rows_of(std::size_t k, std::size_t d, const std::vector<double>& values) {
  RowMatrix m(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
  for (std::size_t i = 0; i < k * d; ++i) m.data()[i] = values[i];
  return m;
}

Dataset dataset_of(std::size_t d, std::vector<double> coords, Labels labels = {}) {
  Dataset data;
  data.name = "test";
  data.d = d;
  data.n = coords.size() / d;
  data.coords = std::move(coords);
  data.labels = std::move(labels);
  return data;
}

// One trial of a method that released `centres` (or only labels when centres is empty).
double metric(const std::string& name, const Dataset& data, RowMatrix centres, Labels labels = {}) {
  MethodResult result;
  result.centres = std::move(centres);
  result.labels = labels.empty() ? Labels(data.n, 0) : std::move(labels);
  MethodInfo method;
  method.name = "some_method";
  method.releases_centres = result.centres.rows() > 0;
  ParamSet params;
  std::map<std::string, std::any> cache;
  const MetricInput in{data, result, params, method, 0, cache, nullptr};
  return measure(name).compute(in);
}

// ---------------------------------------------------------------------------------------------------
// Pair counts.

TEST(PairCounting, TheDemosDocstringExample) {
  // clustering_algorithm.py's example: cluster labels [0, 0, 1, 1, 2, 2], true labels [0, 0, 0, 1, 1, 1], histogram
  // [[2, 0], [1, 1], [0, 2]]. Same-truth pairs: 3 + 3 = 6, of which split: truth 0 (clusters 0, 0, 1) 2 pairs,
  // truth 1 (1, 2, 2) 2 pairs -> 4 / 6. Different-truth pairs: 15 - 6 = 9, of which joined: the pair in cluster 1 ->
  // 1 / 9. The demo's own formulas: true_nonmatch = ((3^2 + 3^2) - (4 + 1 + 1 + 4)) / 2 = 4; false_match =
  // ((2^2 + 2^2 + 2^2) - 10) / 2 = 1.
  const Labels truth{0, 0, 0, 1, 1, 1}, pred{0, 0, 1, 1, 2, 2};
  EXPECT_DOUBLE_EQ(true_non_match_fraction(truth, pred), 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(false_match_fraction(truth, pred), 1.0 / 9.0);
  // A perfect clustering, under any renaming of the clusters: both 0.
  EXPECT_EQ(true_non_match_fraction(truth, Labels{5, 5, 5, 2, 2, 2}), 0.0);
  EXPECT_EQ(false_match_fraction(truth, Labels{5, 5, 5, 2, 2, 2}), 0.0);
  // Everything in one cluster: no same-truth pair split, every different-truth pair joined.
  EXPECT_EQ(true_non_match_fraction(truth, Labels(6, 0)), 0.0);
  EXPECT_EQ(false_match_fraction(truth, Labels(6, 0)), 1.0);
}

TEST(PairCounting, UndefinedWithoutThePairsItCounts) {
  // One true label: no pair with different labels (the demo divides 0 by 0). Unique true labels: no same pair.
  EXPECT_TRUE(std::isnan(false_match_fraction(Labels{1, 1, 1}, Labels{0, 1, 2})));
  EXPECT_EQ(true_non_match_fraction(Labels{1, 1, 1}, Labels{0, 1, 2}), 1.0);
  EXPECT_TRUE(std::isnan(true_non_match_fraction(Labels{0, 1, 2}, Labels{0, 0, 0})));
  EXPECT_EQ(false_match_fraction(Labels{0, 1, 2}, Labels{0, 0, 0}), 1.0);
  EXPECT_THROW(false_match_fraction(Labels{0, 1}, Labels{0}), std::invalid_argument);
  EXPECT_THROW(true_non_match_fraction(Labels{}, Labels{}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------------
// Validity indices, by hand: 1-D points {0, 2} (label 0) and {10, 12} (label 1); means 1 and 11, overall mean 6.

TEST(ValidityIndices, HandComputed) {
  const std::vector<double> x{0, 2, 10, 12};
  const Labels labels{0, 0, 1, 1};
  // Davies-Bouldin: s = (1, 1), centroid distance 10: mean of (1 + 1) / 10 over both clusters.
  EXPECT_DOUBLE_EQ(davies_bouldin_score(x.data(), 4, 1, labels), 0.2);
  // Calinski-Harabasz: between 2 x 25 + 2 x 25 = 100 over L - 1 = 1; within 4 x 1 over n - L = 2: 50.
  EXPECT_DOUBLE_EQ(calinski_harabasz_score(x.data(), 4, 1, labels), 50.0);
  // Dunn: closest points of different clusters 2 and 10 (8), widest cluster 2: 4.
  EXPECT_DOUBLE_EQ(dunn_index(x.data(), 4, 1, labels), 4.0);
  // BCSS of centres (1, 11) with two points each: 2 x 5^2 + 2 x 5^2; of centres (0, 6) labelled (0, 0, 1, 1): the
  // released centres, not the clusters' means: 2 x 36 + 2 x 0.
  EXPECT_DOUBLE_EQ(between_cluster_ss(x.data(), 4, 1, rows_of(2, 1, {1, 11}), labels), 100.0);
  EXPECT_DOUBLE_EQ(between_cluster_ss(x.data(), 4, 1, rows_of(2, 1, {0, 6}), labels), 72.0);
  // An empty centre adds 0.
  EXPECT_DOUBLE_EQ(between_cluster_ss(x.data(), 4, 1, rows_of(3, 1, {1, 11, 100}), labels), 100.0);
  // Labels are any int32 values, noise (-1) one more cluster, in ascending order (LabelEncoder).
  EXPECT_DOUBLE_EQ(davies_bouldin_score(x.data(), 4, 1, Labels{-1, -1, 7, 7}), 0.2);
}

TEST(ValidityIndices, DegenerateCasesAsScikitLearn) {
  const std::vector<double> x{0, 2, 10, 12};
  // One cluster, or as many clusters as points: undefined (scikit-learn raises; FastLloyd writes its defaults).
  EXPECT_TRUE(std::isnan(davies_bouldin_score(x.data(), 4, 1, Labels{0, 0, 0, 0})));
  EXPECT_TRUE(std::isnan(calinski_harabasz_score(x.data(), 4, 1, Labels{0, 0, 0, 0})));
  EXPECT_TRUE(std::isnan(dunn_index(x.data(), 4, 1, Labels{0, 0, 0, 0})));
  EXPECT_TRUE(std::isnan(davies_bouldin_score(x.data(), 4, 1, Labels{0, 1, 2, 3})));
  EXPECT_TRUE(std::isnan(calinski_harabasz_score(x.data(), 4, 1, Labels{0, 1, 2, 3})));
  // Points that coincide within their clusters: Davies-Bouldin 0 (np.allclose(intra, 0)), Calinski-Harabasz 1 (no
  // within-cluster spread), Dunn undefined (no within-cluster distance).
  const std::vector<double> twins{3, 3, 8, 8};
  EXPECT_EQ(davies_bouldin_score(twins.data(), 4, 1, Labels{0, 0, 1, 1}), 0.0);
  EXPECT_EQ(calinski_harabasz_score(twins.data(), 4, 1, Labels{0, 0, 1, 1}), 1.0);
  EXPECT_TRUE(std::isnan(dunn_index(twins.data(), 4, 1, Labels{0, 0, 1, 1})));
  EXPECT_THROW(davies_bouldin_score(x.data(), 4, 1, Labels{0, 1}), std::invalid_argument);
  EXPECT_THROW(between_cluster_ss(x.data(), 4, 1, rows_of(2, 1, {1, 11}), Labels{0, 0, 1, 2}), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------------
// Agreement with scikit-learn and scipy (tests/metrics/sklearn_paper_measures_reference.py). The points as in
// kmeans_measures_test.cpp: numpy.random.RandomState(seed); centres = uniform(-spread, spread, (k, d));
// X = centres[i % k] + standard_normal((n, d)); truth i % k; the "released" centres are the true centres + 0.3.

struct ReferenceSet {
  std::uint32_t seed;
  std::size_t n, d, k;
  double spread;
  double false_match, true_non_match, davies_bouldin, calinski_harabasz, dunn, bcss, nicv;
};

const std::vector<ReferenceSet>& reference_sets() {
  static const std::vector<ReferenceSet> sets = {
      {0, 300, 2, 3, 10.0, 0.10713333333333333, 0.19616161616161615, 0.7041002276469822, 376.2876784003474,
       0.05498737717568596, 1328.3641838937142, 1.8964321099759172},
      {1, 400, 5, 4, 3.0, 0.032216666666666664, 0.09575757575757576, 0.9989553248214387, 236.06096420836388,
       0.10445033049704049, 3625.6126828005295, 5.25961170880702},
      {2, 250, 8, 6, 20.0, 0.0, 0.0, 0.2115865902453554, 3787.333508839496, 2.0007595740525015, 148560.8984362974,
       8.540407342389692},
  };
  return sets;
}

struct Drawn {
  Dataset data;
  RowMatrix released;
};

Drawn draw(const ReferenceSet& s) {
  NumpyRandomState rs(s.seed);
  std::vector<double> centres(s.k * s.d), x(s.n * s.d);
  for (double& c : centres) c = rs.uniform(-s.spread, s.spread);
  Labels labels(s.n);
  for (std::size_t i = 0; i < s.n; ++i) {
    labels[i] = static_cast<Label>(i % s.k);
    for (std::size_t j = 0; j < s.d; ++j) x[i * s.d + j] = centres[(i % s.k) * s.d + j] + rs.standard_normal();
  }
  for (double& c : centres) c += 0.3;
  return {dataset_of(s.d, std::move(x), std::move(labels)), rows_of(s.k, s.d, centres)};
}

TEST(SklearnAgreement, PairCountsAndValidityIndicesOfNearestCentreLabels) {
  for (const ReferenceSet& s : reference_sets()) {
    const Drawn t = draw(s);
    const Labels pred = nearest_centres(t.data.coords.data(), s.n, s.d, t.released).labels;
    const double* X = t.data.coords.data();
    EXPECT_NEAR(false_match_fraction(t.data.labels, pred), s.false_match, 1e-15) << "seed " << s.seed;
    EXPECT_NEAR(true_non_match_fraction(t.data.labels, pred), s.true_non_match, 1e-15) << "seed " << s.seed;
    EXPECT_NEAR(davies_bouldin_score(X, s.n, s.d, pred), s.davies_bouldin, 1e-12 * s.davies_bouldin)
        << "seed " << s.seed;
    EXPECT_NEAR(calinski_harabasz_score(X, s.n, s.d, pred), s.calinski_harabasz, 1e-12 * s.calinski_harabasz)
        << "seed " << s.seed;
    EXPECT_NEAR(dunn_index(X, s.n, s.d, pred), s.dunn, 1e-12 * s.dunn) << "seed " << s.seed;
    EXPECT_NEAR(between_cluster_ss(X, s.n, s.d, t.released, pred), s.bcss, 1e-12 * s.bcss) << "seed " << s.seed;
  }
}

TEST(SklearnAgreement, TheMetricsAConfigNames) {
  for (const ReferenceSet& s : reference_sets()) {
    const Drawn t = draw(s);
    EXPECT_NEAR(metric("false_match_fraction", t.data, t.released), s.false_match, 1e-15) << "seed " << s.seed;
    EXPECT_NEAR(metric("true_non_match_fraction", t.data, t.released), s.true_non_match, 1e-15) << "seed " << s.seed;
    EXPECT_NEAR(metric("nicv", t.data, t.released), s.nicv, 1e-12 * s.nicv) << "seed " << s.seed;
    EXPECT_EQ(metric("nicv", t.data, t.released), metric("inertia_per_point", t.data, t.released));
    EXPECT_NEAR(metric("bcss", t.data, t.released), s.bcss, 1e-12 * s.bcss) << "seed " << s.seed;
    EXPECT_NEAR(metric("davies_bouldin", t.data, t.released), s.davies_bouldin, 1e-12 * s.davies_bouldin)
        << "seed " << s.seed;
    EXPECT_NEAR(metric("calinski_harabasz", t.data, t.released), s.calinski_harabasz, 1e-12 * s.calinski_harabasz)
        << "seed " << s.seed;
    EXPECT_NEAR(metric("dunn", t.data, t.released), s.dunn, 1e-12 * s.dunn) << "seed " << s.seed;
  }
}

// ---------------------------------------------------------------------------------------------------
// As metrics: what they read and when they apply.

TEST(PaperMeasures, RegisteredWithWhatTheyRead) {
  for (const char* name : {"false_match_fraction", "true_non_match_fraction"}) {
    EXPECT_TRUE(measure(name).needs_truth) << name;
    EXPECT_FALSE(measure(name).needs_centres) << name;
  }
  for (const char* name : {"nicv", "bcss"}) {
    EXPECT_TRUE(measure(name).needs_centres) << name;
    EXPECT_FALSE(measure(name).needs_truth) << name;
  }
  for (const char* name : {"davies_bouldin", "calinski_harabasz", "dunn"}) {
    EXPECT_FALSE(measure(name).needs_truth) << name;
    EXPECT_FALSE(measure(name).needs_centres) << name;
  }
  for (const auto& m : paper_measures()) EXPECT_FALSE(m.by_default) << m.name;
}

TEST(PaperMeasures, MethodLabelsWithoutCentresAndNoCentresReleased) {
  const Dataset data = dataset_of(1, {0, 2, 10, 12}, Labels{0, 0, 1, 1});
  // A labelling method (no centres): its labels; one point relabelled costs a split pair and a joined pair.
  EXPECT_DOUBLE_EQ(metric("davies_bouldin", data, RowMatrix(), Labels{0, 0, 1, 1}), 0.2);
  EXPECT_DOUBLE_EQ(metric("true_non_match_fraction", data, RowMatrix(), Labels{0, 1, 1, 1}), 0.5);
  EXPECT_DOUBLE_EQ(metric("false_match_fraction", data, RowMatrix(), Labels{0, 1, 1, 1}), 0.5);
  // A centre method that released no centres: the centre measures are undefined.
  MethodResult none;
  MethodInfo method;
  method.name = "some_method";
  method.releases_centres = true;
  ParamSet params;
  std::map<std::string, std::any> cache;
  const MetricInput in{data, none, params, method, 0, cache, nullptr};
  EXPECT_TRUE(std::isnan(measure("nicv").compute(in)));
  EXPECT_TRUE(std::isnan(measure("bcss").compute(in)));
  // No ground truth: the pair counts say so.
  const Dataset unlabelled = dataset_of(1, {0, 2, 10, 12});
  EXPECT_THROW(metric("false_match_fraction", unlabelled, rows_of(2, 1, {1, 11})), std::invalid_argument);
}

TEST(ValidityIndices, DunnIsTheSameOnOneAndFourThreads) {
  const Drawn t = draw(reference_sets()[1]);
  const Labels pred = nearest_centres(t.data.coords.data(), t.data.n, t.data.d, t.released).labels;
  const int before = omp_get_max_threads();
  omp_set_num_threads(1);
  const double one = dunn_index(t.data.coords.data(), t.data.n, t.data.d, pred);
  omp_set_num_threads(4);
  const double four = dunn_index(t.data.coords.data(), t.data.n, t.data.d, pred);
  omp_set_num_threads(before);
  EXPECT_EQ(one, four);
}

}  // namespace
}  // namespace dpclust::paper_measures_test
