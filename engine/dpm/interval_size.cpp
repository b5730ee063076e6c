#include "dpm/interval_size.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "privacy/exponential.hpp"

namespace dpclust::dpm {

const char* to_string(GapStatistic s) { return s == GapStatistic::pooled ? "pooled" : "rank_mean"; }

namespace {

constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;

// Phi(x + g) - Phi(x) without cancellation in the upper tail (through the survival function there).
double normal_mass(double x, double g) {
  if (x >= 0) return 0.5 * (std::erfc(x * kInvSqrt2) - std::erfc((x + g) * kInvSqrt2));
  return 0.5 * (std::erfc(-(x + g) * kInvSqrt2) - std::erfc(-x * kInvSqrt2));
}

double clamp_to(double v, double lo, double hi) { return std::min(std::max(v, lo), hi); }

// The lattice index of the first lattice point >= v in [0, upper]: ceil(v / upper 2^40), monotone in v.
std::uint64_t lattice_ceil(double v, double upper) {
  const double x = std::ceil(std::ldexp(v / upper, 40));
  return static_cast<std::uint64_t>(std::min(std::max(x, 0.0), 0x1p40));
}

}  // namespace

double normal_spacing_survival(std::uint64_t n, double g) {
  if (n < 2) throw std::invalid_argument("normal_spacing_survival: n must be at least 2");
  // Simpson's rule over [-10, 10] (the normal mass outside is below 2e-23).
  const int intervals = 4000;
  const double a = -10, h = 20.0 / intervals, nm1 = static_cast<double>(n - 1);
  double sum = 0;
  for (int i = 0; i <= intervals; ++i) {
    const double x = a + h * i;
    const double f = kInvSqrt2Pi * std::exp(-0.5 * x * x) * std::exp(nm1 * std::log1p(-normal_mass(x, g)));
    sum += f * (i == 0 || i == intervals ? 1 : (i % 2 == 1 ? 4 : 2));
  }
  const double integral = sum * h / 3;
  return (static_cast<double>(n) * integral - 1) / nm1;
}

double normal_spacing_quantile(std::uint64_t n, double quantile) {
  if (!(quantile > 0 && quantile < 1))
    throw std::invalid_argument("normal_spacing_quantile: quantile must be in (0, 1)");
  const double target = 1 - quantile;
  // S decreases from 1 (g = 0) to 0; bisection on log g.
  // g is about 0.4 / n for large n and 0.9 for n = 2: the bracket [1e-4 / n, 10] holds it with room.
  double lo = std::log(1e-4 / static_cast<double>(n)), hi = std::log(10.0);
  for (int i = 0; i < 200 && hi - lo > 1e-8; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (normal_spacing_survival(n, std::exp(mid)) > target) lo = mid;
    else hi = mid;
  }
  return std::exp(0.5 * (lo + hi));
}

double codebook_sigma(double gap_percentile, double spacing_quantile) {
  int best = 1;
  double best_gap = std::numeric_limits<double>::infinity();
  for (int i = 1; i <= kSigmaCount; ++i) {
    const double gap = std::abs(kSigmaStep * i * spacing_quantile - gap_percentile);
    if (gap < best_gap) best_gap = gap, best = i;
  }
  return kSigmaStep * best;
}

std::vector<double> pooled_gaps(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds) {
  std::vector<double> gaps;
  if (n < 2) return gaps;
  gaps.reserve(d * (n - 1));
  std::vector<double> column(n);
  for (std::size_t j = 0; j < d; ++j) {
    for (std::size_t i = 0; i < n; ++i) column[i] = clamp_to(coords[i * d + j], bounds.lo[j], bounds.hi[j]);
    std::sort(column.begin(), column.end());
    for (std::size_t i = 1; i < n; ++i) gaps.push_back(column[i] - column[i - 1]);
  }
  return gaps;
}

std::vector<double> rank_mean_gaps(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds) {
  std::vector<double> mean;
  if (n < 2) return mean;
  // numpy: np.sum(x[1:] - x[:-1], axis=1) / d, the row sums in dimension order.
  mean.assign(n - 1, 0.0);
  std::vector<double> column(n);
  for (std::size_t j = 0; j < d; ++j) {
    for (std::size_t i = 0; i < n; ++i) column[i] = clamp_to(coords[i * d + j], bounds.lo[j], bounds.hi[j]);
    std::sort(column.begin(), column.end());
    for (std::size_t i = 1; i < n; ++i) mean[i - 1] += column[i] - column[i - 1];
  }
  for (double& v : mean) v /= static_cast<double>(d);
  return mean;
}

double private_quantile(std::vector<double>& values, double quantile, double upper, double rank_sensitivity,
                        double epsilon, privacy::Sampler sampler, Rng& rng, BudgetLedger& ledger,
                        const std::string& step) {
  if (!(upper > 0) || !std::isfinite(upper))
    throw std::invalid_argument("private_quantile: the upper bound must be finite and > 0");
  for (double& v : values) v = clamp_to(v, 0.0, upper);
  std::sort(values.begin(), values.end());
  const std::size_t k = values.size();
  const double target = quantile * static_cast<double>(k);
  // Interval i (i = 0..k) lies between the i-th and (i+1)-th of 0, values..., upper; i values lie below it.
  auto left = [&](std::size_t i) { return i == 0 ? 0.0 : values[i - 1]; };
  auto right = [&](std::size_t i) { return i == k ? upper : values[i]; };
  const std::string note = "the rank utility -|i - q k| over the intervals between the sorted gaps on [0, " +
                           std::to_string(upper) + "] (diffprivlib's quantile); rank sensitivity " +
                           std::to_string(rank_sensitivity);
  if (sampler == privacy::Sampler::textbook) {
    privacy::charge(ledger, step, epsilon, "exponential (textbook)", rank_sensitivity, "utility", note);
    ledger.declare_unbounded(
        "DPM's interval-size percentile with sampler: textbook is diffprivlib's continuous output (a uniform point of "
        "the "
        "chosen interval, in doubles, whose ends are private values)");
    const double f = ledger.noise_scale();
    // diffprivlib: probabilities exp(eps (u - max u) / (2 Delta)) times the interval widths, then the
    // cumulative sum searched with one uniform, then a uniform point of the interval.
    std::vector<double> cumulative(k + 1);
    double total = 0;
    std::size_t best = 0;
    double best_u = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i <= k; ++i) {
      const double u = -std::abs(static_cast<double>(i) - target);
      if (u > best_u && right(i) > left(i)) best_u = u, best = i;
    }
    std::size_t chosen = best;
    if (f > 0) {
      const double scale = epsilon / f / (2 * rank_sensitivity);
      for (std::size_t i = 0; i <= k; ++i) {
        const double u = -std::abs(static_cast<double>(i) - target);
        total += std::exp(scale * (u - best_u)) * (right(i) - left(i));
        cumulative[i] = total;
      }
      const double r = rng.uniform() * total;
      chosen = static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), r) - cumulative.begin());
      chosen = std::min(chosen, k);
    }
    return left(chosen) + rng.uniform() * (right(chosen) - left(chosen));
  }
  // Secure: the lattice points of each interval form one block of the exact exponential mechanism.
  const privacy::ExponentialMechanism em = privacy::ExponentialMechanism::build(
      ledger, epsilon, static_cast<double>(kQualityUnits) * rank_sensitivity + 2, step,
      note + "; utilities in units of 1/" + std::to_string(kQualityUnits) +
          " rank (sensitivity K Delta + 2 units), output on the lattice j " + std::to_string(upper) + " 2^-40");
  const LatticeBlocks blocks = quantile_lattice_blocks(values, quantile, upper);
  const privacy::ExponentialMechanism::Choice c = em.choose(blocks.count, blocks.distance, rng);
  const std::uint64_t j = blocks.first[c.block] + c.offset;
  return std::ldexp(static_cast<double>(j), -40) * upper;
}

LatticeBlocks quantile_lattice_blocks(const std::vector<double>& sorted, double quantile, double upper) {
  const std::size_t k = sorted.size();
  const double target = quantile * static_cast<double>(k);
  const double units = static_cast<double>(kQualityUnits);
  constexpr std::uint64_t kMaxBlock = std::uint64_t{1} << 40;  // the exact mechanism's largest block
  LatticeBlocks b;
  for (std::size_t i = 0; i <= k; ++i) {
    const std::uint64_t first = i == 0 ? 0 : lattice_ceil(sorted[i - 1], upper);
    const std::uint64_t end = i == k ? kMaxBlock + 1 : lattice_ceil(sorted[i], upper);
    std::uint64_t count = end > first ? end - first : 0;
    const auto distance =
        static_cast<std::uint64_t>(std::min(std::ceil(units * std::abs(static_cast<double>(i) - target)), 0x1p40));
    // Only the last interval can hold all 2^40 + 1 points (every value 0): its last point goes to a block of
    // its own at the same distance, so that it keeps the probability a neighbour's data would give it (a
    // neighbour with one gap above 0 has it in a smaller last block).
    if (count > kMaxBlock) {
      b.first.push_back(first);
      b.count.push_back(kMaxBlock);
      b.distance.push_back(distance);
      b.first.push_back(first + kMaxBlock);
      count -= kMaxBlock;
      b.count.push_back(count);
      b.distance.push_back(distance);
      continue;
    }
    b.first.push_back(first);
    b.count.push_back(count);
    b.distance.push_back(distance);
  }
  return b;
}

IntervalSizeEstimate estimate_interval_size(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                                            double noisy_count, double epsilon, GapStatistic statistic,
                                            privacy::Sampler sampler, Rng& rng, BudgetLedger& ledger) {
  IntervalSizeEstimate e;
  e.statistic = statistic;
  double upper = 0;
  for (std::size_t j = 0; j < d; ++j) upper = std::max(upper, bounds.hi[j] - bounds.lo[j]);
  if (!(upper > 0)) upper = 1;  // a one-point domain: every gap is 0
  std::vector<double> gaps =
      statistic == GapStatistic::pooled ? pooled_gaps(coords, n, d, bounds) : rank_mean_gaps(coords, n, d, bounds);
  e.rank_sensitivity = statistic == GapStatistic::pooled ? 2.0 * static_cast<double>(d) : 2.0;
  e.gap_percentile = private_quantile(gaps, kGapQuantile, upper, e.rank_sensitivity, epsilon, sampler, rng, ledger,
                                      "interval size: private 65th percentile of the gaps");
  const double rounded = std::floor(noisy_count);
  e.codebook_n = rounded >= 2 ? static_cast<std::uint64_t>(std::min(rounded, 0x1p62)) : 2;
  e.spacing_quantile = normal_spacing_quantile(e.codebook_n);
  e.sigma = codebook_sigma(e.gap_percentile, e.spacing_quantile);
  e.interval = e.sigma * kIntervalPerSigma;
  return e;
}

}  // namespace dpclust::dpm
