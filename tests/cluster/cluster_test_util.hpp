#pragma once
// Helpers shared by the cluster tests: tiny readers for the papers' data files (the real loaders live
// elsewhere and are written concurrently) and a literal O(n^2) transcription of scikit-learn's DBSCAN.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust::testing {

struct Points {
  std::size_t n = 0, d = 0;
  std::vector<double> x;  // row-major
  std::vector<std::string> cls;
};

// Cluto / benchmark ARFF: skip to @DATA, then "x,y,class" lines.
inline Points read_arff_xy(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  Points p;
  p.d = 2;
  std::string line;
  bool data = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!data) {
      if (line.size() >= 5 && (line.compare(0, 5, "@DATA") == 0 || line.compare(0, 5, "@data") == 0)) data = true;
      continue;
    }
    if (line.empty() || line[0] == '%') continue;
    std::stringstream ss(line);
    std::string a, b, c;
    std::getline(ss, a, ',');
    std::getline(ss, b, ',');
    std::getline(ss, c, ',');
    p.x.push_back(std::stod(a));
    p.x.push_back(std::stod(b));
    p.cls.push_back(c);
  }
  p.n = p.x.size() / 2;
  return p;
}

// The cabs CSV (header lon,lat) projected to km: x = lon * 111.2 * cos(37.8 deg), y = lat * 111.2.
inline Points read_cabs_km(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  Points p;
  p.d = 2;
  const double kx = 111.2 * std::cos(37.8 * 3.14159265358979323846 / 180.0);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto comma = line.find(',');
    p.x.push_back(std::stod(line.substr(0, comma)) * kx);
    p.x.push_back(std::stod(line.substr(comma + 1)) * 111.2);
  }
  p.n = p.x.size() / 2;
  return p;
}

// scikit-learn's DBSCAN, transcribed: neighbourhoods by brute force (sum of squared differences in
// dimension order <= alpha^2), is_core = |neighbourhood incl. self| >= min_pts, then the depth-first
// expansion of sklearn's dbscan_inner. Neighbourhoods are recomputed on demand (O(n) memory).
inline Labels reference_dbscan(const double* X, std::size_t n, std::size_t d, double alpha, std::int64_t min_pts) {
  const double eps2 = alpha * alpha;
  const auto within = [&](std::size_t i, std::size_t j) {
    double s = 0.0;
    for (std::size_t k = 0; k < d; ++k) {
      const double t = X[i * d + k] - X[j * d + k];
      s += t * t;
    }
    return s <= eps2;
  };
  std::vector<char> is_core(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t cnt = 0;
    for (std::size_t j = 0; j < n; ++j) cnt += within(i, j) ? 1 : 0;
    is_core[i] = cnt >= min_pts;
  }
  Labels labels(n, -1);
  Label label_num = 0;
  std::vector<std::size_t> stack;
  for (std::size_t i0 = 0; i0 < n; ++i0) {
    if (labels[i0] != -1 || !is_core[i0]) continue;
    std::size_t i = i0;
    while (true) {
      if (labels[i] == -1) {
        labels[i] = label_num;
        if (is_core[i])
          for (std::size_t v = 0; v < n; ++v)
            if (labels[v] == -1 && within(i, v)) stack.push_back(v);
      }
      if (stack.empty()) break;
      i = stack.back();
      stack.pop_back();
    }
    ++label_num;
  }
  return labels;
}

}  // namespace dpclust::testing
