#pragma once
// Numbers as the report prints them (shared by the judges' notes and the Markdown renderer).
#include <string>

namespace dpclust::report {

// "method_seconds" and "metrics_seconds": printed with a time unit.
bool is_timing_metric(const std::string& m);
// x with `digits` decimals ("%.*f").
std::string fmt(double x, int digits = 3);
// "1.23 s", "4.56 ms", "7.89 us".
std::string fmt_time(double seconds);
// A value of `metric`: times with their unit, everything else with 3 decimals.
std::string fmt_value(const std::string& metric, double x);

}  // namespace dpclust::report
