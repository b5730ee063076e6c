// The candidates' distances of greedy k-means++ with exact skips; why the values are the plain loop's in
// plusplus_candidates.hpp.
#include "cluster/kmeans/plusplus_candidates.hpp"

#include <algorithm>
#include <cmath>

#include "cluster/kmeans/nearest_search.hpp"
#include "cluster/kmeans/squared_distance.hpp"
#include "core/cross_products.hpp"

namespace dpclust {
namespace {

using kmeans_detail::squared_distance;

constexpr double kTriangleMargin = 1e-9;      // hamerly.hpp's margin
constexpr std::size_t kCandidateBlock = 256;  // points per product
constexpr std::size_t kParallelCandidates = 4096;

}  // namespace

PlusPlusCandidates::PlusPlusCandidates(const double* X, std::size_t n, std::size_t d, double scale)
    : X_(X), n_(n), d_(d), margin_(kTriangleMargin * scale), nearest_(n, 0), root_(n), norm_(n, 0.0), length_(n) {
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < d; ++j) norm_[i] += X[i * d + j] * X[i * d + j];
    length_[i] = std::sqrt(norm_[i]);
  }
}

void PlusPlusCandidates::start(std::size_t /*first*/, const std::vector<double>& closest) {
  std::fill(nearest_.begin(), nearest_.end(), std::size_t{0});
  for (std::size_t i = 0; i < n_; ++i) root_[i] = std::sqrt(closest[i]);
}

void PlusPlusCandidates::evaluate(const double* centres, std::size_t placed, const std::vector<std::size_t>& ids,
                                  const std::vector<double>& closest, double* dist) {
  const std::size_t T = ids.size(), width = (T + 3) / 4 * 4;  // columns padded to whole 4 x 4 tiles
  const ExpansionBound bound(d_);
  // The candidates transposed (d x width, zero padding), their norms, their distances to the placed centres.
  std::vector<double> yt(d_ * width, 0.0), ynorm(T, 0.0), ylength(T), to_centre(T * placed);
  for (std::size_t t = 0; t < T; ++t) {
    const double* y = X_ + ids[t] * d_;
    for (std::size_t j = 0; j < d_; ++j) yt[j * width + t] = y[j];
    ynorm[t] = norm_[ids[t]];
    ylength[t] = length_[ids[t]];
    for (std::size_t a = 0; a < placed; ++a)
      to_centre[t * placed + a] = std::sqrt(squared_distance(centres + a * d_, y, d_));
  }
  const auto blocks = static_cast<std::ptrdiff_t>((n_ + kCandidateBlock - 1) / kCandidateBlock);
#pragma omp parallel if (n_ >= kParallelCandidates)
  {
    std::vector<std::size_t> todo;
    std::vector<double> gathered, dots;
    std::vector<unsigned char> skip(kCandidateBlock * T);
#pragma omp for schedule(static)
    for (std::ptrdiff_t b = 0; b < blocks; ++b) {
      const std::size_t lo = static_cast<std::size_t>(b) * kCandidateBlock, hi = std::min(n_, lo + kCandidateBlock);
      // The triangle skip; the points with a candidate left go to the product.
      todo.clear();
      for (std::size_t i = lo; i < hi; ++i) {
        const double reach = 2.0 * root_[i] * (1.0 + kTriangleMargin) + margin_;
        bool any = false;
        for (std::size_t t = 0; t < T; ++t) {
          const bool far = to_centre[t * placed + nearest_[i]] > reach;
          skip[(i - lo) * T + t] = far;
          if (far) dist[t * n_ + i] = closest[i];
          any = any || !far;
        }
        if (any) todo.push_back(i);
      }
      if (todo.empty()) continue;
      const double* rows = X_ + lo * d_;
      if (todo.size() != hi - lo) {  // gather the points left
        gathered.resize(todo.size() * d_);
        for (std::size_t r = 0; r < todo.size(); ++r) std::copy_n(X_ + todo[r] * d_, d_, gathered.data() + r * d_);
        rows = gathered.data();
      }
      dots.resize(todo.size() * width);
      cross_products(rows, todo.size(), d_, yt.data(), width, width, dots.data(), width);
      for (std::size_t r = 0; r < todo.size(); ++r) {
        const std::size_t i = todo[r];
        for (std::size_t t = 0; t < T; ++t) {
          if (skip[(i - lo) * T + t]) continue;
          const double approx = (norm_[i] - 2.0 * dots[r * width + t]) + ynorm[t];
          const double err = bound.kappa * (length_[i] + ylength[t]) * (length_[i] + ylength[t]);
          dist[t * n_ + i] = approx - err > closest[i] * (1.0 + bound.rho)
                                 ? closest[i]  // the filter: provably no closer
                                 : std::min(closest[i], squared_distance(X_ + i * d_, X_ + ids[t] * d_, d_));
        }
      }
    }
  }
}

void PlusPlusCandidates::accept(std::size_t index, const double* dist_best, const std::vector<double>& closest) {
  for (std::size_t i = 0; i < n_; ++i)
    if (dist_best[i] < closest[i]) {
      nearest_[i] = index;
      root_[i] = std::sqrt(dist_best[i]);
    }
}

}  // namespace dpclust
