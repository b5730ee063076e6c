// The exhaustive nearest-centre search with an exact filter; why the results are the same in nearest_search.hpp.
#include "cluster/kmeans/nearest_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cluster/kmeans/squared_distance.hpp"
#include "core/cross_products.hpp"

namespace dpclust {

namespace {
constexpr double kUnitRoundoff = 1.1102230246251565e-16;  // 2^-53
}  // namespace

ExpansionBound::ExpansionBound(std::size_t d)
    : kappa(4.0 * (static_cast<double>(d) + 4.0) * kUnitRoundoff),
      rho(4.0 * (static_cast<double>(d) + 2.0) * kUnitRoundoff) {}

NearestSearch::NearestSearch(const double* centres, std::size_t k, std::size_t d)
    : centres_(centres), k_(k), d_(d), bound_(d), transposed_(d * k), norm_(k, 0.0), length_(k) {
  for (std::size_t c = 0; c < k; ++c) {
    for (std::size_t j = 0; j < d; ++j) {
      const double v = centres[c * d + j];
      transposed_[j * k + c] = v;
      norm_[c] += v * v;
    }
    length_[c] = std::sqrt(norm_[c]);
  }
}

void NearestSearch::search(const double* points, std::size_t rows, Label* labels, double* best, double* second,
                           std::vector<double>& scratch) const {
  using kmeans_detail::squared_distance;
  const double inf = std::numeric_limits<double>::infinity();
  scratch.resize(rows * k_);
  cross_products(points, rows, d_, transposed_.data(), k_, k_, scratch.data(), k_);
  for (std::size_t r = 0; r < rows; ++r) {
    const double* x = points + r * d_;
    double xnorm = 0.0;
    for (std::size_t j = 0; j < d_; ++j) xnorm += x[j] * x[j];
    const double xlen = std::sqrt(xnorm);
    double* a = scratch.data() + r * k_;  // becomes the lower bound of each centre's squared distance
    double smallest_upper = inf;
    for (std::size_t c = 0; c < k_; ++c) {
      const double approx = (xnorm - 2.0 * a[c]) + norm_[c];
      const double err = bound_.kappa * (xlen + length_[c]) * (xlen + length_[c]);
      smallest_upper = std::min(smallest_upper, approx + err);
      a[c] = approx - err;
    }
    const double cut = smallest_upper * (1.0 + bound_.rho);
    // The exhaustive rule over the centres that pass the filter (in index order: the first smallest wins).
    double found = inf;
    std::size_t arg = k_;
    for (std::size_t c = 0; c < k_; ++c) {
      if (a[c] > cut) continue;
      const double s = squared_distance(x, centres_ + c * d_, d_);
      a[c] = s;  // exact now
      if (arg == k_ || s < found) {
        found = s;
        arg = c;
      }
    }
    labels[r] = static_cast<Label>(arg);
    best[r] = found;
    if (second != nullptr) {
      double other = inf;
      for (std::size_t c = 0; c < k_; ++c)
        if (c != arg) other = std::min(other, a[c]);
      second[r] = std::max(other, 0.0);
    }
  }
}

}  // namespace dpclust
