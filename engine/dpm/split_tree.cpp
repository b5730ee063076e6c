#include "dpm/split_tree.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dpclust::dpm {

double count_lower_bound(double noisy_count, double delta_count, double count_epsilon) {
  return std::max(noisy_count + std::log(2 * delta_count) / count_epsilon, 1.0);
}

double split_score_sensitivity(const ScoreWeights& weights, double noisy_count, double delta_count,
                               double count_epsilon) {
  const double n_lower = count_lower_bound(noisy_count, delta_count, count_epsilon);
  return score_sensitivity(weights, noisy_count > 0 ? std::min(noisy_count, n_lower) : n_lower);
}

namespace {

struct Builder {
  const double* x;
  std::size_t d;
  const CandidateGrid& grid;
  const TreeOptions& o;
  const LevelMechanisms& mech;
  Rng& rng;
  SplitTree& tree;
  std::vector<double> scores;
  ScoreScratch scratch;

  void leaf(std::size_t begin, std::size_t end, int level, const std::string& path, double noisy) {
    tree.leaves.push_back({begin, end, level, path, noisy});
  }

  void node(std::size_t begin, std::size_t end, int level, const std::string& path, double noisy) {
    if (level >= o.levels || grid.total() == 0) {
      leaf(begin, end, level, path, noisy);
      return;
    }
    const auto l = static_cast<std::size_t>(level);
    const double sensitivity = split_score_sensitivity(o.weights, noisy, mech.delta_count, mech.count_epsilon[l]);
    node_scores(x, d, tree.order.data() + begin, end - begin, grid, noisy, o.weights, scores, scratch);
    const privacy::ExponentialMechanism* exact = o.sampler == privacy::Sampler::secure ? &mech.exact[l] : nullptr;
    const std::size_t chosen =
        choose_candidate(scores, sensitivity, o.sampler, exact, mech.split_epsilon[l], mech.noise_scale, rng);
    const auto dim = static_cast<std::size_t>(std::upper_bound(grid.offset.begin(), grid.offset.end(), chosen) -
                                              grid.offset.begin()) -
                     1;
    // Skip dimensions without candidates (equal offsets): the chosen index lies in the last one starting at or before
    // it.
    std::size_t j = dim;
    while (grid.count[j] == 0 || chosen >= grid.offset[j] + grid.count[j]) --j;
    const double position = grid.position[chosen];
    // subset_0 = x_j > c first, subset_1 = x_j <= c (the reference's mask (x . e_j - c) <= 0), order kept.
    const auto mid = static_cast<std::size_t>(
        std::stable_partition(tree.order.begin() + static_cast<std::ptrdiff_t>(begin),
                              tree.order.begin() + static_cast<std::ptrdiff_t>(end),
                              [&](std::uint32_t i) { return x[static_cast<std::size_t>(i) * d + j] - position > 0; }) -
        tree.order.begin());
    const privacy::CountMechanism& child_counts = mech.counts[l + 1];
    const double n0 = child_counts.noisy(rng, static_cast<double>(mid - begin));
    const double n1 = child_counts.noisy(rng, static_cast<double>(end - mid));
    if (n0 <= tree.split_limit || n1 <= tree.split_limit) {
      leaf(begin, end, level, path, noisy);
      return;
    }
    tree.splits.push_back({level, path, j, position, noisy});
    node(begin, mid, level + 1, path + "0", n0);
    node(mid, end, level + 1, path + "1", n1);
  }
};

}  // namespace

SplitTree build_split_tree(const double* clamped, std::size_t n, std::size_t d, const CandidateGrid& grid,
                           double root_noisy_count, const TreeOptions& options, const LevelMechanisms& mechanisms,
                           Rng& rng) {
  if (n >= (std::size_t{1} << 32)) throw std::invalid_argument("build_split_tree: at most 2^32 - 1 points");
  const auto levels = static_cast<std::size_t>(options.levels);
  if (mechanisms.counts.size() != levels + 1 || mechanisms.count_epsilon.size() != levels + 1 ||
      mechanisms.split_epsilon.size() != levels ||
      (options.sampler == privacy::Sampler::secure && mechanisms.exact.size() != levels))
    throw std::logic_error(
        "build_split_tree: one count mechanism per level 0..L and one split mechanism per level 0..L-1");
  SplitTree tree;
  tree.order.resize(n);
  for (std::size_t i = 0; i < n; ++i) tree.order[i] = static_cast<std::uint32_t>(i);
  tree.split_limit = root_noisy_count / std::ldexp(1.0, options.levels);
  Builder b{clamped, d, grid, options, mechanisms, rng, tree, {}, {}};
  b.node(0, n, 0, "", root_noisy_count);
  return tree;
}

}  // namespace dpclust::dpm
