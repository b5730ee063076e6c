#pragma once
// The nD-Laplace perturbation (thesis draft "nD-Laplace", T. van der Ende): every point x is replaced by
// z = x + noise whose density is proportional to exp(-eps * ||z - x||), eps-geo-indistinguishability
// (Andres et al. 2013; thesis Eq. 3.1). A local mechanism: each point is perturbed independently.
//
// Thesis Algorithm 2 (full perturbation), line by line:
//   Require x in X, l in R+                    -> NdLaplaceSettings::epsilon (the level l), data points
//   r = sigma / 2 (formula 4.1)                -> NdLaplaceSettings::radius (param `radius`, default 1)
//   eps = l / r                                -> NdLaplaceMechanism::rate()
//   x_min <- min(X), x_max <- max(X)           -> the dataset's public bounds (`bounds: data` reproduces
//                                                 the thesis and is flagged non-private by the runner)
//   for point_i in X:                          -> perturb (mechanism.cpp)
//     theta <- U[0, 2 pi), p <- U[0, 1)         -> draw_noise (planar), sampler: textbook
//     z_i <- C_eps^{-1}(p)  (Eq. 3.3)           -> planar_radius_inverse_cdf
//     z_i <- T(x_min, x_max, point_i, z_i)      -> perturb, truncation `resample` (Algorithm 1 below)
//     x/y_perturbed <- point_i + z_i cos/sin    -> draw_noise + perturb
//   return Z                                   -> NdLaplaceMechanism::perturb
// Thesis Algorithm 1 (truncation T):
//   if x_1 < z_x < x_2 and y_1 < z_y < y_2     -> perturb: bounds.contains(z) (closed box)
//     return z
//   else z_2 <- LP(eps, x, y); T(.., z_2)       -> perturb: draw again for the same x (a loop, at most
//                                                 max_retries draws, then InputError)
//
// Samplers (privacy::sampler_param(), `sampler: secure | textbook`):
//   textbook  the thesis's continuous sampler on doubles: planar (d = 2, thesis Sec. 3.1.1): polar
//             coordinates, theta uniform on [0, 2 pi), r by inverting C_eps(r) = 1 - (1 + eps r) e^{-eps r}
//             with the -1 branch of Lambert W (Eq. 3.3); nd (any d, the generalisation the thesis leaves
//             open in Sec. 3.3): r ~ Gamma(d, 1/eps) (the radial density of exp(-eps ||v||) in R^d is
//             proportional to r^{d-1} e^{-eps r}) and a uniform direction (d normals, normalised); for
//             d = 2 this is planar Laplace. Param `continuous_sampler` picks planar / nd. NOT floating-
//             point safe (Mironov 2012): flagged non-private (privacy::kTextbookSamplerNote).
//   secure    the discretised variant (Andres et al. CCS 2013 Sec. 4.1-4.2: reports on a grid, truncated
//             to the domain), sampled exactly: grid_laplace.hpp, with its proof for every d. The default.
//
// Truncation to the public domain (a box, thesis Sec. 3.1.2 / 5.3.4):
//   resample  thesis Algorithm 1: draw fresh noise for the same x until z lies in the domain (at most
//             max_retries draws per point, then InputError).
//   remap     Andres et al. step 5: z is mapped to the nearest admissible point (coordinate-wise clamp
//             for a box); post-processing.
//   none      z is released as drawn (may leave the domain).
//   auto      (the default) resample where it needs few draws, else remap: choose_truncation below. In
//             many dimensions the noise of even a generous epsilon rarely lands in the box (ionosphere's
//             34, sonar's 60 columns), and a point near a corner needs 2^d draws at least, so
//             resampling would stop every trial; the remap runs at any d.
//
// The factor 2 (why `epsilon` is spent as two halves). Resampling releases z with density
//   p(z | x) = f_x(z) / Z(x),  f_x(z) = exp(-e ||z - x||),  Z(x) = integral over the domain A of f_x.
// The numerator gives f_x(z) <= exp(e d(x, x')) f_x'(z) (triangle inequality), and so does every point
// of the integral: Z(x') <= exp(e d(x, x')) Z(x). Together p(z | x) <= exp(2 e d(x, x')) p(z | x'), and
// the factor 2 is attained at the border (1-D, A = [0, inf), x = 0, x' = delta -> 0:
// p(0 | x) / p(0 | x') = e^{e delta} (2 - e^{-e delta}) = e^{2 e delta + O(delta^2)}), so noise drawn
// at rate e is only 2e-geo-indistinguishable once truncated by resampling. The secure grid
// sampler has the same normaliser argument (its normaliser depends on x even without truncation).
// `resampling_budget` decides how the configured epsilon is read:
//   halve   (default) the draws run at rate epsilon / (2 radius), so the release is
//           epsilon-geo-indistinguishable at distance radius: `epsilon: 1` means what it says, and the
//           ledger records epsilon, which holds;
//   thesis  the thesis's reading: draws at rate epsilon / radius, as Algorithms 1-2 do; the release is
//           only 2 epsilon-geo-indistinguishable. The ledger records the configured epsilon with a note
//           saying so, and the result is flagged non-private. Kept to reproduce Table 5.4.
// Remap and none with the textbook sampler keep the full rate (no normaliser depends on x).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::ndlaplace {

// C_eps(r) = 1 - (1 + eps r) e^{-eps r}, the CDF of the planar Laplace radius (Andres et al. 2013).
double planar_radius_cdf(double eps, double r);
// thesis Eq. 3.3: C_eps^{-1}(p) = -(1/eps) (W_{-1}((p - 1)/e) + 1), p in [0, 1) (Boost.Math lambert_wm1).
double planar_radius_inverse_cdf(double eps, double p);

enum class ContinuousSampler { planar, nd };
enum class Truncation { resample, remap, none };
enum class ResamplingBudget { halve, thesis };
ContinuousSampler parse_continuous_sampler(const std::string& name, std::size_t d);  // "auto" | "planar" | "nd"
Truncation parse_truncation(const std::string& name);                                // "resample" | "remap" | "none"
const char* truncation_name(Truncation truncation);
ResamplingBudget parse_resampling_budget(const std::string& name);  // "halve" | "thesis"

// One textbook noise vector of dimension d with density proportional to exp(-eps ||v||), written to
// out[0..d). planar needs d == 2 (std::invalid_argument otherwise). Draw order: planar p then theta;
// nd the Gamma radius then d normals (redrawn in the measure-zero case of a zero vector).
void draw_noise(std::size_t d, double eps, ContinuousSampler sampler, Rng& rng, double* out);

// Truncation by resampling's expected noise draws per point: prod_j (1 + (d / rate) / L_j) for a box of
// sides L_j and noise of mean length d / rate, a typical point's count (the cost model's estimate as
// well); a point in a corner needs 2^d times as many when the noise is small. 0 without bounds.
double expected_resample_draws(std::size_t d, double draw_rate, const Bounds& bounds);

// What the `truncation` parameter chose, and why (recorded in the release).
struct TruncationChoice {
  Truncation truncation = Truncation::resample;
  bool automatic = false;     // `truncation: auto`
  double expected_draws = 0;  // auto: resampling's expected draws per point (expected_resample_draws)
  double corner_draws = 0;    // auto: 2^d, the fewest draws a point in a corner of the box needs on average
  double limit = 0;           // auto: max_retries / 10, the most either may be for resampling
  std::string reason;         // auto: the rule in words, with the numbers
};
// `name` is resample, remap, none or auto. auto resamples (thesis Alg. 1) when the public parameters say
// it finishes: its expected draws per point at the rate it would draw at (epsilon / (2 radius),
// mechanism.hpp "The factor 2") and 2^d both at most max_retries / 10 (a point then fails to land within
// max_retries with probability about e^-10); else it remaps (Andres et al. step 5). Under
// resampling_budget: thesis (the thesis's reading of resampling) and without bounds it resamples. Every
// input is public (the parameters, d and the configured bounds), so the choice reveals nothing of the data.
TruncationChoice choose_truncation(const std::string& name, double epsilon, double radius, ResamplingBudget budget,
                                   std::int64_t max_retries, std::size_t d, const Bounds& bounds);

struct PerturbOptions {
  double eps = 1.0;  // rate per unit distance the noise is drawn at
  privacy::Sampler sampler = privacy::Sampler::secure;
  ContinuousSampler continuous = ContinuousSampler::nd;  // textbook only
  Truncation truncation = Truncation::resample;
  std::int64_t max_retries = 10000;  // noise draws allowed per point under resample
  double grid_step = 0;              // secure only: the grid step u; 0 = auto_grid_step (grid_laplace.hpp)
  // For messages: how `eps` came from the configured epsilon and radius (NdLaplaceMechanism::create).
  std::string rate_origin{};
};

// Exact statistics of the true points: for `evaluation` only, never published.
struct PerturbStats {
  std::uint64_t draws = 0;            // noise vectors drawn in total (n without resampling)
  std::uint64_t max_draws_point = 0;  // the most draws one point needed
  std::size_t remapped = 0;           // points clamped into the domain (remap)
  std::size_t outside = 0;            // points released outside the domain (none); public: a function of the release
  double avg_distance = 0;            // mean ||z_i - x_i|| of the released points
};

// Perturbs the n x d row-major points; returns the released points (same layout). The bounds are the
// public domain (required unless truncation is none; the secure grid starts at bounds.lo, or at 0
// without bounds). Throws InputError when a point lies outside the domain or when resampling does not
// reach the domain within max_retries draws; the messages name the point by its index only, never by
// its coordinates.
std::vector<double> perturb(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                            const PerturbOptions& options, Rng& rng, PerturbStats* stats = nullptr);

// The method's settings, read from its parameters (nd_laplace.cpp).
struct NdLaplaceSettings {
  double epsilon = 1.0;  // the geo-indistinguishability level reached at distance `radius`
  double radius = 1.0;
  privacy::Sampler sampler = privacy::Sampler::secure;
  ContinuousSampler continuous = ContinuousSampler::nd;
  Truncation truncation = Truncation::resample;
  ResamplingBudget resampling_budget = ResamplingBudget::halve;
  double grid_step = 0;  // 0 = auto
  std::int64_t max_retries = 10000;
};

// Noise and budget in one object (the pattern of privacy::RealMechanism): create() records the typed
// ledger entry (privacy::charge: mechanism planar_laplace / nd_laplace, sensitivity 1 per unit distance,
// norm "metric", measure local -- the ledger must be a local one) and fixes the draw rate from the same
// numbers, so the rate drawn at and the epsilon recorded cannot drift apart. The ledger's noise_scale()
// divides the draw rate (0 = no noise: the release is the input).
class NdLaplaceMechanism {
 public:
  static NdLaplaceMechanism create(BudgetLedger& ledger, const NdLaplaceSettings& settings, std::size_t d,
                                   const Bounds& bounds,
                                   std::string step = "nD-Laplace perturbation of every point (thesis Alg. 2)");

  std::vector<double> perturb(const double* coords, std::size_t n, const Bounds& bounds, Rng& rng,
                              PerturbStats* stats = nullptr) const;

  double rate() const { return rate_; }            // epsilon / radius: the recorded rate per unit distance
  double draw_rate() const { return draw_rate_; }  // the calibrated rate the noise is drawn at
  // The release is guarantee_factor() * draw_rate()-geo-indistinguishable per unit distance.
  double guarantee_factor() const { return factor_; }
  double grid_step() const { return options_.grid_step; }  // secure: the grid step u; textbook: 0
  bool thesis_reading() const { return thesis_; }          // resampling_budget: thesis with truncation resample
  const std::string& mechanism() const { return mechanism_; }
  const PerturbOptions& options() const { return options_; }
  // Reasons the release is not private: the textbook sampler, the thesis reading.
  std::vector<std::string> non_private_notes() const;

 private:
  NdLaplaceMechanism() = default;
  double rate_ = 0, draw_rate_ = 0, factor_ = 1, noise_scale_ = 1;
  bool thesis_ = false;
  std::size_t d_ = 0;
  std::string mechanism_;
  PerturbOptions options_;
};

}  // namespace dpclust::ndlaplace
