#include "io/gowalla.hpp"

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/files.hpp"
#include "io/line_reader.hpp"
#include "io/text.hpp"

namespace dpclust {

namespace {

constexpr std::size_t kFields = 5;  // user, time, lat, lon, location_id

// Named by line, record index and field, never by its text (text.hpp).
[[noreturn, gnu::cold, gnu::noinline]] void bad_coordinate(const LineReader& in, const char* name, std::string_view v,
                                                           double limit, std::size_t record) {
  double x;
  const std::string at = text::record_label(record) + ", " + name + ": ";
  if (!text::parse_double(v, x))
    throw InputError(in.where(), at + "the value is not a number" + text::kValueNotShown, "fix or remove the row");
  throw InputError(in.where(),
                   at + "the value is outside [-" + std::to_string(int(limit)) + ", " + std::to_string(int(limit)) +
                       "] or not finite" + text::kValueNotShown,
                   "remove the row; check that the columns are user, time, latitude, longitude, location_id");
}

double coordinate(const LineReader& in, std::string_view v, const char* name, double limit, std::size_t record) {
  double x;
  if (!text::parse_double(v, x) || !(x >= -limit && x <= limit)) bad_coordinate(in, name, v, limit, record);
  return x;
}

}  // namespace

Dataset load_gowalla(const std::filesystem::path& path, const GowallaOptions& options) {
  LineReader in(path);
  Dataset ds;
  ds.name = options.name.empty() ? "gowalla" : options.name;
  ds.d = 2;
  ds.column_names = {"lon", "lat"};
  std::vector<std::string_view> fields;
  std::string_view line;
  while ((options.max_rows == 0 || ds.n < options.max_rows) && in.next(line)) {
    if (text::trim(line).empty()) continue;
    text::split_fields(line, '\t', "", fields);
    if (fields.size() != kFields)
      throw InputError(in.where(),
                       "expected 5 tab-separated fields (user, time, latitude, longitude, location_id), found " +
                           std::to_string(fields.size()),
                       "check that this is the SNAP Gowalla check-ins file; fix or remove the row");
    if (ds.n == 0) {
      std::size_t rows = in.estimated_bytes() / (line.size() + 1) * 9 / 8 + 16;
      if (options.max_rows) rows = std::min(rows, options.max_rows);
      ds.coords.reserve(std::min(2 * rows, in.max_values()));
    }
    const double lat = coordinate(in, fields[2], "latitude", 90, ds.n);
    const double lon = coordinate(in, fields[3], "longitude", 180, ds.n);
    ds.coords.push_back(lon);
    ds.coords.push_back(lat);
    ++ds.n;
    in.check_values(ds.coords.size());
  }
  if (ds.n == 0) throw InputError(path.string(), "file is empty (no check-ins)", "check that this is the right file");
  if (ds.coords.capacity() > ds.coords.size() + ds.coords.size() / 4) ds.coords.shrink_to_fit();
  ds.provenance["files"] = nlohmann::json::array({file_fingerprint(path)});
  ds.provenance["format"] = "gowalla";
  ds.provenance["columns"] = {"lon", "lat"};
  ds.provenance["rows"] = ds.n;
  if (options.max_rows) ds.provenance["max_rows"] = options.max_rows;
  return ds;
}

}  // namespace dpclust
