#pragma once
// DP-k-means as IBM diffprivlib's models.KMeans implements it (the DP-Kmeans column of Table 2 / Fig. 10
// / Table 3), i.e. DPLloyd of Su, Cao, Li, Bertino, Jin (CODASPY 2016), re-implemented from that paper
// and diffprivlib's documentation:
//
// Iterations (diffprivlib's rule, from Su et al.'s analysis with rho = 0.225):
//   eps_m = sqrt(500 k^3 / n^2 * (d + cbrt(4 d rho^2))^3),   T = int(max(min(eps / eps_m, 7), 2))
// (n is the data's size, treated as public as in diffprivlib). `iterations` > 0 overrides T.
//
// Budget split (Su et al.): each iteration gets eps / T, divided between the cluster counts and the d
// coordinate sums in the ratio cbrt(4 d rho^2) : 1 : ... : 1,
//   eps_sum = eps / T / (d + cbrt(4 d rho^2))   per dimension,   eps_count = cbrt(4 d rho^2) eps_sum.
// The clusters partition the data, so one count/sum per cluster costs eps_count + d eps_sum per
// iteration (parallel composition); T iterations add up to eps.
//
// Initial centres (data-independent): uniform in the bounds shrunk by a margin m on every side, each
// new centre at least 2m from the ones placed, up to 100 failed draws in a row; then m is halved and
// the placement restarts (m starts at half the smallest side of the domain).
// Iteration: assign every point to its nearest centre, then for each non-empty cluster
//   count~ = count + two-sided geometric noise (eps_count, sensitivity 1), folded into [0.5, inf)
//            (a value v < 0.5 is reflected to 1 - v), so count~ >= 1;
//   sum~_j = bounded-domain Laplace of sum_j on [count~ lo_j, count~ hi_j] (eps_sum, sensitivity
//            hi_j - lo_j): the Laplace distribution centred at the (clamped) sum, restricted to the
//            interval, with the scale b solving b = Delta / (eps - ln dC(b)),
//            dC(b) = (2 - e^{-Delta/b} - e^{-(D - Delta)/b}) / (1 - e^{-D/b}), D = interval width
//            (Holohan, Antonatos, Braghin, Mac Aonghusa 2018), found by bisection;
//   centre = sum~ / count~.  Empty clusters keep their centre.
// diffprivlib starts with an assignment and ends with one, so the labels are those of the nearest
// final (released) centre. The sensitivities are diffprivlib's (a point moves inside the domain).
#include <cstddef>
#include <cstdint>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"

namespace dpclust::dpdbscan {

struct DpKmeansOptions {
  std::size_t k = 2;
  double epsilon = 1.0;
  std::int64_t iterations = 0;  // 0 = diffprivlib's rule
};

struct DpKmeansResult {
  RowMatrix centers;  // k x d
  Labels labels;      // nearest final centre
  std::int64_t iterations = 0;
  double epsilon_count = 0;  // per iteration
  double epsilon_sum = 0;    // per iteration and dimension
  double inertia = 0;
};

std::int64_t diffprivlib_iterations(double epsilon, std::size_t k, std::size_t n, std::size_t d);

// The bounded-domain Laplace mechanism of Holohan et al. (2018): the scale for (eps, Delta, width D),
// and one draw for `value` on [lower, upper].
double bounded_laplace_scale(double epsilon, double sensitivity, double width);
double bounded_laplace(Rng& rng, double value, double lower, double upper, double scale);

DpKmeansResult dp_kmeans(const double* coords, std::size_t n, const Bounds& bounds, const DpKmeansOptions& options,
                         Rng& rng, BudgetLedger* ledger);

}  // namespace dpclust::dpdbscan
