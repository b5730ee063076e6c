// An (eps, delta) budget spent as Gaussian releases composing into one Gaussian mechanism; see gaussian_budget.hpp.
#include "privacy/gaussian_budget.hpp"

#include <cmath>
#include <stdexcept>

#include "privacy/gaussian_calibration.hpp"

namespace dpclust::privacy {
namespace {

// The factor every sigma is raised by: it covers the rounding of the shares (each a few ulps) and of the
// quotient, so that the precisions (D_i / sigma_i)^2 really add up to at most 1 / sigma0^2.
constexpr double kSigmaMargin = 1.0 + 0x1p-40;
constexpr double kShareTolerance = 1e-12;

const char* accountant_of(Sampler s) {
  return s == Sampler::secure
             ? "gaussian composition: zCDP (Bun & Steinke 2016; CKS20 Thm 14, Cor 13)"
             : "gaussian composition: mu-GDP (Dong, Roth & Su 2022, Cor 3.3; Balle & Wang 2018, Thm 8)";
}

}  // namespace

double GaussianBudget::unit_sigma_for(Sampler sampler, double epsilon, double delta) {
  // The calibration is a bisection (about a millisecond for zCDP); a method plans, checks and builds its budget
  // with the same (eps, delta), so the last answer of this thread is kept.
  struct Last {
    Sampler sampler;
    double epsilon, delta, sigma;
    bool valid = false;
  };
  thread_local Last last;
  if (last.valid && last.sampler == sampler && last.epsilon == epsilon && last.delta == delta) return last.sigma;
  const double sigma = sampler == Sampler::secure ? zcdp_gaussian_sigma(epsilon, delta, 1.0)
                                                  : analytic_gaussian_sigma(epsilon, delta, 1.0);
  last = {sampler, epsilon, delta, sigma, true};
  return sigma;
}

GaussianBudget::GaussianBudget(BudgetLedger& ledger, Sampler sampler, double epsilon, double delta, std::string name,
                               std::string note)
    : sampler_(sampler),
      sigma0_(unit_sigma_for(sampler, epsilon, delta)),
      account_(ledger, std::move(name), accountant_of(sampler), epsilon, delta, std::move(note)) {}

double GaussianBudget::sigma_of(double share, double l2) const {
  if (!(share > 0 && share <= 1)) throw std::invalid_argument("privacy: a Gaussian budget share must be in (0, 1]");
  return l2 * sigma0_ / std::sqrt(share) * kSigmaMargin;
}

JointGaussianNoise GaussianBudget::release(double share, double l2, std::string step, std::string note) {
  const double sigma = sigma_of(share, l2);
  if (used_ + share > 1 + kShareTolerance)
    throw std::logic_error("privacy: the releases of the Gaussian budget '" + account_.name() +
                           "' take more than all of it");
  used_ += share;
  return JointGaussianNoise(account_, sampler_, sigma, l2, std::move(step), std::move(note));
}

}  // namespace dpclust::privacy
