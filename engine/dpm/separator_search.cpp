#include "dpm/separator_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dpm/interval_size.hpp"

namespace dpclust::dpm {

const char* to_string(HistogramBins b) { return b == HistogramBins::reference ? "reference" : "aligned"; }

CandidateGrid candidate_grid(const std::vector<double>& lo, const std::vector<double>& hi, double interval,
                             HistogramBins bins) {
  if (!(interval > 0) || !std::isfinite(interval))
    throw std::invalid_argument("candidate_grid: the interval size must be finite and > 0");
  CandidateGrid g;
  g.interval = interval;
  g.bins = bins;
  g.lo = lo;
  g.hi = hi;
  const std::size_t d = lo.size();
  g.count.assign(d, 0);
  g.offset.assign(d, 0);
  for (std::size_t j = 0; j < d; ++j) {
    g.offset[j] = g.position.size();
    const double span = (hi[j] - lo[j]) / interval;
    const auto m = static_cast<std::size_t>(std::max(0.0, std::floor(span)));
    g.count[j] = m;
    // numpy's arange fills start + i * delta with delta = (start + step) - start.
    const double delta = (lo[j] + interval) - lo[j];
    for (std::size_t i = 0; i < m; ++i) g.position.push_back((lo[j] + static_cast<double>(i) * delta) + interval / 2);
  }
  return g;
}

double centreness(double n, double q, double t, double p) {
  const double half = n / 2, mid = half - std::abs(p - half);
  if (std::abs(half - p) >= half - n * q) return mid * t / (n * q);
  return (t - 2 * q) / (1 - 2 * q) + mid * (1 - t) / (half - n * q);
}

double score_sensitivity(const ScoreWeights& w, double n_lower) {
  const double slope = std::max(w.t / w.q, 2 * (1 - w.t) / (1 - 2 * w.q));
  return w.w_c * slope / n_lower + w.w_e / n_lower;
}

void node_scores(const double* coords, std::size_t d, const std::uint32_t* members, std::size_t size,
                 const CandidateGrid& grid, double noisy_count, const ScoreWeights& w, std::vector<double>& scores,
                 ScoreScratch& scratch) {
  scores.assign(grid.total(), 0.0);
  if (noisy_count <= 0) return;  // the reference's early return: every score 0
  for (std::size_t j = 0; j < d; ++j) {
    const std::size_t m = grid.count[j];
    if (m == 0) continue;
    const double* c = grid.position.data() + grid.offset[j];
    const double lo = grid.lo[j], hi = grid.hi[j], width = grid.interval;
    const double delta = (lo + width) - lo;
    scratch.below.assign(m + 1, 0);
    scratch.in_bin.assign(m, 0);
    const double inv_range = 1.0 / (hi - lo), bins = static_cast<double>(m);
    for (std::size_t s = 0; s < size; ++s) {
      const double v = coords[static_cast<std::size_t>(members[s]) * d + j];
      // J = #{i : c_i <= v}: an estimate from the spacing, corrected against the exact positions.
      double est = std::floor((v - lo - width / 2) / delta) + 1;
      std::size_t k = static_cast<std::size_t>(std::min(std::max(est, 0.0), bins));
      while (k < m && c[k] <= v) ++k;
      while (k > 0 && c[k - 1] > v) --k;
      ++scratch.below[k];
      if (grid.bins == HistogramBins::reference) {
        // fast_histogram 0.12: int((v - lo) * (1 / (hi - lo)) * bins) on [lo, hi), the top edge in the last bin.
        if (v < lo || v > hi) continue;
        std::size_t b = v == hi ? m - 1 : static_cast<std::size_t>((v - lo) * inv_range * bins);
        ++scratch.in_bin[std::min(b, m - 1)];
      } else {
        // The candidate's own interval [lo + i delta, lo + (i + 1) delta).
        if (v < lo) continue;
        double e = std::floor((v - lo) / delta);
        std::size_t b = static_cast<std::size_t>(std::min(std::max(e, 0.0), bins));
        while (b < m && lo + static_cast<double>(b + 1) * delta <= v) ++b;
        while (b > 0 && lo + static_cast<double>(b) * delta > v) --b;
        if (b < m) ++scratch.in_bin[b];
      }
    }
    double p = 0;
    for (std::size_t i = 0; i < m; ++i) {
      p += scratch.below[i];  // #{x : x < c_i} = #{x : J(x) <= i}
      const double empt = std::min(std::max(1.0 - static_cast<double>(scratch.in_bin[i]) / noisy_count, 0.0), 1.0);
      scores[grid.offset[j] + i] = w.w_c * centreness(noisy_count, w.q, w.t, p) + w.w_e * empt;
    }
  }
}

std::vector<std::uint64_t> candidate_distances(const std::vector<double>& scores, double sensitivity) {
  const double units = static_cast<double>(kQualityUnits) / sensitivity;
  double best = -std::numeric_limits<double>::infinity();
  for (double s : scores) best = std::max(best, s);
  const double top = std::floor(best * units);
  std::vector<std::uint64_t> distance(scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i)
    distance[i] = static_cast<std::uint64_t>(std::min(std::max(top - std::floor(scores[i] * units), 0.0), 0x1p40));
  return distance;
}

std::size_t choose_candidate(const std::vector<double>& scores, double sensitivity, privacy::Sampler sampler,
                             const privacy::ExponentialMechanism* exact, double epsilon, double noise_scale, Rng& rng) {
  if (scores.empty()) throw std::invalid_argument("choose_candidate: no candidates");
  const double best = *std::max_element(scores.begin(), scores.end());
  if (sampler == privacy::Sampler::secure) {
    if (exact == nullptr) throw std::logic_error("choose_candidate: the secure sampler needs the exact mechanism");
    const std::vector<std::uint64_t> counts(scores.size(), 1);
    return exact->choose(counts, candidate_distances(scores, sensitivity), rng).block;
  }
  // diffprivlib's Exponential (monotonic = False): exp(eps (u - max u) / (2 Delta)), cumulative, one uniform.
  if (noise_scale == 0)
    return static_cast<std::size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
  const double scale = epsilon / noise_scale / sensitivity / 2;
  std::vector<double> cumulative(scores.size());
  double total = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    total += std::exp(scale * (scores[i] - best));
    cumulative[i] = total;
  }
  const double r = rng.uniform() * total;
  const auto i =
      static_cast<std::size_t>(std::lower_bound(cumulative.begin(), cumulative.end(), r) - cumulative.begin());
  return std::min(i, scores.size() - 1);
}

}  // namespace dpclust::dpm
