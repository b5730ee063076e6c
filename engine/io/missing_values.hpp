#pragma once
// Missing values, handled the same way in every table format (CSV, TSV, ARFF): a field that holds no
// value is empty (or blanks), "?" (ARFF's mark, and UCI's .data files') or "NA" (R's). The dataset's
// `missing:` key decides what a row with one among its selected columns (coordinates or label) does:
//   refuse (default)  the whole file is read, then the load stops with the count of affected rows and
//                     the columns they are in, and the fix (never a value: only names and counts);
//   drop              the row is left out, and counted in provenance["missing"] = {policy: "drop",
//                     rows_dropped, columns: [names]}.
// NaN and infinite numbers are not missing values: they stay errors at their line.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dpclust {

enum class MissingPolicy { refuse, drop };

bool is_missing_value(std::string_view field);

// Tallies the rows with a missing value while one file (or several of one layout) is read.
class MissingValues {
 public:
  explicit MissingValues(MissingPolicy policy) : policy_(policy) {}
  MissingPolicy policy() const { return policy_; }
  // One missing value of the current row, in the column named `column`, at `where` (file:line).
  void note(const std::string& column, const std::string& where);
  // Closes the current row: true when it held a missing value (the caller leaves it out).
  bool end_row();
  std::size_t rows() const { return rows_; }
  // Under refuse, with any row affected: throws InputError naming `source`, the count of rows (of
  // `rows_read` read) and the columns, the first place, and the fix.
  void finish(const std::string& source, std::size_t rows_read) const;
  // {policy, rows_dropped, columns} (only when some row was dropped, or the policy is drop).
  nlohmann::json provenance() const;

 private:
  MissingPolicy policy_;
  bool row_missing_ = false;
  std::size_t rows_ = 0;
  std::vector<std::string> columns_;  // in order of first appearance
  std::vector<std::size_t> counts_;   // rows with a missing value in each of columns_
  std::string first_where_;
};

}  // namespace dpclust
