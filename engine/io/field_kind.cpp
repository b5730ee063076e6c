#include "io/field_kind.hpp"

#include "io/iso_dates.hpp"
#include "io/missing_values.hpp"
#include "io/text.hpp"

namespace dpclust {

const char* field_kind_name(FieldKind kind) {
  switch (kind) {
    case FieldKind::missing: return "missing";
    case FieldKind::number: return "number";
    case FieldKind::boolean: return "true/false";
    case FieldKind::date: return "date";
    case FieldKind::timestamp: return "timestamp";
    case FieldKind::text: return "text";
  }
  return "?";
}

std::optional<bool> parse_boolean(std::string_view f) {
  if (f == "True" || f == "true" || f == "TRUE") return true;
  if (f == "False" || f == "false" || f == "FALSE") return false;
  return std::nullopt;
}

FieldKind classify_field(std::string_view f, double* number, bool* zoned) {
  if (is_missing_value(f)) return FieldKind::missing;
  double v;
  if (text::parse_double(f, v)) {
    if (number) *number = v;
    return FieldKind::number;
  }
  if (parse_boolean(f)) return FieldKind::boolean;
  if (const auto t = parse_iso8601(f)) {
    if (zoned) *zoned = t->has_zone;
    return t->has_time ? FieldKind::timestamp : FieldKind::date;
  }
  return FieldKind::text;
}

}  // namespace dpclust
