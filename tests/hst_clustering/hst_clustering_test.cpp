// hst_clustering end to end: the ledger adds up to (eps, delta) (and the authors variant's excess is declared at
// its true cost), zero noise gives the non-private HST of every occupied cell, determinism over thread counts,
// the authors' published calibration at their defaults, the method's registration, and its input errors.
#include "hst_clustering/hst_clustering.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "hst_clustering/cost.hpp"
#include "hst_clustering/register.hpp"
#include "metrics/nearest_centre.hpp"
#include "privacy/gaussian_calibration.hpp"

namespace dpclust::hst {
namespace {

// k well-separated Gaussian blobs (sd 1) in [-100, 100]^d, as synth_10d on a small scale.
Dataset blobs(std::size_t n, std::size_t d, std::size_t k, std::uint64_t seed) {
  Dataset data;
  data.name = "blobs";
  data.n = n;
  data.d = d;
  Rng r(seed);
  std::vector<double> centres(k * d);
  for (auto& c : centres) c = r.uniform(-90, 90);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = i % k;
    for (std::size_t j = 0; j < d; ++j)
      data.coords.push_back(std::clamp(centres[c * d + j] + r.normal(), -100.0, 100.0));
    data.labels.push_back(static_cast<Label>(c));
  }
  data.bounds = Bounds{std::vector<double>(d, -100.0), std::vector<double>(d, 100.0)};
  data.bounds_source = BoundsSource::config;
  return data;
}

HstClusteringOptions options(std::size_t k, double epsilon) {
  HstClusteringOptions o;
  o.k = k;
  o.epsilon = epsilon;
  return o;
}

HstClusteringResult fit(const Dataset& data, const HstClusteringOptions& o, BudgetLedger& ledger,
                        std::uint64_t seed = 3) {
  Rng rng(seed);
  return hst_clustering(data.coords.data(), data.n, data.d, data.bounds, o, rng, ledger);
}

TEST(HstClustering, LedgerAddsUpToEpsilonAndDelta) {
  const Dataset data = blobs(5000, 3, 6, 1);
  for (privacy::Sampler sampler : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
    HstClusteringOptions o = options(6, 0.7);
    o.sampler = sampler;
    BudgetLedger ledger(0.7, 1e-5);
    const HstClusteringResult r = fit(data, o, ledger);
    EXPECT_NO_THROW(ledger.verify());
    EXPECT_DOUBLE_EQ(ledger.spent_epsilon(), 0.7);
    EXPECT_DOUBLE_EQ(ledger.spent_delta(), 1e-5);
    ASSERT_EQ(ledger.entries().size(), 2u);
    // L d = 30 released counts a record: the root's count is not released.
    EXPECT_DOUBLE_EQ(ledger.entries()[0].sensitivity, std::sqrt(30.0));
    EXPECT_EQ(ledger.entries()[1].sensitivity, 30.0);
    EXPECT_EQ(r.calibration.cells_per_record, 30u);
    EXPECT_EQ(r.calibration.cells_calibrated, 30u);
    EXPECT_EQ(r.calibration.true_epsilon, 0.7);
    EXPECT_FALSE(r.tree.root_released);
    EXPECT_EQ(r.non_private_notes.empty(), sampler == privacy::Sampler::secure);
    EXPECT_GE(r.centres.rows(), 1);
    EXPECT_LE(r.centres.rows(), 6);
    if (sampler == privacy::Sampler::secure)
      for (const HstNode& v : r.tree.nodes)
        if (v.kind == NodeKind::released) {
          EXPECT_EQ(v.weight, std::floor(v.weight));  // integer counts, integer noise
          EXPECT_GE(v.weight, r.calibration.threshold);
        }
  }
}

TEST(HstClustering, AuthorsVariantDeclaresTheRootsCountAsExcessAndIsFlagged) {
  // d = 2, 10 layers, eps 1, delta 1e-5 (the authors' defaults): their code's sigma 17.37040574655219 and
  // threshold 121.16536589569952 (gaussian_thresholding.get_gaussian_thresholding_params(1, 20, 1.0, 1e-5));
  // with the root's count a record changes 21 counts: sigma 17.37 for sqrt(21) at delta 5e-6 is eps 1.02698 (scipy's
  // brentq on Balle & Wang's delta gives 1.0269800760038275).
  const Dataset data = blobs(4000, 2, 4, 2);
  HstClusteringOptions o = options(4, 1.0);
  o.variant = Variant::authors;
  o.sampler = privacy::Sampler::textbook;
  BudgetLedger ledger(1.0, 1e-5);
  const HstClusteringResult r = fit(data, o, ledger);
  EXPECT_NEAR(r.calibration.sigma, 17.37040574655219, 1e-9 * 17.37);
  EXPECT_NEAR(r.calibration.threshold, 121.16536589569952, 1e-8 * 121.2);
  EXPECT_EQ(r.calibration.cells_per_record, 21u);
  EXPECT_EQ(r.calibration.cells_calibrated, 20u);
  EXPECT_TRUE(r.tree.root_released);
  EXPECT_NEAR(r.calibration.true_epsilon,
              gaussian_epsilon(privacy::Sampler::textbook, r.calibration.sigma, std::sqrt(21.0), 5e-6), 1e-12);
  EXPECT_NEAR(r.calibration.true_epsilon, 1.0269800760038275, 1e-9);
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_NEAR(ledger.excess_epsilon(), r.calibration.true_epsilon - 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(ledger.spent_epsilon(), r.calibration.true_epsilon);
  ASSERT_EQ(ledger.entries().size(), 3u);
  EXPECT_EQ(ledger.entries()[2].mechanism, "declared excess");
  ASSERT_EQ(r.non_private_notes.size(), 2u);  // the textbook sampler and the calibration
  EXPECT_NE(r.non_private_notes[1].find("1 + L d = 21"), std::string::npos);
  // d = 10: their 38.841408046043675 and 286.5998527747167 (get_gaussian_thresholding_params(1, 100, 1.0, 1e-5)).
  {
    const Dataset ten = blobs(300, 10, 2, 3);
    BudgetLedger l10(1.0, 1e-5);
    const HstClusteringResult t = fit(ten, o, l10);
    EXPECT_NEAR(t.calibration.sigma, 38.841408046043675, 1e-9 * 38.84);
    EXPECT_NEAR(t.calibration.threshold, 286.5998527747167, 1e-8 * 286.6);
  }
  // The exact variant's sigma for the same 20 counts is the same calibration; its threshold is lower (no
  // sqrt(2) on the quantile) and the root's count is not released.
  BudgetLedger l2(1.0, 1e-5);
  HstClusteringOptions e = o;
  e.variant = Variant::exact;
  const HstClusteringResult x = fit(data, e, l2);
  EXPECT_EQ(x.calibration.sigma, r.calibration.sigma);
  EXPECT_LT(x.calibration.threshold, 0.8 * r.calibration.threshold);
  EXPECT_EQ(l2.excess_epsilon(), 0.0);
}

TEST(HstClustering, GaussianEpsilonInvertsTheCalibration) {
  for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
    const double sigma = s == privacy::Sampler::secure ? privacy::zcdp_gaussian_sigma(0.6, 2e-6, 3.0)
                                                       : privacy::analytic_gaussian_sigma(0.6, 2e-6, 3.0);
    EXPECT_NEAR(gaussian_epsilon(s, sigma, 3.0, 2e-6), 0.6, 1e-9);
  }
}

// The non-private HST: every occupied cell, weighted by its exact count. Counted here independently: each
// point's path through the same splits (a naive recursion on the box), every prefix one cell.
std::map<std::string, std::size_t> occupied_cells(const Dataset& data, const SplitFractions& s) {
  std::map<std::string, std::size_t> cells;
  for (std::size_t i = 0; i < data.n; ++i) {
    std::vector<double> lo = data.bounds.lo, hi = data.bounds.hi;
    std::string id;
    for (std::size_t t = 0; t < s.levels(); ++t) {
      const std::size_t j = t % data.d;
      const double split = s.values()[t] * (hi[j] - lo[j]) + lo[j];
      const bool upper = data.coords[i * data.d + j] >= split;
      (upper ? lo[j] : hi[j]) = split;
      id.push_back(upper ? '0' : '1');
      ++cells[id];
    }
  }
  return cells;
}

TEST(HstClustering, ZeroNoiseIsTheNonPrivateTreeOfEveryOccupiedCell) {
  const Dataset data = blobs(600, 2, 3, 4);
  HstClusteringOptions o = options(3, 1.0);
  o.layers = 4;
  BudgetLedger ledger(1.0, 1e-5);
  ledger.set_noise_scale(0);
  const HstClusteringResult r = fit(data, o, ledger);
  EXPECT_EQ(r.calibration.threshold, 1.0);
  const auto cells = occupied_cells(data, r.splits);
  EXPECT_EQ(r.tree.released_cells, cells.size());
  for (std::size_t i = 1; i < r.tree.nodes.size(); ++i) {
    const HstNode& v = r.tree.nodes[i];
    const std::string id = cell_id(r.tree, i);
    if (v.kind == NodeKind::completion) {
      EXPECT_EQ(cells.count(id), 0u) << id;
      continue;
    }
    ASSERT_EQ(cells.count(id), 1u) << id;
    EXPECT_EQ(v.weight, static_cast<double>(cells.at(id))) << id;
    // A leaf is a cell of the last level: with every occupied cell kept, nothing stops earlier.
    if (v.leaf()) {
      EXPECT_EQ(v.depth, r.splits.levels()) << id;
    }
  }
  EXPECT_EQ(r.tree.nodes[0].weight, 600.0);  // the root: its children's exact counts
  EXPECT_EQ(r.centres.rows(), 3);
}

TEST(HstClustering, SameSeedSameCentresOnAnyThreadCount) {
  const Dataset data = blobs(30000, 4, 8, 5);
  std::vector<RowMatrix> centres;
  std::vector<Labels> labels;
  const int before = omp_get_max_threads();
  for (int threads : {1, 2, 4}) {
    omp_set_num_threads(threads);
    for (privacy::Sampler sampler : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
      HstClusteringOptions o = options(8, 1.0);
      o.sampler = sampler;
      BudgetLedger ledger(1.0, 1e-5);
      const HstClusteringResult r = fit(data, o, ledger, 77);
      centres.push_back(r.centres);
      labels.push_back(r.labels);
    }
  }
  omp_set_num_threads(before);
  for (std::size_t i = 2; i < centres.size(); ++i) {
    EXPECT_TRUE(centres[i] == centres[i % 2]) << i;
    EXPECT_EQ(labels[i], labels[i % 2]) << i;
  }
}

TEST(HstClustering, SeparatedBlobsGetACentreEach) {
  // 8 blobs of 5,000 points (sd 1) in [-100, 100]^2 at eps 1: tau is 96, so every blob's cells are released
  // down to a few units across, and each blob gets a centre within a few units of it.
  const Dataset data = blobs(40000, 2, 8, 6);
  BudgetLedger ledger(1.0, 1e-5);
  const HstClusteringResult r = fit(data, options(8, 1.0), ledger);
  EXPECT_EQ(r.centres.rows(), 8);
  EXPECT_LT(r.inertia / static_cast<double>(data.n), 20.0);  // the oracle's is 2 (two unit variances)
}

TEST(HstClustering, ReleasedCountsCarryTheCalibratedNoise) {
  // 400,000 points uniform in [0, 1]^2, 6 layers (12 levels): thousands of released cells. The same seed with no
  // noise gives the same splits and every cell's exact count, so noisy - exact is the noise each cell drew.
  // Over the cells far above tau (released whatever their noise: the sample is not conditioned), the noise has
  // mean 0 and the variance of the discrete Gaussian the ledger calibrated (sigma^2 within 8%, over 3,071
  // cells: 3 standard errors; a sigma mis-scaled by 5% moves the variance by 10%). Fixed seed.
  Dataset data;
  data.n = 400000;
  data.d = 2;
  Rng g(12);
  for (std::size_t i = 0; i < 2 * data.n; ++i) data.coords.push_back(g.uniform());
  data.bounds = Bounds{{0.0, 0.0}, {1.0, 1.0}};
  HstClusteringOptions o = options(4, 1.0);
  o.layers = 6;
  BudgetLedger noisy_ledger(1.0, 1e-5), exact_ledger(1.0, 1e-5);
  exact_ledger.set_noise_scale(0);
  const HstClusteringResult noisy = fit(data, o, noisy_ledger, 9), exact = fit(data, o, exact_ledger, 9);
  ASSERT_EQ(noisy.splits.values(), exact.splits.values());
  std::map<std::string, double> count;
  for (std::size_t i = 1; i < exact.tree.nodes.size(); ++i)
    if (exact.tree.nodes[i].kind == NodeKind::released) count[cell_id(exact.tree, i)] = exact.tree.nodes[i].weight;
  const double sigma = noisy.calibration.sigma, far = noisy.calibration.threshold + 8 * sigma;
  EXPECT_DOUBLE_EQ(sigma, privacy::zcdp_gaussian_sigma(1.0, 5e-6, std::sqrt(12.0)));  // l2 sensitivity sqrt(L d)
  double s = 0, s2 = 0;
  std::size_t cells = 0;
  for (std::size_t i = 1; i < noisy.tree.nodes.size(); ++i) {
    if (noisy.tree.nodes[i].kind != NodeKind::released) continue;
    const double c = count.at(cell_id(noisy.tree, i));
    if (c < far) continue;
    const double z = noisy.tree.nodes[i].weight - c;
    s += z;
    s2 += z * z;
    ++cells;
  }
  ASSERT_GE(cells, 1000u);
  const double n = static_cast<double>(cells), mean = s / n, var = s2 / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 4 * sigma / std::sqrt(n));
  EXPECT_NEAR(var / (sigma * sigma), 1.0, 0.08);
}

std::string where_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    EXPECT_FALSE(e.fix().empty()) << e.what();
    return e.where();
  }
  return "no InputError";
}

TEST(HstClustering, BadInputGivesInputErrorWithTheKeyAndTheFix) {
  const Dataset data = blobs(200, 2, 2, 7);
  auto run = [&](HstClusteringOptions o, const Bounds& b, std::vector<double> coords = {}) {
    return [&data, o, b, coords] {
      BudgetLedger ledger(1.0, 1e-5);
      Rng rng(1);
      const std::vector<double>& x = coords.empty() ? data.coords : coords;
      hst_clustering(x.data(), data.n, data.d, b, o, rng, ledger);
    };
  };
  HstClusteringOptions o = options(0, 1.0);
  EXPECT_EQ(where_of(run(o, data.bounds)), "params.k");
  o = options(2, 1.0);
  o.delta = 0;
  EXPECT_EQ(where_of(run(o, data.bounds)), "params.delta");
  o = options(2, 1.0);
  o.layers = 0;
  EXPECT_EQ(where_of(run(o, data.bounds)), "params.layers");
  o = options(2, 1.0);
  o.threshold_share = 1.0;
  EXPECT_EQ(where_of(run(o, data.bounds)), "params.threshold_share");
  o = options(2, 1e-6);  // 128 levels: sigma 1.2e6, beyond the exact sampler's 2^20
  o.layers = 64;
  EXPECT_EQ(where_of(run(o, data.bounds)), "params.epsilon");
  EXPECT_EQ(where_of(run(options(2, 1.0), Bounds{})), "dataset bounds");
  std::vector<double> bad = data.coords;
  bad[5] = std::nan("");
  EXPECT_EQ(where_of(run(options(2, 1.0), data.bounds, bad)), "dataset");
}

ParamSet with_defaults(const MethodInfo& m, const std::map<std::string, ParamValue>& set) {
  ParamSet p;
  for (const ParamSpec& s : m.params)
    if (!s.required()) p.set(s.name, s.default_value);
  for (const auto& [k, v] : set) p.set(k, v);
  for (const ParamSpec& s : m.params) EXPECT_EQ(s.check(p.get(s.name)), "") << s.name;
  return p;
}

TEST(HstClusteringMethod, RegisteredAndRunsFromParameters) {
  const auto methods = hst_clustering_folder().methods;
  ASSERT_EQ(methods.size(), 1u);
  const MethodInfo& m = methods[0];
  EXPECT_EQ(m.name, "hst_clustering");
  EXPECT_TRUE(m.differentially_private);
  EXPECT_TRUE(m.needs_bounds);
  EXPECT_TRUE(m.releases_centres);
  // Its labels are the nearest released centre's, so a run that moves a centre into the domain relabels.
  EXPECT_TRUE(m.labels_are_nearest_centre);
  EXPECT_EQ(m.non_private_counterpart, "kmeans");
  const Dataset data = blobs(3000, 3, 4, 8);
  const ParamSet p = with_defaults(m, {{"k", std::int64_t{4}}, {"release_tree", true}});
  const HstClusteringOptions o = options_of(p);
  EXPECT_EQ(o.delta, 1e-5);
  EXPECT_EQ(o.layers, 10u);
  EXPECT_EQ(o.objective, Objective::kmedian);
  EXPECT_EQ(o.variant, Variant::exact);
  EXPECT_EQ(o.sampler, privacy::Sampler::secure);
  Rng rng(2);
  BudgetLedger ledger(1.0, 1e-5);
  const MethodResult out = m.make()->run(data, p, rng, ledger);
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_FALSE(out.labels_are_release);
  EXPECT_EQ(out.labels, nearest_centres(data.coords.data(), data.n, data.d, out.centres).labels);
  EXPECT_EQ(out.release["centers"].size(), static_cast<std::size_t>(out.centres.rows()));
  EXPECT_EQ(out.release["tree"]["cells"].size(), out.diagnostics["released_cells"].get<std::size_t>());
  EXPECT_EQ(out.release["tree"]["split_fractions"].size(), 30u);
  EXPECT_TRUE(out.evaluation.contains("inertia"));
  EXPECT_TRUE(out.evaluation.contains("cells_noised"));  // counts occupied cells: not public
  EXPECT_FALSE(out.diagnostics.contains("cells_noised"));
  EXPECT_FALSE(out.diagnostics.contains("inertia"));
  EXPECT_TRUE(out.non_private_notes.empty());
  // check_shape: k above the known number of points, and the options.
  DataShape shape;
  shape.n = 3;
  shape.n_exact = true;
  shape.d = 3;
  EXPECT_THROW(m.check_shape(p, shape), InputError);
  shape.n = 3000;
  EXPECT_NO_THROW(m.check_shape(p, shape));
  shape.d = 200000;  // 2e6 levels
  EXPECT_THROW(m.check_shape(p, shape), InputError);
  // The cost estimate grows with n and k.
  DataShape small_shape, large_shape;
  small_shape.n = 1000;
  large_shape.n = 100000;
  small_shape.d = large_shape.d = 3;
  const std::vector<std::string> metrics;
  const TrialCost small = trial_cost(CostInputs{p, small_shape, metrics}),
                  large = trial_cost(CostInputs{p, large_shape, metrics});
  EXPECT_GT(large.work, small.work);
  EXPECT_GT(large.memory, small.memory);
}

TEST(HstClusteringCost, TheMemoryBoundHoldsOnChainsOfDuplicatesAndIsNotLooseAtTheDemosSize) {
  const MethodInfo& m = hst_clustering_method_info();
  // The worst data for the tree: groups of duplicate points, each a chain of released cells (with an empty
  // sibling a level) down all L d levels. 3-D, 10 layers (30 levels), eps 20: tau is small and a group of 2 tau
  // points is released at every level with near certainty.
  const ParamSet p = with_defaults(m, {{"k", std::int64_t{16}}, {"epsilon", 20.0}});
  const TrialCostEstimate bound = trial_cost_bound(p, 2400, 3);
  const HstClusteringOptions o = options_of(p);
  const std::size_t group = 2 * static_cast<std::size_t>(bound.threshold), groups = 2400 / group;
  ASSERT_GE(groups, 8u);
  Dataset data;
  data.n = groups * group;
  data.d = 3;
  Rng r(17);
  for (std::size_t g = 0; g < groups; ++g) {
    double x[3] = {r.uniform(-90, 90), r.uniform(-90, 90), r.uniform(-90, 90)};
    for (std::size_t i = 0; i < group; ++i) data.coords.insert(data.coords.end(), x, x + 3);
  }
  data.bounds = Bounds{std::vector<double>(3, -100.0), std::vector<double>(3, 100.0)};
  BudgetLedger ledger(o.epsilon, o.delta);
  const HstClusteringResult res = fit(data, o, ledger);
  EXPECT_EQ(res.tree.depth, 30u);  // the chains reach the last level
  EXPECT_GE(res.tree.released_cells, groups * 20);
  // The bound holds, and is within a small factor of what the chains reach (2 tau points a group against the
  // bound's tau / 2: 4 times as many groups, at most).
  EXPECT_EQ(bound.threshold, res.calibration.threshold);
  EXPECT_LE(static_cast<double>(res.tree.nodes.size()), bound.tree_nodes);
  EXPECT_GE(static_cast<double>(res.tree.nodes.size()), bound.tree_nodes / 8);
  EXPECT_LE(static_cast<double>(res.solution.cost_entries), bound.cost_entries);
  // A chain node keeps 2 costs (budget 0 and 1: one leaf of nonzero weight below it), not min(k, leaves) + 1
  // counting the empty siblings, which cost 0 at every budget.
  EXPECT_LE(res.solution.cost_entries, 3 * res.tree.nodes.size());
  const double structures =
      static_cast<double>(res.tree.nodes.size() * sizeof(HstNode) +
                          8 * (3 * res.tree.nodes.size() + res.solution.cost_entries) + data.coords.size() * 8);
  EXPECT_LE(structures, bound.memory);

  // Google's demo (20,000 x 100, k 64, delta 1e-6, 10 layers) at eps 100: 58 MB measured peak on the demo's
  // data; the bound covers chains of duplicates (about 1,800 released cells a level over 1,000 levels), a few
  // hundred MB, not the 1.7 GiB that counted k + 1 costs for every node.
  const ParamSet demo = with_defaults(m, {{"k", std::int64_t{64}}, {"epsilon", 100.0}, {"delta", 1e-6}});
  const TrialCostEstimate at_demo = trial_cost_bound(demo, 20000, 100);
  EXPECT_EQ(at_demo.threshold, 22.0);
  EXPECT_GT(at_demo.memory, 58e6);
  EXPECT_LT(at_demo.memory, 600e6);
  // And the bound falls with epsilon's threshold: eps 1 keeps far fewer cells.
  const ParamSet demo1 = with_defaults(m, {{"k", std::int64_t{64}}, {"epsilon", 1.0}, {"delta", 1e-6}});
  EXPECT_LT(trial_cost_bound(demo1, 20000, 100).memory, at_demo.memory / 5);
}

}  // namespace
}  // namespace dpclust::hst
