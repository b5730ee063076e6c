// Hamerly's bounds for Lloyd's assignment step; what is proved and why the labels are the exhaustive
// search's in hamerly.hpp.
#include "cluster/kmeans/hamerly.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cluster/kmeans/nearest_search.hpp"
#include "cluster/kmeans/squared_distance.hpp"

namespace dpclust {
namespace {

using kmeans_detail::squared_distance;

constexpr double kRelativeMargin = 1e-9;
constexpr std::size_t kParallelPoints = 4096;
constexpr std::size_t kHamerlyBlock = 256;  // points searched together (one matrix product)

}  // namespace

HamerlyAssignment::HamerlyAssignment(const double* X, std::size_t n, std::size_t d, std::size_t k, double scale)
    : X_(X),
      n_(n),
      d_(d),
      k_(k),
      margin_(kRelativeMargin * scale),
      upper_(n),
      lower_(n),
      previous_(k * d),
      moved_(k),
      half_gap_(k) {}

void HamerlyAssignment::assign(const double* centres, Label* labels) {
  double max_move = 0.0, second_move = 0.0;
  std::size_t far = 0;
  if (!first_) {
    // Update-Bounds: how far each centre moved; the largest and second largest move.
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
  }
  // The points whose bounds do not settle their centre are searched (exhaustive rule, nearest_search.hpp)
  // block by block: gathered, then one filtered search per block.
  const NearestSearch search(centres, k_, d_);
  const auto blocks = static_cast<std::ptrdiff_t>((n_ + kHamerlyBlock - 1) / kHamerlyBlock);
  std::uint64_t computed = 0;
  const bool first = first_;
#pragma omp parallel reduction(+ : computed) if (n_ >= kParallelPoints)
  {
    std::vector<std::size_t> todo;
    std::vector<double> gathered, scratch, best(kHamerlyBlock), second(kHamerlyBlock);
    std::vector<Label> found(kHamerlyBlock);
#pragma omp for schedule(static)
    for (std::ptrdiff_t b = 0; b < blocks; ++b) {
      const std::size_t lo = static_cast<std::size_t>(b) * kHamerlyBlock, hi = std::min(n_, lo + kHamerlyBlock);
      todo.clear();
      for (std::size_t i = lo; i < hi; ++i) {
        if (!first) {
          const auto a = static_cast<std::size_t>(labels[i]);
          upper_[i] += moved_[a];
          lower_[i] -= a == far ? second_move : max_move;
          const double bound = std::max(half_gap_[a], lower_[i]);
          if (upper_[i] * (1.0 + kRelativeMargin) + margin_ < bound) continue;  // Algorithm 2, line 11
          upper_[i] = std::sqrt(squared_distance(X_ + i * d_, centres + a * d_, d_));
          ++computed;
          if (upper_[i] * (1.0 + kRelativeMargin) + margin_ < bound) continue;  // line 13, with the exact u
        }
        todo.push_back(i);
      }
      if (todo.empty()) continue;
      const double* rows = X_ + lo * d_;
      if (todo.size() != hi - lo) {  // gather the points to search
        gathered.resize(todo.size() * d_);
        for (std::size_t t = 0; t < todo.size(); ++t) std::copy_n(X_ + todo[t] * d_, d_, gathered.data() + t * d_);
        rows = gathered.data();
      }
      search.search(rows, todo.size(), found.data(), best.data(), second.data(), scratch);
      computed += todo.size() * k_;
      for (std::size_t t = 0; t < todo.size(); ++t) {
        labels[todo[t]] = found[t];
        upper_[todo[t]] = std::sqrt(best[t]);
        lower_[todo[t]] = std::sqrt(second[t]);  // +inf when k = 1: nothing to compete with
      }
    }
  }
  first_ = false;
  std::copy_n(centres, k_ * d_, previous_.begin());
  distances_ += computed;
}

}  // namespace dpclust
