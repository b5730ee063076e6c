#include "io/missing_values.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "io/text.hpp"

namespace dpclust {

bool is_missing_value(std::string_view field) {
  const std::string_view t = text::trim(field);
  return t.empty() || t == "?" || t == "NA";
}

void MissingValues::note(const std::string& column, const std::string& where) {
  row_missing_ = true;
  if (first_where_.empty()) first_where_ = where;
  const auto it = std::find(columns_.begin(), columns_.end(), column);
  if (it != columns_.end()) {
    ++counts_[static_cast<std::size_t>(it - columns_.begin())];
    return;
  }
  columns_.push_back(column);
  counts_.push_back(1);
}

bool MissingValues::end_row() {
  const bool was = row_missing_;
  row_missing_ = false;
  rows_ += was;
  return was;
}

void MissingValues::finish(const std::string& source, std::size_t rows_read) const {
  if (policy_ != MissingPolicy::refuse || rows_ == 0) return;
  std::vector<std::string> per_column;
  for (std::size_t i = 0; i < columns_.size(); ++i)
    per_column.push_back(columns_[i] + ": " + std::to_string(counts_[i]));
  throw InputError(
      source,
      std::to_string(rows_) + " of " + std::to_string(rows_read) +
          " rows have a missing value ('?', 'NA' or empty) in " + std::to_string(columns_.size()) +
          " of the selected columns (rows per column: " + text::join(per_column) + "); the first at " + first_where_,
      "set `missing: drop` on the dataset to leave those rows out (they are counted in the provenance), impute the "
      "values before loading, or leave those columns out of `columns`");
}

nlohmann::json MissingValues::provenance() const {
  return {
      {"policy", policy_ == MissingPolicy::drop ? "drop" : "refuse"}, {"rows_dropped", rows_}, {"columns", columns_}};
}

}  // namespace dpclust
