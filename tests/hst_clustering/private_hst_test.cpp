// The private HST and the dynamic program on it, on cases small enough to compute by hand: the tree of a few
// points on [0, 1] with known split fractions (zero noise: every occupied cell), its completion nodes, cell ids
// and boxes, the k-median / k-means costs and the centres the authors' dynamic program picks (their tie rule,
// their order, a completion node's centre at its parent's midpoint, fewer centres than k).
#include "hst_clustering/private_hst.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hst_clustering/hst_clustering.hpp"
#include "hst_clustering/tree_solution.hpp"

namespace dpclust::hst {
namespace {

// Zero-noise counts: tau = 1, every occupied cell released with its exact count.
struct ExactCounts {
  BudgetLedger ledger{1.0, 1e-5};
  privacy::GaussianThresholding counts;
  explicit ExactCounts(std::uint64_t cells)
      : counts([&] {
          ledger.set_noise_scale(0);
          return privacy::GaussianThresholding::build(ledger, privacy::Sampler::secure, cells, 1.0, 1e-5, 0.5,
                                                      "test counts", "");
        }()) {}
};

Bounds unit_interval() { return Bounds{{0.0}, {1.0}}; }

CellStreams test_streams() { return CellStreams(ChaChaKey{}, 0, Randomness::seeded); }

// 1-D points on [0, 1], two layers, both split at the middle: root [0, 1]; [0.5, 1] (2 points) and [0, 0.5]
// (4 points); then [0.75, 1] (2), [0.5, 0.75] (empty: a completion node), [0.25, 0.5] (1), [0, 0.25] (3).
PrivateHst hand_tree() {
  static const std::vector<double> x = {0.1, 0.8, 0.3, 0.1, 0.85, 0.2};
  ExactCounts exact(2);
  return build_private_hst(x.data(), x.size(), 1, unit_interval(), SplitFractions(2, 1, {0.5, 0.5}), exact.counts,
                           false, test_streams());
}

TEST(PrivateHst, HandTreeHasTheOccupiedCellsAndOneCompletionNode) {
  const PrivateHst t = hand_tree();
  ASSERT_EQ(t.nodes.size(), 7u);
  EXPECT_EQ(t.released_cells, 5u);  // the root's count is not released
  EXPECT_EQ(t.completion_nodes, 1u);
  EXPECT_EQ(t.leaves, 4u);
  EXPECT_EQ(t.depth, 2u);
  EXPECT_EQ(t.cells_noised, 5u);  // the empty cell draws nothing
  const std::vector<std::string> ids = {"", "0", "1", "00", "01", "10", "11"};
  const std::vector<double> weights = {6, 2, 4, 2, 0, 1, 3}, diameters = {1, 0.5, 0.5, 0.25, 0.25, 0.25, 0.25};
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(cell_id(t, i), ids[i]) << i;
    EXPECT_EQ(t.nodes[i].weight, weights[i]) << i;
    EXPECT_EQ(t.nodes[i].diameter, diameters[i]) << i;
  }
  EXPECT_EQ(t.nodes[4].kind, NodeKind::completion);
  EXPECT_EQ(t.nodes[0].kind, NodeKind::root);
  EXPECT_EQ(t.nodes[1].upper, 3);
  EXPECT_EQ(t.nodes[1].lower, 4);
  std::vector<double> lo, hi;
  cell_box(t, 5, unit_interval(), SplitFractions(2, 1, {0.5, 0.5}), lo, hi);
  EXPECT_EQ(lo[0], 0.25);
  EXPECT_EQ(hi[0], 0.5);
  EXPECT_EQ(cell_midpoint(t, 6, unit_interval(), SplitFractions(2, 1, {0.5, 0.5}))[0], 0.125);
}

TEST(TreeSolution, HandComputedKMeansCostsAndCentres) {
  // Squared diameters 0.25 (level 1) and 0.0625 (level 2). Node [0, 0.5] with budget 1: k1 = 0 gives
  // 2 (0.0625)(1) + 0.0625 (3) = 0.3125, k1 = 1 gives 0.0625 + 2 (0.0625)(3) = 0.4375. The root:
  //   k = 1: lower gets it: 2 (0.25)(2) + 0.3125 = 1.3125 (upper's 0.125 + 2 (0.25)(4) = 2.125);
  //   k = 2: one each: 0.125 + 0.3125 = 0.4375;
  //   k = 3: lower 2 (0.0625 + 0.1875 = 0.25), upper 1: 0.375;
  //   k = 4: still 0.375 (the empty cell is worth nothing): 3 centres.
  const PrivateHst t = hand_tree();
  const SplitFractions s(2, 1, {0.5, 0.5});
  auto centres = [&](const TreeSolution& sol) {
    std::vector<double> c;
    for (std::int32_t v : sol.centre_nodes)
      c.push_back(cell_midpoint(t, static_cast<std::size_t>(v), unit_interval(), s)[0]);
    return c;
  };
  const TreeSolution k1 = solve_on_tree(t, 1, Objective::kmeans);
  EXPECT_DOUBLE_EQ(k1.tree_cost, 1.3125);
  EXPECT_EQ(centres(k1), std::vector<double>({0.125}));
  const TreeSolution k2 = solve_on_tree(t, 2, Objective::kmeans);
  EXPECT_DOUBLE_EQ(k2.tree_cost, 0.4375);
  EXPECT_EQ(centres(k2), std::vector<double>({0.125, 0.875}));  // the lower subtree's centres first
  const TreeSolution k3 = solve_on_tree(t, 3, Objective::kmeans);
  EXPECT_DOUBLE_EQ(k3.tree_cost, 0.375);
  EXPECT_EQ(centres(k3), std::vector<double>({0.125, 0.375, 0.875}));
  const TreeSolution k4 = solve_on_tree(t, 4, Objective::kmeans);
  EXPECT_DOUBLE_EQ(k4.tree_cost, 0.375);
  EXPECT_EQ(k4.centre_nodes, k3.centre_nodes);
}

TEST(TreeSolution, HandComputedKMedianCosts) {
  // Diameters 0.5 and 0.25: k = 1: lower [0, 0.5] at budget 1 costs min(2 (0.25) + 0.75, 0.25 + 2 (0.25)(3)) =
  // 1.25, plus 2 (0.5)(2) = 2 for the upper cell: 3.25; k = 2: 0.5 (upper leaf [0.75, 1]) + 1.25 = 1.75.
  const PrivateHst t = hand_tree();
  EXPECT_DOUBLE_EQ(solve_on_tree(t, 1, Objective::kmedian).tree_cost, 3.25);
  EXPECT_DOUBLE_EQ(solve_on_tree(t, 2, Objective::kmedian).tree_cost, 1.75);
  EXPECT_THROW(solve_on_tree(t, 0, Objective::kmedian), std::invalid_argument);
}

TEST(TreeSolution, ACompletionNodeGivenABudgetTakesItsParentsMidpoint) {
  // Points at 0.8 and 0.85 only: the root's lower cell [0, 0.5] is empty (a completion node of weight 0), and so
  // is [0.5, 0.75] below the upper one. With k = 2 the root's first minimiser gives the upper cell 1 (k1 = 0
  // costs 2 (0.25)(2) = 1, k1 = 1 costs 0.125) and the empty lower cell the other: its centre is the root's
  // midpoint, 0.5 (dynamic_program._get_center strips the empty node's last id character).
  const std::vector<double> x = {0.8, 0.85};
  ExactCounts exact(2);
  const SplitFractions s(2, 1, {0.5, 0.5});
  const PrivateHst t = build_private_hst(x.data(), 2, 1, unit_interval(), s, exact.counts, false, test_streams());
  ASSERT_EQ(t.completion_nodes, 2u);
  const TreeSolution sol = solve_on_tree(t, 2, Objective::kmeans);
  ASSERT_EQ(sol.centre_nodes.size(), 2u);
  EXPECT_EQ(t.nodes[static_cast<std::size_t>(sol.centre_nodes[0])].kind, NodeKind::completion);
  EXPECT_EQ(cell_id(t, static_cast<std::size_t>(sol.centre_nodes[0])), "1");
  EXPECT_EQ(cell_id(t, static_cast<std::size_t>(sol.centre_nodes[1])), "00");
  EXPECT_DOUBLE_EQ(sol.tree_cost, 0.125);
}

TEST(TreeSolution, CappedBudgetsGiveTheFullDynamicProgramsChoices) {
  // The full program (every budget 0..k at every node, every split scanned) written out here naively, against
  // solve_on_tree's capped one, on a random tree of a few hundred points: the same costs and the same centres.
  Rng g(11);
  std::vector<double> x(2 * 400);
  for (std::size_t i = 0; i < 400; ++i) {
    const double cx = static_cast<double>(i % 5) * 0.2 + 0.1, cy = static_cast<double>((i / 5) % 3) * 0.3 + 0.15;
    x[2 * i] = std::clamp(cx + 0.03 * g.normal(), 0.0, 1.0);
    x[2 * i + 1] = std::clamp(cy + 0.03 * g.normal(), 0.0, 1.0);
  }
  BudgetLedger ledger(1.0, 1e-5);
  // Noisy counts (eps 4, small tau) so that weights are not integers and ties are rare but possible.
  const auto counts =
      privacy::GaussianThresholding::build(ledger, privacy::Sampler::textbook, 12, 4.0, 0.2, 0.5, "test counts", "");
  const SplitFractions s(6, 2, {0.4, 0.6, 0.35, 0.5, 0.62, 0.45, 0.5, 0.5, 0.38, 0.61, 0.55, 0.41});
  const PrivateHst t = build_private_hst(x.data(), 400, 2, Bounds{{0, 0}, {1, 1}}, s, counts, false,
                                         CellStreams(ChaChaKey{}, 3, Randomness::seeded));
  ASSERT_GT(t.leaves, 12u);
  for (std::size_t k : {1u, 3u, 8u, 15u, 40u}) {
    // The naive program: full tables of k + 1 costs, the authors' loop.
    const std::size_t n = t.nodes.size();
    std::vector<std::vector<double>> cost(n, std::vector<double>(k + 1));
    std::vector<std::vector<std::size_t>> upper(n, std::vector<std::size_t>(k + 1));
    for (std::size_t i = n; i-- > 0;) {
      const HstNode& v = t.nodes[i];
      const double dp = v.diameter * v.diameter;
      cost[i][0] = 2 * dp * v.weight;
      for (std::size_t b = 1; b <= k; ++b) {
        if (v.leaf()) {
          cost[i][b] = dp * v.weight;
          continue;
        }
        double best = 4294967296.0;
        for (std::size_t k1 = 0; k1 <= b; ++k1) {
          const double c =
              cost[static_cast<std::size_t>(v.upper)][k1] + cost[static_cast<std::size_t>(v.lower)][b - k1];
          if (c < best) best = c, upper[i][b] = k1;
        }
        cost[i][b] = best;
      }
    }
    std::vector<std::int32_t> centres;
    std::vector<std::pair<std::int32_t, std::size_t>> stack{{0, k}};
    while (!stack.empty()) {
      const auto [node, b] = stack.back();
      stack.pop_back();
      const HstNode& v = t.nodes[static_cast<std::size_t>(node)];
      if (b == 0) continue;
      if (v.leaf()) {
        centres.push_back(node);
        continue;
      }
      const std::size_t k1 = upper[static_cast<std::size_t>(node)][b];
      stack.push_back({v.upper, k1});
      stack.push_back({v.lower, b - k1});
    }
    const TreeSolution sol = solve_on_tree(t, k, Objective::kmeans);
    EXPECT_EQ(sol.tree_cost, cost[0][k]) << k;
    EXPECT_EQ(sol.centre_nodes, centres) << k;
  }
}

TEST(SplitFractions, DrawnInTheAuthorsRangeFromTheirOwnStreams) {
  const SplitFractions s = draw_split_fractions(10, 3, test_streams());
  ASSERT_EQ(s.values().size(), 30u);
  for (double f : s.values()) {
    EXPECT_GE(f, 1.0 / 3.0);
    EXPECT_LT(f, 2.0 / 3.0);
  }
  // The same key gives the same fractions; fraction (l, j) does not depend on how many are drawn.
  const SplitFractions fewer = draw_split_fractions(2, 3, test_streams());
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(fewer.values()[i], s.values()[i]);
  EXPECT_THROW(SplitFractions(1, 2, {0.5}), std::invalid_argument);
  EXPECT_THROW(SplitFractions(1, 1, {1.0}), std::invalid_argument);
}

}  // namespace
}  // namespace dpclust::hst
