// Bounded-memory neighbourhood sums of a sparse histogram; see neighbourhood_sums.hpp.
#include "dpdbscan/neighbourhood_sums.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "dpdbscan/flat_map.hpp"

namespace dpclust::dpdbscan {
namespace {

// Released cell `src` with the offsets [k0, k1), which share their first L coordinates.
struct Entry {
  std::uint32_t src, k0, k1;
};

class GroupedSums {
 public:
  GroupedSums(const CellGrid& grid, const Neighbourhood& nb, const NoisyHistogram& hist, double threshold,
              std::uint64_t max_pairs, std::uint64_t max_box_cells)
      : g_(grid),
        nb_(nb),
        hist_(hist),
        threshold_(threshold),
        max_pairs_(max_pairs),
        max_box_(max_box_cells),
        d_(grid.d),
        K_(nb.kappa()) {
    const std::size_t R = hist.codes.size();
    if (R >= std::numeric_limits<std::uint32_t>::max() || K_ >= std::numeric_limits<std::uint32_t>::max())
      throw std::invalid_argument("sparse_core_cells: too many released cells or offsets");
    coords_.resize(R * d_);
    for (std::size_t i = 0; i < R; ++i) grid.decode(hist.codes[i], coords_.data() + i * d_);
  }

  CoreCells run() {
    std::vector<Entry> top(hist_.codes.size());
    for (std::size_t i = 0; i < top.size(); ++i)
      top[i] = {static_cast<std::uint32_t>(i), 0, static_cast<std::uint32_t>(K_)};
    group(0, top);
    return std::move(out_);
  }

 private:
  static std::uint64_t pairs_of(const std::vector<Entry>& es) {
    std::uint64_t p = 0;
    for (const Entry& e : es) p += e.k1 - e.k0;
    return p;
  }

  void group(std::size_t L, const std::vector<Entry>& es) {
    if (es.empty()) return;
    // A box small enough for an array: row additions, no hashing (the fast path in high dimensions, where
    // kappa is large and the targets of a group crowd a small box).
    if (L < d_ && max_box_ > 0 && box_leaf(L, es)) return;
    if (L == d_ || pairs_of(es) <= max_pairs_) {
      leaf(L, es);
      return;
    }
    if (run_end_.empty()) build_run_ends();
    // Split by t_L = s_L - o_L: each entry's run of offsets breaks into runs of equal o_L.
    struct Child {
      std::int64_t t;
      Entry e;
    };
    std::vector<Child> children;
    const std::int64_t dimL = static_cast<std::int64_t>(g_.dims[L]);
    for (const Entry& e : es) {
      const std::int64_t sL = coords_[e.src * d_ + L];
      for (std::uint32_t k = e.k0; k < e.k1;) {
        const std::uint32_t end = run_end_[L * K_ + k];
        const std::int64_t t = sL - nb_.offset(k)[L];
        if (t >= 0 && t < dimL) children.push_back({t, {e.src, k, end}});
        k = end;
      }
    }
    // Stable: inside a sub-group the entries stay in ascending order of their released cell.
    std::stable_sort(children.begin(), children.end(), [](const Child& a, const Child& b) { return a.t < b.t; });
    std::vector<Entry> sub;
    for (std::size_t i = 0; i < children.size();) {
      std::size_t j = i;
      sub.clear();
      while (j < children.size() && children[j].t == children[i].t) sub.push_back(children[j++].e);
      group(L + 1, sub);
      i = j;
    }
  }

  // Sums the targets of the entries (their first L coordinates fixed and inside the grid) in one map.
  void leaf(std::size_t L, const std::vector<Entry>& es) {
    const std::uint64_t pairs = pairs_of(es);
    // Sized for every pair at once (at most max_pairs, or one target per pair at the last level): no rehash.
    FlatMap<double> sums(
        static_cast<std::size_t>(std::min<std::uint64_t>(pairs, std::max<std::uint64_t>(max_pairs_, 1u << 16))));
    for (const Entry& e : es) {
      const std::int64_t* s = coords_.data() + static_cast<std::size_t>(e.src) * d_;
      const double v = hist_.values[e.src];
      // The fixed leading coordinates of every target of this entry (its offsets share them).
      std::uint64_t base = 0;
      const std::int32_t* first = nb_.offset(e.k0);
      for (std::size_t j = 0; j < L; ++j) base += static_cast<std::uint64_t>(s[j] - first[j]) * g_.strides[j];
      for (std::uint32_t k = e.k0; k < e.k1; ++k) {
        const std::int32_t* o = nb_.offset(k);
        std::uint64_t code = base;
        bool inside = true;
        for (std::size_t j = L; j < d_; ++j) {
          const std::int64_t c = s[j] - o[j];  // target X with source in NB(X): source = X + o
          if (c < 0 || c >= static_cast<std::int64_t>(g_.dims[j])) {
            inside = false;
            break;
          }
          code += static_cast<std::uint64_t>(c) * g_.strides[j];
        }
        if (inside) sums[code] += v;
      }
    }
    std::vector<std::pair<std::uint64_t, double>> hits;
    sums.for_each([&](std::uint64_t code, double sum) {
      if (sum >= threshold_) hits.emplace_back(code, sum);
    });
    std::sort(hits.begin(), hits.end());
    for (const auto& [c, sum] : hits) {
      out_.codes.push_back(c);
      out_.sums.push_back(sum);
    }
    out_.evaluated += sums.size();
  }

  // The targets of the entries in the box of coordinates L..d-1 they can reach, summed in an array when the
  // box has at most kMaxBoxCells cells; false (nothing done) otherwise. NB's rows (offsets sharing their
  // first d-1 coordinates, the last one running over [-r, r]) add v to a contiguous run of the box, and
  // the entries come in ascending order of their released cell, so every target receives the same
  // additions in the same order as in the hash map.
  bool box_leaf(std::size_t L, const std::vector<Entry>& es) {
    if (reach_.empty()) build_rows();
    std::vector<std::int64_t> lo(d_, 0), hi(d_, 0);
    for (std::size_t j = L; j < d_; ++j) {
      std::int64_t mn = std::numeric_limits<std::int64_t>::max(), mx = std::numeric_limits<std::int64_t>::min();
      for (const Entry& e : es) {
        mn = std::min(mn, coords_[e.src * d_ + j]);
        mx = std::max(mx, coords_[e.src * d_ + j]);
      }
      lo[j] = std::max<std::int64_t>(0, mn - reach_[j]);
      hi[j] = std::min<std::int64_t>(static_cast<std::int64_t>(g_.dims[j]) - 1, mx + reach_[j]);
      if (hi[j] < lo[j]) return true;  // no target inside the grid: nothing to sum
    }
    double volume = 1;
    for (std::size_t j = L; j < d_; ++j) volume *= static_cast<double>(hi[j] - lo[j] + 1);
    if (volume > static_cast<double>(max_box_)) return false;
    std::vector<std::uint64_t> bstride(d_, 1);
    for (std::size_t j = d_ - 1; j > L; --j)
      bstride[j - 1] = bstride[j] * static_cast<std::uint64_t>(hi[j] - lo[j] + 1);
    const std::size_t cells = static_cast<std::size_t>(volume);
    box_sums_.assign(cells, 0.0);
    box_touched_.assign(cells, 0);
    const std::size_t last = d_ - 1;
    const std::int64_t dim_last = static_cast<std::int64_t>(g_.dims[last]);
    std::uint64_t prefix_code = 0;  // the fixed coordinates 0..L-1 of every target
    for (const Entry& e : es) {
      const std::int64_t* s = coords_.data() + static_cast<std::size_t>(e.src) * d_;
      const double v = hist_.values[e.src];
      const std::int32_t* first = nb_.offset(e.k0);
      prefix_code = 0;
      for (std::size_t j = 0; j < L; ++j) prefix_code += static_cast<std::uint64_t>(s[j] - first[j]) * g_.strides[j];
      // The rows of this entry's offsets (whole rows: an entry's offsets share at most d-1 coordinates).
      for (std::uint32_t k = e.k0; k < e.k1;) {
        const std::uint32_t row = row_of_[k];
        const std::int32_t* o = nb_.offset(k);
        const std::int64_t r = nb_.half_width[row];
        k += static_cast<std::uint32_t>(2 * r + 1);
        std::uint64_t base = 0;
        bool inside = true;
        for (std::size_t j = L; j < last; ++j) {
          const std::int64_t c = s[j] - o[j];
          if (c < lo[j] || c > hi[j]) {
            inside = false;
            break;
          }
          base += static_cast<std::uint64_t>(c - lo[j]) * bstride[j];
        }
        if (!inside) continue;
        // Targets s_last - o_last for o_last in [-r, r]: the cells s_last - r .. s_last + r of the last axis.
        const std::int64_t t0 = std::max<std::int64_t>(s[last] - r, 0),
                           t1 = std::min<std::int64_t>(s[last] + r, dim_last - 1);
        if (L == last) {
          // The last axis is the box's only one: index t - lo.
          for (std::int64_t t = t0; t <= t1; ++t) {
            box_sums_[static_cast<std::size_t>(t - lo[last])] += v;
            box_touched_[static_cast<std::size_t>(t - lo[last])] = 1;
          }
        } else {
          // Indices, not a pointer moved before the array (t >= lo[last], so t - lo[last] >= 0).
          double* sums = box_sums_.data() + base;
          unsigned char* touched = box_touched_.data() + base;
          for (std::int64_t t = t0 - lo[last]; t <= t1 - lo[last]; ++t) {
            sums[t] += v;
            touched[t] = 1;
          }
        }
      }
    }
    // The box in index order is ascending code order (lexicographic over L..d-1 under a fixed prefix).
    std::vector<std::int64_t> idx(d_, 0);
    for (std::size_t j = L; j < d_; ++j) idx[j] = lo[j];
    for (std::size_t i = 0; i < cells; ++i) {
      if (box_touched_[i]) {
        ++out_.evaluated;
        if (box_sums_[i] >= threshold_) {
          std::uint64_t code = prefix_code;
          for (std::size_t j = L; j < d_; ++j) code += static_cast<std::uint64_t>(idx[j]) * g_.strides[j];
          out_.codes.push_back(code);
          out_.sums.push_back(box_sums_[i]);
        }
      }
      for (std::size_t j = d_; j-- > L;) {  // odometer over the box
        if (++idx[j] <= hi[j]) break;
        idx[j] = lo[j];
      }
    }
    return true;
  }

  // The row of each offset (NB's row form: runs sharing the first d-1 coordinates) and the reach of NB
  // along each axis.
  void build_rows() {
    row_of_.assign(K_, 0);
    std::uint32_t k = 0;
    for (std::size_t row = 0; row < nb_.rows(); ++row) {
      const auto width = static_cast<std::uint32_t>(2 * nb_.half_width[row] + 1);
      for (std::uint32_t i = 0; i < width; ++i) row_of_[k + i] = static_cast<std::uint32_t>(row);
      k += width;
    }
    if (k != K_) throw std::logic_error("sparse_core_cells: the row form does not cover NB");
    reach_.assign(d_, 0);
    for (std::size_t i = 0; i < K_; ++i)
      for (std::size_t j = 0; j < d_; ++j) reach_[j] = std::max<std::int64_t>(reach_[j], std::abs(nb_.offset(i)[j]));
  }

  // run_end_[L K + k]: one past the last offset after k sharing coordinates 0..L with offset k.
  void build_run_ends() {
    run_end_.assign(d_ * K_, 0);
    for (std::size_t L = 0; L < d_; ++L) {
      std::uint32_t* re = run_end_.data() + L * K_;
      for (std::size_t k = K_; k-- > 0;) {
        bool same = k + 1 < K_;
        for (std::size_t j = 0; same && j <= L; ++j) same = nb_.offset(k)[j] == nb_.offset(k + 1)[j];
        re[k] = same ? re[k + 1] : static_cast<std::uint32_t>(k + 1);
      }
    }
  }

  const CellGrid& g_;
  const Neighbourhood& nb_;
  const NoisyHistogram& hist_;
  double threshold_;
  std::uint64_t max_pairs_, max_box_;
  std::size_t d_, K_;
  std::vector<std::int64_t> coords_;    // the released cells' grid coordinates
  std::vector<std::uint32_t> run_end_;  // built on the first split
  std::vector<std::uint32_t> row_of_;   // built on the first box
  std::vector<std::int64_t> reach_;
  std::vector<double> box_sums_;
  std::vector<unsigned char> box_touched_;
  CoreCells out_;
};

}  // namespace

CoreCells sparse_core_cells(const CellGrid& grid, const Neighbourhood& nb, const NoisyHistogram& hist, double threshold,
                            std::uint64_t max_pairs, std::uint64_t max_box_cells) {
  if (hist.dense) throw std::logic_error("sparse_core_cells needs a sparse histogram");
  if (max_pairs == 0) throw std::invalid_argument("sparse_core_cells: max_pairs must be > 0");
  return GroupedSums(grid, nb, hist, threshold, max_pairs, max_box_cells).run();
}

}  // namespace dpclust::dpdbscan
