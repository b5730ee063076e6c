#include "dpdbscan/release_classifier.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.hpp"

namespace dpclust::dpdbscan {

using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& where, const std::string& key, const std::string& what) {
  throw InputError(where, "release." + key + ": " + what,
                   "pass a dp_dbscan trial whose results were written with output: {release: true}");
}

const json& need(const json& obj, const char* key, const std::string& path, const std::string& where) {
  if (!obj.is_object() || !obj.contains(key)) bad(where, path.empty() ? key : path + "." + key, "missing");
  return obj.at(key);
}

// A non-negative integer, whether the JSON holds it signed (built in memory) or unsigned (parsed).
bool is_count(const json& v) { return v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0); }

}  // namespace

ReleasedSpans spans_from_release(const json& release, const std::string& where) {
  ReleasedSpans out;
  CellGrid& g = out.grid;
  const json& grid = need(release, "grid", "", where);
  const json& lo = need(grid, "lo", "grid", where);
  const json& hi = need(grid, "hi", "grid", where);
  const json& dims = need(grid, "cells_per_dim", "grid", where);
  const json& width = need(grid, "cell_width", "grid", where);
  if (!lo.is_array() || lo.empty() || !hi.is_array() || !dims.is_array() || lo.size() != hi.size() ||
      lo.size() != dims.size())
    bad(where, "grid", "lo, hi and cells_per_dim must be lists of the same non-zero length");
  if (!width.is_number() || !(width.get<double>() > 0) || !std::isfinite(width.get<double>()))
    bad(where, "grid.cell_width", "must be a positive number");
  g.d = lo.size();
  g.width = width.get<double>();
  g.inv_width = 1.0 / g.width;  // as make_grid computes it
  for (std::size_t j = 0; j < g.d; ++j) {
    if (!lo[j].is_number() || !hi[j].is_number() || !(lo[j].get<double>() < hi[j].get<double>()))
      bad(where, "grid.lo/hi", "each dimension needs numbers lo < hi");
    if (!is_count(dims[j]) || dims[j].get<std::uint64_t>() == 0)
      bad(where, "grid.cells_per_dim", "positive integers expected");
    g.lo.push_back(lo[j].get<double>());
    g.hi.push_back(hi[j].get<double>());
    g.dims.push_back(dims[j].get<std::uint64_t>());
  }
  g.strides.assign(g.d, 1);
  std::uint64_t universe = 1;
  for (std::size_t j = g.d; j-- > 0;) {
    g.strides[j] = universe;
    if (g.dims[j] > kMaxUniverse / universe) bad(where, "grid.cells_per_dim", "the grid has more than 2^62 cells");
    universe *= g.dims[j];
  }
  g.universe = universe;

  const json& spans = need(release, "spans", "", where);
  if (!spans.is_array()) bad(where, "spans", "must be a list");
  std::vector<std::pair<std::uint64_t, Label>> cells;
  for (std::size_t s = 0; s < spans.size(); ++s) {
    const std::string at = "spans[" + std::to_string(s) + "]";
    const json& id = need(spans[s], "span", at, where);
    if (!is_count(id) || id.get<std::uint64_t>() >= spans.size())
      bad(where, at + ".span", "must be an integer below the number of spans");
    const json& list = need(spans[s], "cells", at, where);
    if (!list.is_array()) bad(where, at + ".cells", "must be a list of cells");
    for (const json& c : list) {
      if (!c.is_array() || c.size() != g.d)
        bad(where, at + ".cells", "each cell is a list of " + std::to_string(g.d) + " integers");
      std::uint64_t code = 0;
      for (std::size_t j = 0; j < g.d; ++j) {
        if (!is_count(c[j]) || c[j].get<std::uint64_t>() >= g.dims[j])
          bad(where, at + ".cells", "a cell coordinate lies outside the grid");
        code += c[j].get<std::uint64_t>() * g.strides[j];
      }
      cells.emplace_back(code, static_cast<Label>(id.get<std::uint64_t>()));
    }
  }
  std::sort(cells.begin(), cells.end());
  for (std::size_t i = 1; i < cells.size(); ++i)
    if (cells[i].first == cells[i - 1].first) bad(where, "spans", "a cell belongs to two spans");
  out.spans.n_spans = spans.size();
  for (const auto& [code, span] : cells) {
    out.spans.codes.push_back(code);
    out.spans.span.push_back(span);
  }
  return out;
}

Labels classify_with_release(const ReleasedSpans& released, const double* coords, std::size_t n) {
  const SpanClassifier classifier(released.grid, released.spans, /*dense=*/false);
  return classifier.classify_all(coords, n);
}

}  // namespace dpclust::dpdbscan
