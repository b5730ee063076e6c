// Hamerly's bounds for Lloyd's assignment step; what is proved and why the labels are the exhaustive
// search's in hamerly.hpp.
#include "cluster/kmeans/hamerly.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cluster/kmeans/squared_distance.hpp"

namespace dpclust {
namespace {

using kmeans_detail::squared_distance;

constexpr double kRelativeMargin = 1e-9;
constexpr std::size_t kParallelPoints = 4096;

}  // namespace

HamerlyAssignment::HamerlyAssignment(const double* X, std::size_t n, std::size_t d, std::size_t k, double scale)
    : X_(X), n_(n), d_(d), k_(k), margin_(kRelativeMargin * scale), upper_(n), lower_(n), previous_(k * d), moved_(k),
      half_gap_(k) {}

std::uint64_t HamerlyAssignment::search(std::size_t i, const double* centres, Label* labels) {
  // The exhaustive rule of kmeans.cpp's assign(): the first strictly smaller squared distance wins.
  const double* x = X_ + i * d_;
  double best = squared_distance(x, centres, d_), second = std::numeric_limits<double>::infinity();
  std::size_t arg = 0;
  for (std::size_t c = 1; c < k_; ++c) {
    const double s = squared_distance(x, centres + c * d_, d_);
    if (s < best) {
      second = best;
      best = s;
      arg = c;
    } else if (s < second) {
      second = s;
    }
  }
  labels[i] = static_cast<Label>(arg);
  upper_[i] = std::sqrt(best);
  lower_[i] = std::sqrt(second);  // +inf when k = 1: nothing to compete with
  return k_;
}

void HamerlyAssignment::assign(const double* centres, Label* labels) {
  const auto np = static_cast<std::ptrdiff_t>(n_);
  std::uint64_t computed = 0;
  if (first_) {
#pragma omp parallel for schedule(static) reduction(+ : computed) if (n_ >= kParallelPoints)
    for (std::ptrdiff_t si = 0; si < np; ++si) computed += search(static_cast<std::size_t>(si), centres, labels);
    first_ = false;
  } else {
    // Update-Bounds: how far each centre moved; the largest and second largest move.
    std::size_t far = 0;
    double max_move = 0.0, second_move = 0.0;
    for (std::size_t c = 0; c < k_; ++c) {
      moved_[c] = std::sqrt(squared_distance(centres + c * d_, previous_.data() + c * d_, d_));
      if (moved_[c] > max_move) {
        second_move = max_move;
        max_move = moved_[c];
        far = c;
      } else if (moved_[c] > second_move) {
        second_move = moved_[c];
      }
    }
    // s_c: half the distance from each centre to its nearest other centre (k^2 d / 2 work, small next to n k d).
    std::fill(half_gap_.begin(), half_gap_.end(), std::numeric_limits<double>::infinity());
    for (std::size_t a = 0; a < k_; ++a)
      for (std::size_t b = a + 1; b < k_; ++b) {
        const double g = 0.5 * std::sqrt(squared_distance(centres + a * d_, centres + b * d_, d_));
        half_gap_[a] = std::min(half_gap_[a], g);
        half_gap_[b] = std::min(half_gap_[b], g);
      }
#pragma omp parallel for schedule(static) reduction(+ : computed) if (n_ >= kParallelPoints)
    for (std::ptrdiff_t si = 0; si < np; ++si) {
      const auto i = static_cast<std::size_t>(si);
      const auto a = static_cast<std::size_t>(labels[i]);
      upper_[i] += moved_[a];
      lower_[i] -= a == far ? second_move : max_move;
      const double bound = std::max(half_gap_[a], lower_[i]);
      if (upper_[i] * (1.0 + kRelativeMargin) + margin_ < bound) continue;  // Algorithm 2, line 11
      upper_[i] = std::sqrt(squared_distance(X_ + i * d_, centres + a * d_, d_));
      ++computed;
      if (upper_[i] * (1.0 + kRelativeMargin) + margin_ < bound) continue;  // line 13, with the exact u
      computed += search(i, centres, labels);
    }
  }
  std::copy_n(centres, k_ * d_, previous_.begin());
  distances_ += computed;
}

}  // namespace dpclust
