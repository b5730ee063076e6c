#pragma once
// What the table loaders (CSV/TSV: io/csv.hpp; ARFF: io/arff.hpp) make of columns that are not numbers,
// each choice declared once, with the names a config writes (`nominal:`, `nominal_order:`, `dates:`).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dpclust {

// What becomes of the nominal (ARFF) or text and true/false (CSV) columns that are not the label:
//   skip    (default) left out with one warning naming them, unless listed in `columns` (an ARFF nominal
//           attribute whose declared values are all numbers is then a coordinate of those numbers; a CSV
//           true/false column is 0/1);
//   codes   every one is a coordinate: an ARFF value's number when every declared value is a number, else
//           its 0-based position in the declaration; a CSV text value's 0-based position in the column's
//           values (NominalOrder); a CSV true/false value 0/1;
//   onehot  one 0/1 coordinate per value, named "column=value" (a CSV true/false column stays one 0/1
//           coordinate: its two one-hot columns would be it and its complement).
enum class NominalEncoding { skip, codes, onehot };

// The order of a CSV text column's values, which gives each its code (ARFF's is the declaration's):
//   sorted      (default) by their bytes (UTF-8 order): the codes depend on the set of values only, so
//               the same records in another order, or split over other files, get the same coordinates;
//   appearance  in order of first appearance in the file(s) (pandas.factorize), as the file has them.
enum class NominalOrder { sorted, appearance };

// CSV columns of ISO 8601 dates or timestamps ("2019-03-23", "2019-03-23 20:21:09", "...T20:21:09+01:00"):
//   skip     (default) left out, named in the warning and in provenance.skipped_attributes;
//   days     a coordinate: days since 1970-01-01T00:00:00Z (a timestamp gives a fraction of a day);
//   seconds  a coordinate: seconds since 1970-01-01T00:00:00Z.
// A time without a zone is read as UTC (its offset is unknown); one with a zone (Z, +01:00, +0100, +01)
// is converted to UTC.
enum class DateEncoding { skip, days, seconds };

template <class E>
struct TableChoice {
  const char* name;
  E value;
};
inline constexpr TableChoice<NominalEncoding> kNominalEncodings[] = {
    {"skip", NominalEncoding::skip}, {"codes", NominalEncoding::codes}, {"onehot", NominalEncoding::onehot}};
inline constexpr TableChoice<NominalOrder> kNominalOrders[] = {{"sorted", NominalOrder::sorted},
                                                               {"appearance", NominalOrder::appearance}};
inline constexpr TableChoice<DateEncoding> kDateEncodings[] = {
    {"skip", DateEncoding::skip}, {"days", DateEncoding::days}, {"seconds", DateEncoding::seconds}};

// The value a table names, or nullopt for a name it does not have.
template <class E, std::size_t N>
std::optional<E> table_choice(const TableChoice<E> (&table)[N], std::string_view name) {
  for (const auto& t : table)
    if (name == t.name) return t.value;
  return std::nullopt;
}

template <class E, std::size_t N>
const char* table_choice_name(const TableChoice<E> (&table)[N], E value) {
  for (const auto& t : table)
    if (t.value == value) return t.name;
  return "?";
}

// "skip, codes, onehot": the names, in the table's order.
template <class E, std::size_t N>
std::string table_choice_names(const TableChoice<E> (&table)[N]) {
  std::string out;
  for (const auto& t : table) out += (out.empty() ? "" : ", ") + std::string(t.name);
  return out;
}

}  // namespace dpclust
