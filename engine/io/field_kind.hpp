#pragma once
// What one field of a table holds, judged by its text alone: the vocabulary the CSV loader types whole
// columns with (io/csv_scan.hpp). Missing values follow io/missing_values.hpp ('?', 'NA', empty); a
// number is what text::parse_double reads whole (NaN and inf included: they are numbers a coordinate
// refuses at their line, never missing values); true/false are spelled True/False, true/false or
// TRUE/FALSE, as pandas writes and reads them (yes/no, Y/N, T/F and 0/1 are left to be text or numbers:
// a column of "yes"/"no" is a category like any other, and its sorted codes are no = 0, yes = 1 anyway);
// dates and timestamps are ISO 8601 (io/iso_dates.hpp); anything else is text.
#include <cstddef>
#include <optional>
#include <string_view>

namespace dpclust {

enum class FieldKind : unsigned char { missing, number, boolean, date, timestamp, text };
inline constexpr std::size_t kFieldKinds = 6;

// "missing", "number", "true/false", "date", "timestamp", "text".
const char* field_kind_name(FieldKind kind);

// true for True/true/TRUE, false for False/false/FALSE, nullopt otherwise.
std::optional<bool> parse_boolean(std::string_view field);

// The kind of `field`; for a number its value goes to *number, for a timestamp whether it states its zone
// to *zoned (each when given).
FieldKind classify_field(std::string_view field, double* number = nullptr, bool* zoned = nullptr);

}  // namespace dpclust
