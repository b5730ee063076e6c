// Numbers as the report prints them; see format.hpp.
#include "report/format.hpp"

#include <cstdio>

namespace dpclust::report {
bool is_timing_metric(const std::string& m) { return m == "method_seconds" || m == "metrics_seconds"; }

std::string fmt(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

std::string fmt_time(double seconds) {
  char buf[64];
  if (seconds >= 1) std::snprintf(buf, sizeof buf, "%.3g s", seconds);
  else if (seconds >= 1e-3) std::snprintf(buf, sizeof buf, "%.3g ms", seconds * 1e3);
  else std::snprintf(buf, sizeof buf, "%.3g us", seconds * 1e6);
  return buf;
}

std::string fmt_value(const std::string& metric, double x) { return is_timing_metric(metric) ? fmt_time(x) : fmt(x); }

}  // namespace dpclust::report
