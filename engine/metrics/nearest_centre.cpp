// Nearest centres and the k-means cost of released centres; see nearest_centre.hpp.
#include "metrics/nearest_centre.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "cluster/kmeans/nearest_search.hpp"

namespace dpclust {
namespace {

constexpr std::size_t kNearestBlock = 256;  // points per block: a block's k inner products stay in cache

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
    throw std::invalid_argument("nearest_centres: the centres have " + std::to_string(centres.cols()) +
                                " coordinates, the points " + std::to_string(d));
  const NearestSearch search(centres.data(), k, d);
  NearestCentres out;
  out.labels.resize(n);
  out.distance.resize(n);
  const auto blocks = static_cast<std::ptrdiff_t>((n + kNearestBlock - 1) / kNearestBlock);
#pragma omp parallel if (n * k * d >= (std::size_t{1} << 22))
  {
    std::vector<double> scratch;
#pragma omp for schedule(static)
    for (std::ptrdiff_t b = 0; b < blocks; ++b) {
      const std::size_t first = static_cast<std::size_t>(b) * kNearestBlock, rows = std::min(kNearestBlock, n - first);
      search.search(X + first * d, rows, out.labels.data() + first, out.distance.data() + first, nullptr, scratch);
    }
  }
  for (double v : out.distance) out.cost += v;
  return out;
}

double mean_nearest_distance(const RowMatrix& from, const RowMatrix& to) {
  if (from.rows() == 0 || to.rows() == 0) throw std::invalid_argument("mean_nearest_distance: no centres");
  if (from.cols() != to.cols())
    throw std::invalid_argument("mean_nearest_distance: the centre sets differ in dimension");
  const auto d = static_cast<std::size_t>(from.cols());
  double total = 0.0;
  for (Eigen::Index r = 0; r < from.rows(); ++r) {
    double best = std::numeric_limits<double>::infinity();
    for (Eigen::Index c = 0; c < to.rows(); ++c)
      best = std::min(best, squared_difference(from.row(r).data(), to.row(c).data(), d));
    total += std::sqrt(best);
  }
  return total / static_cast<double>(from.rows());
}

}  // namespace dpclust
