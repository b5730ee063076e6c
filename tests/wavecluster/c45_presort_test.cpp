// The presorted C4.5 builder (c45.hpp C45Presort: sort orders computed once per grid, a linear
// pass per node) against the builder it replaced, kept verbatim in c45_reference.hpp: every tree must be
// the same split for split -- attribute, threshold (bit for bit), children, class counts, majority, empty
// flags -- on random data with many ties, on values within Weka's 1e-6 tolerance of each other (the
// threshold reset's fallback), on iris, and on the cell grids of WaveCluster results of the paper's data.
// Also: the training instances' classes a fit returns (C45Tree::fit with training_classes) are predict()
// of each, and cell_classifier's tables built from them equal the reference's on random clusterings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "c45_reference.hpp"
#include "core/rng.hpp"
#include "test_support.hpp"
#include "wavecluster/c45.hpp"
#include "wavecluster/grid.hpp"
#include "wavecluster/measures.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/wavecluster.hpp"
#include "wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

void expect_same_tree(const std::vector<C45Tree::Node>& ref, const C45Tree& t, const std::string& what) {
  const std::vector<C45Tree::Node>& got = t.nodes();
  ASSERT_EQ(got.size(), ref.size()) << what;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    EXPECT_EQ(got[i].attribute, ref[i].attribute) << what << " node " << i;
    // Bit for bit: the thresholds are values of the data, not recomputed.
    EXPECT_EQ(std::memcmp(&got[i].threshold, &ref[i].threshold, sizeof(double)), 0) << what << " node " << i;
    EXPECT_EQ(got[i].left, ref[i].left) << what << " node " << i;
    EXPECT_EQ(got[i].right, ref[i].right) << what << " node " << i;
    EXPECT_EQ(got[i].count, ref[i].count) << what << " node " << i;
    EXPECT_EQ(got[i].correct, ref[i].correct) << what << " node " << i;
    EXPECT_EQ(got[i].majority, ref[i].majority) << what << " node " << i;
    EXPECT_EQ(got[i].empty, ref[i].empty) << what << " node " << i;
  }
}

std::vector<C45Options> option_sets() {
  C45Options unpruned;  // the authors' J48 -U
  C45Options pruned;
  pruned.prune = true;
  C45Options leaf5;
  leaf5.min_leaf = 5;
  C45Options no_mdl;
  no_mdl.mdl_correction = false;
  no_mdl.collapse = false;
  C45Options no_raising = pruned;
  no_raising.subtree_raising = false;
  no_raising.confidence = 0.1;
  return {unpruned, pruned, leaf5, no_mdl, no_raising};
}

TEST(C45Presort, RandomDataWithTiesGivesTheReferenceTrees) {
  Rng rng(2024);
  int trees = 0;
  for (std::size_t n : {1u, 2u, 7u, 40u, 300u})
    for (std::size_t a : {1u, 2u, 3u})
      for (std::size_t nc : {2u, 3u, 5u})
        for (int rep = 0; rep < 3; ++rep) {
          std::vector<double> x(n * a);
          std::vector<std::int32_t> y(n);
          // Few distinct values (ties everywhere) and classes that depend on the first attribute, so that
          // the trees are deep enough to matter.
          for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < a; ++j)
              x[i * a + j] = static_cast<double>(rng.below(rep == 0 ? 4 : 12)) * 0.5 - 1;
            const auto noisy = static_cast<std::int32_t>(rng.below(nc));
            y[i] = rng.below(4) == 0 ? noisy : static_cast<std::int32_t>(static_cast<std::size_t>(x[i * a] + 1) % nc);
          }
          const C45Presort pre = C45Presort::of(x, n, a);
          for (const C45Options& opt : option_sets()) {
            const std::string what = "n=" + std::to_string(n) + " a=" + std::to_string(a) +
                                     " nc=" + std::to_string(nc) + " rep=" + std::to_string(rep) +
                                     " prune=" + std::to_string(opt.prune);
            const auto ref = reference::reference_fit(x, n, a, y, nc, opt);
            expect_same_tree(ref, C45Tree::fit(pre, y, nc, opt), what);
            expect_same_tree(ref, C45Tree::fit(x, n, a, y, nc, opt), what + " (unsorted entry)");
            ++trees;
          }
        }
  EXPECT_EQ(trees, 5 * 3 * 3 * 3 * 5);
}

TEST(C45Presort, ValuesWithinTheCutGapGiveTheReferenceTrees) {
  // Values closer than 1e-5 (the cut-point gap): the threshold reset cannot take the largest admitted
  // value from the sorted order and scans as J48 does. (Values closer than Weka's SMALL, 1e-6, in
  // different nodes can make the reset threshold send a whole node to one side, and both builders then
  // recurse without end; the grid's integer coordinates never come near that.)
  Rng rng(7);
  const double offsets[] = {0.0, 1.5e-6, 5e-6, 9e-6, 4e-5};
  for (int rep = 0; rep < 30; ++rep) {
    const std::size_t n = 60, a = 2, nc = 3;
    std::vector<double> x(n * a);
    std::vector<std::int32_t> y(n);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < a; ++j) x[i * a + j] = static_cast<double>(rng.below(5)) + offsets[rng.below(5)];
      y[i] = static_cast<std::int32_t>(x[i * a] > 2.0000005 ? 2 : (x[i * a] > 1 ? 1 : 0));
      if (rng.below(6) == 0) y[i] = static_cast<std::int32_t>(rng.below(nc));
    }
    for (const C45Options& opt : option_sets()) {
      const auto ref = reference::reference_fit(x, n, a, y, nc, opt);
      expect_same_tree(ref, C45Tree::fit(x, n, a, y, nc, opt), "rep " + std::to_string(rep));
    }
  }
}

TEST(C45Presort, SubsetEqualsSortingTheSubset) {
  Rng rng(5);
  const std::size_t n = 200, a = 3;
  std::vector<double> x(n * a);
  for (double& v : x) v = static_cast<double>(rng.below(9));
  std::vector<std::uint8_t> keep(n);
  std::vector<double> kept;
  for (std::size_t i = 0; i < n; ++i) {
    keep[i] = rng.below(3) != 0;
    if (keep[i])
      kept.insert(kept.end(), x.begin() + static_cast<std::ptrdiff_t>(i * a),
                  x.begin() + static_cast<std::ptrdiff_t>(i * a + a));
  }
  const C45Presort sub = C45Presort::of(x, n, a).subset(keep);
  const C45Presort direct = C45Presort::of(kept, kept.size() / a, a);
  EXPECT_EQ(sub.n, direct.n);
  EXPECT_EQ(sub.x, direct.x);
  EXPECT_EQ(sub.order, direct.order);
}

TEST(C45Presort, TrainingClassesArePredictOfEveryInstance) {
  // fit(..., training_classes) reads each training instance's class off the leaves' ranges of the sorted
  // orders (unpruned) instead of walking the tree: it must be predict() of every instance, and the tree the
  // one fit() returns.
  Rng rng(99);
  int compared = 0;
  for (std::size_t n : {1u, 5u, 60u, 400u})
    for (std::size_t a : {1u, 2u, 3u})
      for (std::size_t nc : {2u, 4u, 9u})
        for (int rep = 0; rep < 3; ++rep) {
          std::vector<double> x(n * a);
          std::vector<std::int32_t> y(n);
          for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < a; ++j) x[i * a + j] = static_cast<double>(rng.below(rep == 0 ? 5 : 20));
            y[i] = rng.below(3) == 0 ? static_cast<std::int32_t>(rng.below(nc))
                                     : static_cast<std::int32_t>(static_cast<std::size_t>(x[i * a] / 4) % nc);
          }
          const C45Presort pre = C45Presort::of(x, n, a);
          for (const C45Options& opt : option_sets()) {
            const std::string what = "n=" + std::to_string(n) + " a=" + std::to_string(a) +
                                     " nc=" + std::to_string(nc) + " rep=" + std::to_string(rep) +
                                     " prune=" + std::to_string(opt.prune);
            std::vector<std::int32_t> trained{7, 7};  // overwritten
            const C45Tree tree = C45Tree::fit(pre, y, nc, opt, trained);
            expect_same_tree(C45Tree::fit(pre, y, nc, opt).nodes(), tree, what);
            ASSERT_EQ(trained.size(), n) << what;
            for (std::size_t i = 0; i < n; ++i)
              EXPECT_EQ(trained[i], tree.predict(&x[i * a])) << what << " instance " << i;
            ++compared;
          }
        }
  EXPECT_EQ(compared, 4 * 3 * 3 * 3 * 5);
}

TEST(C45Presort, CellTablesOfRandomClusteringsEqualTheReference) {
  // cell_classifier takes the training cells' classes from the fit (every cell with c0 = all, the kept ones
  // with c0 = positive) and walks the tree only for the others: the table must be the reference builder's
  // predictions on every cell, for clusterings of blobs and scattered cells on grids of 2 and 3 dimensions.
  int compared = 0;
  for (const std::vector<std::size_t>& dims :
       std::vector<std::vector<std::size_t>>{{24, 24}, {17, 31}, {40, 9}, {6, 7, 5}})
    for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
      Rng rng(seed);
      WaveClusterOutput r;
      r.clustering.shape.dims = dims;
      const GridShape& shape = r.clustering.shape;
      const std::size_t cells = shape.size(), d = dims.size();
      std::vector<std::uint8_t> significant(cells, 0);
      std::vector<std::size_t> coord(d);
      const std::size_t blobs = 1 + rng.below(5);
      for (std::size_t b = 0; b < blobs; ++b) {  // axis-aligned boxes of significant cells
        std::vector<std::size_t> lo(d), hi(d);
        for (std::size_t j = 0; j < d; ++j) {
          lo[j] = rng.below(dims[j]);
          hi[j] = std::min(dims[j], lo[j] + 1 + rng.below(dims[j] / 3 + 1));
        }
        for (std::size_t i = 0; i < cells; ++i) {
          unravel(i, shape, coord.data());
          bool in = true;
          for (std::size_t j = 0; j < d; ++j) in = in && coord[j] >= lo[j] && coord[j] < hi[j];
          if (in) significant[i] = 1;
        }
      }
      for (std::size_t i = 0; i < cells; ++i)
        if (rng.below(25) == 0) significant[i] = 1;  // scattered cells: small clusters, deep trees
      r.clustering = connected_components(significant, shape, true);
      r.transformed.resize(cells);
      for (std::size_t i = 0; i < cells; ++i)
        r.transformed[i] = significant[i] ? 1.0 : (rng.below(3) == 0 ? 0.5 : -0.25);
      ASSERT_GT(r.clustering.n_clusters, 0u);
      const C45Presort lattice = lattice_presort(shape);
      for (C0Grids c0 : {C0Grids::all, C0Grids::positive})
        for (const C45Options& opt : option_sets()) {
          const auto ref = reference::reference_cell_table(r, opt, c0);
          EXPECT_EQ(cell_classifier(r, opt, c0, lattice), ref) << "seed " << seed << " d=" << d;
          ++compared;
        }
    }
  EXPECT_EQ(compared, 4 * 4 * 2 * 5);
}

TEST(C45Presort, IrisGivesTheReferenceTrees) {
  DPCLUST_REQUIRE_DATA("uci/iris.csv");
  std::vector<double> x;
  std::vector<std::int32_t> y;
  dpclust::testing::read_iris_csv(dpclust::testing::data_root() / "uci/iris.csv", x, y);
  ASSERT_EQ(y.size(), 150u);
  for (const C45Options& opt : option_sets()) {
    const auto ref = reference::reference_fit(x, 150, 4, y, 3, opt);
    expect_same_tree(ref, C45Tree::fit(x, 150, 4, y, 3, opt), "iris");
  }
}

TEST(C45Presort, CellClassifiersOfThePapersDataEqualTheReference) {
  struct Case {
    const char* file;
    double g, p;
  };
  const Case cases[] = {{"wavecluster/15-clusters-30k.arff", 48, 0.6},
                        {"wavecluster/spiral-30k.arff", 40, 0.1},
                        {"wavecluster/aggregation-30k.arff", 50, 0.15}};
  int compared = 0;
  for (const Case& cs : cases) {
    if (!std::filesystem::exists(dpclust::testing::data_root() / cs.file)) continue;
    const Dataset ds = dpclust::testing::read_numeric_arff(dpclust::testing::data_root() / cs.file, 2);
    ParamSet ps = dpclust::testing::wc_params(cs.g, cs.p);
    const WcParams wp = WcParams::from(ps, 2);
    std::vector<WaveClusterOutput> results{run_wavecluster(ds, wp)};
    ps.set("epsilon", 0.5);
    ps.set("rho", 0.9);
    for (const char* mech : {"privqt", "privthr"})
      for (std::uint64_t seed : {1u, 2u}) {
        Rng rng(seed);
        BudgetLedger ledger(0.5);
        results.push_back(make_mechanism(mech)->run_wc(ds, wp, ps, rng, ledger));
      }
    const GridShape shape = results[0].clustering.shape;
    const C45Presort lattice = lattice_presort(shape);
    for (const WaveClusterOutput& r : results)
      for (C0Grids c0 : {C0Grids::all, C0Grids::positive})
        for (const C45Options& opt : option_sets()) {
          const auto ref = reference::reference_cell_table(r, opt, c0);
          EXPECT_EQ(cell_classifier(r, opt, c0), ref) << cs.file;
          EXPECT_EQ(cell_classifier(r, opt, c0, lattice), ref) << cs.file;
          ++compared;
        }
  }
  if (compared == 0) GTEST_SKIP() << "the DP WaveCluster datasets are not under the data root";
  EXPECT_EQ(compared, 3 * 5 * 2 * 5);
}

}  // namespace
}  // namespace dpclust::wavecluster
