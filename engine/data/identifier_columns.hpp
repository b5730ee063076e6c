#pragma once
// Columns that name a record instead of measuring it (a row number, a patient or sample ID): clustered
// as a coordinate, such a column dominates every distance and the clustering follows file order (UCI's
// wdbc, whose IDNumber attribute would otherwise be coordinate 0, gave k-means an ARI of 0.003). When a
// file dataset does not list its `columns`, such columns are left out by default (`identifier_columns:
// drop`), each named in a warning and in provenance["identifier_columns_dropped"], never by a value.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust {

// A coordinate column judged to be an identifier, and why: "name" (called like one) or
// "increasing integers" (integers strictly increasing in file order, over at least
// kIdentifierMinRows rows).
struct IdentifierColumn {
  std::size_t index = 0;  // position among the coordinates as loaded
  std::string name;
  std::string reason;
};

// Fewer rows than this never make a column an identifier by its values alone: in a handful of rows,
// increasing integers happen by chance (and in the hand-written files of tests and examples).
inline constexpr std::size_t kIdentifierMinRows = 10;

// Case-insensitive: id, idnumber, id_number, index, idx, row, rowid, row_id, rownum, row_number,
// sample_id, ...: a name equal to one of those, ending in "_id" / "-id" / " id", starting with "id_",
// or ending in "Id"/"ID" after a lower-case letter (camelCase: "patientID"). A word that merely ends
// in "id" ("lipid", "grid") is not one.
bool identifier_name(std::string_view name);

// Every value of coordinate column j is an integer (exactly, below 2^53) and each is larger than the
// one before, in file order; false for fewer than kIdentifierMinRows rows.
bool increasing_integers(const Dataset& data, std::size_t j);

// The coordinate columns of `data` that are identifiers, in column order. A date coordinate (named in
// provenance["date_coordinates"]) is never one by its values: a time series sorted by date increases.
std::vector<IdentifierColumn> find_identifier_columns(const Dataset& data);

// Removes the identifier columns from data (coords, d, column_names, provenance["columns"], which must
// list the coordinates in order) and records them in provenance["identifier_columns_dropped"] as
// [{name, reason}]. Returns what it removed (empty: data unchanged). When every coordinate column is an
// identifier nothing is removed and an InputError at `source` says so: there would be no point left.
std::vector<IdentifierColumn> drop_identifier_columns(Dataset& data, const std::string& source);

}  // namespace dpclust
