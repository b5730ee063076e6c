// EUGkM (engine/eugkm/eugkm.hpp): the grid rule by hand, the ledger, the noiseless synopsis, the scale of
// the noisy counts, accuracy on separated blobs, thread-count determinism, and the refusals.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dpdbscan/dp_kmeans.hpp"
#include "eugkm/eugkm.hpp"
#include "eugkm/register.hpp"

namespace dpclust::eugkm {
namespace eugkm_test {

// Three separated Gaussian blobs in [-10, 10]^2 (sd 0.5) around these centres.
const double kBlobCentres[3][2] = {{-5, -5}, {5, -5}, {0, 5}};

std::vector<double> blobs(std::size_t n, std::uint64_t seed = 3) {
  Rng r(seed);
  std::vector<double> p;
  p.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& c = kBlobCentres[i % 3];
    p.push_back(std::clamp(c[0] + 0.5 * r.normal(), -10.0, 10.0));
    p.push_back(std::clamp(c[1] + 0.5 * r.normal(), -10.0, 10.0));
  }
  return p;
}

const Bounds kBox{{-10, -10}, {10, 10}};

EugkmOptions options(std::size_t k, double epsilon) {
  EugkmOptions o;
  o.k = k;
  o.epsilon = epsilon;
  return o;
}

ParamSet with_defaults(const MethodInfo& m, const std::map<std::string, ParamValue>& set) {
  ParamSet p;
  for (const ParamSpec& s : m.params)
    if (!s.required()) p.set(s.name, s.default_value);
  for (const auto& [k, v] : set) p.set(k, v);
  for (const ParamSpec& s : m.params) EXPECT_EQ(s.check(p.get(s.name)), "") << s.name;
  return p;
}

TEST(EugkmGrid, RuleByHand) {
  // m = floor((N eps / 10)^(2 / (2 + d))), values from a calculator:
  EXPECT_NEAR(grid_rule(10000, 1.0, 2), 31.6227766, 1e-6);  // sqrt(1000): UG's Guideline 1 for d = 2
  EXPECT_EQ(grid_size(10000, 1.0, 2, 3, 10, 0, kDefaultMaxCells).cells_per_dim, 31);
  EXPECT_EQ(grid_size(10000, 1.0, 2, 3, 10, 0, kDefaultMaxCells).cells, 961u);
  EXPECT_NEAR(grid_rule(1000, 0.1, 2), 3.16227766, 1e-7);  // sqrt(10)
  EXPECT_EQ(grid_size(1000, 0.1, 2, 3, 10, 0, kDefaultMaxCells).cells_per_dim, 3);
  EXPECT_NEAR(grid_rule(8000, 1.0, 1), 86.1773876, 1e-6);  // 800^(2/3)
  EXPECT_EQ(grid_size(8000, 1.0, 1, 3, 10, 0, kDefaultMaxCells).cells_per_dim, 86);
  // UCI Letter: N = 20,000, d = 16; 2000^(1/9) = 2.327 -> 2 cells per dimension, 2^16 cells.
  EXPECT_NEAR(grid_rule(20000, 1.0, 16), 2.32691817, 1e-7);
  const GridSize letter = grid_size(20000, 1.0, 16, 26, 10, 0, kDefaultMaxCells);
  EXPECT_EQ(letter.cells_per_dim, 2);
  EXPECT_EQ(letter.cells, 65536u);
  EXPECT_FALSE(letter.raised_for_k);
  // At eps = 0.095 (0.1 less the noisy N's 5%): 190^(1/9) = 1.79 -> 1, raised to 2 so that 26 centres fit.
  const GridSize letter_low = grid_size(20000, 0.095, 16, 26, 10, 0, kDefaultMaxCells);
  EXPECT_NEAR(letter_low.rule, 1.79140938, 1e-7);
  EXPECT_EQ(letter_low.cells_per_dim, 2);
  EXPECT_TRUE(letter_low.raised_for_k);
  // synth_10d: N = 10^5, d = 10: 10^4^(1/6) = 4.64 -> 4, 4^10 = 1,048,576 cells.
  const GridSize synth = grid_size(100000, 1.0, 10, 64, 10, 0, kDefaultMaxCells);
  EXPECT_EQ(synth.cells_per_dim, 4);
  EXPECT_EQ(synth.cells, 1048576u);
  // Tiny N eps: 0.5^(0.4) = 0.758 -> 1 -> raised to 2 (2^3 = 8 >= 5 centres).
  const GridSize tiny = grid_size(50, 0.1, 3, 5, 10, 0, kDefaultMaxCells);
  EXPECT_EQ(tiny.cells_per_dim, 2);
  EXPECT_TRUE(tiny.raised_for_k);
  // The cap: (2e5)^0.4 = 131.95 -> 131, 131^3 = 2.25e6 > 10^6 -> 100 (100^3 = 10^6 exactly).
  const GridSize capped = grid_size(1e6, 2.0, 3, 3, 10, 0, 1000000);
  EXPECT_EQ(capped.cells_per_dim, 100);
  EXPECT_EQ(capped.cells, 1000000u);
  EXPECT_TRUE(capped.capped);
  // The constant theta scales N eps: theta = 5 doubles it.
  EXPECT_NEAR(grid_rule(10000, 1.0, 2, 5.0), std::sqrt(2000.0), 1e-9);
  // A fixed grid is taken as given.
  EXPECT_EQ(grid_size(10000, 1.0, 2, 3, 10, 7, kDefaultMaxCells).cells, 49u);
  EXPECT_EQ(largest_cells_per_dim(3, 1000000), 100);
  EXPECT_EQ(largest_cells_per_dim(3, 999999), 99);
  EXPECT_EQ(grid_cells(2, 70), std::numeric_limits<std::uint64_t>::max());
}

TEST(EugkmGrid, CellsAndCentres) {
  // [-10, 10] in 4 cells per dimension: width 5; x = -10 -> 0, -5 -> 1, 9.99 -> 3, 10 (the upper edge) -> 3.
  const std::vector<double> p = {-10, -10, -5, 0, 9.99, 10, 10, -7.5};
  std::vector<std::uint64_t> cell;
  cell_indices(p.data(), 4, kBox, 4, cell);
  EXPECT_EQ(cell, (std::vector<std::uint64_t>{0, 1 * 4 + 2, 3 * 4 + 3, 3 * 4 + 0}));
  double c[2];
  cell_centre(1 * 4 + 2, kBox, 4, c);
  EXPECT_DOUBLE_EQ(c[0], -2.5);
  EXPECT_DOUBLE_EQ(c[1], 2.5);
  // A constant dimension has one cell and its value as the centre's coordinate.
  const Bounds flat{{-10, 3}, {10, 3}};
  cell_indices(p.data(), 4, flat, 4, cell);
  EXPECT_EQ(cell, (std::vector<std::uint64_t>{0, 1, 3, 3}));
  cell_centre(3, flat, 4, c);
  EXPECT_DOUBLE_EQ(c[0], 7.5);
  EXPECT_DOUBLE_EQ(c[1], 3.0);
}

TEST(Eugkm, LedgerAddsUpToEpsilon) {
  const std::vector<double> p = blobs(1500);
  for (SizeSource source : {SizeSource::noisy, SizeSource::public_n, SizeSource::data}) {
    SCOPED_TRACE(to_string(source));
    EugkmOptions o = options(3, 0.7);
    o.n_source = source;
    o.n_public = 1500;
    BudgetLedger ledger(0.7);
    Rng rng(11);
    const EugkmResult r = eugkm(p.data(), 1500, kBox, o, rng, ledger);
    EXPECT_NO_THROW(ledger.verify());
    EXPECT_NEAR(ledger.spent_epsilon(), 0.7, 1e-12);
    const auto& e = ledger.entries();
    if (source == SizeSource::noisy) {
      ASSERT_EQ(e.size(), 2u);
      EXPECT_NEAR(e[0].epsilon, 0.035, 1e-15);  // 5% for N
      EXPECT_NEAR(e[1].epsilon, 0.665, 1e-15);
      EXPECT_EQ(e[0].mechanism, "discrete_laplace");
      EXPECT_EQ(r.size.value, std::floor(r.size.value));  // an integer: the exact sampler's count
    } else {
      ASSERT_EQ(e.size(), 1u);
      EXPECT_NEAR(e[0].epsilon, 0.7, 1e-15);
      EXPECT_EQ(r.size.value, 1500.0);
    }
    // The true n (n_source: data) moves the grid with certainty at a threshold of n: no finite epsilon bounds
    // the trial, and the ledger's note (the grid size) carries n. A noisy or public N is bounded.
    EXPECT_EQ(ledger.unbounded(), source == SizeSource::data);
    EXPECT_EQ(ledger.data_derived(), source == SizeSource::data);
    EXPECT_EQ(e.back().mechanism, "discrete_laplace");
    EXPECT_EQ(e.back().sensitivity, 1.0);
    EXPECT_EQ(r.centers.rows(), 3);
    EXPECT_EQ(r.labels.size(), 1500u);
    // Every noisy count is an integer (secure sampler).
    for (double v : r.noisy_counts) ASSERT_EQ(v, std::floor(v));
  }
}

// noise_scale 0 (the ledger's testable-noise hook): the synopsis is the true histogram, and the centres are
// exactly the weighted k-means of its occupied cells' centres, drawn from the same generator.
TEST(Eugkm, NoiselessIsTheExactWeightedKmeansOfTheTrueHistogram) {
  const std::vector<double> p = blobs(1200);
  EugkmOptions o = options(3, 1.0);
  o.n_source = SizeSource::public_n;
  o.n_public = 1200;  // N eps / 10 = 120 -> m = floor(sqrt(120)) = 10
  BudgetLedger ledger(1.0);
  ledger.set_noise_scale(0.0);
  Rng rng(5);
  const EugkmResult r = eugkm(p.data(), 1200, kBox, o, rng, ledger);
  ASSERT_EQ(r.grid.cells_per_dim, 10);

  std::vector<std::uint64_t> cell;
  cell_indices(p.data(), 1200, kBox, 10, cell);
  std::vector<double> counts(100, 0.0);
  for (std::uint64_t c : cell) counts[c] += 1;
  EXPECT_EQ(r.noisy_counts, counts);
  std::vector<double> centres, weights;
  for (std::uint64_t c = 0; c < 100; ++c)
    if (counts[c] > 0) {
      double x[2];
      cell_centre(c, kBox, 10, x);
      centres.insert(centres.end(), x, x + 2);
      weights.push_back(counts[c]);
    }
  EXPECT_EQ(r.positive_cells, weights.size());
  Rng expected_rng(5);
  expected_rng.next_u64();  // the word that keys the histogram's cell streams (core/cell_streams.hpp)
  const KMeansResult km = kmeans(centres.data(), weights.size(), 2, 3, o.kmeans, expected_rng, weights.data());
  EXPECT_EQ(r.centers, km.centers);
  EXPECT_EQ(r.synopsis_inertia, km.inertia);
  // And the three centres are the blobs' within the grid's resolution (cells of width 2).
  for (const auto& c : kBlobCentres) {
    double best = 1e300;
    for (Eigen::Index a = 0; a < 3; ++a)
      best = std::min(best, std::hypot(r.centers(a, 0) - c[0], r.centers(a, 1) - c[1]));
    EXPECT_LT(best, 1.0);
  }
}

// The noisy counts' scale: noise = count~ - count over 10^4 cells, discrete Laplace of scale 1 / eps_H. Its
// variance is 2 t / (1 - t)^2, t = e^{-eps_H}; a mechanism with half or twice the noise is far outside the
// tolerance (its variance is a quarter or four times), which the second half checks on noise_scale 0.5.
double noise_variance(double noise_scale, double eps_h, double* mean_abs = nullptr) {
  const std::vector<double> p = blobs(600);
  EugkmOptions o = options(3, eps_h);
  o.n_source = SizeSource::public_n;
  o.n_public = 600;
  o.grid_size = 100;  // 10^4 cells
  BudgetLedger ledger(eps_h);
  ledger.set_noise_scale(noise_scale);
  Rng rng(2024);
  const EugkmResult r = eugkm(p.data(), 600, kBox, o, rng, ledger);
  std::vector<std::uint64_t> cell;
  cell_indices(p.data(), 600, kBox, 100, cell);
  std::vector<double> counts(10000, 0.0);
  for (std::uint64_t c : cell) counts[c] += 1;
  double s = 0, s2 = 0, a = 0;
  for (std::size_t c = 0; c < counts.size(); ++c) {
    const double z = r.noisy_counts[c] - counts[c];
    s += z;
    s2 += z * z;
    a += std::fabs(z);
  }
  const double n = static_cast<double>(counts.size());
  if (mean_abs) *mean_abs = a / n;
  EXPECT_LT(std::fabs(s / n), 0.15);  // mean 0 (sd of the mean: sqrt(7.8 / 10^4) = 0.028)
  return s2 / n;
}

TEST(Eugkm, NoisyCountsHaveTheCalibratedScale) {
  const double eps = 0.5, t = std::exp(-eps);
  const double variance = 2 * t / ((1 - t) * (1 - t));  // 7.834
  const double mean_abs = 2 * t / ((1 - t) * (1 + t));  // E|Z| of the discrete Laplace: 1.925
  double abs_seen = 0;
  const double v = noise_variance(1.0, eps, &abs_seen);
  // 10^4 draws: the variance estimate's sd is about sqrt((kurtosis - 1) / n) = sqrt(5 / 10^4) = 2.2% of it.
  EXPECT_NEAR(v / variance, 1.0, 0.08) << v;
  EXPECT_NEAR(abs_seen / mean_abs, 1.0, 0.05) << abs_seen;
  // An under-noised mechanism (half the scale) fails the same check.
  const double half = noise_variance(0.5, eps);
  EXPECT_GT(std::fabs(half / variance - 1.0), 0.5) << half;
}

TEST(Eugkm, FindsSeparatedBlobsAtLargeEpsilon) {
  const std::vector<double> p = blobs(3000);
  for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
    SCOPED_TRACE(privacy::to_string(s));
    EugkmOptions o = options(3, 10.0);
    o.sampler = s;
    o.kmeans.n_init = 3;
    BudgetLedger ledger(10.0);
    Rng rng(17);
    const EugkmResult r = eugkm(p.data(), 3000, kBox, o, rng, ledger);
    // N eps_H / 10 = 2850 -> m = 53, cells of width 0.38.
    EXPECT_EQ(r.grid.cells_per_dim, static_cast<std::int64_t>(std::floor(std::sqrt(r.size.value * 9.5 / 10))));
    for (const auto& c : kBlobCentres) {
      double best = 1e300;
      for (Eigen::Index a = 0; a < 3; ++a)
        best = std::min(best, std::hypot(r.centers(a, 0) - c[0], r.centers(a, 1) - c[1]));
      EXPECT_LT(best, 0.3) << c[0] << " " << c[1];
    }
    // The released centres' cost on the true data is close to the blobs' own (2 * 0.25 per point).
    EXPECT_LT(r.inertia / 3000, 0.6);
  }
}

TEST(Eugkm, SameResultOnAnyThreadCount) {
  const std::vector<double> p = blobs(5000);
  EugkmOptions o = options(3, 1.0);
  o.grid_size = 300;  // 90,000 cells: two noise chunks of 2^16 cells, drawn in parallel
  auto run = [&](int threads) {
    omp_set_num_threads(threads);
    BudgetLedger ledger(1.0);
    Rng rng(99);
    return eugkm(p.data(), 5000, kBox, o, rng, ledger);
  };
  const int before = omp_get_max_threads();
  const EugkmResult one = run(1), four = run(4);
  omp_set_num_threads(before);
  EXPECT_EQ(one.noisy_counts, four.noisy_counts);
  EXPECT_EQ(one.centers, four.centers);
  EXPECT_EQ(one.labels, four.labels);
  EXPECT_EQ(one.size.value, four.size.value);
}

TEST(Eugkm, FewerPositiveCellsThanKAreSmoothed) {
  // Three points, a 2 x 2 grid and k = 4 at a tiny epsilon: most noisy counts are <= 0 somewhere; whatever
  // the draw, the result has k centres, and when fewer than k cells were positive every cell took weight + 1.
  const std::vector<double> p = {-5, -5, 5, 5, 5, -5};
  EugkmOptions o = options(4, 1e-3);
  o.n_source = SizeSource::public_n;
  o.n_public = 3;
  int smoothed = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    BudgetLedger ledger(1e-3);
    Rng rng(seed);
    const EugkmResult r = eugkm(p.data(), 3, kBox, o, rng, ledger);
    EXPECT_EQ(r.grid.cells, 4u);  // rule < 1, raised to 2 x 2 for k = 4
    EXPECT_EQ(r.smoothed, r.positive_cells < 4);
    smoothed += r.smoothed;
    EXPECT_EQ(r.centers.rows(), 4);
    for (Eigen::Index a = 0; a < 4; ++a) EXPECT_TRUE(kBox.contains(r.centers.row(a).data()));
  }
  EXPECT_GT(smoothed, 10);  // each cell is positive with probability ~1/2: all four in 1/16 of the draws
}

TEST(Eugkm, ConstantDimensionsAndAOnePointDomain) {
  // A constant second dimension: the grid is over the first only, and every centre has y = 3.
  std::vector<double> p;
  for (int i = 0; i < 400; ++i) {
    p.push_back(i % 2 ? -5 : 5);
    p.push_back(3);
  }
  const Bounds flat{{-10, 3}, {10, 3}};
  BudgetLedger ledger(5.0);
  Rng rng(1);
  EugkmOptions o = options(2, 5.0);
  const EugkmResult r = eugkm(p.data(), 400, flat, o, rng, ledger);
  EXPECT_EQ(r.informative_dims, 1u);
  EXPECT_EQ(r.grid.cells, static_cast<std::uint64_t>(r.grid.cells_per_dim));
  for (Eigen::Index a = 0; a < 2; ++a) EXPECT_EQ(r.centers(a, 1), 3.0);
  EXPECT_NO_THROW(ledger.verify());
  // Every dimension constant: one cell, every centre the point.
  const Bounds point{{1, 2}, {1, 2}};
  std::vector<double> q(20, 0.0);
  for (std::size_t i = 0; i < 10; ++i) q[2 * i] = 1, q[2 * i + 1] = 2;
  BudgetLedger l2(1.0);
  const EugkmResult one = eugkm(q.data(), 10, point, options(3, 1.0), rng, l2);
  EXPECT_EQ(one.grid.cells, 1u);
  for (Eigen::Index a = 0; a < 3; ++a) {
    EXPECT_EQ(one.centers(a, 0), 1.0);
    EXPECT_EQ(one.centers(a, 1), 2.0);
  }
  EXPECT_NO_THROW(l2.verify());
}

std::string error_key(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.where();
  }
  return "(no error)";
}

TEST(Eugkm, BadParametersAreInputErrors) {
  const std::vector<double> p = blobs(300);
  auto run = [&](EugkmOptions o, const Bounds& b = kBox, std::size_t n = 300) {
    BudgetLedger ledger(o.epsilon > 0 && std::isfinite(o.epsilon) ? o.epsilon : 1.0);
    Rng rng(1);
    eugkm(p.data(), n, b, o, rng, ledger);
  };
  EugkmOptions o = options(0, 1.0);
  EXPECT_EQ(error_key([&] { run(o); }), "params.k");
  o = options(3, 0.0);
  EXPECT_EQ(error_key([&] { run(o); }), "params.epsilon");
  o = options(3, std::numeric_limits<double>::infinity());
  EXPECT_EQ(error_key([&] { run(o); }), "params.epsilon");
  o = options(3, 1.0);
  o.n_fraction = 1.0;
  EXPECT_EQ(error_key([&] { run(o); }), "params.n_fraction");
  o = options(3, 1.0);
  o.n_source = SizeSource::public_n;
  EXPECT_EQ(error_key([&] { run(o); }), "params.n_public");
  o = options(5, 1.0);
  o.grid_size = 2;  // 4 cells < 5 centres
  EXPECT_EQ(error_key([&] { run(o); }), "params.grid_size");
  o = options(3, 1.0);
  o.grid_size = 5000;  // 2.5e7 cells > 2^22
  EXPECT_EQ(error_key([&] { run(o); }), "params.grid_size");
  o = options(5, 1.0);
  o.max_cells = 4;
  EXPECT_EQ(error_key([&] { run(o); }), "params.max_grid_cells");
  o = options(3, 1.0);
  o.grid_constant = 0;
  EXPECT_EQ(error_key([&] { run(o); }), "params.grid_constant");
  EXPECT_EQ(error_key([&] { run(options(3, 1.0), Bounds{}); }), "dataset bounds");
  EXPECT_EQ(error_key([&] { run(options(3, 1.0), kBox, 0); }), "dataset");
}

// check_shape refuses, before any work, a grid the rule makes larger than max_grid_cells, and its fix applies.
TEST(EugkmMethod, CheckShapeRefusesAGridTooLargeWithAFixThatApplies) {
  const MethodInfo& m = eugkm_method_info();
  DataShape shape;
  shape.n = 100000;
  shape.n_exact = true;
  shape.d = 10;
  shape.dataset = "synth_10d";
  // eps = 2 at N = n_public = 1e5: N eps / 10 = 2e4 -> m = 5, 5^10 = 9.8e6 cells > 2^22.
  const std::map<std::string, ParamValue> at_public_n = {{"k", std::int64_t{64}},
                                                         {"epsilon", 2.0},
                                                         {"n_source", std::string("public")},
                                                         {"n_public", std::int64_t{100000}}};
  auto with = [&](std::map<std::string, ParamValue> more) {
    std::map<std::string, ParamValue> all = at_public_n;
    for (auto& [k, v] : more) all[k] = v;
    return with_defaults(m, all);
  };
  std::string fix;
  try {
    m.check_shape(with({}), shape);
    ADD_FAILURE() << "a 9.8e6-cell grid passed";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "params.max_grid_cells");
    EXPECT_NE(e.problem().find("m = 5"), std::string::npos) << e.problem();
    EXPECT_NE(e.problem().find("N = n_public = 100000"), std::string::npos) << e.problem();
    fix = e.fix();
  }
  EXPECT_NE(fix.find("grid_size: 4"), std::string::npos) << fix;
  EXPECT_NE(fix.find("max_grid_cells to 9765625"), std::string::npos) << fix;
  EXPECT_NO_THROW(m.check_shape(with({{"grid_size", std::int64_t{4}}}), shape));
  EXPECT_NO_THROW(m.check_shape(with({{"max_grid_cells", std::int64_t{9765625}}}), shape));
  // eps = 1 fits (4^10 = 1,048,576 cells).
  EXPECT_NO_THROW(m.check_shape(with({{"epsilon", 1.0}}), shape));
  // k above n, n_source public without n_public.
  EXPECT_THROW(m.check_shape(with_defaults(m, {{"k", std::int64_t{200000}}}), shape), InputError);
  EXPECT_THROW(m.check_shape(with_defaults(m, {{"k", std::int64_t{2}}, {"n_source", std::string("public")}}), shape),
               InputError);
}

// The number of points of the data never decides whether a run starts: with the noisy N (or the true n) the
// grid is known only in the run, which caps it at max_grid_cells. On 2-D data at eps 1 (eps_H 0.95) the
// rule's grid is 5 x 5 at n = 378 and 6 x 6 at n = 379: with max_grid_cells 25 the second was refused,
// "m = 6 ... 36 cells", a message that gives n back to within a few points. Now both run (379 capped to 5 x 5);
// only public inputs refuse (grid_size, or the rule at n_public).
TEST(EugkmMethod, TheTrueNNeverRefusesARun) {
  for (const MethodInfo* m : {&eugkm_method_info(), &hybrid_kmeans_method_info()}) {
    SCOPED_TRACE(m->name);
    for (std::uint64_t n : {378u, 379u, 100000000u}) {
      DataShape shape;
      shape.n = n;
      shape.n_exact = true;
      shape.d = 2;
      shape.bounds = kBox;
      for (const std::string source : {"noisy", "data"}) {
        // The hybrid at eps 2 puts eps_E = 0.95 in EUGkM: the same grid as EUGkM alone at eps 1.
        const ParamSet p = with_defaults(*m, {{"k", std::int64_t{3}},
                                              {"max_grid_cells", std::int64_t{25}},
                                              {"n_source", source},
                                              {"epsilon", m->name == "eugkm" ? 1.0 : 2.0},
                                              {"fallback", std::string("none")}});
        EXPECT_NO_THROW(m->check_shape(p, shape)) << n << " " << source;
      }
    }
    // n_public = 379: public, so refused before the run.
    DataShape shape;
    shape.d = 2;
    shape.bounds = kBox;
    const ParamSet pub = with_defaults(*m, {{"k", std::int64_t{3}},
                                            {"max_grid_cells", std::int64_t{25}},
                                            {"n_source", std::string("public")},
                                            {"n_public", std::int64_t{379}},
                                            {"epsilon", m->name == "eugkm" ? 0.95 : 1.9},
                                            {"fallback", std::string("none")}});
    EXPECT_THROW(m->check_shape(pub, shape), InputError);
  }
  // In the run, the grid from the true n is capped (diagnostics in the evaluation: a function of n).
  Dataset data;
  data.name = "blobs";
  data.d = 2;
  data.coords = blobs(379);
  data.n = 379;
  data.bounds = kBox;
  BudgetLedger ledger(1.0);
  Rng rng(1);
  const MethodInfo& m = eugkm_method_info();
  const MethodResult r = m.make()->run(
      data,
      with_defaults(m,
                    {{"k", std::int64_t{3}}, {"max_grid_cells", std::int64_t{25}}, {"n_source", std::string("data")}}),
      rng, ledger);
  EXPECT_EQ(r.evaluation["cells_per_dim"], 5);
  EXPECT_EQ(r.evaluation["grid_capped"], true);
}

TEST(EugkmMethod, ResultCarriesCentresReleaseAndNotes) {
  const MethodInfo& m = eugkm_method_info();
  Dataset data;
  data.name = "blobs";
  data.d = 2;
  data.coords = blobs(900);
  data.n = 900;
  data.bounds = kBox;
  for (const std::string source : {"noisy", "data"}) {
    BudgetLedger ledger(1.0);
    Rng rng(3);
    const MethodResult r =
        m.make()->run(data, with_defaults(m, {{"k", std::int64_t{3}}, {"n_source", source}}), rng, ledger);
    EXPECT_EQ(r.centres.rows(), 3);
    EXPECT_EQ(r.centres.cols(), 2);
    EXPECT_EQ(r.release["centers"].size(), 3u);
    EXPECT_FALSE(r.labels_are_release);
    EXPECT_EQ(r.release.contains("n_estimate"), source == "noisy");
    EXPECT_EQ(r.non_private_notes.empty(), source == "noisy") << source;
    EXPECT_TRUE(r.evaluation.contains("inertia"));
    EXPECT_NO_THROW(ledger.verify());
    EXPECT_EQ(ledger.unbounded(), source == "data");
    // The grid is a function of the true n with n_source: data: out of the public diagnostics.
    EXPECT_EQ(r.diagnostics.contains("cells_per_dim"), source == "noisy") << r.diagnostics.dump();
    EXPECT_EQ(r.evaluation.contains("cells_per_dim"), source == "data");
    EXPECT_EQ(r.diagnostics["n_source"], source);
  }
}

}  // namespace eugkm_test
}  // namespace dpclust::eugkm
