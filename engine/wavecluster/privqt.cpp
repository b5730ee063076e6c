// PrivQT (arXiv Sec. 4.2); the line table is in privqt.hpp.
#include "wavecluster/privqt.hpp"

#include "core/error.hpp"

namespace dpclust::wavecluster {

double neighbour_factor(const BudgetLedger& ledger) {
  return ledger.relation() == NeighbourRelation::replace_one ? 2.0 : 1.0;
}

PrivQuantization private_quantization(const std::vector<double>& counts, double epsilon, privacy::Sampler sampler,
                                      Rng& rng, BudgetLedger& ledger, std::string step) {
  const double l1 = neighbour_factor(ledger);
  PrivQuantization r{counts, privacy::CountMechanism::laplace(
                                 ledger, sampler, l1, epsilon, std::move(step),
                                 "noise on every cell of the public grid; one record changes one count by 1 (" +
                                     std::string(dpclust::to_string(ledger.relation())) +
                                     "), the cells are disjoint: parallel composition")};
  for (double& x : r.noisy) x = r.mechanism.noisy(rng, x);
  return r;
}

void release_noisy_counts(const WcParams& params, const PrivQuantization& noisy, WaveClusterOutput& out) {
  if (!params.release_counts) return;
  if (noisy.noisy.size() > (std::size_t{1} << 20))
    throw InputError(
        "params.release_counts",
        "release_counts writes every cell of the grid (" + std::to_string(noisy.noisy.size()) + " cells); at most 2^20",
        "use release_counts: false for this grid, or a smaller g");
  out.release_extra["noisy_counts"] = noisy.noisy;
}

WaveClusterOutput privqt(const Dataset& data, const WcParams& params, double epsilon, privacy::Sampler sampler,
                         Rng& rng, BudgetLedger& ledger, const std::vector<double>* known_counts) {
  const Quantizer q = make_quantizer(data, params);
  const GridShape shape = q.shape().coarsened(params.wavelet.level);
  std::vector<double> storage;
  const std::vector<double>& m = count_matrix(known_counts, q, data, storage);
  // line 2: M' = PrivQuantization(D, g, eps)
  const PrivQuantization noisy =
      private_quantization(m, epsilon, sampler, rng, ledger, "noisy count matrix (PrivQT line 2)");
  // line 3: W' = WaveletTransform(M', w)
  const std::vector<double> w_noisy = approximation(noisy.noisy, q.shape(), params.wavelet);
  // line 4: L' = ConvertToPosSortedArray(W'); line 5: k' = ceil((1-p)|L'|)
  const std::size_t l_noisy = positive_sorted(w_noisy).size();
  const std::size_t k_prime = top_k_count(params.p, l_noisy);
  // lines 6-7: d' = Top(k', L'), ConnCompLabel(W', d')
  WaveClusterOutput out = significant_top_k(w_noisy, shape, params, l_noisy, k_prime);
  out.is_private = true;
  release_noisy_counts(params, noisy, out);
  set_true_statistics(out, approximation(m, q.shape(), params.wavelet), params.p);  // evaluation only
  return out;
}

}  // namespace dpclust::wavecluster
