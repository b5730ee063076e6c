#include "wavecluster/exp_mech.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dpclust::wavecluster {

namespace {
// W_i (rank i, 1-based, descending) from the ascending array; W_{m+1} = 0.
double w_rank(const std::vector<double>& asc, std::size_t i) { return i > asc.size() ? 0.0 : asc[asc.size() - i]; }
}  // namespace

std::vector<double> em_log_weights(const std::vector<double>& asc, std::size_t k, double eps2, double delta_q) {
  const std::size_t m = asc.size();
  std::vector<double> lw(m);
  for (std::size_t i = 1; i <= m; ++i) {
    const double width = w_rank(asc, i) - w_rank(asc, i + 1);  // |Pt_i|
    const double dist = std::fabs(static_cast<double>(i) - static_cast<double>(k));
    lw[i - 1] = width > 0 ? std::log(width) - eps2 * dist / (2.0 * delta_q) : -std::numeric_limits<double>::infinity();
  }
  return lw;
}

std::vector<double> em_probabilities(const std::vector<double>& asc, std::size_t k, double eps2, double delta_q) {
  std::vector<double> lw = em_log_weights(asc, k, eps2, delta_q);
  const double mx = *std::max_element(lw.begin(), lw.end());
  double total = 0;
  for (double& x : lw) total += (x = std::exp(x - mx));
  for (double& x : lw) x /= total;
  return lw;
}

std::size_t sample_log_weights(const std::vector<double>& log_w, Rng& rng) {
  if (log_w.empty()) throw std::invalid_argument("sample_log_weights: no outcomes");
  const double mx = *std::max_element(log_w.begin(), log_w.end());
  if (!std::isfinite(mx)) throw std::invalid_argument("sample_log_weights: every weight is zero");
  std::vector<double> cum(log_w.size());
  double total = 0;
  for (std::size_t i = 0; i < log_w.size(); ++i) cum[i] = (total += std::exp(log_w[i] - mx));
  const double u = rng.uniform() * total;
  // First index whose cumulative weight exceeds u; zero-weight outcomes can never be chosen.
  const auto it = std::upper_bound(cum.begin(), cum.end(), u);
  std::size_t i = static_cast<std::size_t>(it - cum.begin());
  if (i >= cum.size()) i = cum.size() - 1;                  // u == total can only happen by rounding
  while (i > 0 && !(cum[i] > (i ? cum[i - 1] : 0.0))) --i;  // never land on a zero-weight outcome
  return i;
}

namespace {
// The noiseless limit of the log-weights: 0 for the non-empty partition nearest rank k (index i of
// `lw` is rank i + first_rank), -inf elsewhere.
void argmax_weights(std::vector<double>& lw, std::size_t k, std::size_t first_rank) {
  std::size_t best = lw.size();
  double best_dist = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < lw.size(); ++i) {
    if (!(lw[i] > -std::numeric_limits<double>::infinity())) continue;  // empty partition
    const double dist = std::fabs(static_cast<double>(i + first_rank) - static_cast<double>(k));
    if (dist < best_dist) best_dist = dist, best = i;
  }
  for (std::size_t i = 0; i < lw.size(); ++i) lw[i] = i == best ? 0.0 : -std::numeric_limits<double>::infinity();
}
}  // namespace

EmThreshold em_threshold_continuous(const std::vector<double>& asc_in, std::size_t k, double eps2, double delta_q,
                                    Rng& rng, double upper) {
  if (asc_in.empty()) throw std::invalid_argument("em_threshold_continuous: no positive values");
  const bool noiseless = std::isinf(eps2) && eps2 > 0;
  if (noiseless) eps2 = 1.0;  // the widths decide emptiness; the weights are replaced below
  EmThreshold t;
  if (upper > 0) {
    std::vector<double> asc = asc_in;
    for (double& v : asc) v = std::min(v, upper);
    std::vector<double> lw = em_log_weights(asc, k, eps2, delta_q);
    const double top = upper - asc.back();  // |Pt_0| = (W_1, upper]
    lw.insert(lw.begin(), top > 0 ? std::log(top) - eps2 * static_cast<double>(k) / (2.0 * delta_q)
                                  : -std::numeric_limits<double>::infinity());
    if (noiseless) argmax_weights(lw, k, 0);
    t.rank = sample_log_weights(lw, rng);  // index 0 is rank 0, index i is rank i
    const double hi = t.rank == 0 ? upper : w_rank(asc, t.rank), lo = w_rank(asc, t.rank + 1);
    t.threshold = hi - rng.uniform() * (hi - lo);
    return t;
  }
  const std::vector<double>& asc = asc_in;
  std::vector<double> lw = em_log_weights(asc, k, eps2, delta_q);
  if (noiseless) argmax_weights(lw, k, 1);
  t.rank = sample_log_weights(lw, rng) + 1;  // line 12: k'
  const double hi = w_rank(asc, t.rank), lo = w_rank(asc, t.rank + 1);
  t.threshold = hi - rng.uniform() * (hi - lo);  // line 13: uniform in (lo, hi]
  return t;
}

double ThresholdLattice::spacing() const { return std::ldexp(1.0, exponent); }

std::uint64_t ThresholdLattice::points_up_to(double x) const {
  if (!(x > 0)) return 0;
  if (x >= upper) return points;
  return static_cast<std::uint64_t>(std::floor(std::ldexp(x, -exponent)));  // x / 2^e is exact
}

double ThresholdLattice::point(std::uint64_t j) const { return std::ldexp(static_cast<double>(j), exponent); }

ThresholdLattice threshold_lattice(double upper, int bits) {
  if (!(upper > 0) || !std::isfinite(upper))
    throw std::invalid_argument("threshold lattice: the range's upper end must be finite and > 0");
  if (bits < 1 || bits > 40) throw std::invalid_argument("threshold lattice: lattice_bits must be in [1, 40]");
  int e = 0;
  std::frexp(upper, &e);  // upper = m 2^e, m in [1/2, 1): 2^(e-1) <= upper < 2^e
  // ceil(log2 upper): e, or e - 1 when upper is itself a power of two (m = 1/2). The documented spacing
  // 2^(ceil(log2 U) - bits); taking e alone gave twice that at U = 2^k (2^(bits-1) points, not 2^bits).
  const int ceil_log2 = std::ldexp(1.0, e - 1) == upper ? e - 1 : e;
  ThresholdLattice l;
  l.upper = upper;
  l.exponent = ceil_log2 - bits;
  l.points = static_cast<std::uint64_t>(std::floor(std::ldexp(upper, -l.exponent)));
  if (l.points == 0) throw std::invalid_argument("threshold lattice: no lattice point in the range");
  return l;
}

EmThreshold em_threshold_lattice(const std::vector<double>& asc, std::size_t k, const privacy::ExponentialMechanism& em,
                                 const ThresholdLattice& lattice, bool public_top, Rng& rng) {
  // No positive value: with a public range the one block is rank 0, every lattice point (Pt_0 = (0, U]).
  if (asc.empty() && !public_top)
    throw std::invalid_argument("em_threshold_lattice: no positive values and no public range");
  const std::size_t m = asc.size();
  // Blocks in order of decreasing threshold: [rank 0 when the range is public], rank 1, ..., rank m.
  // Block of rank i = the lattice points j with floor(W_{i+1} / s) < j <= floor(W_i / s) (W_0 = upper,
  // W_{m+1} = 0); its distance |i - k|. The noiseless limit prefers the first block on a tie, i.e. the
  // higher threshold, as the continuous form does.
  const std::size_t first_rank = public_top ? 0 : 1;
  const std::size_t blocks = m + 1 - first_rank;
  std::vector<std::uint64_t> counts(blocks), distance(blocks), below(blocks);
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t rank = b + first_rank;
    const std::uint64_t hi = rank == 0 ? lattice.points : lattice.points_up_to(w_rank(asc, rank));
    const std::uint64_t lo = lattice.points_up_to(w_rank(asc, rank + 1));
    counts[b] = hi - lo;
    below[b] = lo;
    distance[b] = static_cast<std::uint64_t>(rank > k ? rank - k : k - rank);
  }
  const privacy::ExponentialMechanism::Choice c = em.choose(counts, distance, rng);
  EmThreshold t;
  t.rank = c.block + first_rank;
  t.threshold = lattice.point(below[c.block] + 1 + c.offset);
  t.grid = lattice.spacing();
  return t;
}

}  // namespace dpclust::wavecluster
