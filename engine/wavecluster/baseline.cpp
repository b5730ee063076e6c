// Baseline (arXiv Sec. 4.1); the line table is in baseline.hpp.
#include "wavecluster/baseline.hpp"

#include "core/error.hpp"
#include "wavecluster/flat_origin.hpp"
#include "wavecluster/privqt.hpp"

namespace dpclust::wavecluster {

WaveClusterOutput baseline(const Dataset& data, const WcParams& params, const BaselineOptions& options, Rng& rng,
                           BudgetLedger& ledger, const std::vector<double>* known_counts) {
  const Quantizer q = make_quantizer(data, params);
  SynopsisOptions opt = options.synopsis;
  opt.sensitivity = neighbour_factor(ledger);
  // line 2: D' = DiffPrivPublishing(D, eps) (synthetic points); line 3: M' = Quantization(D', g).
  // ag_variant: flat_origin = the adaptive grid of the authors' flat_origin.py (flat_origin.hpp).
  const bool flat = opt.variant == AgVariant::flat_origin;
  if (flat && opt.type != "adaptive")
    throw InputError("wc_baseline.ag_variant",
                     "ag_variant: flat_origin is a variant of the adaptive grid, not of synopsis: " + opt.type,
                     "use synopsis: adaptive with ag_variant: flat_origin, or ag_variant: paper");
  SyntheticCounts syn = flat ? flat_origin_counts(data, q, options.epsilon, opt, rng, ledger)
                             : synthetic_counts(data, q, options.epsilon, opt, rng, ledger);
  // line 4: W' = WaveletTransform(M', w); line 5: L'; line 6: k' = ceil((1-p)|L'|)
  const std::vector<double> w_noisy = approximation(syn.counts, q.shape(), params.wavelet);
  const std::size_t l_noisy = positive_sorted(w_noisy).size();
  const std::size_t k_prime = top_k_count(params.p, l_noisy);
  // lines 7-8: d' = Top(k', L'), ConnCompLabel(W', d')
  WaveClusterOutput out =
      significant_top_k(w_noisy, q.shape().coarsened(params.wavelet.level), params, l_noisy, k_prime);
  out.is_private = true;
  if (flat) out.non_private_notes.push_back(kFlatOriginBoundsNote);
  out.public_extra["synthetic_points"] = syn.info["synthetic_points"];  // a function of the noisy synopsis
  syn.info["true_n_used"] = syn.used_true_n;
  out.release_extra["synopsis"] = std::move(syn.info);
  std::vector<double> storage;
  set_true_statistics(out, approximation(count_matrix(known_counts, q, data, storage), q.shape(), params.wavelet),
                      params.p);  // evaluation only
  return out;
}

}  // namespace dpclust::wavecluster
