#include "wavecluster/grid.hpp"
#include <algorithm>

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/error.hpp"

namespace dpclust::wavecluster {

std::size_t GridShape::size() const {
  std::size_t s = 1;
  for (std::size_t n : dims) s *= n;
  return s;
}

std::vector<std::size_t> GridShape::strides() const {
  std::vector<std::size_t> st(dims.size(), 1);
  for (std::size_t j = dims.size(); j-- > 1;) st[j - 1] = st[j] * dims[j];
  return st;
}

GridShape GridShape::coarsened(int level) const {
  GridShape s = *this;
  for (int l = 0; l < level; ++l)
    for (auto& n : s.dims) n = (n + 1) / 2;
  return s;
}

std::size_t checked_cell_count(const std::vector<std::size_t>& g) {
  std::size_t cells = 1;
  bool over = false;
  std::size_t fitting_columns = 0;  // the most leading dimensions whose grid fits
  for (std::size_t n : g) {
    over = over || __builtin_mul_overflow(cells, n, &cells) || cells > kMaxGridCells;
    if (!over) ++fitting_columns;
  }
  if (!over) return cells;
  // The shape said compactly: "2^262", or the first entries and the count (never one entry per column).
  std::string shape;
  if (std::all_of(g.begin(), g.end(), [&](std::size_t n) { return n == g.front(); })) {
    shape = std::to_string(g.front()) + "^" + std::to_string(g.size());
  } else {
    for (std::size_t j = 0; j < g.size() && j < 6; ++j) shape += (j ? " x " : "") + std::to_string(g[j]);
    if (g.size() > 6) shape += " x ...";
  }
  const bool at_minimum = std::all_of(g.begin(), g.end(), [](std::size_t n) { return n <= 2; });
  const std::string fewer = "fewer columns: at most " + std::to_string(fitting_columns) +
                            " fit at these g (list them in `columns`, or project the data)";
  throw InputError("params.g",
                   "the WaveCluster grid " + shape + " (" + std::to_string(g.size()) + " dimensions) has more than " +
                       std::to_string(kMaxGridCells) + " (2^28) cells",
                   at_minimum ? "g is already at its minimum of 2 in every dimension: " + fewer
                              : "lower g (the cells per dimension multiply: g^d), or " + fewer);
}

Quantizer::Quantizer(std::vector<std::size_t> g, const Bounds& bounds) {
  if (g.empty()) throw std::invalid_argument("quantization needs at least one dimension");
  checked_cell_count(g);
  if (bounds.dims() != g.size())
    throw std::invalid_argument("grid has " + std::to_string(g.size()) + " dimensions but the domain bounds have " +
                                std::to_string(bounds.dims()));
  shape_.dims = g;
  for (std::size_t j = 0; j < g.size(); ++j) {
    if (g[j] < 1) throw std::invalid_argument("grid size must be >= 1 in every dimension");
    if (!(bounds.hi[j] > bounds.lo[j]) || !std::isfinite(bounds.hi[j] - bounds.lo[j]))
      throw std::invalid_argument("domain bounds must satisfy lo < hi in dimension " + std::to_string(j));
    lo_.push_back(bounds.lo[j]);
    hi_.push_back(bounds.hi[j]);
    span_.push_back(bounds.hi[j] - bounds.lo[j]);
    g_.push_back(static_cast<double>(g[j]));
  }
}

std::vector<double> Quantizer::counts(const Dataset& data) const {
  if (data.d != dims()) throw std::invalid_argument("dataset dimension does not match the grid");
  std::vector<double> m(shape_.size(), 0.0);
  const double* p = data.coords.data();
  const std::size_t d = data.d;
  if (d == 2) {  // the common case, without the inner loop
    const std::size_t g1 = shape_.dims[1];
    for (std::size_t i = 0; i < data.n; ++i, p += 2) m[cell_1d(0, p[0]) * g1 + cell_1d(1, p[1])] += 1.0;
  } else {
    for (std::size_t i = 0; i < data.n; ++i, p += d) m[cell_of(p)] += 1.0;
  }
  return m;
}

void Quantizer::coarse_cells(const Dataset& data, int shift, std::vector<std::uint32_t>& out) const {
  out.resize(data.n);
  for (std::size_t i = 0; i < data.n; ++i) out[i] = static_cast<std::uint32_t>(cell_of(data.point(i), shift));
}

void unravel(std::size_t index, const GridShape& shape, std::size_t* coords) {
  for (std::size_t j = shape.dims.size(); j-- > 0;) {
    coords[j] = index % shape.dims[j];
    index /= shape.dims[j];
  }
}

}  // namespace dpclust::wavecluster
