#include "core/trial_cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/method.hpp"

namespace dpclust {

double CostInputs::n() const { return static_cast<double>(*shape.n); }
double CostInputs::d() const { return static_cast<double>(*shape.d); }

double number_or(const ParamSet& params, const char* name, double fallback) {
  if (!params.has(name)) return fallback;
  const ParamValue& v = params.get(name);
  if (std::holds_alternative<double>(v)) return std::get<double>(v);
  if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
  return fallback;
}

double CostInputs::number(const char* name, double fallback) const { return number_or(params, name, fallback); }

std::string CostInputs::choice(const char* name, const std::string& fallback) const {
  return params.has(name) ? params.string(name) : fallback;
}

bool CostInputs::computes(const char* metric, bool by_default) const {
  if (metrics.empty()) return by_default;
  return std::find(metrics.begin(), metrics.end(), metric) != metrics.end();
}

std::string format_count(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, x < 1e6 ? "%.0f" : "%.2g", x);
  return buf;
}

std::string round_up_2(double x) {
  const double p = std::pow(10.0, std::floor(std::log10(x)) - 1);
  const double r = std::ceil(x / p - 1e-9) * p;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", r);
  return buf;
}

std::string format_seconds(double s) {
  char buf[64];
  if (s < 1) return "under 1 s";
  if (s < 120) std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 7200) std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else if (s < 172800) std::snprintf(buf, sizeof buf, "%.0f h", s / 3600);
  else if (s < 3.2e9) std::snprintf(buf, sizeof buf, "%.2g days", s / 86400);
  else std::snprintf(buf, sizeof buf, "%.2g years", s / 3.15e7);
  return buf;
}

std::uint64_t largest_fitting(std::uint64_t lo, std::uint64_t hi, const std::function<bool(std::uint64_t)>& fits) {
  if (hi < lo || !fits(lo)) return 0;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

DataShape first_columns(const DataShape& shape, std::size_t d) {
  DataShape s = shape;
  s.d = d;
  if (shape.bounds.dims() >= d) {
    s.bounds.lo.assign(shape.bounds.lo.begin(), shape.bounds.lo.begin() + static_cast<std::ptrdiff_t>(d));
    s.bounds.hi.assign(shape.bounds.hi.begin(), shape.bounds.hi.begin() + static_cast<std::ptrdiff_t>(d));
  }
  return s;
}

}  // namespace dpclust
