#pragma once
// The squared Euclidean distance every k-means step computes (kmeans.cpp, hamerly.cpp): one function, so
// that the exhaustive search and the pruned one round identically (a direct sum of squared differences in
// index order; no ||x||^2 - 2 x.c + ||c||^2 cancellation).
#include <cstddef>

namespace dpclust::kmeans_detail {

inline double squared_distance(const double* a, const double* b, std::size_t d) {
  double s = 0.0;
  for (std::size_t j = 0; j < d; ++j) {
    const double t = a[j] - b[j];
    s += t * t;
  }
  return s;
}

}  // namespace dpclust::kmeans_detail
