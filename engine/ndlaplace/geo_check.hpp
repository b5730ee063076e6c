#pragma once
// Empirical checks of what the nD-Laplace mechanism promises, from repeated draws for fixed inputs
// (evaluation only; the draws are never released).
//
// Geo-indistinguishability (thesis Eq. 3.1, Andres et al. 2013): K(x)(Z) <= e^{eps d(x, x')} K(x')(Z)
// for every event Z. geo_indistinguishability_check estimates, from n_x reports drawn for x and n_x'
// reports drawn for x', the log-ratio ln(P[Z | x] / P[Z | x']) of a family of events and compares the
// largest with eps * d(x, x'). The events are the level sets of the public statistic
//   s(z) = ||z - x'|| - ||z - x||   in [-d(x, x'), d(x, x')],
// Z_t = {s >= t} (ratio x over x') and Z'_t = {s <= t} (ratio x' over x) for t = delta (-1 + 2k / T),
// k = 1 .. T-1, delta = d(x, x'). For the untruncated continuous mechanism at rate e the density ratio
// is exp(e s(z)), so these events are the Neyman-Pearson (most revealing) ones and their ratio tends to
// exp(e delta) as t -> delta: a mechanism drawing at a rate above the recorded eps is caught by them.
// Estimate per event with a (numerator count) and b (denominator count), both at least min_count:
//   L = ln(a / n_num) - ln(b / n_den),  se = sqrt(1/a - 1/n_num + 1/b - 1/n_den)   (delta method),
// (an event seen at least min_count times in the numerator but fewer in the denominator is bounded with
// the upper confidence count b + z sqrt(b) + z^2 instead), and
// a violation is an event whose lower confidence bound L - z se exceeds eps * delta (z = 4 by default: a
// one-sided normal test at about 3e-5 per event, so a family of 2 (T - 1) events rarely fires by chance).
//
// P_area (thesis Eq. 3.4, after Yan et al. 2022): the perturbation area of a point x0 from N reports,
//   P_area = {center = x0, radius = (1/N) sum_i ||z_i - x0||};
// p_area also gives its volume, the d-ball pi^{d/2} / Gamma(d/2 + 1) radius^d (the area for d = 2).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpclust::ndlaplace {

struct GeoCheckOptions {
  std::size_t thresholds = 20;   // T: events at t = delta (-1 + 2k / T), k = 1 .. T-1, both directions
  std::uint64_t min_count = 50;  // events with fewer reports for the numerator's input are not estimated
  double z = 4.0;                // one-sided normal quantile of the lower confidence bound
};

struct GeoCheck {
  double distance = 0;         // delta = d(x, x')
  double bound = 0;            // eps * delta, the largest log-ratio Eq. 3.1 allows
  double max_log_ratio = 0;    // the largest estimated ln ratio over the events (0 when none qualified)
  double max_lower_bound = 0;  // the largest lower confidence bound
  std::size_t events = 0;      // events estimated (both counts >= min_count)
  bool violated = false;       // max_lower_bound > bound: Eq. 3.1 fails significantly
  double ratio() const { return bound > 0 ? max_log_ratio / bound : 0.0; }
};

// x, xp: the two inputs (d values each); zx (n_x x d) and zxp (n_xp x d): reports drawn for them.
GeoCheck geo_indistinguishability_check(const double* x, const double* xp, std::size_t d, const double* zx,
                                        std::size_t n_x, const double* zxp, std::size_t n_xp, double eps,
                                        const GeoCheckOptions& options = {});

struct PArea {
  std::vector<double> center;
  double radius = 0;
  double volume = 0;
};
double ball_volume(std::size_t d, double radius);
// x0: d values; reports: n x d (n >= 1).
PArea p_area(const double* x0, const double* reports, std::size_t n, std::size_t d);

}  // namespace dpclust::ndlaplace
