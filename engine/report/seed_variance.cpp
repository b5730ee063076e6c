#include "report/seed_variance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace dpclust::report {

const char* to_string(SeedStatistic s) {
  switch (s) {
    case SeedStatistic::mean: return "mean";
    case SeedStatistic::median: return "median";
    case SeedStatistic::single: return "single";
  }
  return "?";
}

std::string describe(const Protocol& p) {
  if (p.statistic == SeedStatistic::single) return "single run";
  return std::string(to_string(p.statistic)) + " of " + std::to_string(p.seeds) + (p.seeds == 1 ? " seed" : " seeds");
}

std::size_t choose(std::size_t n, std::size_t k) {
  if (k > n) return 0;
  k = std::min(k, n - k);
  constexpr std::size_t cap = std::numeric_limits<std::size_t>::max();
  std::size_t r = 1;
  for (std::size_t i = 1; i <= k; ++i) {
    // r = C(n-k+i-1, i-1); r (n-k+i) / i = C(n-k+i, i) exactly. Saturates when the product would
    // overflow (only "more than max_exact" matters to the callers).
    if (r > cap / (n - k + i)) return cap;
    r = r * (n - k + i) / i;
  }
  return r;
}

namespace {

// Unbiased integer in [0, range) from a 64-bit generator (rejection; the same on every platform,
// unlike std::uniform_int_distribution).
std::uint64_t bounded(std::mt19937_64& rng, std::uint64_t range, std::uint64_t threshold) {
  for (;;) {
    const std::uint64_t x = rng();
    if (x >= threshold) return x % range;
  }
}
// The rejection threshold of `range`: 2^64 mod range. The resampling loops compute it once per range
// (it is a 64-bit division, as costly as the draw), which leaves the stream and the draws unchanged.
std::uint64_t threshold_of(std::uint64_t range) { return (0 - range) % range; }

// The statistic of the trials at `idx` (k of them); `scratch` has room for k values.
double statistic_of(const std::vector<double>& trials, const std::size_t* idx, std::size_t k, SeedStatistic s,
                    std::vector<double>& scratch) {
  if (s != SeedStatistic::median) {
    double sum = 0;
    for (std::size_t i = 0; i < k; ++i) sum += trials[idx[i]];
    return sum / static_cast<double>(k);
  }
  for (std::size_t i = 0; i < k; ++i) scratch[i] = trials[idx[i]];
  std::sort(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(k));
  return k % 2 ? scratch[k / 2] : 0.5 * (scratch[k / 2 - 1] + scratch[k / 2]);
}

}  // namespace

SeedDistribution k_seed_distribution(const std::vector<double>& trials, const Protocol& p, const ResampleSettings& rs) {
  SeedDistribution d;
  const std::size_t n = trials.size();
  const std::size_t k = p.statistic == SeedStatistic::single ? 1 : p.seeds;
  if (k == 0 || n < k) return d;
  std::vector<double> scratch(k);
  const std::size_t total = choose(n, k);
  if (total <= rs.max_exact) {
    d.values.reserve(total);
    std::vector<std::size_t> idx(k);
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    for (;;) {  // every k-subset in lexicographic order
      d.values.push_back(statistic_of(trials, idx.data(), k, p.statistic, scratch));
      std::size_t i = k;
      while (i > 0 && idx[i - 1] == n - k + i - 1) --i;
      if (i == 0) break;
      ++idx[i - 1];
      for (std::size_t j = i; j < k; ++j) idx[j] = idx[j - 1] + 1;
    }
  } else {
    d.exact = false;
    d.values.reserve(rs.resamples);
    std::mt19937_64 rng(rs.seed);
    std::vector<std::size_t> perm(n);
    std::iota(perm.begin(), perm.end(), std::size_t{0});
    std::vector<std::uint64_t> threshold(k);
    for (std::size_t i = 0; i < k; ++i) threshold[i] = threshold_of(n - i);
    for (std::size_t r = 0; r < rs.resamples; ++r) {
      // A partial Fisher-Yates shuffle: perm[0..k) is a uniform k-subset of distinct trials.
      for (std::size_t i = 0; i < k; ++i) std::swap(perm[i], perm[i + bounded(rng, n - i, threshold[i])]);
      d.values.push_back(statistic_of(trials, perm.data(), k, p.statistic, scratch));
    }
  }
  std::sort(d.values.begin(), d.values.end());
  return d;
}

SeedDistribution difference_distribution(const SeedDistribution& a, const SeedDistribution& b,
                                         const ResampleSettings& rs) {
  SeedDistribution d;
  if (a.values.empty() || b.values.empty()) return d;
  d.exact = a.exact && b.exact;
  const std::size_t na = a.values.size(), nb = b.values.size();
  if (na <= rs.max_exact / nb) {
    d.values.reserve(na * nb);
    for (double x : a.values)
      for (double y : b.values) d.values.push_back(x - y);
  } else {
    d.exact = false;
    d.values.reserve(rs.resamples);
    std::mt19937_64 rng(rs.seed ^ 0x9e3779b97f4a7c15ULL);
    const std::uint64_t ta = threshold_of(na), tb = threshold_of(nb);
    for (std::size_t r = 0; r < rs.resamples; ++r)
      d.values.push_back(a.values[bounded(rng, na, ta)] - b.values[bounded(rng, nb, tb)]);
  }
  std::sort(d.values.begin(), d.values.end());
  return d;
}

namespace {
double slack(double x) { return 1e-12 * std::max(1.0, std::fabs(x)); }
}  // namespace

double percentile(const SeedDistribution& d, double x) {
  if (d.values.empty()) return std::nan("");
  const double e = slack(x);
  const auto lo = std::lower_bound(d.values.begin(), d.values.end(), x - e);
  const auto hi = std::upper_bound(d.values.begin(), d.values.end(), x + e);
  const double below = static_cast<double>(lo - d.values.begin());
  const double equal = static_cast<double>(hi - lo);
  return 100.0 * (below + 0.5 * equal) / static_cast<double>(d.values.size());
}

std::pair<double, double> central_interval(const SeedDistribution& d, double coverage) {
  if (d.values.empty()) return {std::nan(""), std::nan("")};
  const double n = static_cast<double>(d.values.size());
  const auto quantile = [&](double p) {
    // Q(p) = the smallest value whose CDF reaches p: index ceil(p N) - 1 (the 1e-9 keeps p N = 1.0000000002
    // from rounding up past an exact integer).
    const double pos = std::ceil(p * n - 1e-9) - 1;
    const std::size_t i = static_cast<std::size_t>(std::clamp(pos, 0.0, n - 1));
    return d.values[i];
  };
  return {quantile((1 - coverage) / 2), quantile((1 + coverage) / 2)};
}

bool inside_central(const SeedDistribution& d, double x, double coverage) {
  if (d.values.empty() || !std::isfinite(x)) return false;
  const auto [lo, hi] = central_interval(d, coverage);
  return x >= lo - slack(lo) && x <= hi + slack(hi);
}

}  // namespace dpclust::report
