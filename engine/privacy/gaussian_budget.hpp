#pragma once
// An (eps, delta) budget spent as Gaussian releases that compose into ONE Gaussian mechanism.
//
// The budget is the Gaussian mechanism of L2 sensitivity 1 and standard deviation sigma0 that is (eps, delta)-DP
// (its "unit sigma"). A release of L2 sensitivity D_i that takes the share w_i of the budget gets
//   sigma_i = D_i sigma0 / sqrt(w_i),   i.e. (D_i / sigma_i)^2 = w_i / sigma0^2,
// and releases whose shares add up to at most 1 -- chosen adaptively, each on the previous ones' output --
// are together no less private than the unit mechanism:
//   textbook (continuous Gaussian): the release i is mu_i-GDP with mu_i = D_i / sigma_i, adaptive composition
//     of GDP is mu-GDP with mu^2 = sum_i mu_i^2 <= 1 / sigma0^2 (Dong, Roth & Su, "Gaussian Differential Privacy",
//     JRSS-B 2022, Cor. 3.3), and mu-GDP is (eps, delta)-DP exactly when Balle & Wang's condition holds at
//     sigma = 1 / mu (ibid. Cor. 2.13 = Balle & Wang 2018, Thm 8): sigma0 = analytic_gaussian_sigma(eps, delta, 1);
//   secure (discrete Gaussian on integer queries): the release i is rho_i-zCDP with rho_i = D_i^2 / (2 sigma_i^2)
//     (Canonne, Kamath & Steinke 2020, Thm 14, any dimension), zCDP composes by adding rho (Bun & Steinke 2016,
//     Lemma 2.3), and sum_i rho_i <= 1 / (2 sigma0^2) is (eps, delta)-DP with sigma0 = zcdp_gaussian_sigma(eps,
//     delta, 1) (CKS20 Cor. 13).
// What FastLloyd's code does by hand (server.py dp_setup: one GaussianAnalytic of sensitivity 1 for the whole run,
// its scale multiplied per release), as one object that records the account and derives every sigma itself.
//
// The ledger (core/ledger.hpp, joint accounts): the budget records one joint_total entry (eps, delta, the
// accountant); every release records its typed step entry (discrete_gaussian or gaussian (textbook), its L2
// sensitivity) with epsilon = delta = 0 in that account. A release's sigma is rounded up by a factor 1 + 2^-40,
// which covers the doubles' rounding of the shares and of the quotient; shares adding up to more than 1 + 1e-12
// are refused (std::logic_error: a programming error, the caller's split is public arithmetic).
#include <string>

#include "core/ledger.hpp"
#include "privacy/joint_account.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::privacy {

class GaussianBudget {
 public:
  // Records the account {name, eps, delta}; std::invalid_argument unless eps > 0 finite and delta in (0, 1).
  GaussianBudget(BudgetLedger& ledger, Sampler sampler, double epsilon, double delta, std::string name,
                 std::string note);

  // sigma0 for (eps, delta) without building anything (the iteration rules need it before the run).
  static double unit_sigma_for(Sampler sampler, double epsilon, double delta);

  Sampler sampler() const { return sampler_; }
  double unit_sigma() const { return sigma0_; }
  double shares_used() const { return used_; }
  // A release of L2 sensitivity `l2_sensitivity` taking `share` (in (0, 1]) of the budget.
  JointGaussianNoise release(double share, double l2_sensitivity, std::string step, std::string note);
  // The sigma release() derives (before the ledger's noise scale), for planning.
  double sigma_of(double share, double l2_sensitivity) const;

 private:
  Sampler sampler_;
  double sigma0_;  // before the account: an unusable (eps, delta) is refused before anything is recorded
  JointAccount account_;
  double used_ = 0;
};

}  // namespace dpclust::privacy
