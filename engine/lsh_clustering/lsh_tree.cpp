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

LshTree build_lsh_tree(const double* points, std::size_t n, std::size_t d, const RowMatrix& projections, const TreeParams& params,
                       std::int64_t root_private_count, const privacy::JointCountNoise& counts, Rng& rng) {
  if (projections.rows() != params.max_depth || projections.cols() != static_cast<Eigen::Index>(d))
    throw std::invalid_argument("build_lsh_tree: the projections must be max_depth x d");
  if (params.max_depth > 63) throw std::invalid_argument("build_lsh_tree: max_depth must be at most 63 (the prefix is 64 bits)");
  LshTree tree;
  tree.order.resize(n);
  std::iota(tree.order.begin(), tree.order.end(), std::size_t{0});
  LshNode root;
  root.begin = 0;
  root.end = n;
  root.private_count = std::max<std::int64_t>(1, root_private_count);
  tree.levels.push_back({root});

  std::vector<std::size_t> scratch;    // the '1' points of the node being split
  std::vector<unsigned char> bit;      // hash character of each point of that node
  for (int level = 0; level < params.max_depth; ++level) {
    std::vector<LshNode>& nodes = tree.levels[static_cast<std::size_t>(level)];
    std::vector<LshNode> next;
    const double* v = projections.row(level).data();
    for (LshNode& node : nodes) {
      if (node.private_count < params.min_points_in_branching_node) continue;  // filter_branching_nodes
      // group_by_next_hash: '0' for <x, v_l> >= 0, '1' otherwise; a stable partition keeps index order.
      const std::size_t size = node.size();
      bit.resize(size);
      scratch.clear();
      std::size_t zeros = 0;
      for (std::size_t t = 0; t < size; ++t) {
        const double* x = points + tree.order[node.begin + t] * d;
        double dot = 0;
        for (std::size_t j = 0; j < d; ++j) dot += x[j] * v[j];
        bit[t] = dot >= 0 ? 0 : 1;
        zeros += bit[t] == 0;
      }
      std::size_t write = node.begin;
      for (std::size_t t = 0; t < size; ++t) {
        const std::size_t i = tree.order[node.begin + t];
        if (bit[t] == 0) tree.order[write++] = i;
        else scratch.push_back(i);
      }
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
