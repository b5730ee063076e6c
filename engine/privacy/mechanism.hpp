#pragma once
// The one way mechanism code adds noise. A mechanism is built from what the privacy argument needs
// (sensitivity, epsilon[, delta]) and the trial's ledger: building it records the typed ledger entry
// and derives the noise scale from the same numbers, so the budget recorded and the noise drawn cannot
// disagree (Google's differential-privacy library builds its numerical mechanisms the same way;
// OpenDP's measurements carry their privacy map).
//
// Samplers (one choice, declared once: `sampler` in every private method's parameters):
//   secure    integer-valued noise for counts, sampled exactly with integer arithmetic (discrete Laplace,
//             discrete Gaussian; Canonne, Kamath & Steinke 2020), and the snapping mechanism (Mironov
//             2012) for real values: no floating-point artefact reveals anything. The default.
//   textbook  the papers' continuous samplers on doubles (inverse-CDF Laplace, Gaussian), kept for
//             bit-level comparison with the papers; NOT floating-point safe (Mironov 2012), so every
//             result using it is flagged non-private.
//
// Testable noise: every draw is multiplied by the ledger's noise_scale() (1 as calibrated, 0 no noise,
// 0.5 under-noised), see core/ledger.hpp.
#include <cstdint>
#include <memory>
#include <string>

#include "core/ledger.hpp"
#include "core/numpy_random.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"
#include "privacy/samplers.hpp"

namespace dpclust::privacy {

enum class Sampler { secure, textbook };
const char* to_string(Sampler s);
// The `sampler` parameter (secure | textbook, default secure), shared by every private method.
ParamSpec sampler_param();
Sampler sampler_of(const ParamSet& params);
// The non_private note a textbook-sampled result carries.
extern const char* const kTextbookSamplerNote;

enum class CountNoise { laplace, gaussian };

// Integer-valued queries (a count, every cell of a histogram): one ledger entry covers one release
// of any number of disjoint counts (parallel composition is the caller's argument, stated in `note`).
class CountMechanism {
 public:
  // eps-DP, L1 sensitivity: discrete Laplace (= two-sided geometric) of scale l1/eps, or textbook
  // continuous Laplace.
  static CountMechanism laplace(BudgetLedger& ledger, Sampler sampler, double l1_sensitivity, double epsilon,
                                std::string step, std::string note = "");
  // (eps, delta)-DP, L2 sensitivity: sigma = sqrt(2 ln(1.25/delta)) l2 / eps (Dwork & Roth Thm A.1,
  // eps < 1); discrete Gaussian with that sigma^2, or textbook continuous Gaussian.
  static CountMechanism gaussian(BudgetLedger& ledger, Sampler sampler, double l2_sensitivity, double epsilon,
                                 double delta, std::string step, std::string note = "");
  // (eps, delta)-DP at any eps > 0, L2 sensitivity (privacy/gaussian_calibration.hpp): textbook = the
  // continuous Gaussian with Balle & Wang's analytic sigma (diffprivlib's GaussianAnalytic); secure = the
  // discrete Gaussian with the sigma of its rho-zCDP guarantee converted to (eps, delta) (Canonne, Kamath &
  // Steinke 2020, Thm 14 and Cor 13). One entry covers one release of a vector (every coordinate gets
  // this noise) of the given L2 sensitivity, or disjoint such vectors.
  static CountMechanism gaussian_tight(BudgetLedger& ledger, Sampler sampler, double l2_sensitivity, double epsilon,
                                       double delta, std::string step, std::string note = "");

  CountNoise kind() const { return kind_; }
  Sampler sampler() const { return sampler_; }
  double epsilon() const { return epsilon_; }
  double delta() const { return delta_; }
  double sensitivity() const { return sensitivity_; }
  // The calibrated scale: Laplace b = l1/eps, Gaussian sigma.
  double scale() const { return scale_; }

  double noise(Rng& rng) const;  // Z
  double noisy(Rng& rng, double count) const { return count + noise(rng); }
  // Z from numpy's legacy stream, as a paper's own Python code draws it: RandomState.laplace(0, b) or
  // RandomState.normal(0, sigma), one call per value. Continuous noise on doubles, so textbook sampler
  // only (std::logic_error otherwise: callers check the sampler when they validate `rng: numpy`).
  double noise(NumpyRandomState& numpy) const;
  double noisy(NumpyRandomState& numpy, double count) const { return count + noise(numpy); }
  // Pr[Z >= theta], theta >= 0 (for the secure sampler the integer tail Pr[Z >= ceil(theta)]).
  double tail_probability(double theta) const;
  // How many of `trials` independent draws of Z are >= theta (theta > 0): m ~ Bin(trials, Pr[Z >= theta])
  // (Algorithm 2 of DP-DBSCAN, line 9). secure: exactly, from the same rational parameter the draws use
  // (exact_binomial.hpp: geometric skips and an exact thinning, expected work linear in the count);
  // textbook: Boost's binomial on doubles (Rng::binomial), like the papers' other floating-point samplers.
  std::uint64_t count_at_least(Rng& rng, std::uint64_t trials, double theta) const;
  // Z conditioned on Z >= theta, theta > 0 (Algorithm 2 of DP-DBSCAN); integer-valued when secure.
  double draw_tail(Rng& rng, double theta) const;
  // The smallest theta with Pr[Z >= theta] <= p (0 < p <= 1/2).
  double upper_quantile(double p) const;
  std::string describe() const;
  // The exact sampler's parameter (discrete Laplace scale, or discrete Gaussian sigma^2) as the rational it
  // draws with: >= the calibrated value (laplace_scale_at_least / gaussian_sigma2_at_least, times the noise
  // scale). std::invalid_argument when the mechanism has none (textbook sampler, no noise, out of range).
  Rational exact_parameter() const;

 private:
  CountMechanism() = default;
  CountNoise kind_ = CountNoise::laplace;
  Sampler sampler_ = Sampler::secure;
  double epsilon_ = 0, delta_ = 0, sensitivity_ = 0, scale_ = 0;
  double factor_ = 1;  // the ledger's noise_scale at construction
  // True for the classic Gaussian (sigma^2 = 2 ln(1.25 / delta) l2^2 / eps^2, bounded exactly from its
  // inputs); false for a sigma an accountant calibrated (gaussian_tight), whose square is rounded up.
  bool classic_gaussian_ = false;
  // The exact sampler's parameter (discrete Laplace scale, or discrete Gaussian sigma^2) as a rational,
  // rounded up: computed once, when the mechanism is built (secure sampler, noise on), never by a draw.
  // A mechanism is shared read-only by the OpenMP threads of a histogram; the lazy cache it replaces
  // (mutable fields written by the first draw) would be a data race. Drawing writes nothing.
  void prepare_exact_parameter();
  Rational exact_{1, 1};
  bool exact_ready_ = false;
  std::string exact_error_;  // why the parameter has no exact form (thrown by the first secure draw, as before)
};

// The noise parameters the exact samplers are given, never below the calibrated value: the quotient and
// logarithm are rounded up exactly (MPFR, directed rounding), not to nearest. laplace_scale_at_least is the
// smallest double >= l1 / eps (the rounded quotient itself when it is not below, about 3 cases in 4);
// gaussian_sigma2_at_least a double >= 2 ln(1.25 / delta) l2^2 / eps^2. The samplers' rationals are built
// from these (rational_at_least rounds up again), so they are >= the exact values.
double laplace_scale_at_least(double l1, double epsilon);
double gaussian_sigma2_at_least(double l2, double epsilon, double delta);

// A real value with a public range [-bound, bound] (a clamped sum, a coordinate): eps-DP in L1
// sensitivity. secure = snapping mechanism (the output lies on a grid and inside the range); textbook =
// value + continuous Laplace(l1/eps), unclamped.
class RealMechanism {
 public:
  static RealMechanism laplace(BudgetLedger& ledger, Sampler sampler, double l1_sensitivity, double epsilon,
                               double bound, std::string step, std::string note = "");
  double noisy(Rng& rng, double value) const;
  double scale() const { return scale_; }
  double bound() const { return bound_; }

 private:
  RealMechanism() = default;
  Sampler sampler_ = Sampler::secure;
  double epsilon_ = 0, sensitivity_ = 0, bound_ = 0, scale_ = 0, factor_ = 1;
  std::shared_ptr<const SnappingLaplace> snapping_;  // secure sampler
};

// For a mechanism whose noise is not one of the above (the exponential mechanism, a planar Laplace),
// the entry its own file records beside its sampler, so that every charge is typed. Checks epsilon.
void charge(BudgetLedger& ledger, std::string step, double epsilon, std::string mechanism, double sensitivity,
            std::string sensitivity_norm, std::string note = "", double delta = 0.0);

}  // namespace dpclust::privacy
