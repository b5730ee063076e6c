// Average p_e (Oya et al. 2017; thesis Eq. 2.2 and Table 5.4); the readings are in privacy.hpp.
#include "ndlaplace/privacy.hpp"

#include <cmath>
#include <stdexcept>

namespace dpclust::ndlaplace {
double euclidean_distance(const double* a, const double* b, std::size_t d) {
  double s = 0.0;
  for (std::size_t j = 0; j < d; ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
  return std::sqrt(s);
}

PePairs parse_pe_pairs(const std::string& name) {
  if (name == "perturbed") return PePairs::perturbed;
  if (name == "original") return PePairs::original;
  if (name == "cross") return PePairs::cross;
  if (name == "self") return PePairs::self;
  throw std::invalid_argument("unknown pe_pairs '" + name + "'");
}

double pe(double eps, double dist) { return 1.0 / (1.0 + std::exp(eps * dist)); }

PeEstimate average_pe(const double* x, const double* z, std::size_t n, std::size_t d, double eps, PePairs pairs,
                      std::uint64_t max_pairs, Rng& rng) {
  PeEstimate out;
  if (n == 0) return out;
  if (pairs == PePairs::self) {
    double s = 0.0;
    for (std::size_t i = 0; i < n; ++i) s += pe(eps, euclidean_distance(x + i * d, z + i * d, d));
    out.value = s / static_cast<double>(n);
    out.pairs = n;
    return out;
  }
  // Rows from a, columns from b.
  const double* a = pairs == PePairs::original ? x : (pairs == PePairs::perturbed ? z : x);
  const double* b = pairs == PePairs::original ? x : z;
  const auto nn = static_cast<std::uint64_t>(n);
  double s = 0.0;
  if (max_pairs == 0 || nn * nn <= max_pairs) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) s += pe(eps, euclidean_distance(a + i * d, b + j * d, d));
    out.value = s / (static_cast<double>(n) * static_cast<double>(n));
    out.pairs = nn * nn;
    return out;
  }
  for (std::uint64_t t = 0; t < max_pairs; ++t) {
    const auto i = static_cast<std::size_t>(rng.below(nn));
    const auto j = static_cast<std::size_t>(rng.below(nn));
    s += pe(eps, euclidean_distance(a + i * d, b + j * d, d));
  }
  out.value = s / static_cast<double>(max_pairs);
  out.pairs = max_pairs;
  out.estimated = true;
  return out;
}

}  // namespace dpclust::ndlaplace
