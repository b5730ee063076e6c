// Nearest centres and the k-means cost of released centres; see nearest_centre.hpp.
#include "metrics/nearest_centre.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "metrics/distance_blocks.hpp"

namespace dpclust {
namespace {

constexpr std::size_t kBlock = 256;  // points per block: a block's k inner products stay in cache

double squared_difference(const double* a, const double* b, std::size_t d) {
  double s = 0.0;
  for (std::size_t j = 0; j < d; ++j) {
    const double t = a[j] - b[j];
    s += t * t;
  }
  return s;
}

}  // namespace

NearestCentres nearest_centres(const double* X, std::size_t n, std::size_t d, const RowMatrix& centres) {
  const auto k = static_cast<std::size_t>(centres.rows());
  if (k == 0) throw std::invalid_argument("nearest_centres: no centres");
  if (static_cast<std::size_t>(centres.cols()) != d)
    throw std::invalid_argument("nearest_centres: the centres have " + std::to_string(centres.cols()) + " coordinates, the points " +
                                std::to_string(d));
  // The centres transposed (d x k) and their squared norms.
  std::vector<double> ct(d * k), norm(k, 0.0);
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t j = 0; j < d; ++j) {
      const double v = centres(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(j));
      ct[j * k + c] = v;
      norm[c] += v * v;
    }
  NearestCentres out;
  out.labels.resize(n);
  out.distance.resize(n);
  const auto blocks = static_cast<std::ptrdiff_t>((n + kBlock - 1) / kBlock);
#pragma omp parallel if (n * k * d >= (std::size_t{1} << 22))
  {
    std::vector<double> dots(kBlock * k);
#pragma omp for schedule(static)
    for (std::ptrdiff_t b = 0; b < blocks; ++b) {
      const std::size_t first = static_cast<std::size_t>(b) * kBlock, rows = std::min(kBlock, n - first);
      cross_products(X + first * d, rows, d, ct.data(), k, k, dots.data(), k);
      for (std::size_t r = 0; r < rows; ++r) {
        const double* dot = dots.data() + r * k;
        double best = std::numeric_limits<double>::infinity();
        std::size_t arg = 0;
        for (std::size_t c = 0; c < k; ++c) {  // ||x - c||^2 - ||x||^2 = ||c||^2 - 2 x.c; first minimum wins
          const double v = norm[c] - 2.0 * dot[c];
          if (v < best) {
            best = v;
            arg = c;
          }
        }
        const std::size_t i = first + r;
        out.labels[i] = static_cast<Label>(arg);
        out.distance[i] = squared_difference(X + i * d, centres.data() + arg * d, d);
      }
    }
  }
  for (double v : out.distance) out.cost += v;
  return out;
}

double mean_nearest_distance(const RowMatrix& from, const RowMatrix& to) {
  if (from.rows() == 0 || to.rows() == 0) throw std::invalid_argument("mean_nearest_distance: no centres");
  if (from.cols() != to.cols()) throw std::invalid_argument("mean_nearest_distance: the centre sets differ in dimension");
  const auto d = static_cast<std::size_t>(from.cols());
  double total = 0.0;
  for (Eigen::Index r = 0; r < from.rows(); ++r) {
    double best = std::numeric_limits<double>::infinity();
    for (Eigen::Index c = 0; c < to.rows(); ++c) best = std::min(best, squared_difference(from.row(r).data(), to.row(c).data(), d));
    total += std::sqrt(best);
  }
  return total / static_cast<double>(from.rows());
}

}  // namespace dpclust
