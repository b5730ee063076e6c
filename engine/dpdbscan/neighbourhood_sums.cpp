// Bounded-memory neighbourhood sums of a sparse histogram; see neighbourhood_sums.hpp.
#include "dpdbscan/neighbourhood_sums.hpp"

#include <algorithm>
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
  GroupedSums(const CellGrid& grid, const Neighbourhood& nb, const NoisyHistogram& hist, double threshold, std::uint64_t max_pairs)
      : g_(grid), nb_(nb), hist_(hist), threshold_(threshold), max_pairs_(max_pairs), d_(grid.d), K_(nb.kappa()) {
    const std::size_t R = hist.codes.size();
    if (R >= std::numeric_limits<std::uint32_t>::max() || K_ >= std::numeric_limits<std::uint32_t>::max())
      throw std::invalid_argument("sparse_core_cells: too many released cells or offsets");
    coords_.resize(R * d_);
    for (std::size_t i = 0; i < R; ++i) grid.decode(hist.codes[i], coords_.data() + i * d_);
  }

  CoreCells run() {
    std::vector<Entry> top(hist_.codes.size());
    for (std::size_t i = 0; i < top.size(); ++i) top[i] = {static_cast<std::uint32_t>(i), 0, static_cast<std::uint32_t>(K_)};
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
    FlatMap<double> sums(static_cast<std::size_t>(std::min<std::uint64_t>(pairs, std::uint64_t{1} << 16)));
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
  std::uint64_t max_pairs_;
  std::size_t d_, K_;
  std::vector<std::int64_t> coords_;    // the released cells' grid coordinates
  std::vector<std::uint32_t> run_end_;  // built on the first split
  CoreCells out_;
};

}  // namespace

CoreCells sparse_core_cells(const CellGrid& grid, const Neighbourhood& nb, const NoisyHistogram& hist, double threshold,
                            std::uint64_t max_pairs) {
  if (hist.dense) throw std::logic_error("sparse_core_cells needs a sparse histogram");
  if (max_pairs == 0) throw std::invalid_argument("sparse_core_cells: max_pairs must be > 0");
  return GroupedSums(grid, nb, hist, threshold, max_pairs).run();
}

}  // namespace dpclust::dpdbscan
