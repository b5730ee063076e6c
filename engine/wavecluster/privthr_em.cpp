// PrivTHR_EM (Algorithm 2); the line table is in privthr_em.hpp.
#include "wavecluster/privthr_em.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "wavecluster/privqt.hpp"

namespace dpclust::wavecluster {

std::string em_repeats_note(std::size_t repeats, double eps2) {
  return "PrivTHR_EM averaged " + std::to_string(repeats) +
         " exponential-mechanism thresholds, each at the full threshold budget eps2 = " + std::to_string(eps2) +
         " (em_repeats_budget: authors, as the authors' ExponentialMech.noisyPercentileValue): the real cost is " +
         std::to_string(repeats) + " x eps2, above the configured epsilon (ledger: epsilon_excess)";
}

EmThreshold noisy_threshold_by_em(const std::vector<double>& w, double p, double eps2, double delta_q, double em_upper, Rng& rng,
                                  BudgetLedger& ledger, std::size_t& k, std::size_t repeats, EmRepeatsBudget budget) {
  if (repeats < 1) throw std::invalid_argument("noisy_threshold_by_em: em_repeats must be at least 1");
  const std::vector<double> l = positive_sorted(w);  // line 10: L (ascending; Min, Max = its ends)
  k = top_k_count(p, l.size());                      // line 11: k = ceil((1-p)|L|)
  const std::string range =
      em_upper > 0 ? "(0, em_upper] (public)" : "(0, Max], Max the largest true value (the paper)";
  // One draw (the paper) or R draws (the authors' ExponentialMech.noisyPercentileValue, 10 draws
  // averaged): every draw is its own ledger entry, at eps2 / R (split) or at eps2 each with the excess
  // (R - 1) eps2 declared (authors).
  const double eps_draw = repeats == 1 || budget == EmRepeatsBudget::authors ? eps2 : eps2 / static_cast<double>(repeats);
  if (repeats > 1 && budget == EmRepeatsBudget::authors)
    ledger.declare_excess(static_cast<double>(repeats - 1) * eps2, em_repeats_note(repeats, eps2));
  for (std::size_t r = 0; r < repeats; ++r)
    privacy::charge(ledger,
                    repeats == 1 ? std::string("threshold by the exponential mechanism (Alg. 2 line 4, lines 7-15)")
                                 : "threshold by the exponential mechanism (Alg. 2 line 4, lines 7-15), draw " +
                                       std::to_string(r + 1) + " of " + std::to_string(repeats) +
                                       " averaged (the authors' ExponentialMech.noisyPercentileValue)",
                    eps_draw, "exponential", delta_q, "utility", "quality -|rank(x) - k| over the threshold range " + range);
  if (l.empty()) return {};
  // Testable noise: the mechanism at eps_draw / noise_scale (noise_scale 0: the noiseless limit).
  const double f = ledger.noise_scale();
  const double eps_run = f == 0 ? std::numeric_limits<double>::infinity() : eps_draw / f;
  if (repeats == 1) return em_threshold(l, k, eps_run, delta_q, rng, em_upper);  // lines 12-13: k', d'
  // The authors' mean of R thresholds; k' = the rank of the mean among the true values (the number of
  // true positive values >= d', as for a single draw d' in (W_{i+1}, W_i], which has rank i).
  double sum = 0;
  for (std::size_t r = 0; r < repeats; ++r) sum += em_threshold(l, k, eps_run, delta_q, rng, em_upper).threshold;
  EmThreshold t;
  t.threshold = sum / static_cast<double>(repeats);
  t.rank = static_cast<std::size_t>(l.end() - std::lower_bound(l.begin(), l.end(), t.threshold));
  return t;
}

WaveClusterOutput privthr_em(const Dataset& data, const WcParams& params, const PrivThrEmOptions& options, Rng& rng,
                             BudgetLedger& ledger) {
  const double eps1 = options.rho * options.epsilon, eps2 = options.epsilon - eps1;  // Sec. 4.4: 70% / 30% by default
  const Quantizer q = make_quantizer(data, params);
  const GridShape shape = q.shape().coarsened(params.wavelet.level);
  const std::vector<double> m = q.counts(data);
  // line 2: M' = PrivQuantization(D, g, rho eps); line 3: W' = WaveletTransform(M', w)
  const PrivQuantization noisy = private_quantization(m, eps1, options.sampler, rng, ledger, "noisy count matrix (Alg. 2 line 2)");
  const std::vector<double> w_noisy = approximation(noisy.noisy, q.shape(), params.wavelet);
  // line 4 -> lines 7-15 (NoisyThresholdByEM) on the true W of lines 8-9.
  const std::vector<double> w = approximation(m, q.shape(), params.wavelet);
  const double dq = sensitivity(q.shape(), params.wavelet).rank_quality * neighbour_factor(ledger);
  std::size_t k = 0;
  const EmThreshold t =
      noisy_threshold_by_em(w, params.p, eps2, dq, options.em_upper, rng, ledger, k, options.em_repeats, options.em_repeats_budget);
  WaveClusterOutput out;
  set_true_statistics(out, w, params.p);  // evaluation only
  // line 5: ConnCompLabel(W', d'): significant = noisy values greater than d' (none when W has no
  // positive value: there was no threshold to choose).
  std::vector<std::uint8_t> sig(w_noisy.size(), 0);
  if (out.l > 0) select_above(w_noisy, t.threshold, sig);
  out.clustering = connected_components(sig, shape, params.full_connectivity);
  out.transformed = w_noisy;
  out.is_private = true;
  out.k_prime = t.rank;
  out.threshold = t.threshold;
  out.range_from_data = options.em_upper <= 0;
  release_noisy_counts(params, noisy, out);
  if (options.em_repeats > 1 && options.em_repeats_budget == EmRepeatsBudget::authors)
    out.non_private_notes.push_back(em_repeats_note(options.em_repeats, eps2));
  return out;
}

}  // namespace dpclust::wavecluster
