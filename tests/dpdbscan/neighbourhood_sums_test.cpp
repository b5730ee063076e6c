// The bounded-memory neighbourhood sums (dpdbscan/neighbourhood_sums.hpp): splitting the targets into groups
// changes nothing -- the same core cells with bit-identical sums as one unsplit map and as the dense rows --
// in 2-D and 4-D, with groups forced down to single pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "dpdbscan/grid.hpp"
#include "dpdbscan/histogram.hpp"
#include "dpdbscan/neighbourhood_sums.hpp"
#include "dpdbscan/spans.hpp"

namespace dpclust::dpdbscan {
namespace {

// A sparse "released" histogram: `cells` random cells with values in [1, 4) (Alg. 2 releases values >= theta).
NoisyHistogram random_release(const CellGrid& g, std::size_t cells, std::uint64_t seed) {
  Rng r(seed);
  std::vector<std::uint64_t> codes;
  for (std::size_t i = 0; i < cells; ++i) codes.push_back(r.below(g.universe));
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  NoisyHistogram h;
  h.linear = true;
  h.universe = g.universe;
  h.codes = codes;
  for (std::size_t i = 0; i < codes.size(); ++i) h.values.push_back(1.0 + 3.0 * r.uniform());
  h.released = codes.size();
  return h;
}

NoisyHistogram densify(const NoisyHistogram& s) {
  NoisyHistogram h = s;
  h.dense = true;
  h.dense_values.assign(s.universe, 0.0);
  for (std::size_t i = 0; i < s.codes.size(); ++i) h.dense_values[s.codes[i]] = s.values[i];
  h.codes.clear();
  h.values.clear();
  return h;
}

void expect_same(const CoreCells& a, const CoreCells& b) {
  ASSERT_EQ(a.codes, b.codes);
  ASSERT_EQ(a.sums.size(), b.sums.size());
  for (std::size_t i = 0; i < a.sums.size(); ++i)
    ASSERT_EQ(a.sums[i], b.sums[i]) << "cell " << a.codes[i];  // bit for bit
}

TEST(NeighbourhoodSums, GroupsChangeNothingIn2D) {
  const CellGrid g = make_grid(Bounds{{0, 0}, {10, 10}}, 0.3, 4.0);  // 48 x 48 cells
  const Neighbourhood nb = alpha_neighbourhood(2, 4.0);
  const NoisyHistogram h = random_release(g, 300, 1);
  const double thr = 6.0;
  // One hash map, no box: the reference.
  const CoreCells whole = sparse_core_cells(g, nb, h, thr, ~std::uint64_t{0}, 0);
  ASSERT_GT(whole.codes.size(), 20u);
  EXPECT_TRUE(std::is_sorted(whole.codes.begin(), whole.codes.end()));
  for (std::uint64_t budget : {std::uint64_t{1}, std::uint64_t{50}, std::uint64_t{2000}})
    for (std::uint64_t box : {std::uint64_t{0}, std::uint64_t{5}, std::uint64_t{200}, kMaxBoxCells}) {
      SCOPED_TRACE(std::to_string(budget) + " pairs, box " + std::to_string(box));
      const CoreCells split = sparse_core_cells(g, nb, h, thr, budget, box);
      expect_same(split, whole);
      EXPECT_EQ(split.evaluated, whole.evaluated);
    }
  // And the dense rows (find_core_cells on dense storage) give the same cells and sums.
  const CoreCells dense = find_core_cells(g, nb, densify(h), thr);
  expect_same(dense, whole);
}

TEST(NeighbourhoodSums, GroupsChangeNothingIn4D) {
  const CellGrid g = make_grid(Bounds{{0, 0, 0, 0}, {4, 4, 4, 4}}, 0.9, 4.0);  // 9^4 cells, kappa 609
  const Neighbourhood nb = alpha_neighbourhood(4, 4.0);
  ASSERT_EQ(nb.kappa(), 609u);
  const NoisyHistogram h = random_release(g, 400, 2);
  const double thr = 40.0;
  const CoreCells whole = sparse_core_cells(g, nb, h, thr, ~std::uint64_t{0}, 0);
  ASSERT_GT(whole.codes.size(), 10u);
  ASSERT_LT(whole.codes.size(), g.universe);
  for (std::uint64_t budget : {std::uint64_t{1}, std::uint64_t{700}, std::uint64_t{20000}})
    for (std::uint64_t box : {std::uint64_t{0}, std::uint64_t{9}, std::uint64_t{400}, kMaxBoxCells}) {
      SCOPED_TRACE(std::to_string(budget) + " pairs, box " + std::to_string(box));
      const CoreCells split = sparse_core_cells(g, nb, h, thr, budget, box);
      expect_same(split, whole);
      EXPECT_EQ(split.evaluated, whole.evaluated);
    }
  expect_same(find_core_cells(g, nb, densify(h), thr), whole);
}

}  // namespace
}  // namespace dpclust::dpdbscan
