#pragma once
// The `noise` choice of DP-DBSCAN's histogram (Sec. 2, Thm 2.6-2.8, Sec. 7.1), mapped onto the privacy
// layer's CountMechanism (engine/privacy/mechanism.hpp), which records the ledger entry and draws the
// noise. This file only names the choices and picks the mechanism; no noise is drawn here.
//
//   laplace    CountMechanism::laplace, L1 sensitivity Delta_1, scale b = Delta_1 / eps (Thm 2.6).
//              secure sampler: the discrete Laplace of scale b (integer counts, exact); textbook: the
//              paper's continuous Laplace on doubles.
//   geometric  the two-sided geometric of Thm 2.7, Pr[Z = z] ∝ exp(-eps |z| / Delta_1), IS the discrete
//              Laplace of scale b: CountMechanism::laplace with the secure sampler, whatever `sampler`
//              says (the old inverse-CDF draw on doubles is gone). Its Gamma stays the paper's Gamma_Geom.
//   gaussian   CountMechanism::gaussian, L2 sensitivity Delta_2, sigma = sqrt(2 ln(1.25/delta)) Delta_2 / eps
//              ((eps, delta)-DP for eps < 1, Dwork & Roth Thm A.1); secure: discrete Gaussian of that sigma.
//
// Sensitivity of a histogram (Sec. 2): Delta_1 = Delta_2 = 1 under unbounded DP (add/remove one point,
// the paper's default); Delta_1 = 2, Delta_2 = sqrt(2) under bounded DP (change one point). The bounded
// values are also valid upper bounds under add/remove, so the entry stays correct in the harness's
// add/remove ledger (it over-states the sensitivity, i.e. adds more noise than needed).
#include <string>

#include <functional>
#include <string>

#include "core/ledger.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpdbscan {

enum class NoiseKind { laplace, geometric, gaussian };

struct NoiseName {
  const char* name;
  NoiseKind kind;
};
// The one list of names (the parameter's choices and the parser both read it).
inline constexpr NoiseName kNoiseNames[] = {
    {"laplace", NoiseKind::laplace}, {"geometric", NoiseKind::geometric}, {"gaussian", NoiseKind::gaussian}};

NoiseKind parse_noise(const std::string& name);  // InputError for an unknown name
const char* to_string(NoiseKind k);

double l1_sensitivity(bool bounded_dp);
double l2_sensitivity(bool bounded_dp);

// The sampler the histogram really uses: geometric is always the exact discrete Laplace.
privacy::Sampler effective_sampler(NoiseKind kind, privacy::Sampler requested);

// rng: numpy draws numpy's continuous Laplace / normal over every cell (the authors' naive histogram):
// InputError naming the parameter to change when the noise is geometric (an exact integer sampler), the
// sampler is secure, or the histogram is the linear-time one (`linear`: the histogram in use).
void check_numpy_stream(NoiseKind kind, privacy::Sampler sampler, bool linear);

// The secure samplers' parameter limits in terms of epsilon, checked before any noise
// is drawn so that a config the samplers cannot serve is refused by `validate` (exit 2), not at run time.
// Limits found in engine/privacy/samplers.hpp: discrete Laplace scale <= 2^40, discrete Gaussian
// sigma^2 <= 2^40, the snapping mechanism's lambda < B < 2^46 lambda and grid Lambda <= B.
//   laplace / geometric  scale Delta_1 / eps <= 2 / 1e-6 (epsilon's declared minimum): never near 2^40.
//   gaussian (secure)    sigma^2 = 2 ln(1.25/delta) Delta_2^2 / eps^2 <= 2^40, i.e.
//                        eps >= sqrt(2 ln(1.25/delta)) Delta_2 / 2^20 (5.05e-6 at delta = 1e-6, Delta_2 = 1;
//                        above the declared 1e-6, so the check binds). Exactly: the mechanism passes
//                        privacy::gaussian_sigma2_at_least (sigma^2 rounded up) and needs it <= 2^40.
// dp_kmeans's limits are in dp_kmeans.hpp; the pairwise baseline picks its snapping bound between 4/eps
// and 2^45/eps, inside Mironov's conditions for every eps >= 1e-6 (pairwise.cpp), so it needs no check.
bool gaussian_scale_supported(double epsilon, double delta, bool bounded_dp);
// Throws InputError("params.epsilon", ...) naming the smallest supported epsilon when noise: gaussian with
// the secure sampler cannot draw at this epsilon and delta; a no-op otherwise.
void check_secure_epsilon(NoiseKind kind, privacy::Sampler sampler, double epsilon, double delta, bool bounded_dp);

// The smallest double in [bad, good] that `accepted` accepts, given accepted(good) and !accepted(bad) and
// monotone between them (or the largest, when good < bad): bisection over the doubles' bit patterns, which
// order the positive doubles, so it ends on two adjacent doubles.
double epsilon_boundary(double bad, double good, const std::function<bool(double)>& accepted);
// A limit for a message, in the fewest digits (6 to 17) that do not cross it: a lower limit rounded up, an
// upper one rounded down, so "use epsilon >= <printed>" is always accepted.
std::string limit_text(double x, bool lower);

// Builds the histogram's mechanism and records its one ledger entry (every cell is a disjoint count:
// parallel composition, stated in the entry's note). Throws InputError for unusable epsilon / delta.
privacy::CountMechanism histogram_mechanism(BudgetLedger& ledger, NoiseKind kind, privacy::Sampler sampler,
                                            double epsilon, double delta, bool bounded_dp, const std::string& step,
                                            const std::string& note);

}  // namespace dpclust::dpdbscan
