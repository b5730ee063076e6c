#pragma once
// Contingency table of two labelings of the same points, the common input of every external
// clustering score (ARI, MI, NMI, AMI). Labels are arbitrary int32 values; noise (-1) is simply one
// more label, as scikit-learn treats it. Rows are the distinct labels of the first labeling and
// columns those of the second, both in ascending label order (as numpy.unique orders them).
//
// Building the table is O(n) when the label values span a modest range (direct indexing: at most
// 2n + 64Ki and 4Mi values) and O(n + k log k) otherwise (hash map, then the k distinct values
// sorted). The cells are counted in a dense array when rows x cols is within the same limits and by
// sorting the n cell keys otherwise (O(n log n), O(n) memory), so 1000 x 1000 labelings of few points
// never allocate a million cells they do not need. Only the non-zero cells are kept.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust {

// A labeling rewritten as dense ids 0..k-1, with ids assigned in ascending order of label value.
struct DenseLabeling {
  std::vector<std::int32_t> ids;     // one per point, in [0, k)
  std::vector<Label> values;         // values[id] = original label, ascending
  std::vector<std::int64_t> counts;  // counts[id] = number of points with that label
  std::size_t size() const { return values.size(); }
};

// Relabels to dense ids in O(n) (plus O(k log k) when the label range is huge).
DenseLabeling relabel_dense(const Labels& labels);

// One non-zero cell of a contingency table.
struct ContingencyCell {
  std::int32_t row = 0;
  std::int32_t col = 0;
  std::int64_t count = 0;
};

struct ContingencyTable {
  std::int64_t n = 0;                  // number of points
  std::vector<Label> row_labels;       // distinct labels of the first labeling, ascending
  std::vector<Label> col_labels;       // distinct labels of the second labeling, ascending
  std::vector<std::int64_t> row_sums;  // a_i
  std::vector<std::int64_t> col_sums;  // b_j
  std::vector<ContingencyCell> cells;  // non-zero cells only, row-major (row, then col) order

  std::size_t rows() const { return row_sums.size(); }
  std::size_t cols() const { return col_sums.size(); }
  // Count of the cell (row, col), 0 when absent. O(log nnz).
  std::int64_t at(std::size_t row, std::size_t col) const;
};

// Throws std::invalid_argument when the labelings differ in length or are empty.
ContingencyTable contingency_table(const Labels& first, const Labels& second);

}  // namespace dpclust
