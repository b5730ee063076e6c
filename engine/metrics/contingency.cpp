#include "metrics/contingency.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace dpclust {

namespace {

// Direct indexing by (label - min) is used when the label range is at most 2n + 64Ki and at most 4Mi
// values, so the scratch array stays proportional to the input and small in absolute terms.
constexpr std::uint64_t kDirectRangeSlack = 1u << 16;
constexpr std::uint64_t kDirectRangeMax = 1u << 22;

// Dense counting of the table is used under the same rule applied to rows x cols; beyond it the
// non-zero cells are found by sorting the n cell keys.
constexpr std::uint64_t kDenseCellsSlack = 1u << 16;
constexpr std::uint64_t kDenseCellsMax = 1u << 22;

}  // namespace

DenseLabeling relabel_dense(const Labels& labels) {
  DenseLabeling out;
  const std::size_t n = labels.size();
  out.ids.resize(n);
  if (n == 0) return out;

  const auto [min_it, max_it] = std::minmax_element(labels.begin(), labels.end());
  const std::int64_t lo = *min_it;
  const auto range = static_cast<std::uint64_t>(static_cast<std::int64_t>(*max_it) - lo + 1);

  if (range <= std::min<std::uint64_t>(2 * static_cast<std::uint64_t>(n) + kDirectRangeSlack, kDirectRangeMax)) {
    // Small value range: count by direct indexing, then number the present values in ascending order,
    // reusing the count array as the value -> id map.
    std::vector<std::int64_t> by_value(range, 0);
    auto slot = [&](Label l) { return static_cast<std::size_t>(static_cast<std::int64_t>(l) - lo); };
    for (Label l : labels) ++by_value[slot(l)];
    for (std::size_t v = 0; v < range; ++v) {
      if (by_value[v] == 0) continue;
      out.counts.push_back(by_value[v]);
      by_value[v] = static_cast<std::int64_t>(out.values.size());
      out.values.push_back(static_cast<Label>(lo + static_cast<std::int64_t>(v)));
    }
    for (std::size_t i = 0; i < n; ++i) out.ids[i] = static_cast<std::int32_t>(by_value[slot(labels[i])]);
    return out;
  }

  // Sparse values: provisional ids in order of first appearance, then renumbered by sorted value.
  std::unordered_map<Label, std::int32_t> first_id;
  std::vector<Label> seen;
  std::vector<std::int64_t> seen_counts;
  for (std::size_t i = 0; i < n; ++i) {
    auto [it, inserted] = first_id.try_emplace(labels[i], static_cast<std::int32_t>(seen.size()));
    if (inserted) {
      seen.push_back(labels[i]);
      seen_counts.push_back(0);
    }
    out.ids[i] = it->second;
    ++seen_counts[static_cast<std::size_t>(it->second)];
  }
  std::vector<std::int32_t> order(seen.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<std::int32_t>(k);
  std::sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    return seen[static_cast<std::size_t>(a)] < seen[static_cast<std::size_t>(b)];
  });
  std::vector<std::int32_t> rank(seen.size());
  out.values.resize(seen.size());
  out.counts.resize(seen.size());
  for (std::size_t r = 0; r < order.size(); ++r) {
    const auto k = static_cast<std::size_t>(order[r]);
    rank[k] = static_cast<std::int32_t>(r);
    out.values[r] = seen[k];
    out.counts[r] = seen_counts[k];
  }
  for (auto& id : out.ids) id = rank[static_cast<std::size_t>(id)];
  return out;
}

std::int64_t ContingencyTable::at(std::size_t row, std::size_t col) const {
  const auto r = static_cast<std::int32_t>(row);
  const auto c = static_cast<std::int32_t>(col);
  auto it = std::lower_bound(cells.begin(), cells.end(), std::pair{r, c},
                             [](const ContingencyCell& cell, const std::pair<std::int32_t, std::int32_t>& key) {
                               return cell.row < key.first || (cell.row == key.first && cell.col < key.second);
                             });
  return (it != cells.end() && it->row == r && it->col == c) ? it->count : 0;
}

ContingencyTable contingency_table(const Labels& first, const Labels& second) {
  if (first.size() != second.size())
    throw std::invalid_argument("contingency_table: the labelings have different lengths (" +
                                std::to_string(first.size()) + " and " + std::to_string(second.size()) + ")");
  if (first.empty()) throw std::invalid_argument("contingency_table: the labelings are empty");
  if (first.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw std::invalid_argument("contingency_table: more than 2^31-1 points are not supported");

  DenseLabeling rows = relabel_dense(first);
  DenseLabeling cols = relabel_dense(second);
  const std::size_t n = first.size();

  ContingencyTable t;
  t.n = static_cast<std::int64_t>(n);
  t.row_labels = std::move(rows.values);
  t.col_labels = std::move(cols.values);
  t.row_sums = std::move(rows.counts);
  t.col_sums = std::move(cols.counts);

  const std::uint64_t n_rows = t.row_sums.size();
  const std::uint64_t n_cols = t.col_sums.size();
  const std::uint64_t n_cells = n_rows * n_cols;  // <= n^2 < 2^62: no overflow

  if (n_cells <= std::min<std::uint64_t>(2 * static_cast<std::uint64_t>(n) + kDenseCellsSlack, kDenseCellsMax)) {
    std::vector<std::int64_t> dense(n_cells, 0);
    for (std::size_t i = 0; i < n; ++i)
      ++dense[static_cast<std::size_t>(rows.ids[i]) * n_cols + static_cast<std::size_t>(cols.ids[i])];
    for (std::uint64_t k = 0; k < n_cells; ++k)
      if (dense[k] != 0)
        t.cells.push_back({static_cast<std::int32_t>(k / n_cols), static_cast<std::int32_t>(k % n_cols), dense[k]});
    return t;
  }

  // Many cells: sort the n cell keys and count runs (O(n log n), memory O(n) whatever rows x cols is).
  std::vector<std::uint64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i)
    keys[i] = static_cast<std::uint64_t>(rows.ids[i]) * n_cols + static_cast<std::uint64_t>(cols.ids[i]);
  std::sort(keys.begin(), keys.end());
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && keys[j] == keys[i]) ++j;
    t.cells.push_back({static_cast<std::int32_t>(keys[i] / n_cols), static_cast<std::int32_t>(keys[i] % n_cols),
                       static_cast<std::int64_t>(j - i)});
    i = j;
  }
  return t;
}

}  // namespace dpclust
