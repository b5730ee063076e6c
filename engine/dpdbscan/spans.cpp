// Core cells, union-find merge, span classifier; see spans.hpp.
#include "dpdbscan/spans.hpp"

#include "dpdbscan/neighbourhood_sums.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace dpclust::dpdbscan {
namespace {

// Union-find with path halving; the smaller index becomes the root, so the structure (and the span
// numbering derived from it) depends only on the set of unions, never on their order.
struct UnionFind {
  std::vector<std::uint32_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  std::uint32_t find(std::uint32_t x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }
  void unite(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (a < b) parent[b] = a;
    else parent[a] = b;
  }
};

}  // namespace

CoreCells find_core_cells(const CellGrid& grid, const Neighbourhood& nb, const NoisyHistogram& hist, double threshold) {
  if (hist.linear && !(threshold > 0))
    throw std::invalid_argument("core threshold " + std::to_string(threshold) +
                                " <= 0 with the linear-time histogram: every unreleased cell (sum 0) would be core; "
                                "raise min_pts or use core_rule: minpts_prime");
  CoreCells core;
  const std::size_t d = grid.d;
  if (hist.dense) {
    // Row by row along the last dimension: S(row) = sum over the rows of NB of the values shifted by
    // t in [-r, r]; the additions follow the lexicographic order of the offsets.
    const std::uint64_t L = grid.dims[d - 1];
    const std::uint64_t rows = grid.universe / L;
    const double* vals = hist.dense_values.data();
    std::vector<double> sums(L);
    std::vector<std::int64_t> idx(d > 1 ? d - 1 : 1, 0);  // coordinates of the current row
    const std::size_t P = nb.rows();
    for (std::uint64_t R = 0; R < rows; ++R) {
      std::fill(sums.begin(), sums.end(), 0.0);
      for (std::size_t k = 0; k < P; ++k) {
        const std::int32_t* pre = d > 1 ? nb.prefix(k) : nullptr;
        std::int64_t nrow = 0;
        bool inside = true;
        for (std::size_t j = 0; j + 1 < d; ++j) {
          const std::int64_t c = idx[j] + pre[j];
          if (c < 0 || c >= static_cast<std::int64_t>(grid.dims[j])) {
            inside = false;
            break;
          }
          nrow += c * static_cast<std::int64_t>(grid.strides[j] / L);
        }
        if (!inside) continue;
        const double* src = vals + static_cast<std::uint64_t>(nrow) * L;
        const std::int64_t r = nb.half_width[k];
        const auto Ls = static_cast<std::int64_t>(L);
        for (std::int64_t t = -r; t <= r; ++t) {
          const std::int64_t x0 = std::max<std::int64_t>(0, -t), x1 = std::min<std::int64_t>(Ls, Ls - t);
          double* dst = sums.data();
          const double* s = src + t;
          for (std::int64_t x = x0; x < x1; ++x) dst[x] += s[x];
        }
      }
      for (std::uint64_t x = 0; x < L; ++x)
        if (sums[x] >= threshold) {
          core.codes.push_back(R * L + x);
          core.sums.push_back(sums[x]);
        }
      // Next row: odometer over the first d-1 coordinates.
      for (std::size_t j = d - 1; j-- > 0;) {
        if (++idx[j] < static_cast<std::int64_t>(grid.dims[j])) break;
        idx[j] = 0;
      }
    }
    core.evaluated = grid.universe;
    return core;
  }

  // Sparse: every released value scattered to the cells of its NB, in bounded memory
  // (neighbourhood_sums.hpp); for a given target the contributions arrive in ascending source order =
  // lexicographic offset order, the same additions as the dense rows, so both storages give bit-identical
  // sums.
  return sparse_core_cells(grid, nb, hist, threshold);
}

SpanSet merge_core_cells(const CellGrid& grid, const Neighbourhood& nb, std::vector<std::uint64_t> core_codes,
                         bool dense) {
  SpanSet out;
  out.codes = std::move(core_codes);
  const std::size_t n = out.codes.size();
  if (n >= std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("merge_core_cells: too many core cells");
  const std::size_t d = grid.d;
  std::vector<std::int32_t> table;
  FlatMap<std::uint32_t> map(dense ? 1 : n);
  if (dense) {
    table.assign(grid.universe, -1);
    for (std::size_t i = 0; i < n; ++i) table[out.codes[i]] = static_cast<std::int32_t>(i);
  } else {
    for (std::size_t i = 0; i < n; ++i) map.insert(out.codes[i], static_cast<std::uint32_t>(i));
  }
  // Forward offsets: those after the zero offset in lexicographic order (each pair is seen once).
  const std::size_t K = nb.kappa();
  const std::size_t zero = K / 2;
  UnionFind uf(n);
  std::vector<std::int64_t> idx(d);
  for (std::size_t i = 0; i < n; ++i) {
    grid.decode(out.codes[i], idx.data());
    for (std::size_t k = zero + 1; k < K; ++k) {
      const std::int32_t* o = nb.offset(k);
      std::uint64_t code = 0;
      bool inside = true;
      for (std::size_t j = 0; j < d; ++j) {
        const std::int64_t c = idx[j] + o[j];
        if (c < 0 || c >= static_cast<std::int64_t>(grid.dims[j])) {
          inside = false;
          break;
        }
        code += static_cast<std::uint64_t>(c) * grid.strides[j];
      }
      if (!inside) continue;
      if (dense) {
        const std::int32_t t = table[code];
        if (t >= 0) uf.unite(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(t));
      } else if (const std::uint32_t* t = map.find(code)) {
        uf.unite(static_cast<std::uint32_t>(i), *t);
      }
    }
  }
  // Span ids in order of each span's lowest code (the root is the lowest index = lowest code).
  out.span.assign(n, kNoise);
  std::vector<Label> id_of_root(n, kNoise);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t r = uf.find(static_cast<std::uint32_t>(i));
    if (id_of_root[r] == kNoise) id_of_root[r] = static_cast<Label>(out.n_spans++);
    out.span[i] = id_of_root[r];
  }
  return out;
}

SpanClassifier::SpanClassifier(const CellGrid& grid, const SpanSet& spans, bool dense)
    : grid_(grid), dense_(dense), map_(dense ? 1 : spans.codes.size()) {
  if (dense) {
    table_.assign(grid.universe, kNoise);
    for (std::size_t i = 0; i < spans.codes.size(); ++i) table_[spans.codes[i]] = spans.span[i];
  } else {
    for (std::size_t i = 0; i < spans.codes.size(); ++i) map_.insert(spans.codes[i], spans.span[i]);
  }
}

Label SpanClassifier::classify(const double* p) const {
  if (!grid_.contains(p)) return kNoise;
  const std::uint64_t code = grid_.code(p);
  if (dense_) return table_[code];
  const Label* s = map_.find(code);
  return s ? *s : kNoise;
}

Labels SpanClassifier::classify_all(const double* coords, std::size_t n) const {
  Labels out(n);
  const std::size_t d = grid_.d;
#pragma omp parallel for schedule(static) if (n >= 200000)
  for (std::size_t i = 0; i < n; ++i) out[i] = classify(coords + i * d);
  return out;
}

}  // namespace dpclust::dpdbscan
