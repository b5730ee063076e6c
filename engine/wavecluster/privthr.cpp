// PrivTHR (Algorithm 1); the line table and the reading of line 6 are in privthr.hpp.
#include "wavecluster/privthr.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <string>

#include "wavecluster/privqt.hpp"

namespace dpclust::wavecluster {

double noisy_zero(const std::vector<double>& w, double s_z, double epsilon, privacy::Sampler sampler, Rng& rng,
                  BudgetLedger& ledger, std::string note) {
  std::size_t z = 0;
  for (double v : w) z += !(v > 0);  // line 14: |Z| = CountOfNonPos(W)
  // line 15: |Z|' = |Z| + Lap(S_Z / eps2)
  const auto mech = privacy::CountMechanism::laplace(ledger, sampler, s_z, epsilon,
                                                     "noisy |Z| (Alg. 1 line 5, lines 11-17)", std::move(note));
  return mech.noisy(rng, static_cast<double>(z));
}

namespace {

// The analysis low-pass filter as integers (Haar [1, 1], bior2.2 [-1, 2, 6, 2, -1]): whether one value
// of W' is positive does not depend on a common factor. Empty when the taps are not integer multiples
// of the smallest one (db2's taps (1 +- sqrt3, 3 +- sqrt3) are not; zero_turns_positive then uses the
// paper's r = 1/2, an approximation that overstates r by Pr[S = 0] / 2 <= Pr[X = 0] / 2; S = 0 needs,
// e.g., all 16 noises behind a 2-D db2 value at 0, probability Pr[X = 0]^16. A post-processing choice:
// it does not touch the privacy accounting).
std::vector<double> integer_taps(Wavelet wavelet) {
  const std::vector<double>& taps = lowpass_filter(wavelet).taps;
  double unit = 0;
  for (double t : taps)
    if (t != 0 && (unit == 0 || std::fabs(t) < unit)) unit = std::fabs(t);
  std::vector<double> r;
  for (double t : taps) {
    const double x = std::round(t / unit);
    if (std::fabs(t / unit - x) > 1e-9) return {};
    r.push_back(x);
  }
  return r;
}

// Pr[S = 0] for S = sum_w w X_w (X iid discrete Laplace of parameter a: Pr[X = k] ~ a^|k|; the integer
// weights given as |w| -> multiplicity), by inverting the characteristic function:
//   Pr[S = 0] = (1/pi) int_0^pi prod_w phi(w t)^m_w dt,  phi(t) = (1 - a)^2 / (1 - 2 a cos t + a^2).
// The integrand is periodic and analytic, so the trapezoid rule converges geometrically; the number of
// nodes doubles until two results agree to 1e-13.
double probability_sum_is_zero(const std::map<double, double>& weights, double a) {
  auto f = [&](double t) {
    double log_phi = 0;
    for (const auto& [w, m] : weights)
      log_phi += m * (2.0 * std::log1p(-a) - std::log(1.0 - 2.0 * a * std::cos(w * t) + a * a));
    return std::exp(log_phi);
  };
  std::size_t n = 256;
  double sum = 0.5 * (f(0.0) + f(std::numbers::pi));
  for (std::size_t j = 1; j < n; ++j) sum += f(std::numbers::pi * static_cast<double>(j) / static_cast<double>(n));
  double value = sum / static_cast<double>(n);
  while (n < (std::size_t{1} << 22)) {
    for (std::size_t j = 1; j < 2 * n; j += 2)
      sum += f(std::numbers::pi * static_cast<double>(j) / static_cast<double>(2 * n));
    n *= 2;
    const double next = sum / static_cast<double>(n);
    const bool done = std::fabs(next - value) < 1e-13;
    value = next;
    if (done) break;
  }
  return value;
}

}  // namespace

double zero_turns_positive(const privacy::CountMechanism& counts, double noise_scale, const WaveletSpec& spec,
                           std::size_t d) {
  if (noise_scale == 0) return 0.0;                                // no noise: no zero turns positive
  if (counts.sampler() == privacy::Sampler::textbook) return 0.5;  // continuous symmetric noise: the paper's |Z|'/2
  // Discrete Laplace: Pr[X >= 1] = a / (1 + a), so a = t / (1 - t); Pr[X = 0] = (1 - a) / (1 + a).
  const double t = counts.tail_probability(1.0);
  const double a = t / (1.0 - t);
  const double p0 = (1.0 - a) / (1.0 + a);
  if (!(a > 0)) return 0.0;
  if (p0 < 1e-12) return 0.5;  // Pr[S = 0] <= Pr[X = 0]: continuous for every practical purpose
  // The level-L filter of one axis: g_1 = h, g_L = g_{L-1} * (h upsampled by 2^{L-1}) (noble identity).
  const std::vector<double> h = integer_taps(spec.wavelet);
  if (h.empty()) return 0.5;
  std::vector<double> g = h;
  for (int level = 2; level <= spec.level; ++level) {
    const std::size_t step = std::size_t{1} << (level - 1);
    std::vector<double> up((h.size() - 1) * step + 1, 0.0);
    for (std::size_t i = 0; i < h.size(); ++i) up[i * step] = h[i];
    std::vector<double> c(g.size() + up.size() - 1, 0.0);
    for (std::size_t i = 0; i < g.size(); ++i)
      for (std::size_t j = 0; j < up.size(); ++j) c[i + j] += g[i] * up[j];
    g = std::move(c);
  }
  // The d-dimensional weights are the products of one entry per axis: |w| -> multiplicity.
  std::map<double, double> weights{{1.0, 1.0}};
  for (std::size_t j = 0; j < d; ++j) {
    std::map<double, double> next;
    for (const auto& [w, m] : weights)
      for (double x : g)
        if (x != 0) next[w * std::fabs(x)] += m;
    weights = std::move(next);
  }
  const double p_zero = std::clamp(probability_sum_is_zero(weights, a), 0.0, p0);
  return (1.0 - p_zero) / 2.0;  // S is symmetric
}

WaveClusterOutput privthr(const Dataset& data, const WcParams& params, const PrivThrOptions& options, Rng& rng,
                          BudgetLedger& ledger, const std::vector<double>* known_counts) {
  const double eps1 = options.rho * options.epsilon, eps2 = options.epsilon - eps1;  // Sec. 4.3: eps1 = rho eps
  const Quantizer q = make_quantizer(data, params);
  const GridShape shape = q.shape().coarsened(params.wavelet.level);
  std::vector<double> storage;
  const std::vector<double>& m = count_matrix(known_counts, q, data, storage);
  // line 2: M' = PrivQuantization(D, g, rho eps)
  const PrivQuantization noisy =
      private_quantization(m, eps1, options.sampler, rng, ledger, "noisy count matrix (Alg. 1 line 2)");
  // line 3: W' = WaveletTransform(M', w); line 4: L' = ConvertToPosSortedArray(W')
  const std::vector<double> w_noisy = approximation(noisy.noisy, q.shape(), params.wavelet);
  const std::size_t l_noisy = positive_sorted(w_noisy).size();
  // line 5 -> lines 11-17 (NoisyZero): M and W of lines 12-13 are the true ones of line 2.
  const std::vector<double> w = approximation(m, q.shape(), params.wavelet);
  const double s_z = sensitivity(q.shape(), params.wavelet).nonpositive_count * neighbour_factor(ledger);
  const double z_noisy =
      noisy_zero(w, s_z, eps2, options.sampler, rng, ledger,
                 "L1 sensitivity " + std::to_string(static_cast<int>(s_z)) + " (" + to_string(params.wavelet.wavelet) +
                     ", level " + std::to_string(params.wavelet.level) + ")");
  // line 6: L'' = RemoveFrom(L', 0, r |Z|'): drop the round(r |Z|') smallest noisy positives (halves
  // up), clamped to [0, |L'|]; r = 1/2 for the paper's continuous noise (privthr.hpp).
  const double r = zero_turns_positive(noisy.mechanism, ledger.noise_scale(), params.wavelet, data.d);
  const double drop = std::floor(r * z_noisy + 0.5);
  const std::size_t removed = drop <= 0 ? 0 : std::min(l_noisy, static_cast<std::size_t>(drop));
  const std::size_t l2 = l_noisy - removed;  // |L''|: the largest values of L'
  // line 7: k' = ceil((1-p)|L''|); lines 8-9: d' = Top(k', L''), ConnCompLabel(W', d'). L'' keeps the
  // largest values of L', so its top k' are the top k' of W'.
  const std::size_t k_prime = top_k_count(params.p, l2);
  WaveClusterOutput out = significant_top_k(w_noisy, shape, params, l_noisy, k_prime);
  out.is_private = true;
  out.public_extra = {{"Z_noisy", z_noisy}, {"removal_fraction", r}, {"removed", removed}};
  release_noisy_counts(params, noisy, out);
  set_true_statistics(out, w, params.p);  // evaluation only
  return out;
}

}  // namespace dpclust::wavecluster
