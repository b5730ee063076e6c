#include "data/points_csv.hpp"

#include <cstdio>
#include <string>

namespace dpclust {

namespace {

void append_number(std::string& out, double value) {
  char buffer[32];  // "%.17g" needs at most 24 characters ("-1.2345678901234567e-308")
  const int length = std::snprintf(buffer, sizeof buffer, "%.17g", value);
  out.append(buffer, static_cast<std::size_t>(length));
}

}  // namespace

std::string points_csv_text(const Dataset& data) {
  std::string out;
  out.reserve((data.n + 1) * (data.d * 24 + 4));
  for (std::size_t j = 0; j < data.d; ++j) {
    if (j) out += ',';
    if (data.d == 2) {
      out += j == 0 ? "x" : "y";
    } else {
      out += 'x';
      out += std::to_string(j);
    }
  }
  if (data.has_labels()) out += data.d ? ",label" : "label";
  out += '\n';
  for (std::size_t i = 0; i < data.n; ++i) {
    for (std::size_t j = 0; j < data.d; ++j) {
      if (j) out += ',';
      append_number(out, data.point(i)[j]);
    }
    if (data.has_labels()) {
      if (data.d) out += ',';
      out += std::to_string(data.labels[i]);
    }
    out += '\n';
  }
  return out;
}

}  // namespace dpclust
