#pragma once
// The three noise distributions of the DP histogram (Sec. 2, Thm 2.6-2.8, Sec. 7.1), with what
// Algorithm 2 needs of each: the upper tail probability p = Pr[Z >= theta] (Alg. 2 line 8) and a draw
// from Z conditioned on Z >= theta (line 12). All randomness comes from the trial's Rng.
//
//   laplace    Lap(b), b = Delta_1 / eps                         (Thm 2.6; pure eps-DP)
//   geometric  two-sided geometric, Pr[Z = z] ∝ q^|z|, q = exp(-eps / Delta_1)   (Thm 2.7; pure eps-DP)
//   gaussian   N(0, sigma^2), sigma = sqrt(2 ln(1.25/delta)) Delta_2 / eps        ((eps, delta)-DP for
//              eps < 1, Dwork & Roth Thm A.1; the Gamma_Gauss of Sec. 7.1 is written for this sigma)
//
// Sensitivity of a histogram (Sec. 2): Delta_1 = 1 and Delta_2 = 1 under unbounded DP (add/remove one
// point, the paper's default); Delta_1 = 2, Delta_2 = sqrt(2) under bounded DP (change one point).
#include <string>

#include "core/rng.hpp"

namespace dpclust::dpdbscan {

enum class NoiseKind { laplace, geometric, gaussian };
NoiseKind parse_noise(const std::string& name);
const char* to_string(NoiseKind k);

class Noise {
 public:
  // Throws InputError for eps <= 0, or gaussian with delta outside (0, 1) or eps >= 1.
  Noise(NoiseKind kind, double epsilon, double delta, bool bounded_dp);

  NoiseKind kind() const { return kind_; }
  double epsilon() const { return epsilon_; }
  double delta() const { return delta_; }
  double l1_sensitivity() const { return l1_; }
  double l2_sensitivity() const { return l2_; }
  // Laplace: b; geometric: the scale 1/eps' of the exponent (|z| eps'); gaussian: sigma.
  double scale() const { return scale_; }
  // eps / Delta_1: the per-unit privacy parameter that enters the concentration bounds.
  double eps_unit() const { return epsilon_ / l1_; }

  double draw(Rng& rng) const;
  // Pr[Z >= theta] for theta >= 0.
  double tail_probability(double theta) const;
  // Z conditioned on Z >= theta (theta >= 0):
  //   laplace: inverse CDF, theta + b ln(1 / (1 - U)) (Sec. 6, "inverse transform sampling");
  //   geometric: ceil(theta) + G with G geometric on {0, 1, ...}, ratio q (memorylessness);
  //   gaussian: exact rejection (plain for theta < sigma, Marsaglia's tail method beyond).
  double draw_tail(Rng& rng, double theta) const;
  // The theta that makes Pr[Z >= theta] = p (0 < p <= 1/2); used for the gaussian linear histogram.
  double upper_quantile(double p) const;

  std::string describe() const;  // e.g. "Laplace, L1 sensitivity 1 (unbounded DP)"

 private:
  double geometric_draw(Rng& rng) const;  // G on {0,1,...}, Pr[G >= k] = q^k
  NoiseKind kind_;
  double epsilon_, delta_;
  double l1_, l2_;
  double scale_ = 0;
  double q_ = 0;  // geometric ratio
};

}  // namespace dpclust::dpdbscan
