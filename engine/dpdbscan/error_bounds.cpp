// Gamma / theta formulas; see error_bounds.hpp.
#include "dpdbscan/error_bounds.hpp"

#include <algorithm>
#include <cmath>

namespace dpclust::dpdbscan {
namespace {

// L = ln(2 |X| / beta) = ln(2 / beta_0) with beta_0 = beta / |X|.
double union_log(double beta, double universe) { return std::log(2.0) + std::log(universe) - std::log(beta); }

}  // namespace

double gamma_laplace(double eps_unit, double beta, double kappa, double universe) {
  const double L = union_log(beta, universe);
  return 2.0 * std::sqrt(2.0) / eps_unit * std::max(std::sqrt(kappa * L), L);
}

double gamma_geometric(double eps_unit, double beta, double kappa, double universe) {
  const double L = union_log(beta, universe);
  const double e = std::exp(eps_unit);
  if (kappa >= e * L) return 4.0 * std::sqrt(e) / (e - 1.0) * std::sqrt(kappa * L);
  return 4.0 * e / (e - 1.0) * std::sqrt(kappa) * L;
}

double gamma_gaussian(double sigma, double beta, double kappa, double universe) {
  return sigma * std::sqrt(2.0 * kappa * union_log(beta, universe));
}

double gamma_noise(NoiseKind kind, const privacy::CountMechanism& m, double noise_factor, double beta, double kappa,
                   double universe) {
  if (noise_factor == 0) return 0.0;  // no noise drawn: no error to bound
  const double eps_unit = m.epsilon() / m.sensitivity() / noise_factor;
  switch (kind) {
    case NoiseKind::laplace: return gamma_laplace(eps_unit, beta, kappa, universe);
    case NoiseKind::geometric: return gamma_geometric(eps_unit, beta, kappa, universe);
    case NoiseKind::gaussian: return gamma_gaussian(m.scale() * noise_factor, beta, kappa, universe);
  }
  return 0;
}

double default_theta(NoiseKind kind, const privacy::CountMechanism& m, double noise_factor, double universe, double n) {
  if (noise_factor == 0) return 0.0;
  if (kind == NoiseKind::gaussian) return n >= universe ? 0.0 : m.upper_quantile(0.5 * n / universe);
  return std::max(0.0, std::log(universe / n)) / (m.epsilon() / m.sensitivity() / noise_factor);
}

}  // namespace dpclust::dpdbscan
