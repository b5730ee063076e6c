#pragma once
// Noise for steps that one accountant calibrates together (core/ledger.hpp, "Joint accounts").
//
// Sequential composition adds the steps' epsilons and deltas. An accountant that composes the steps'
// privacy-loss distributions (or their Renyi divergences) certifies the same total (eps, delta) with less
// noise, but then no step has an (eps_i, delta_i) of its own that adds up to the total. Google's DP
// clustering (lsh_clustering) calibrates a Gaussian sum release and max_depth + 1 levels of discrete
// Laplace counts that way. Here:
//   JointAccount      records the account's entry: the (eps, delta) the accountant certifies for all the
//                     steps built on it, with the accountant's name;
//   JointCountNoise   discrete Laplace noise of a given scale for counts (a step of the account);
//   JointGaussianNoise Gaussian noise of a given sigma for a vector of sums (a step of the account):
//                     the exact discrete Gaussian on integers (secure), or N(0, sigma^2) on doubles
//                     (textbook, not floating-point safe).
// Each step records its typed entry (mechanism, sensitivity, norm, measure) with epsilon = delta = 0 and
// the account's name; BudgetLedger::verify() checks the account is there. The scales are the caller's:
// it computes them with the accountant it names (lsh_clustering/noise_calibration.hpp) and must certify
// them at the scales actually drawn (the rationals below round the scales up, never down).
//
// Testable noise: every draw is multiplied by the ledger's noise_scale() (0 = no noise), as in
// privacy/mechanism.hpp.
#include <cstdint>
#include <string>

#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"
#include "privacy/samplers.hpp"

namespace dpclust::privacy {

class JointAccount {
 public:
  // Records {step: name, epsilon, delta, mechanism: accountant, joint: name, joint_total}. Throws
  // std::invalid_argument unless epsilon is finite and > 0 and delta in [0, 1); the ledger refuses an
  // approximate entry in a pure ledger (std::logic_error).
  JointAccount(BudgetLedger& ledger, std::string name, std::string accountant, double epsilon, double delta,
               std::string note);
  const std::string& name() const { return name_; }
  BudgetLedger& ledger() const { return *ledger_; }

 private:
  BudgetLedger* ledger_;
  std::string name_;
};

// Pr[Z = z] ∝ exp(-|z| / scale) on the integers (CKS20 Alg. 2) for counts of L1 sensitivity
// `l1_sensitivity`; scale rounded up to a rational. Pure DP: a count of sensitivity s is (s / scale)-DP
// on its own; the account composes it.
class JointCountNoise {
 public:
  JointCountNoise(const JointAccount& account, double scale, double l1_sensitivity, std::string step, std::string note);
  std::int64_t noise(Rng& rng) const;
  // The scale the draws use (the rational, times the noise factor); 0 when the noise is off.
  double scale() const { return drawn_scale_; }

 private:
  Rational exact_{1, 1};
  double drawn_scale_ = 0;
};

// Gaussian noise of standard deviation sigma per coordinate for a vector query of L2 sensitivity
// `l2_sensitivity`. secure: the discrete Gaussian N_Z(0, sigma^2) with sigma^2 rounded up to a rational
// (CKS20 Alg. 3; the query must be integer-valued), which satisfies the continuous Gaussian's Renyi
// divergences (CKS20 Theorem 14: (Delta^2 / (2 sigma^2))-zCDP in any dimension); textbook: N(0, sigma^2)
// by Box-Muller on doubles (flagged by the caller).
class JointGaussianNoise {
 public:
  JointGaussianNoise(const JointAccount& account, Sampler sampler, double sigma, double l2_sensitivity,
                     std::string step, std::string note);
  // secure only (std::logic_error otherwise)
  std::int64_t integer_noise(Rng& rng) const;
  // textbook only (std::logic_error otherwise)
  double real_noise(Rng& rng) const;
  Sampler sampler() const { return sampler_; }
  // The standard deviation the draws use (secure: sqrt of the rational sigma^2), times the noise factor.
  double sigma() const { return drawn_sigma_; }

 private:
  Sampler sampler_ = Sampler::secure;
  Rational sigma2_{1, 1};
  double drawn_sigma_ = 0;
};

}  // namespace dpclust::privacy
