// The LSH prefix tree with private counts; see lsh_tree.hpp.
#include "lsh_clustering/lsh_tree.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace dpclust::lsh {

RowMatrix simhash_projections(std::size_t d, int max_depth, Rng& rng) {
  if (max_depth < 0) throw std::invalid_argument("simhash_projections: max_depth must be >= 0");
  RowMatrix v(static_cast<Eigen::Index>(max_depth), static_cast<Eigen::Index>(d));
  for (Eigen::Index l = 0; l < v.rows(); ++l)
    for (Eigen::Index j = 0; j < v.cols(); ++j) v(l, j) = rng.normal();
  return v;
}

LshTree build_lsh_tree(const double* points, std::size_t n, std::size_t d, const RowMatrix& projections,
                       const TreeParams& params, std::int64_t root_private_count,
                       const privacy::JointCountNoise& counts, Rng& rng) {
  if (projections.rows() != params.max_depth || projections.cols() != static_cast<Eigen::Index>(d))
    throw std::invalid_argument("build_lsh_tree: the projections must be max_depth x d");
  if (params.max_depth > 63)
    throw std::invalid_argument("build_lsh_tree: max_depth must be at most 63 (the prefix is 64 bits)");
  LshTree tree;
  tree.order.resize(n);
  std::iota(tree.order.begin(), tree.order.end(), std::size_t{0});
  LshNode root;
  root.begin = 0;
  root.end = n;
  root.private_count = std::max<std::int64_t>(1, root_private_count);
  tree.levels.push_back({root});

  // Every point's whole hash, bit l = the character at prefix length l ('1' when <x, v_l> < 0), in one
  // sequential pass: the same dot products group_by_next_hash computes level by level, for every point
  // instead of those of branching nodes only (the hash of a point does not depend on the tree).
  // The vectors are read transposed (d x max_depth) so that the inner loop runs over the levels; each dot
  // product is still summed over j in order, so the bits do not depend on the layout.
  const std::size_t depth = static_cast<std::size_t>(params.max_depth);
  std::vector<double> vt(d * depth);
  for (std::size_t l = 0; l < depth; ++l)
    for (std::size_t j = 0; j < d; ++j)
      vt[j * depth + l] = projections(static_cast<Eigen::Index>(l), static_cast<Eigen::Index>(j));
  std::vector<std::uint64_t> hash(n, 0);
  std::vector<double> dot(depth);
  for (std::size_t i = 0; i < n; ++i) {
    const double* x = points + i * d;
    std::fill(dot.begin(), dot.end(), 0.0);
    for (std::size_t j = 0; j < d; ++j) {
      const double xj = x[j];
      const double* v = vt.data() + j * depth;
      for (std::size_t l = 0; l < depth; ++l) dot[l] += xj * v[l];
    }
    std::uint64_t h = 0;
    for (std::size_t l = 0; l < depth; ++l) h |= static_cast<std::uint64_t>(dot[l] < 0) << l;
    hash[i] = h;
  }

  std::vector<std::size_t> scratch;  // the '1' points of the node being split
  for (int level = 0; level < params.max_depth; ++level) {
    std::vector<LshNode>& nodes = tree.levels[static_cast<std::size_t>(level)];
    std::vector<LshNode> next;
    const std::uint64_t mask = std::uint64_t{1} << level;
    for (LshNode& node : nodes) {
      if (node.private_count < params.min_points_in_branching_node) continue;  // filter_branching_nodes
      // group_by_next_hash: '0' for <x, v_l> >= 0, '1' otherwise; a stable partition keeps index order.
      scratch.clear();
      std::size_t write = node.begin;
      for (std::size_t t = node.begin; t < node.end; ++t) {
        const std::size_t i = tree.order[t];
        if ((hash[i] & mask) == 0) tree.order[write++] = i;
        else scratch.push_back(i);
      }
      const std::size_t zeros = write - node.begin;
      std::copy(scratch.begin(), scratch.end(), tree.order.begin() + static_cast<std::ptrdiff_t>(write));
      // children(): both children get a private count; get_next_level keeps those with enough points.
      for (int c = 0; c < 2; ++c) {
        LshNode child;
        child.level = level + 1;
        child.prefix = node.prefix | (static_cast<std::uint64_t>(c) << level);
        child.begin = c == 0 ? node.begin : node.begin + zeros;
        child.end = c == 0 ? node.begin + zeros : node.end;
        child.private_count = static_cast<std::int64_t>(child.size()) + counts.noise(rng);
        ++tree.count_draws;
        if (child.private_count >= params.min_points_in_node) {
          ++node.children;
          next.push_back(child);
        }
      }
    }
    if (next.empty()) break;
    tree.levels.push_back(std::move(next));
  }
  for (const auto& level : tree.levels)
    for (const LshNode& node : level)
      if (node.children == 0) tree.leaves.push_back(node);
  return tree;
}

}  // namespace dpclust::lsh
