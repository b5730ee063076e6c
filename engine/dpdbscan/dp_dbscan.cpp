// Algorithm 1 of Qiu & Yi; see dp_dbscan.hpp for the map from line numbers to code.
#include "dpdbscan/dp_dbscan.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"
#include "dpdbscan/error_bounds.hpp"
#include "dpdbscan/linear_histogram.hpp"
#include "dpdbscan/naive_histogram.hpp"

namespace dpclust::dpdbscan {

namespace {

// The options refused before any work.
void check_options(const DpDbscanOptions& o) {
  if (o.min_pts < 1) throw InputError("params.min_pts", "min_pts must be >= 1");
  if (!(o.beta > 0 && o.beta < 1)) throw InputError("params.beta", "beta must be in (0, 1)");
  if (o.noise != NoiseKind::gaussian && o.delta != 0)
    throw InputError("params.delta", "delta > 0 is only used by gaussian noise", "set delta: 0 or noise: gaussian");
  if (o.theta >= 0 && o.histogram == HistogramChoice::naive)
    throw InputError("params.theta", "theta is the threshold of the linear-time histogram; histogram is naive");
}

// The histogram (Sec. 8.1 uses Alg. 2 when n <= |X|/2 and the naive one otherwise) and the cells' storage.
void choose_histogram(const DpDbscanOptions& o, double n_pub, DpDbscanResult& res) {
  const CellGrid& g = res.grid;
  const double X = static_cast<double>(g.universe);
  res.linear = o.histogram == HistogramChoice::linear || (o.histogram == HistogramChoice::automatic && n_pub <= X / 2);
  if (o.theta >= 0 && !res.linear)
    throw InputError("params.theta", "theta is set but the automatic choice picked the naive histogram (n > |X|/2)",
                     "set histogram: linear");
  switch (o.storage) {
    case StorageChoice::automatic:
      res.dense = !res.linear || (g.universe <= kDenseAutoMax &&
                                  g.universe <= std::max<std::uint64_t>(std::uint64_t{1} << 20,
                                                                        32 * static_cast<std::uint64_t>(n_pub)));
      break;
    case StorageChoice::dense: res.dense = true; break;
    case StorageChoice::sparse: res.dense = false; break;
  }
  if (o.stream == RandomStream::numpy) check_numpy_stream(o.noise, effective_sampler(o.noise, o.sampler), res.linear);
  if (!res.linear && !res.dense)
    throw InputError("params.storage", "the naive histogram noises every cell and needs dense storage",
                     "use storage: auto or dense");
  if (res.dense && g.universe > kDenseMax)
    throw InputError(
        res.linear ? "params.storage" : "params.histogram",
        "dense storage of |X| = " + std::to_string(g.universe) + " cells exceeds the limit of 2^26 cells",
        res.linear ? "use storage: auto or sparse" : "use histogram: linear (Algorithm 2) or a larger alpha/eta");
}

// Line 5's mechanism, built (and its ledger entry recorded) before any noise: theta and Gamma derive from its scale.
privacy::CountMechanism histogram_mechanism_of(const DpDbscanOptions& o, double n_pub, BudgetLedger& ledger,
                                               DpDbscanResult& res) {
  const CellGrid& g = res.grid;
  const double X = static_cast<double>(g.universe);
  const double kappa = static_cast<double>(res.kappa);
  std::ostringstream note;
  note << (res.linear ? "linear-time histogram (Alg. 2)"
                      : "naive histogram over all |X| = " + std::to_string(g.universe) + " cells (Thm 2.8)")
       << ", " << to_string(o.noise) << " noise, "
       << (o.bounded_dp ? "sensitivity of a changed point (bounded DP; an upper bound under add/remove)"
                        : "sensitivity of an added/removed point (unbounded DP)")
       << "; the cells are disjoint counts (parallel composition)";
  // Alg. 2 line 9's m ~ Bin(M, p): exact with the secure sampler (privacy/exact_binomial.hpp), Boost's binomial
  // on doubles with the textbook one (whose entry is not a secure mechanism anyway). The entry says which.
  if (res.linear)
    note << "; the number of released empty cells m ~ Bin(M, p) (Alg. 2 line 9) is drawn "
         << (effective_sampler(o.noise, o.sampler) == privacy::Sampler::secure
                 ? "exactly (geometric skips and an exact thinning with p bounded by MPFR from the noise's rational "
                   "parameter)"
                 : "with a floating-point binomial sampler (Boost BTRD, p rounded to a double), as the textbook "
                   "sampler");
  res.histogram_note = note.str();
  privacy::CountMechanism mech = histogram_mechanism(ledger, o.noise, o.sampler, o.epsilon, o.delta, o.bounded_dp,
                                                     "noisy cell histogram (Alg. 1 line 5)", res.histogram_note);
  res.sampler = mech.sampler();
  const double factor = ledger.noise_scale();
  res.gamma_noise = gamma_noise(o.noise, mech, factor, o.beta, kappa, X);
  if (res.linear) {
    if (o.theta >= 0) res.theta = o.theta;
    else if (o.theta_authors_code && X <= 2 * n_pub) res.theta = res.gamma_noise / kappa;
    else res.theta = default_theta(o.noise, mech, factor, X, n_pub);
  }

  return mech;
}

// Line 5: the DP histogram, the mechanism's only access to the data.
NoisyHistogram noisy_histogram(const double* coords, std::size_t n, const DpDbscanOptions& o,
                               const privacy::CountMechanism& mech, Rng& rng, DpDbscanResult& res) {
  const CellGrid& g = res.grid;
  CellCounts counts = count_cells(g, coords, n, res.dense);
  res.occupied = counts.occupied;
  NoisyHistogram hist;
  if (o.stream == RandomStream::numpy) {
    NumpyRandomState numpy(o.numpy_seed);
    hist = naive_histogram(counts, mech, numpy);
  } else {
    // The cells' noise from streams addressed by cell, keyed per trial (core/cell_streams.hpp).
    const CellStreams noise = CellStreams::for_trial(rng, kHistogramNoiseLane);
    hist = res.linear ? linear_histogram(counts, mech, res.theta, noise, rng) : naive_histogram(counts, mech, noise);
  }
  res.released = hist.released;
  res.released_occupied = hist.released_occupied;
  res.sampled_empty = hist.sampled_empty;

  return hist;
}

}  // namespace

DpDbscanResult dp_dbscan(const double* coords, std::size_t n, const Bounds& bounds, const DpDbscanOptions& o, Rng& rng,
                         BudgetLedger& ledger) {
  check_options(o);
  DpDbscanResult res;
  // Lines 3-4: the grid over the public domain and NB(X).
  res.grid = make_grid(bounds, o.alpha, o.eta);
  const CellGrid& g = res.grid;
  const Neighbourhood nb = alpha_neighbourhood(g.d, o.eta);
  res.kappa = nb.kappa();
  const double n_pub = static_cast<double>(std::max<std::uint64_t>(1, o.n_public ? o.n_public : n));

  choose_histogram(o, n_pub, res);
  const privacy::CountMechanism mech = histogram_mechanism_of(o, n_pub, ledger, res);
  const double kappa = static_cast<double>(res.kappa);
  NoisyHistogram hist = noisy_histogram(coords, n, o, mech, rng, res);

  // Gamma, tau (Sec. 7.1, Thm 7.1) and the core threshold (Sec. 7.2).
  res.gamma = res.gamma_noise + (res.linear ? kappa * res.theta : 0.0);
  res.tau = 2.0 * res.gamma;
  const double min_pts = static_cast<double>(o.min_pts);
  res.min_pts_prime = min_pts + res.tau;
  res.threshold = o.core_rule == CoreRule::minpts_prime ? min_pts + res.gamma : min_pts - res.gamma;

  // Line 6: the superset of core cells.
  try {
    res.core = find_core_cells(g, nb, hist, res.threshold);
  } catch (const std::invalid_argument& e) {
    throw InputError("params.core_rule", e.what());
  }
  res.evaluated = res.core.evaluated;
  if (o.keep_histogram) res.histogram = std::move(hist);
  else hist = NoisyHistogram{};
  // Line 7: spans.
  res.spans = merge_core_cells(g, nb, res.core.codes, res.dense);
  return res;
}

}  // namespace dpclust::dpdbscan
