#pragma once
// Where each method wins (docs/benchmark.md): per dataset family and ranked metric, the best private method of
// every (n, epsilon) and (d, epsilon) cell, only where it is significantly best -- the comparison's machinery
// (comparison_stats.hpp): the best median of a column, the rank-sum test of that cell against every other ranked
// private cell of it, Holm-adjusted over all such tests of its (dataset, metric) table, and the best is the winner only
// when every test rejects at alpha. No method wins everywhere (Hay et al., DPBench, SIGMOD 2016, Sec. 6); the map says
// where each does. The trivial baseline and the non-private references do not compete. No Markdown here
// (win_regions_markdown.cpp); plots/benchmark_figures.py draws the same map from results.json.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/comparison.hpp"

namespace dpclust::report {

struct WinCell {
  std::string best;          // the label of the best private row of the column (by the metric's direction)
  bool significant = false;  // significantly better than every other private row of the column
  std::size_t competitors = 0;
};

struct WinRow {
  std::string dataset;
  std::uint64_t n = 0;
  std::uint64_t d = 0;
  std::vector<std::optional<WinCell>> cells;  // one per epsilon of the table
};

struct WinTable {
  std::string experiment, family, metric;
  std::string axis;  // "n" or "d": what varies down the rows
  std::vector<double> epsilons;
  std::vector<WinRow> rows;  // sorted by the axis, then by the other size
};

// The win tables of one experiment: its results document (datasets' n, d and family) and its comparison tables
// (compare_methods). A family gets an "n" table when its datasets have at least two sizes n, a "d" table when
// they have at least two dimensions; central-DP tables of ranked metrics only.
std::vector<WinTable> win_regions(const nlohmann::json& results, const std::vector<ComparisonTable>& tables,
                                  double alpha = 0.05);

// The winner of every column of one comparison table (by its columns, the no-epsilon column left out).
std::vector<std::optional<WinCell>> column_winners(const ComparisonTable& t, double alpha = 0.05);

}  // namespace dpclust::report
