#pragma once
// The arithmetic of Weka's J48 that the C4.5 builder (c45_fit.cpp) reproduces: Utils' comparisons with their tolerance
// SMALL, the entropy of a two-bag split, the first maximum of a distribution, and Stats.addErrs (the pessimistic
// error estimate of pruning).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace dpclust::wavecluster::weka {

inline constexpr double kSmall = 1e-6;  // weka.core.Utils.SMALL
inline bool eq(double a, double b) { return a - b < kSmall && b - a < kSmall; }
inline bool gr(double a, double b) { return a - b > kSmall; }
inline bool sm(double a, double b) { return a - b < -kSmall; }
inline bool gr_or_eq(double a, double b) { return b - a < kSmall; }
inline bool sm_or_eq(double a, double b) { return a - b < kSmall; }

inline double ln_func(double x) { return x < 1e-6 ? 0.0 : x * std::log(x); }
inline const double kLog2 = std::log(2.0);

inline std::int32_t max_index(const std::vector<double>& v) {  // first maximum (Distribution.maxClass)
  double best = 0;
  std::int32_t idx = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (gr(v[i], best)) {
      best = v[i];
      idx = static_cast<std::int32_t>(i);
    }
  return idx;
}
inline double total(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }
inline double num_incorrect(const std::vector<double>& v) {
  return total(v) - v[static_cast<std::size_t>(max_index(v))];
}

// EntropyBasedSplitCrit.splitEnt of a two-bag distribution, in bits (oldEnt and newEnt: the builder's
// numeric_split and new_ent_of_counts).
inline double split_ent(double t0, double t1) { return (ln_func(t0 + t1) - ln_func(t0) - ln_func(t1)) / kLog2; }

// Stats.addErrs: upper confidence limit of the error count (C4.5's pessimistic estimate).
inline double normal_inverse(double p) {  // Phi^-1(p) by bisection on erfc: deterministic and exact enough
  double lo = -10, hi = 10;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}
inline double add_errs(double n, double e, double cf) {
  if (cf > 0.5) return 0;
  if (e < 1) {
    const double base = n * (1 - std::pow(cf, 1 / n));
    if (e == 0) return base;
    return base + e * (add_errs(n, 1, cf) - base);
  }
  if (e + 0.5 >= n) return std::max(n - e, 0.0);
  const double z = normal_inverse(1 - cf);
  const double f = (e + 0.5) / n;
  const double r =
      (f + (z * z) / (2 * n) + z * std::sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n);
  return (r * n) - e;
}

}  // namespace dpclust::wavecluster::weka
