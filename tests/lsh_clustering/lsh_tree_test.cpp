// The LSH prefix tree and its automatic thresholds, by hand (lsh_tree.hpp, tree_params.hpp).
#include "lsh_clustering/lsh_tree.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lsh_clustering/tree_params.hpp"
#include "privacy/joint_account.hpp"

namespace dpclust::lsh {
namespace {

TEST(TreeParams, FloorDivisionIsPythons) {
  EXPECT_EQ(floor_div(7, 2), 3);
  EXPECT_EQ(floor_div(-7, 2), -4);
  EXPECT_EQ(floor_div(-8, 2), -4);
  EXPECT_EQ(floor_div(0, 5), 0);
  EXPECT_EQ(floor_div(-1, 128), -1);
}

TEST(TreeParams, ReferenceRuleByHand) {
  // synth_10d at eps = 1, delta = 1e-6 (pld): sigma / Delta = 4.3334419302790765.
  //   int(10 sqrt(10) 4.33344...) = int(137.034...) = 137; n~ = 100000, k = 64: 100000 // 128 = 781;
  //   min(137, 781) = 137, branching 3 * 137 = 411.
  TreeParams t = default_tree_params(64, 10, 4.3334419302790765, 100000, 20);
  EXPECT_EQ(t.min_points_in_node, 137);
  EXPECT_EQ(t.min_points_in_branching_node, 411);
  EXPECT_EQ(t.max_depth, 20);
  // Few points per cluster: n~ = 5000, k = 64: 5000 // 128 = 39 < 137.
  t = default_tree_params(64, 10, 4.3334419302790765, 5000, 20);
  EXPECT_EQ(t.min_points_in_node, 39);
  EXPECT_EQ(t.min_points_in_branching_node, 117);
  // A negative private count: -5 // 4 = -2, max(1, min(.., -2)) = 1 (the max comes last).
  t = default_tree_params(2, 10, 4.0, -5, 7);
  EXPECT_EQ(t.min_points_in_node, 1);
  EXPECT_EQ(t.min_points_in_branching_node, 3);
  EXPECT_EQ(t.max_depth, 7);
  // d = 100 (synth_big1), sigma / Delta = 0.5: int(10 * 10 * 0.5) = 50.
  t = default_tree_params(8, 100, 0.5, 1000000, 20);
  EXPECT_EQ(t.min_points_in_node, 50);
  EXPECT_THROW(default_tree_params(0, 10, 1.0, 100, 20), std::invalid_argument);
}

// Points in the four quadrants of the plane; projections e_x then e_y, so the hash characters are
// '0' for x >= 0 (level 1) and '0' for y >= 0 (level 2).
struct Quadrants {
  std::vector<double> x;
  std::size_t n = 0;
  void add(double a, double b, int copies) {
    for (int i = 0; i < copies; ++i) {
      x.push_back(a);
      x.push_back(b);
      ++n;
    }
  }
};

TEST(LshTree, BranchesOnNoiselessCountsAsTheReference) {
  Quadrants q;
  q.add(1, 1, 10);  // x >= 0, y >= 0: prefix "00"
  q.add(1, -1, 2);  // x >= 0, y < 0:  prefix "01" (below min_points_in_node: pruned)
  q.add(-1, 1, 5);  // x < 0: prefix "1" with 5 + 4 points
  q.add(-1, -1, 4);
  q.add(0, -2, 1);  // <x, e_x> = 0 >= 0: '0'; y < 0: "01"
  BudgetLedger ledger(1.0, 1e-6);
  ledger.set_noise_scale(0);  // counts exact: the tree is a function of the data alone
  const privacy::JointAccount account(ledger, "test", "joint account: test", 1.0, 1e-6, "");
  const privacy::JointCountNoise counts(account, 10.0, 1.0, "counts", "");
  RowMatrix proj(2, 2);
  proj << 1, 0, 0, 1;
  TreeParams t;
  t.min_points_in_node = 4;
  t.min_points_in_branching_node = 10;  // "1" (9 points) does not branch, "0" (13) does
  t.max_depth = 2;
  Rng rng(1);
  const LshTree tree = build_lsh_tree(q.x.data(), q.n, 2, proj, t, static_cast<std::int64_t>(q.n), counts, rng);
  ASSERT_EQ(tree.levels.size(), 3u);
  ASSERT_EQ(tree.levels[1].size(), 2u);
  EXPECT_EQ(tree.levels[1][0].private_count, 13);
  EXPECT_EQ(tree.levels[1][1].private_count, 9);
  ASSERT_EQ(tree.levels[2].size(), 1u);  // "00" (10); "01" has 3 < 4
  EXPECT_EQ(tree.levels[2][0].private_count, 10);
  EXPECT_EQ(tree.levels[2][0].prefix, 0u);
  EXPECT_EQ(tree.count_draws, 4u);  // children of the root and of "0"
  // Leaves level by level: "1" (not branched), then "00"; "0" has a child, so it is no leaf.
  ASSERT_EQ(tree.leaves.size(), 2u);
  EXPECT_EQ(tree.leaves[0].level, 1);
  EXPECT_EQ(tree.leaves[0].prefix, 1u);
  EXPECT_EQ(tree.leaves[0].size(), 9u);
  EXPECT_EQ(tree.leaves[1].level, 2);
  EXPECT_EQ(tree.leaves[1].size(), 10u);
  // Each node's points are contiguous in `order`, in index order.
  for (std::size_t t2 = tree.leaves[1].begin; t2 < tree.leaves[1].end; ++t2)
    EXPECT_EQ(tree.order[t2], t2 - tree.leaves[1].begin);
  for (std::size_t t2 = tree.leaves[0].begin; t2 < tree.leaves[0].end; ++t2) {
    const std::size_t i = tree.order[t2];
    EXPECT_LT(q.x[2 * i], 0.0);
  }
}

TEST(LshTree, ANodeWhoseChildrenAreAllPrunedIsALeaf) {
  Quadrants q;
  q.add(1, 1, 3);
  q.add(-1, 1, 3);
  BudgetLedger ledger(1.0, 1e-6);
  ledger.set_noise_scale(0);
  const privacy::JointAccount account(ledger, "test", "joint account: test", 1.0, 1e-6, "");
  const privacy::JointCountNoise counts(account, 10.0, 1.0, "counts", "");
  RowMatrix proj(3, 2);
  proj << 1, 0, 0, 1, 1, 1;
  TreeParams t;
  t.min_points_in_node = 4;  // neither child of the root (3 points each) joins
  t.min_points_in_branching_node = 5;
  t.max_depth = 3;
  Rng rng(1);
  const LshTree tree = build_lsh_tree(q.x.data(), q.n, 2, proj, t, 6, counts, rng);
  EXPECT_EQ(tree.depth(), 0);
  ASSERT_EQ(tree.leaves.size(), 1u);
  EXPECT_EQ(tree.leaves[0].size(), 6u);
  EXPECT_EQ(tree.count_draws, 2u);
}

TEST(LshTree, RootCountIsRaisedToOneAndMaxDepthStopsTheTree) {
  Quadrants q;
  for (int i = 0; i < 64; ++i) q.add(std::cos(i * 0.1), std::sin(i * 0.1), 1);
  BudgetLedger ledger(1.0, 1e-6);
  ledger.set_noise_scale(0);
  const privacy::JointAccount account(ledger, "test", "joint account: test", 1.0, 1e-6, "");
  const privacy::JointCountNoise counts(account, 10.0, 1.0, "counts", "");
  Rng rng(3);
  const RowMatrix proj = simhash_projections(2, 4, rng);
  ASSERT_EQ(proj.rows(), 4);
  TreeParams t{1, 1, 4};  // every non-empty node branches and joins
  const LshTree deep = build_lsh_tree(q.x.data(), q.n, 2, proj, t, 64, counts, rng);
  EXPECT_EQ(deep.depth(), 4);
  std::size_t in_leaves = 0;
  for (const auto& leaf : deep.leaves) in_leaves += leaf.size();
  EXPECT_EQ(in_leaves, q.n);  // nothing pruned: every point in exactly one leaf
  // A root private count below 1 is raised to 1 (get_private_coreset), so with threshold 1 it branches.
  const LshTree raised = build_lsh_tree(q.x.data(), q.n, 2, proj, t, -40, counts, rng);
  EXPECT_EQ(raised.levels[0][0].private_count, 1);
  EXPECT_GE(raised.depth(), 1);
  EXPECT_THROW(build_lsh_tree(q.x.data(), q.n, 2, RowMatrix(3, 2), t, 64, counts, rng), std::invalid_argument);
}

}  // namespace
}  // namespace dpclust::lsh
