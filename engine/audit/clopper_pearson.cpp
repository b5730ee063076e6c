// Clopper-Pearson bounds and the epsilon lower bound; see clopper_pearson.hpp.
#include "audit/clopper_pearson.hpp"

#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <stdexcept>

namespace dpclust::audit {

double clopper_pearson_lower(std::uint64_t k, std::uint64_t n, double level) {
  if (n == 0 || k > n || !(level > 0 && level < 1)) throw std::invalid_argument("clopper_pearson_lower: bad arguments");
  if (k == 0) return 0.0;
  return boost::math::ibeta_inv(static_cast<double>(k), static_cast<double>(n - k + 1), 1.0 - level);
}

double clopper_pearson_upper(std::uint64_t k, std::uint64_t n, double level) {
  if (n == 0 || k > n || !(level > 0 && level < 1)) throw std::invalid_argument("clopper_pearson_upper: bad arguments");
  if (k == n) return 1.0;
  return boost::math::ibeta_inv(static_cast<double>(k + 1), static_cast<double>(n - k), level);
}

EpsilonBound epsilon_lower_bound(std::uint64_t k_d, std::uint64_t n_d, std::uint64_t k_dp, std::uint64_t n_dp,
                                 double delta, double confidence) {
  const double side = 1.0 - (1.0 - confidence) / 2.0;
  EpsilonBound b;
  b.p_lo = clopper_pearson_lower(k_d, n_d, side);
  b.p_hi = clopper_pearson_upper(k_dp, n_dp, side);
  const double num = b.p_lo - delta;
  b.eps_lower = num > 0 && b.p_hi > 0 ? std::max(0.0, std::log(num / b.p_hi)) : 0.0;
  return b;
}

}  // namespace dpclust::audit
