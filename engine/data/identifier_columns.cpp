#include "data/identifier_columns.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>

#include "core/error.hpp"
#include "io/text.hpp"

namespace dpclust {

namespace {

// Names that say "which record", not "how much". Compared after lower-casing.
constexpr std::array<std::string_view, 17> kIdentifierNames = {
    "id",     "ids",    "idnumber", "id_number",  "idno",      "index", "idx",  "row",          "rowid",
    "row_id", "rownum", "row_num",  "row_number", "rownumber", "uid",   "uuid", "record_number"};

// Strictly longer than the affix: "_id" alone is no name of a column about something.
bool id_has_suffix(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool id_has_prefix(std::string_view s, std::string_view prefix) {
  return s.size() > prefix.size() && s.substr(0, prefix.size()) == prefix;
}

}  // namespace

bool identifier_name(std::string_view name) {
  const std::string lower = text::lower(name);
  if (std::find(kIdentifierNames.begin(), kIdentifierNames.end(), std::string_view(lower)) != kIdentifierNames.end())
    return true;
  for (std::string_view suffix : {"_id", "-id", " id", ".id"})
    if (id_has_suffix(lower, suffix)) return true;
  for (std::string_view prefix : {"id_", "id-", "id "})
    if (id_has_prefix(lower, prefix)) return true;
  // camelCase: "patientID", "sampleId" -- but not "lipid" or "GRID" (no case change before "id").
  if (name.size() > 2) {
    const std::string_view tail = name.substr(name.size() - 2);
    const char before = name[name.size() - 3];
    if ((tail == "ID" || tail == "Id") && before >= 'a' && before <= 'z') return true;
  }
  return false;
}

bool increasing_integers(const Dataset& data, std::size_t j) {
  if (data.n < kIdentifierMinRows || j >= data.d) return false;
  constexpr double kExact = 9007199254740992.0;  // 2^53: every integer below it is a double exactly
  double prev = 0;
  for (std::size_t i = 0; i < data.n; ++i) {
    const double v = data.coords[i * data.d + j];
    if (!(std::fabs(v) < kExact) || v != std::floor(v)) return false;
    if (i > 0 && !(v > prev)) return false;
    prev = v;
  }
  return true;
}

std::vector<IdentifierColumn> find_identifier_columns(const Dataset& data) {
  // A date made a coordinate (CSV `dates: days`) increases with the rows of a time series sorted by date:
  // it is when a record was taken, not which record it is.
  const auto dates = data.provenance.find("date_coordinates");
  const auto is_date = [&](const std::string& name) {
    return dates != data.provenance.end() && dates->is_object() && dates->contains(name);
  };
  std::vector<IdentifierColumn> out;
  for (std::size_t j = 0; j < data.d; ++j) {
    const std::string name = j < data.column_names.size() ? data.column_names[j] : std::string();
    if (identifier_name(name)) out.push_back({j, name, "name"});
    else if (!is_date(name) && increasing_integers(data, j)) out.push_back({j, name, "increasing integers"});
  }
  return out;
}

std::vector<IdentifierColumn> drop_identifier_columns(Dataset& data, const std::string& source) {
  const std::vector<IdentifierColumn> ids = find_identifier_columns(data);
  if (ids.empty()) return ids;
  if (ids.size() == data.d) {
    std::string names;
    for (const IdentifierColumn& c : ids)
      names += (names.empty() ? "'" : ", '") + text::printable(c.name) + "' (" + c.reason + ")";
    throw InputError(
        source, "every coordinate column looks like a record identifier: " + names + "; none would be left",
        "list the columns to use in `columns` (a column listed there is kept), or set identifier_columns: keep");
  }
  std::vector<bool> drop(data.d, false);
  for (const IdentifierColumn& c : ids) drop[c.index] = true;
  const std::size_t d_new = data.d - ids.size();
  std::vector<double> coords;
  coords.reserve(data.n * d_new);
  for (std::size_t i = 0; i < data.n; ++i)
    for (std::size_t j = 0; j < data.d; ++j)
      if (!drop[j]) coords.push_back(data.coords[i * data.d + j]);
  data.coords = std::move(coords);
  std::vector<std::string> names;
  for (std::size_t j = 0; j < data.column_names.size(); ++j)
    if (j >= drop.size() || !drop[j]) names.push_back(data.column_names[j]);
  data.column_names = std::move(names);
  if (data.provenance.contains("columns") && data.provenance["columns"].is_array() &&
      data.provenance["columns"].size() == data.d) {
    nlohmann::json cols = nlohmann::json::array();
    for (std::size_t j = 0; j < data.d; ++j)
      if (!drop[j]) cols.push_back(data.provenance["columns"][j]);
    data.provenance["columns"] = cols;
  }
  data.d = d_new;
  nlohmann::json noted = nlohmann::json::array();
  for (const IdentifierColumn& c : ids) {
    noted.push_back({{"name", c.name}, {"reason", c.reason}});
    // Named, never shown: the column's values are the records' identities.
    std::cerr << "warning: " << source << ": column '" << text::printable(c.name)
              << "' looks like a record identifier ("
              << (c.reason == "name" ? "by its name" : "its values are integers increasing in file order")
              << "): left out of the coordinates; list it in `columns` to keep it, or set identifier_columns: keep\n";
  }
  data.provenance["identifier_columns_dropped"] = noted;
  return ids;
}

}  // namespace dpclust
