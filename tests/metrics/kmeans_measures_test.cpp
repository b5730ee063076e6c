// The k-means measures: hand-computed cases of each, agreement with scikit-learn on random sets, the
// reference run computed once per dataset and k, and results that do not depend on the thread count.
#include "metrics/kmeans_measures.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <any>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "cluster/kmeans/kmeans.hpp"
#include "cluster/kmeans/kmeans_reference.hpp"
#include "core/numpy_random.hpp"
#include "core/rng.hpp"
#include "metrics/clustering_accuracy.hpp"
#include "metrics/nearest_centre.hpp"
#include "metrics/silhouette.hpp"

namespace dpclust {
namespace {

const MetricInfo& measure(const std::string& name) {
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

// One trial's metric input; `centre_method` declares releases_centres.
struct Trial {
  const Dataset& data;
  MethodResult result;
  ParamSet params;
  MethodInfo method;
  std::map<std::string, std::any> cache;
  Trial(const Dataset& d, RowMatrix centres, Labels labels = {}) : data(d) {
    result.centres = std::move(centres);
    result.labels = labels.empty() ? Labels(d.n, 0) : std::move(labels);
    method.name = "some_method";
    method.releases_centres = true;
  }
  double operator()(const std::string& name, DatasetCache* dataset_cache = nullptr) {
    const MetricInput in{data, result, params, method, 0, cache, dataset_cache};
    return measure(name).compute(in);
  }
};

// ---------------------------------------------------------------------------------------------------
// Hand-computed cases.

TEST(NearestCentres, TinyCaseAndTies) {
  // (0,0), (2,0) -> centre (1,0), squared distances 1, 1; (10,0), (10,4) -> (10,2), 4, 4; cost 10.
  const std::vector<double> x{0, 0, 2, 0, 10, 0, 10, 4};
  const NearestCentres nc = nearest_centres(x.data(), 4, 2, rows_of(2, 2, {1, 0, 10, 2}));
  EXPECT_EQ(nc.labels, (Labels{0, 0, 1, 1}));
  EXPECT_EQ(nc.distance, (std::vector<double>{1, 1, 4, 4}));
  EXPECT_EQ(nc.cost, 10.0);
  // (5,0) is as far from (0,0) as from (10,0): the lower index wins, as numpy's argmin.
  const std::vector<double> mid{5, 0};
  EXPECT_EQ(nearest_centres(mid.data(), 1, 2, rows_of(2, 2, {10, 0, 0, 0})).labels, (Labels{0}));
  EXPECT_EQ(nearest_centres(mid.data(), 1, 2, rows_of(2, 2, {0, 0, 10, 0})).labels, (Labels{0}));
  EXPECT_THROW(nearest_centres(x.data(), 4, 2, RowMatrix(0, 2)), std::invalid_argument);
  EXPECT_THROW(nearest_centres(x.data(), 4, 2, rows_of(1, 3, {0, 0, 0})), std::invalid_argument);
}

TEST(NearestCentres, CostIsExactFarFromTheOrigin) {
  // Points 1e8 from the origin at distance 2^-10 of their centre: ||x||^2 - 2 x.c + ||c||^2 would lose every
  // digit (2e16 against 1e-6); the direct squared distance is exact here (2 * 2^-20).
  const double off = std::ldexp(1.0, -10);
  const std::vector<double> x{1e8 + off, 1e8, 1e8 - off, 1e8};
  const NearestCentres nc = nearest_centres(x.data(), 2, 2, rows_of(2, 2, {1e8, 1e8, -1e8, -1e8}));
  EXPECT_EQ(nc.labels, (Labels{0, 0}));
  EXPECT_EQ(nc.cost, std::ldexp(1.0, -19));
}

TEST(NearestCentres, TheExhaustiveSearchDoubleForDouble) {
  // Integer points and centres (many exact ties) and Gaussian ones: labels, distances and cost equal the plain
  // loop's (first smallest squared distance; the cost summed in point order).
  for (bool lattice : {true, false}) {
    Rng rng(lattice ? 1 : 2);
    const std::size_t n = 3000, d = 12, k = 20;
    std::vector<double> x(n * d);
    RowMatrix c(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
    for (double& v : x) v = lattice ? static_cast<double>(rng.below(3)) : rng.normal();
    for (Eigen::Index i = 0; i < c.size(); ++i)
      c.data()[i] = lattice ? static_cast<double>(rng.below(3)) : rng.normal();
    const NearestCentres nc = nearest_centres(x.data(), n, d, c);
    double cost = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double best = 0;
      Label arg = 0;
      for (std::size_t j = 0; j < k; ++j) {
        double s = 0;
        for (std::size_t t = 0; t < d; ++t)
          s += (x[i * d + t] - c.data()[j * d + t]) * (x[i * d + t] - c.data()[j * d + t]);
        if (j == 0 || s < best) {
          best = s;
          arg = static_cast<Label>(j);
        }
      }
      ASSERT_EQ(nc.labels[i], arg) << i;
      ASSERT_EQ(nc.distance[i], best) << i;
      cost += best;
    }
    EXPECT_EQ(nc.cost, cost);
  }
}

TEST(MeanNearestDistance, DpmDefinition) {
  // From {(0,0), (3,5)} to {(0,1), (7,8)}: nearest 1 and sqrt(9 + 16) = 5 -> mean 3. Not symmetric: from
  // {(0,1), (7,8)} the distances are 1 and 5 as well, but from {(0,1)} alone it is 1.
  const RowMatrix a = rows_of(2, 2, {0, 0, 3, 5}), b = rows_of(2, 2, {0, 1, 7, 8});
  EXPECT_DOUBLE_EQ(mean_nearest_distance(a, b), 3.0);
  EXPECT_DOUBLE_EQ(mean_nearest_distance(rows_of(1, 2, {0, 1}), a), 1.0);
  EXPECT_DOUBLE_EQ(mean_nearest_distance(a, rows_of(1, 2, {0, 1})), (1.0 + std::sqrt(9.0 + 16.0)) / 2.0);
}

TEST(Silhouette, HandComputed) {
  // 1-D points 0, 1 | 4, 5: a = 1 for every point; b = 4.5, 3.5, 3.5, 4.5; s = 7/9, 5/7, 5/7, 7/9.
  const std::vector<double> x{0, 1, 4, 5};
  const double want = (7.0 / 9.0 + 5.0 / 7.0) / 2.0;
  EXPECT_NEAR(silhouette_score(x.data(), 4, 1, Labels{0, 0, 1, 1}), want, 1e-15);
  // Noise (-1) is one more label, as scikit-learn's LabelEncoder treats it.
  EXPECT_NEAR(silhouette_score(x.data(), 4, 1, Labels{-1, -1, 1, 1}), want, 1e-15);
  // A point alone in its cluster scores 0: 0, 1 | 10 -> s = 9/10, 8/9, 0.
  const std::vector<double> y{0, 1, 10};
  EXPECT_NEAR(silhouette_score(y.data(), 3, 1, Labels{0, 0, 1}), (0.9 + 8.0 / 9.0) / 3.0, 1e-15);
  // Undefined (scikit-learn raises) with one label, or as many labels as points: NaN.
  EXPECT_TRUE(std::isnan(silhouette_score(x.data(), 4, 1, Labels{3, 3, 3, 3})));
  EXPECT_TRUE(std::isnan(silhouette_score(x.data(), 4, 1, Labels{0, 1, 2, 3})));
  // Duplicate points in two clusters: a = b = 0 -> 0 / 0 -> 0 (nan_to_num).
  const std::vector<double> same{2, 2, 2, 2};
  EXPECT_EQ(silhouette_score(same.data(), 4, 1, Labels{0, 0, 1, 1}), 0.0);
  EXPECT_THROW(silhouette_score(x.data(), 4, 1, Labels{0, 1}), std::invalid_argument);
}

TEST(Silhouette, SampleIsNumpysPermutationPrefix) {
  // numpy: np.random.RandomState(7).permutation(10)[:4]; checked against NumpyRandomState itself, which
  // core's tests check against numpy.
  NumpyRandomState rs(7);
  const std::vector<std::int64_t> perm = rs.permutation(10);
  const std::vector<std::size_t> sample = silhouette_sample(10, 4, 7);
  ASSERT_EQ(sample.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(sample[i], static_cast<std::size_t>(perm[i]));
  EXPECT_EQ(silhouette_sample(3, 10, 7), (std::vector<std::size_t>{0, 1, 2}));  // no sampling below the size
}

TEST(ClusteringAccuracy, HungarianAgainstPurity) {
  // More clusters than classes: truth 0 0 0 0 1 1, clusters {0,1} {2,3} {4,5}. Hungarian matches two
  // clusters (2 + 2 points): 4/6. Purity lets every cluster take its class: 6/6.
  const Labels truth{0, 0, 0, 0, 1, 1}, pred{0, 0, 1, 1, 2, 2};
  EXPECT_DOUBLE_EQ(clustering_accuracy(truth, pred), 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(purity(truth, pred), 1.0);
  // Relabelling the clusters changes nothing; the matching finds the permutation.
  EXPECT_DOUBLE_EQ(clustering_accuracy(Labels{0, 0, 1, 1, 2, 2}, Labels{7, 7, 3, 3, 5, 5}), 1.0);
  // Hungarian is not greedy: cluster 0 holds 3 of class 0 and 2 of class 1, cluster 1 holds 2 of class 0.
  // Greedy (cluster 0 -> class 0) gets 3 + 0; the optimum is 0 -> 1, 1 -> 0: 2 + 2 = 4 of 7.
  const Labels t2{0, 0, 0, 1, 1, 0, 0}, p2{0, 0, 0, 0, 0, 1, 1};
  EXPECT_DOUBLE_EQ(clustering_accuracy(t2, p2), 4.0 / 7.0);
  EXPECT_DOUBLE_EQ(purity(t2, p2), 5.0 / 7.0);
}

TEST(ClusteringAccuracy, NoiseIsNeverMatched) {
  // Without the noise rule the two noise points (class 0) would match class 0 and give 6/6.
  const Labels truth{0, 0, 0, 0, 1, 1}, pred{-1, -1, 0, 0, 1, 1};
  EXPECT_DOUBLE_EQ(clustering_accuracy(truth, pred), 4.0 / 6.0);
  EXPECT_DOUBLE_EQ(purity(truth, pred), 4.0 / 6.0);
  EXPECT_EQ(clustering_accuracy(truth, Labels(6, -1)), 0.0);
  // A true label -1 is a class like any other.
  EXPECT_DOUBLE_EQ(clustering_accuracy(Labels{-1, -1, 2, 2}, Labels{5, 5, 6, 6}), 1.0);
  EXPECT_THROW(clustering_accuracy(truth, Labels{0}), std::invalid_argument);
  EXPECT_THROW(purity(Labels{}, Labels{}), std::invalid_argument);
}

TEST(KMeansMeasures, RegisteredWithWhatTheyRead) {
  std::map<std::string, std::pair<bool, bool>> read;  // name -> (needs_truth, needs_centres)
  for (const auto& m : kmeans_measures()) {
    read[m.name] = {m.needs_truth, m.needs_centres};
    EXPECT_TRUE(m.methods.empty()) << m.name;
  }
  EXPECT_EQ(read, (std::map<std::string, std::pair<bool, bool>>{{"inertia", {false, true}},
                                                                {"inertia_per_point", {false, true}},
                                                                {"normalized_kmeans_cost", {false, true}},
                                                                {"centre_distance", {false, true}},
                                                                {"silhouette", {false, false}},
                                                                {"accuracy", {true, false}},
                                                                {"purity", {true, false}}}));
  MethodInfo with, without;
  with.name = without.name = "m";
  with.releases_centres = true;
  EXPECT_TRUE(measure("inertia").applies_to(with));
  EXPECT_FALSE(measure("inertia").applies_to(without));
  EXPECT_TRUE(measure("silhouette").applies_to(without));
}

TEST(KMeansMeasures, HandComputedThroughTheMetrics) {
  // Two pairs on a line, true classes by pair: 0, 2 | 10, 12. Released centres (1, 0) and (11, 0) are the
  // k-means optimum (cost 4); centres (0, 0) and (12, 0) cost 2 * 4 = 8.
  const Dataset data = dataset_of(2, {0, 0, 2, 0, 10, 0, 12, 0}, Labels{0, 0, 1, 1});
  Trial best(data, rows_of(2, 2, {1, 0, 11, 0}));
  best.params.set("k", std::int64_t{2});
  EXPECT_EQ(best("inertia"), 4.0);
  EXPECT_EQ(best("inertia_per_point"), 1.0);
  EXPECT_DOUBLE_EQ(best("normalized_kmeans_cost"), 1.0);
  EXPECT_NEAR(best("centre_distance"), 0.0, 1e-15);
  EXPECT_EQ(best("accuracy"), 1.0);
  EXPECT_EQ(best("purity"), 1.0);
  // Silhouette of {0, 2 | 10, 12}: a = 2 everywhere; b = 11, 9, 9, 11 (mean distance to the other pair):
  // s = 9/11, 7/9, 7/9, 9/11.
  EXPECT_NEAR(best("silhouette"), (9.0 / 11.0 + 7.0 / 9.0) / 2.0, 1e-15);

  Trial worse(data, rows_of(2, 2, {12, 0, 0, 0}));
  worse.params.set("k", std::int64_t{2});
  EXPECT_EQ(worse("inertia"), 8.0);
  EXPECT_DOUBLE_EQ(worse("normalized_kmeans_cost"), 2.0);
  // Each released centre is 1 from the nearest optimum centre; the domain is the bounding box [0, 12] x [0, 0],
  // diagonal 12: 1 / 12.
  EXPECT_DOUBLE_EQ(worse("centre_distance"), 1.0 / 12.0);
  // With public bounds [-10, 20] x [0, 40]: diagonal 50.
  Dataset bounded = data;
  bounded.bounds.lo = {-10, 0};
  bounded.bounds.hi = {20, 40};
  Trial in_box(bounded, rows_of(2, 2, {12, 0, 0, 0}));
  in_box.params.set("k", std::int64_t{2});
  EXPECT_DOUBLE_EQ(in_box("centre_distance"), 1.0 / 50.0);

  // The measures label by the nearest released centre, not by the method's labels.
  Trial relabelled(data, rows_of(2, 2, {1, 0, 11, 0}), Labels{0, 1, 0, 1});
  EXPECT_EQ(relabelled("accuracy"), 1.0);
  // A method without centres: its own labels.
  Trial plain(data, RowMatrix(0, 2), Labels{0, 1, 0, 1});
  EXPECT_EQ(plain("accuracy"), 0.5);
  EXPECT_TRUE(std::isnan(plain("inertia")));
  EXPECT_TRUE(std::isnan(plain("normalized_kmeans_cost")));
  EXPECT_TRUE(std::isnan(plain("centre_distance")));
}

TEST(KMeansMeasures, ReferenceKWithoutAKParameter) {
  // No `k` parameter: the reference has as many centres as there are true classes (2 here), so three
  // released centres can beat it (cost 2 against the 2-means optimum 4).
  const Dataset data = dataset_of(1, {0, 2, 10, 12}, Labels{0, 0, 1, 1});
  Trial three(data, rows_of(3, 1, {1, 10, 12}));
  EXPECT_DOUBLE_EQ(three("normalized_kmeans_cost"), 0.5);
  // Unlabelled data: as many as released (3): the 3-means optimum of {0, 2, 10, 12} is 2.
  const Dataset unlabelled = dataset_of(1, {0, 2, 10, 12});
  Trial same(unlabelled, rows_of(3, 1, {1, 10, 12}));
  EXPECT_DOUBLE_EQ(same("normalized_kmeans_cost"), 1.0);
  // A reference k above n is undefined.
  Trial big(data, rows_of(1, 1, {5}));
  big.params.set("k", std::int64_t{9});
  EXPECT_TRUE(std::isnan(big("normalized_kmeans_cost")));
}

TEST(KMeansMeasures, CentresOfTheWrongDimensionAreAnError) {
  const Dataset data = dataset_of(2, {0, 0, 1, 1});
  Trial wrong(data, rows_of(1, 3, {0, 0, 0}));
  EXPECT_THROW(wrong("inertia"), std::logic_error);
}

// ---------------------------------------------------------------------------------------------------
// scikit-learn 1.2.1 (Debian 12 python3-sklearn): numbers printed by
//   /usr/bin/python3 tests/metrics/sklearn_measures_reference.py
// The points: numpy.random.RandomState(seed); centres = uniform(-spread, spread, (k, d)); X = centres[i % k] +
// standard_normal((n, d)); labels i % k (and -1 for every 7th point in the noise case).

struct SklearnSet {
  std::uint32_t seed;
  std::size_t n, d, k;
  double spread;
  double silhouette, silhouette_noise_label, silhouette_sample_100_seed_7, kmeans_inertia;
  std::vector<double> kmeans_centres;
};

const std::vector<SklearnSet>& sklearn_sets() {
  static const std::vector<SklearnSet> sets = {
      {0,
       300,
       2,
       3,
       10.0,
       0.4281654146106735,
       0.27733547199301045,
       0.41692073233167554,
       507.07064023628504,
       {1.8076514495742648, 0.9177881498525937, -1.6611464657477062, 2.8633855959300845, 1.0232476263399772,
        4.496229110589759}},
      {1,
       400,
       5,
       4,
       3.0,
       0.354365055693375,
       0.24126778794163947,
       0.35343716070397074,
       1948.2438206975394,
       {1.0573781685097137,  -0.3920271978913428, 0.4334039227842541,  -1.9750830775168862, -1.8307957680673974,
        -2.3052286775082047, -1.7844690916314752, -0.8996298082421986, -0.6730247405040601, 0.33695371939849816,
        -0.619941865843637,  1.128403363712235,   -1.7039522523159651, 2.436276978799305,   -2.7098519540757713,
        -0.498030142793234,  1.153253845079281,   -3.0888437461854146, -1.3077033736168213, -2.04617986539741}},
      {2,
       250,
       8,
       6,
       20.0,
       0.8501916698377556,
       0.6001521217124103,
       0.8526020597574504,
       1887.4190954611022,
       {5.594809339527,      -0.8831400906826246, 0.45023474102204375,  -4.708963494593045,  11.460057478709084,
        3.032388611449324,   -13.272384912810386, 7.983241949044136,    -14.80796407564769,  3.721658484939182,
        -10.728997062754706, -15.707473169550163, -11.110111883857172,  -5.880118529309339,  -1.2848223722062686,
        -12.035240695663584, 14.081382399521011,  -0.12745657211074057, 13.81966145089035,   -16.724910036076324,
        0.22415402722806954, -17.312132234553175, -2.969329045865172,   -16.371289580289403, -8.083276923367187,
        -9.285357006731262,  5.024287322334972,   0.9456331664119135,   -14.423191694337447, 0.6296191340265302,
        -12.708710175554703, 11.26706047307285,   18.69078556029472,    -0.2160227933609722, 15.343548449590413,
        -6.476628721152504,  2.5214466058799765,  -2.9477334231479086,  -2.362530476913493,  10.963739178995834,
        -2.386778089234432,  -19.010716607625323, 2.071229514262679,    -2.8324031873765403, -3.0751511981357584,
        -7.025515627419194,  -11.765339237653162, 4.870136628652967}},
  };
  return sets;
}

Dataset sklearn_points(const SklearnSet& s) {
  NumpyRandomState rs(s.seed);
  std::vector<double> centres(s.k * s.d), x(s.n * s.d);
  for (double& c : centres) c = rs.uniform(-s.spread, s.spread);
  Labels labels(s.n);
  for (std::size_t i = 0; i < s.n; ++i) {
    labels[i] = static_cast<Label>(i % s.k);
    for (std::size_t j = 0; j < s.d; ++j) x[i * s.d + j] = centres[(i % s.k) * s.d + j] + rs.standard_normal();
  }
  return dataset_of(s.d, std::move(x), std::move(labels));
}

TEST(SklearnAgreement, SilhouetteScore) {
  for (const SklearnSet& s : sklearn_sets()) {
    const Dataset data = sklearn_points(s);
    EXPECT_NEAR(silhouette_score(data.coords.data(), s.n, s.d, data.labels), s.silhouette, 1e-9) << "seed " << s.seed;
    Labels noisy = data.labels;
    for (std::size_t i = 0; i < s.n; i += 7) noisy[i] = kNoise;
    EXPECT_NEAR(silhouette_score(data.coords.data(), s.n, s.d, noisy), s.silhouette_noise_label, 1e-9)
        << "seed " << s.seed;
    // silhouette_score(X, labels, sample_size=100, random_state=7): the same sample, the same score.
    EXPECT_NEAR(silhouette_score(data.coords.data(), s.n, s.d, data.labels, silhouette_sample(s.n, 100, 7)),
                s.silhouette_sample_100_seed_7, 1e-9)
        << "seed " << s.seed;
  }
}

TEST(SklearnAgreement, InertiaOfKMeansCentres) {
  for (const SklearnSet& s : sklearn_sets()) {
    const Dataset data = sklearn_points(s);
    const RowMatrix centres = rows_of(s.k, s.d, s.kmeans_centres);
    const NearestCentres nc = nearest_centres(data.coords.data(), s.n, s.d, centres);
    EXPECT_NEAR(nc.cost, s.kmeans_inertia, 1e-9 * s.kmeans_inertia) << "seed " << s.seed;
    // On the well-separated sets the reference run (best of 10 k-means++ restarts, its own seeds) reaches
    // scikit-learn's n_init = 10 optimum. (On the overlapping set, seed 1, the two reach different local
    // optima: 1948.33 here against 1948.24.)
    if (s.spread < 10) continue;
    const KMeansReference ref = kmeans_reference(data.coords.data(), s.n, s.d, s.k, 12345);
    EXPECT_NEAR(ref.best_cost(), s.kmeans_inertia, 1e-9 * s.kmeans_inertia) << "seed " << s.seed;
  }
}

// ---------------------------------------------------------------------------------------------------
// The reference run: a function of the data and k, computed once per dataset and k.

TEST(KMeansReference, SeedFromTheDataAndRestartsAsDocumented) {
  const Dataset data = sklearn_points(sklearn_sets()[1]);
  const std::uint64_t fp = coordinates_fingerprint(data.coords.data(), data.n, data.d);
  std::vector<double> moved = data.coords;
  moved[17] = std::nextafter(moved[17], 1e300);
  EXPECT_NE(coordinates_fingerprint(moved.data(), data.n, data.d), fp);  // one ulp of one coordinate
  EXPECT_NE(reference_seed(fp, 4), reference_seed(fp, 5));
  const KMeansReference ref = kmeans_reference(data.coords.data(), data.n, data.d, 4, reference_seed(fp, 4));
  ASSERT_EQ(ref.costs.size(), static_cast<std::size_t>(kReferenceRestarts));
  ASSERT_EQ(ref.centres.size(), static_cast<std::size_t>(kReferenceRestarts));
  // Restart r is plain k-means (one k-means++ seeding, sklearn's defaults) from Rng(splitmix64(seed + r)).
  for (std::int64_t r = 0; r < kReferenceRestarts; ++r) {
    Rng rng(splitmix64(ref.seed + static_cast<std::uint64_t>(r)));
    const KMeansResult run = kmeans(data.coords.data(), data.n, data.d, 4, KMeansOptions{}, rng);
    EXPECT_EQ(run.inertia, ref.costs[static_cast<std::size_t>(r)]) << r;
    EXPECT_TRUE(run.centers == ref.centres[static_cast<std::size_t>(r)]) << r;
    EXPECT_LE(ref.best_cost(), run.inertia);
  }
}

TEST(KMeansReference, ComputedOnceAcrossTrialsAndCells) {
  const Dataset data = sklearn_points(sklearn_sets()[0]);
  DatasetCache cache;
  // Twenty trials with different released centres (the first k points shifted by the trial number), in
  // parallel as the runner runs them, all with k = 3.
  std::vector<double> with_cache(20), without_cache(20);
#pragma omp parallel for schedule(dynamic, 1) num_threads(4)
  for (int t = 0; t < 20; ++t) {
    RowMatrix centres = rows_of(3, 2, std::vector<double>(data.coords.begin(), data.coords.begin() + 6));
    centres.array() += 0.1 * t;
    Trial a(data, centres), b(data, centres);
    a.params.set("k", std::int64_t{3});
    b.params.set("k", std::int64_t{3});
    with_cache[static_cast<std::size_t>(t)] = a("normalized_kmeans_cost", &cache);
    without_cache[static_cast<std::size_t>(t)] = b("normalized_kmeans_cost");
  }
  // The same doubles whichever trial computed the reference, with or without the cache.
  EXPECT_EQ(with_cache, without_cache);
  // One fingerprint and one reference in the cache: the reference was computed once (a second
  // computation would have to come from a new key).
  EXPECT_EQ(cache.size(), 2u);
  bool recomputed = false;
  const auto ref = cache.get<KMeansReference>("measures.kmeans_reference|k=3|restarts=10", [&] {
    recomputed = true;
    return KMeansReference{};
  });
  EXPECT_FALSE(recomputed);
  EXPECT_EQ(ref->k, 3u);
  // centre_distance reads the same reference.
  Trial c(data, rows_of(3, 2, std::vector<double>(data.coords.begin(), data.coords.begin() + 6)));
  c.params.set("k", std::int64_t{3});
  c("centre_distance", &cache);
  EXPECT_EQ(cache.size(), 2u);
  // The silhouette on all 300 points adds their distances, once whatever the labels (no sample at n = 300).
  c("silhouette", &cache);
  EXPECT_EQ(cache.size(), 3u);
  c.cache.clear();
  c("silhouette", &cache);
  EXPECT_EQ(cache.size(), 3u);
  // Another k is another reference.
  c.params.set("k", std::int64_t{4});
  c.cache.clear();
  c("normalized_kmeans_cost", &cache);
  EXPECT_EQ(cache.size(), 4u);
}

// ---------------------------------------------------------------------------------------------------
// Thread-count independence: the parallel loops each compute whole entries, sums run in a fixed order.

TEST(KMeansMeasures, SameDoublesOnOneAndFourThreads) {
  SklearnSet big{9, 20000, 16, 16, 5.0, 0, 0, 0, 0, {}};
  const Dataset data = sklearn_points(big);
  RowMatrix centres(16, 16);
  Rng rng(3);
  for (Eigen::Index i = 0; i < centres.size(); ++i) centres.data()[i] = rng.uniform(-5, 5);
  const std::vector<std::size_t> sample = silhouette_sample(data.n, 3000, 11);
  auto compute = [&](int threads) {
    omp_set_num_threads(threads);
    const NearestCentres nc = nearest_centres(data.coords.data(), data.n, data.d, centres);
    const double sil = silhouette_score(data.coords.data(), data.n, data.d, nc.labels, sample);
    const KMeansReference ref = kmeans_reference(data.coords.data(), data.n, data.d, 16, 77, 2);
    return std::make_tuple(nc.labels, nc.cost, sil, ref.costs, ref.centres[ref.best]);
  };
  const int before = omp_get_max_threads();
  const auto one = compute(1), four = compute(4);
  omp_set_num_threads(before);
  EXPECT_EQ(std::get<0>(one), std::get<0>(four));
  EXPECT_EQ(std::get<1>(one), std::get<1>(four));
  EXPECT_EQ(std::get<2>(one), std::get<2>(four));
  EXPECT_EQ(std::get<3>(one), std::get<3>(four));
  EXPECT_TRUE(std::get<4>(one) == std::get<4>(four));
}

}  // namespace
}  // namespace dpclust
