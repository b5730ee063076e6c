// The automatic thresholds of the LSH prefix tree; see tree_params.hpp.
#include "lsh_clustering/tree_params.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dpclust::lsh {

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  if (b <= 0) throw std::invalid_argument("floor_div: the divisor must be > 0");
  const std::int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

TreeParams default_tree_params(std::size_t k, std::size_t d, double noise_multiplier, std::int64_t root_private_count,
                               int max_depth) {
  if (k < 1 || d < 1) throw std::invalid_argument("default_tree_params: k and d must be >= 1");
  // int(10 * sqrt(d) * sigma / Delta): Python's int() truncates towards 0 (the value is >= 0). Capped far
  // above any count so that the conversion is defined.
  const double low_noise = std::min(10.0 * std::sqrt(static_cast<double>(d)) * noise_multiplier, 9.0e18);
  const auto num_points_for_low_noise = static_cast<std::int64_t>(low_noise);
  const std::int64_t per_cluster = floor_div(root_private_count, 2 * static_cast<std::int64_t>(k));
  TreeParams t;
  t.min_points_in_node = std::max<std::int64_t>(1, std::min(num_points_for_low_noise, per_cluster));
  t.min_points_in_branching_node = 3 * t.min_points_in_node;
  t.max_depth = max_depth;
  return t;
}

}  // namespace dpclust::lsh
