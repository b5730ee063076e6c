#pragma once
// Rectangular linear assignment (the Hungarian method, Kuhn 1955 / Munkres 1957), in the
// shortest-augmenting-path form with dual potentials (Jonker & Volgenant 1987; O(r^2 c) for an
// r x c matrix with r <= c). Used wherever a paper says "the Hungarian method": cluster matching in
// DSG_C and class matching in OCM (DP WaveCluster, Sec. 6).
//
// A matrix with more rows than columns is solved on its transpose, so every call matches
// min(rows, cols) pairs; the remaining rows (or columns) stay unmatched. Deterministic: the same
// matrix always gives the same assignment (ties go to the lowest column index reached first).
#include <cstddef>
#include <vector>

namespace dpclust {

struct Assignment {
  std::vector<std::ptrdiff_t> row_to_col;  // matched column of each row, -1 when unmatched
  std::vector<std::ptrdiff_t> col_to_row;  // matched row of each column, -1 when unmatched
  double total = 0.0;                      // sum of the matched entries (of the matrix as given)
};

// Minimum-cost matching of min(rows, cols) pairs. cost is row-major rows x cols, every entry finite.
// Throws std::invalid_argument on a size mismatch or a non-finite entry. rows or cols may be 0.
Assignment min_cost_assignment(const std::vector<double>& cost, std::size_t rows, std::size_t cols);

// Maximum-weight matching of min(rows, cols) pairs (min_cost_assignment of the negated matrix).
Assignment max_weight_assignment(const std::vector<double>& weight, std::size_t rows, std::size_t cols);

}  // namespace dpclust
