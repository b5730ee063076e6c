// The DP WaveCluster mechanisms, each next to its pseudocode (arXiv Algorithms Baseline, PrivQT,
// 1 = PrivTHR, 2 = PrivTHR_EM; line numbers as printed there).
//
// Privacy notes (what the ledger records and why it sums to eps):
//  - Neighbouring datasets differ by adding or removing one record (the paper's Sec. 4.2 argument "at
//    most one change in one entry of M"), so every count query has sensitivity 1 and the noisy
//    count matrix of the whole public grid costs its eps once (parallel composition over cells).
//  - PrivTHR's |Z| and PrivTHR_EM's rank quality have sensitivity 1 for Haar (paper); for bior2.2
//    they are derived from the filter (wavelet.hpp, sensitivity()).
//  - The quantities only used for evaluation (true k, |Z|, |L|) are put in the diagnostics, never in
//    the release, and the point labels are extracted for evaluation only.
//  - PrivTHR_EM's output range (0, Max] uses the true maximum, as Alg. 2 line 10 defines it; a strict
//    exponential mechanism needs a data-independent range. By default we follow the paper and flag the
//    result non-private; `em_upper` > 0 gives a public range (0, em_upper] instead.
#include "wavecluster/mechanisms.hpp"

#include <cmath>
#include <stdexcept>

#include "wavecluster/exp_mech.hpp"
#include "wavecluster/synopsis.hpp"

namespace dpclust::wavecluster {

MethodResult WcMechanism::run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const {
  const WcParams wp = WcParams::from(params, data.d);
  const Quantizer q = make_quantizer(data, wp);
  WcOutput out = run_wc(data, wp, params, rng, ledger);
  MethodResult r;
  // For the private mechanisms these labels map the private data's points to the released cells:
  // they exist for evaluation only and are not part of the release (labels_are_release = false).
  r.labels = label_points(data, q, wp.wavelet.level, out.clustering);
  r.labels_are_release = false;
  r.release = clustering_release(out.clustering);
  for (auto it = out.release_extra.begin(); it != out.release_extra.end(); ++it) r.release[it.key()] = it.value();
  r.diagnostics = std::move(out.diagnostics);
  if (out.range_from_data)
    r.non_private_notes.push_back(
        "PrivTHR_EM's threshold range (0, Max] uses the largest true transformed value (Alg. 2 line 10, as the paper defines "
        "it); set em_upper to a public bound for a fully private release");
  if (out.release_extra.contains("synopsis") && out.release_extra["synopsis"].value("true_n_used", false))
    r.non_private_notes.push_back("Baseline used the true number of records for its grid sizes (n_share = 0)");
  return r;
}

namespace {

// PrivQuantization (PrivQT line 2, Alg. 1 line 2, Alg. 2 line 2): M' = M + Lap(1/eps) on EVERY cell of
// the public grid, empty ones included. One record changes one count by 1 (add/remove neighbours, as
// the paper argues in Sec. 4.2), and the cells are disjoint: parallel composition, sensitivity 1.
std::vector<double> private_quantization(const Dataset& data, const Quantizer& q, double eps, Rng& rng, BudgetLedger& ledger,
                                         const std::string& step, std::vector<double>* true_counts) {
  std::vector<double> m = q.counts(data);
  if (true_counts) *true_counts = m;
  ledger.spend(step, eps, "Laplace(1/eps) on every cell of the public grid, sensitivity 1 (parallel composition)");
  const double scale = 1.0 / eps;
  for (double& x : m) x += rng.laplace(scale);
  return m;
}

// True k = ceil((1-p)|L|) of the non-private W: evaluation only (diagnostics), never released.
std::size_t true_k(const std::vector<double>& w, double p) {
  std::size_t pos = 0;
  for (double v : w) pos += v > 0;
  return top_k_count(p, pos);
}

// Lines "k' = ceil((1-p)|L'|); d' = Top(k', L'); ConnCompLabel" shared by Baseline, PrivQT and (after
// the pruning) PrivTHR: the top-k' of the given positive list, applied to the noisy W'.
// Top-k' of W' is the same set as "the values >= Top(k', L'')" because L'' keeps the largest values.
WcOutput threshold_top(const std::vector<double>& w_noisy, const GridShape& shape, const WcParams& wp, std::size_t l_size,
                       std::size_t k_prime) {
  WcOutput out;
  std::vector<std::uint8_t> sig;
  const double d_prime = select_top_k(w_noisy, k_prime, sig, wp.ties);
  out.clustering = connected_components(sig, shape, wp.full_connectivity);
  out.transformed = w_noisy;
  out.diagnostics = {{"k_prime", k_prime},
                     {"L_prime", l_size},
                     {"threshold", k_prime > 0 ? d_prime : 0.0},
                     {"significant_grids", out.clustering.n_significant},
                     {"clusters", out.clustering.n_clusters}};
  return out;
}

// Top-k' of the whole positive noisy list (Baseline lines 5-8, PrivQT lines 4-7).
WcOutput top_of_noisy(const std::vector<double>& w_noisy, const GridShape& shape, const WcParams& wp) {
  const std::vector<double> l = positive_sorted(w_noisy);  // L'
  const std::size_t k_prime = top_k_count(wp.p, l.size());  // k' = ceil((1-p)|L'|)
  return threshold_top(w_noisy, shape, wp, l.size(), k_prime);  // d' = Top(k', L'), ConnCompLabel
}

class WaveClusterMethod final : public WcMechanism {
 public:
  WcOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet&, Rng&, BudgetLedger&) const override {
    return run_wavecluster(data, wp);
  }
};

// arXiv Alg. "PrivQT" (Sec. 4.2).
class PrivQtMethod final : public WcMechanism {
 public:
  WcOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const override {
    const double eps = params.real("epsilon");
    const Quantizer q = make_quantizer(data, wp);
    std::vector<double> m;
    // line 2: M' = PrivQuantization(D, g, eps)
    const std::vector<double> m_noisy = private_quantization(data, q, eps, rng, ledger, "noisy count matrix (PrivQT line 2)", &m);
    // line 3: W' = WaveletTransform(M', w)
    const std::vector<double> w_noisy = approximation(m_noisy, q.shape(), wp.wavelet);
    const GridShape shape = q.shape().coarsened(wp.wavelet.level);
    // lines 4-7: L', k', d', ConnCompLabel
    WcOutput out = top_of_noisy(w_noisy, shape, wp);
    out.diagnostics["k"] = true_k(approximation(m, q.shape(), wp.wavelet), wp.p);
    return out;
  }
};

// KDD/arXiv Algorithm 1 (PrivTHR, Sec. 4.3).
class PrivThrMethod final : public WcMechanism {
 public:
  WcOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const override {
    const double eps = params.real("epsilon"), rho = params.real("rho");
    const double eps1 = rho * eps, eps2 = eps - eps1;  // budget allocation (Sec. 4.3): eps1 = rho eps
    const Quantizer q = make_quantizer(data, wp);
    const GridShape shape = q.shape().coarsened(wp.wavelet.level);
    std::vector<double> m;
    // line 2: M' = PrivQuantization(D, g, rho eps)
    const std::vector<double> m_noisy = private_quantization(data, q, eps1, rng, ledger, "noisy count matrix (Alg. 1 line 2)", &m);
    // line 3: W' = WaveletTransform(M', w); line 4: L' = ConvertToPosSortedArray(W')
    const std::vector<double> w_noisy = approximation(m_noisy, q.shape(), wp.wavelet);
    const std::vector<double> l_noisy = positive_sorted(w_noisy);
    // line 5 -> lines 11-17 (NoisyZero): M = Quantization(D, g); W = WaveletTransform(M, w);
    // |Z| = CountOfNonPos(W); |Z|' = |Z| + Lap(S_Z / eps2). S_Z = 1 for Haar (paper); for other
    // wavelets it is derived from the filter (wavelet.hpp, sensitivity()).
    const std::vector<double> w = approximation(m, q.shape(), wp.wavelet);
    std::size_t z = 0;
    for (double v : w) z += !(v > 0);
    const double s_z = sensitivity(q.shape(), wp.wavelet).nonpositive_count;
    ledger.spend("noisy |Z| (Alg. 1 line 5, lines 11-17)", eps2,
                 "Laplace, sensitivity " + std::to_string(static_cast<int>(s_z)) + " (" + to_string(wp.wavelet.wavelet) + ")");
    const double z_noisy = static_cast<double>(z) + rng.laplace(s_z / eps2);
    // line 6: L'' = RemoveFrom(L', 0, |Z|'/2): drop the |Z|'/2 smallest noisy positives. |Z|'/2 is
    // real-valued; we drop round(|Z|'/2) values (halves up), clamped to [0, |L'|].
    const double half = std::floor(z_noisy / 2.0 + 0.5);
    const std::size_t removed = half <= 0 ? 0 : std::min(l_noisy.size(), static_cast<std::size_t>(half));
    const std::size_t l2 = l_noisy.size() - removed;  // |L''| (its values are l_noisy[removed..])
    // line 7: k' = ceil((1-p)|L''|); line 8: d' = Top(k', L''); line 9: ConnCompLabel
    const std::size_t k_prime = top_k_count(wp.p, l2);
    WcOutput out = threshold_top(w_noisy, shape, wp, l_noisy.size(), k_prime);
    out.diagnostics["k"] = true_k(w, wp.p);
    out.diagnostics["Z"] = z;
    out.diagnostics["Z_noisy"] = z_noisy;
    out.diagnostics["removed"] = removed;
    return out;
  }
};

// KDD/arXiv Algorithm 2 (PrivTHR_EM, Sec. 4.4).
class PrivThrEmMethod final : public WcMechanism {
 public:
  WcOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const override {
    const double eps = params.real("epsilon"), rho = params.real("rho");
    const double eps1 = rho * eps, eps2 = eps - eps1;  // Sec. 4.4 budget allocation: 70% / 30% by default
    const Quantizer q = make_quantizer(data, wp);
    const GridShape shape = q.shape().coarsened(wp.wavelet.level);
    std::vector<double> m;
    // line 2: M' = PrivQuantization(D, g, rho eps); line 3: W' = WaveletTransform(M', w)
    const std::vector<double> m_noisy = private_quantization(data, q, eps1, rng, ledger, "noisy count matrix (Alg. 2 line 2)", &m);
    const std::vector<double> w_noisy = approximation(m_noisy, q.shape(), wp.wavelet);
    // line 4 -> lines 7-15 (NoisyThresholdByEM): M, W, L = ConvertToPosSortedArray(W), k = ceil((1-p)|L|),
    // k' = ExponentialMechanism(L, k, eps2), d' = UniformRandom(L, k'). The output range is (0, Max]
    // with Max the largest true value, as the paper defines it; Delta_q = 1 for Haar, from the filter
    // otherwise (wavelet.hpp).
    const std::vector<double> w = approximation(m, q.shape(), wp.wavelet);
    const std::vector<double> l = positive_sorted(w);
    const std::size_t k = top_k_count(wp.p, l.size());
    const double dq = sensitivity(q.shape(), wp.wavelet).rank_quality;
    ledger.spend("threshold by the exponential mechanism (Alg. 2 line 4, lines 7-15)", eps2,
                 "exponential mechanism, quality -|rank - k|, sensitivity " + std::to_string(static_cast<int>(dq)));
    WcOutput out;
    std::vector<std::uint8_t> sig(w_noisy.size(), 0);
    std::size_t k_prime = 0;
    double d_prime = 0;
    if (!l.empty()) {
      const EmThreshold t = em_threshold(l, k, eps2, dq, rng, params.real("em_upper"));
      k_prime = t.rank;
      d_prime = t.threshold;
      // line 5: ConnCompLabel(W', d'): significant = noisy values greater than d'.
      select_above(w_noisy, d_prime, sig);
    }
    out.clustering = connected_components(sig, shape, wp.full_connectivity);
    out.transformed = w_noisy;
    if (params.real("em_upper") <= 0) out.range_from_data = true;
    out.diagnostics = {{"k", k},
                       {"k_prime", k_prime},
                       {"threshold", d_prime},
                       {"significant_grids", out.clustering.n_significant},
                       {"clusters", out.clustering.n_clusters}};
    return out;
  }
};

// arXiv Algorithm "Baseline" (Sec. 4.1).
class BaselineMethod final : public WcMechanism {
 public:
  WcOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const override {
    const double eps = params.real("epsilon");
    const Quantizer q = make_quantizer(data, wp);
    SynopsisOptions opt;
    opt.type = params.string("synopsis");
    opt.c = params.real("ag_c");
    opt.alpha = params.real("ag_alpha");
    opt.n_share = params.real("n_share");
    // line 2: D' = DiffPrivPublishing(D, eps) (synthetic points); line 3: M' = Quantization(D', g)
    SyntheticCounts syn = synthetic_counts(data, q, eps, opt, rng, ledger);
    // line 4: W' = WaveletTransform(M', w); lines 5-8: L', k', d', ConnCompLabel
    const std::vector<double> w_noisy = approximation(syn.counts, q.shape(), wp.wavelet);
    WcOutput out = top_of_noisy(w_noisy, q.shape().coarsened(wp.wavelet.level), wp);
    out.diagnostics["k"] = true_k(approximation(q.counts(data), q.shape(), wp.wavelet), wp.p);
    out.diagnostics["synthetic_points"] = syn.info["synthetic_points"];
    syn.info["true_n_used"] = syn.used_true_n;
    out.release_extra["synopsis"] = std::move(syn.info);
    return out;
  }
};

}  // namespace

std::unique_ptr<WcMechanism> make_mechanism(const std::string& name) {
  if (name == "wavecluster") return std::make_unique<WaveClusterMethod>();
  if (name == "privqt") return std::make_unique<PrivQtMethod>();
  if (name == "privthr") return std::make_unique<PrivThrMethod>();
  if (name == "privthr_em") return std::make_unique<PrivThrEmMethod>();
  if (name == "wc_baseline") return std::make_unique<BaselineMethod>();
  throw std::invalid_argument("unknown WaveCluster mechanism '" + name + "'");
}

}  // namespace dpclust::wavecluster
