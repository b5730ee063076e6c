// PrivTHR_EM (Algorithm 2); the line table is in privthr_em.hpp.
#include "wavecluster/privthr_em.hpp"

#include <limits>
#include <string>

#include "wavecluster/privqt.hpp"

namespace dpclust::wavecluster {

EmThreshold noisy_threshold_by_em(const std::vector<double>& w, double p, double eps2, double delta_q, double em_upper, Rng& rng,
                                  BudgetLedger& ledger, std::size_t& k) {
  const std::vector<double> l = positive_sorted(w);  // line 10: L (ascending; Min, Max = its ends)
  k = top_k_count(p, l.size());                      // line 11: k = ceil((1-p)|L|)
  privacy::charge(ledger, "threshold by the exponential mechanism (Alg. 2 line 4, lines 7-15)", eps2, "exponential", delta_q,
                  "utility",
                  "quality -|rank(x) - k| over the threshold range " +
                      std::string(em_upper > 0 ? "(0, em_upper] (public)" : "(0, Max], Max the largest true value (the paper)"));
  if (l.empty()) return {};
  // Testable noise: the mechanism at eps2 / noise_scale (noise_scale 0: the noiseless limit).
  const double f = ledger.noise_scale();
  const double eps_run = f == 0 ? std::numeric_limits<double>::infinity() : eps2 / f;
  return em_threshold(l, k, eps_run, delta_q, rng, em_upper);  // lines 12-13: k', d'
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
  const EmThreshold t = noisy_threshold_by_em(w, params.p, eps2, dq, options.em_upper, rng, ledger, k);
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
  return out;
}

}  // namespace dpclust::wavecluster
