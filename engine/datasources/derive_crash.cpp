// Crash from the NYC OpenData "Motor Vehicle Collisions - Crashes" CSV export (rule in derivations.hpp).
//
// The export is RFC 4180 CSV: free-text columns (street names, ON/CROSS/OFF STREET NAME, LOCATION
// "(40.7, -73.9)") carry commas, doubled quotes and even line breaks inside double quotes, so neither
// a plain split at commas nor io/csv (one record per line; it is a point loader, not a general CSV
// reader) can find the LATITUDE and LONGITUDE fields. The reader below is a small field-aware state
// machine over the lines of io/line_reader: a record that ends inside a quoted field continues on the
// next line, and only then is it copied into one reusable buffer, so ordinary rows cost no allocation.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "datasources/derivations.hpp"
#include "io/line_reader.hpp"
#include "io/text.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

namespace {

// The DP-DBSCAN paper keeps the crashes located inside 40-41 N, 73-75 W (inclusive edges).
constexpr double kLatLo = 40, kLatHi = 41, kLonLo = -75, kLonHi = -73;

// A record longer than this is taken as a quote left open (it would otherwise swallow the rest of
// the file into memory); real crash records are well under 1 KiB.
constexpr std::size_t kMaxRecordBytes = std::size_t{1} << 20;

// One CSV record's fields as views into the record text. A quoted field's view excludes the
// surrounding quotes and keeps doubled quotes doubled (a number never contains one, so the
// coordinates need no unescaping).
enum class Split { complete, open_quote, text_after_quote };

Split split_record(std::string_view rec, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t i = 0;
  const std::size_t n = rec.size();
  for (;;) {
    if (i < n && rec[i] == '"') {
      std::size_t j = i + 1;
      for (;;) {  // a doubled quote is an escaped quote, not the end of the field (RFC 4180 rule 7)
        j = rec.find('"', j);
        if (j == std::string_view::npos) return Split::open_quote;
        if (j + 1 < n && rec[j + 1] == '"') {
          j += 2;
          continue;
        }
        break;
      }
      fields.push_back(rec.substr(i + 1, j - i - 1));
      i = j + 1;
      if (i == n) return Split::complete;
      if (rec[i] != ',') return Split::text_after_quote;
      ++i;
    } else {
      // An unquoted field runs to the next comma; a quote inside it is literal text (as Python's csv
      // and most writers treat it).
      const std::size_t c = rec.find(',', i);
      fields.push_back(rec.substr(i, c == std::string_view::npos ? n - i : c - i));
      if (c == std::string_view::npos) return Split::complete;
      i = c + 1;
    }
  }
}

// Reads RFC 4180 records (possibly spanning several lines) from a LineReader.
class CsvRecords {
 public:
  explicit CsvRecords(LineReader& in) : in_(in) {}

  // The next non-blank record's fields; false at the end of the file. Views are valid until the next call.
  bool next(std::vector<std::string_view>& fields) {
    std::string_view line;
    do {
      if (!in_.next(line)) return false;
    } while (line.empty());
    first_line_ = in_.line_number();
    Split s = split_record(line, fields);
    if (s == Split::open_quote) {
      // The newline belongs to the quoted field: gather lines until the field closes. LineReader drops
      // a "\r" before the "\n"; the coordinates are never in such a field, so nothing is lost.
      spill_.assign(line);
      while (s == Split::open_quote) {
        if (!in_.next(line))
          throw InputError(in_.where(first_line_), "a quoted field opened in this record is never closed (end of file)",
                           "the file is truncated or not valid CSV; re-download it");
        spill_ += '\n';
        spill_ += line;
        if (spill_.size() > kMaxRecordBytes)
          throw InputError(in_.where(first_line_), "a quoted field opened in this record is not closed within 1 MiB",
                           "the file is not valid CSV (a stray double quote?); re-download it");
        s = split_record(spill_, fields);
      }
    }
    if (s == Split::text_after_quote)
      throw InputError(in_.where(first_line_), "text after the closing quote of a quoted field",
                       "the file is not valid CSV (a quote inside a quoted field must be doubled); re-download it");
    return true;
  }
  // Where the record last returned starts ("file:line").
  std::string where() const { return in_.where(first_line_); }

 private:
  LineReader& in_;
  std::string spill_;  // the current multi-line record; its capacity is reused
  std::size_t first_line_ = 0;
};

std::size_t find_column(const std::vector<std::string>& names, std::string_view wanted, const LineReader& in) {
  // Case-insensitive: the OpenData site's export says LATITUDE, its SODA API export latitude.
  for (std::size_t i = 0; i < names.size(); ++i)
    if (text::iequals(names[i], wanted)) return i;
  throw InputError(in.where(1),
                   "no column named " + std::string(wanted) + " in the header; columns: " + text::join(names),
                   "this must be the CSV export of NYC OpenData's \"Motor Vehicle Collisions - Crashes\"");
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_coordinate(const CsvRecords& rec, const char* name,
                                                           std::string_view v) {
  (void)v;  // never shown: a record's values stay out of error messages
  throw InputError(rec.where(), std::string(name) + " is not a finite number",
                   "the file is corrupt or not the NYC crash export; re-download it");
}

// A crash date as yyyymmdd: the OpenData site's export writes MM/DD/YYYY, its SODA API export
// YYYY-MM-DDT00:00:00.000. Anything else (or an impossible month or day) is an error, so a changed
// export format cannot silently move rows across the cutoff.
int crash_date(const CsvRecords& rec, std::string_view v) {
  v = text::trim(v);
  auto number = [](std::string_view t, int& out) {
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return ec == std::errc() && end == t.data() + t.size() && !t.empty();
  };
  int y = 0, m = 0, d = 0;
  bool ok = false;
  if (const auto s1 = v.find('/'); s1 != std::string_view::npos) {
    const auto s2 = v.find('/', s1 + 1);
    ok = s2 != std::string_view::npos && number(v.substr(0, s1), m) && number(v.substr(s1 + 1, s2 - s1 - 1), d) &&
         number(v.substr(s2 + 1), y);
  } else if (v.size() >= 10 && v[4] == '-' && v[7] == '-') {
    ok = number(v.substr(0, 4), y) && number(v.substr(5, 2), m) && number(v.substr(8, 2), d) &&
         (v.size() == 10 || v[10] == 'T');
  }
  if (!ok || y < 1900 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31)
    throw InputError(rec.where(), "CRASH DATE is not a date (MM/DD/YYYY or YYYY-MM-DD)",
                     "the file is corrupt or not the NYC crash export; re-download it");
  return y * 10000 + m * 100 + d;
}

double coordinate(const CsvRecords& rec, const char* name, std::string_view v) {
  double x = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || end != v.data() + v.size() || !std::isfinite(x)) bad_coordinate(rec, name, v);
  return x;
}

}  // namespace

int parse_crash_cutoff(const std::string& where, const std::string& iso_date) {
  int y = 0, m = 0, d = 0;
  char extra = 0;
  if (iso_date.size() != 10 || std::sscanf(iso_date.c_str(), "%4d-%2d-%2d%c", &y, &m, &d, &extra) != 3 || m < 1 ||
      m > 12 || d < 1 || d > 31)
    throw InputError(where, "last_crash_date '" + iso_date + "' is not a date YYYY-MM-DD",
                     "write it as e.g. 2024-09-28");
  return y * 10000 + m * 100 + d;
}

DerivationReport derive_nyc_crash(const fs::path& raw_csv, const fs::path& out_csv, int last_crash_date) {
  LineReader in(raw_csv);
  CsvRecords records(in);
  std::vector<std::string_view> fields;
  if (!records.next(fields))
    throw InputError(raw_csv.string(), "file is empty (no header)", "re-download the crash CSV export");
  std::vector<std::string> names;
  for (std::string_view f : fields) names.emplace_back(text::trim(f));
  const std::size_t lat_col = find_column(names, "LATITUDE", in);
  const std::size_t lon_col = find_column(names, "LONGITUDE", in);
  // The date column is needed only for the cutoff (the site says "CRASH DATE", the SODA API "crash_date").
  std::size_t date_col = 0;
  if (last_crash_date != 0) {
    const auto it = std::find_if(names.begin(), names.end(), [](const std::string& n) {
      return text::iequals(n, "CRASH DATE") || text::iequals(n, "crash_date");
    });
    date_col = it != names.end() ? static_cast<std::size_t>(it - names.begin()) : find_column(names, "CRASH DATE", in);
  }

  std::ofstream out(out_csv, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot create " + out_csv.string());
  out << "lon,lat\n";
  DerivationReport report;
  std::uint64_t missing = 0, outside = 0, after_cutoff = 0;
  std::string row;
  while (records.next(fields)) {
    ++report.rows_read;
    if (fields.size() != names.size())
      throw InputError(records.where(),
                       "expected " + std::to_string(names.size()) + " fields (as in the header), found " +
                           std::to_string(fields.size()),
                       "the file is truncated or not valid CSV; re-download it");
    if (last_crash_date != 0 && crash_date(records, fields[date_col]) > last_crash_date) {
      ++after_cutoff;  // reported after the paper's export: the live data set grows every day
      continue;
    }
    const std::string_view lat_text = fields[lat_col], lon_text = fields[lon_col];
    if (lat_text.empty() || lon_text.empty()) {
      ++missing;  // crashes without a recorded location: common in this data, not an error
      continue;
    }
    const double lat = coordinate(records, "LATITUDE", lat_text);
    const double lon = coordinate(records, "LONGITUDE", lon_text);
    if (!(lat >= kLatLo && lat <= kLatHi && lon >= kLonLo && lon <= kLonHi)) {
      ++outside;  // includes the 0.0 placeholders of unknown locations
      continue;
    }
    row.assign(lon_text).append(1, ',').append(lat_text).append(1, '\n');
    out.write(row.data(), static_cast<std::streamsize>(row.size()));
    ++report.rows_written;
  }
  out.close();
  if (!out) throw std::runtime_error("cannot write " + out_csv.string() + " (check free disk space)");
  report.details = {{"dropped_missing_location", missing}, {"dropped_outside_box", outside}};
  if (last_crash_date != 0) report.details["dropped_after_cutoff"] = after_cutoff;
  return report;
}

}  // namespace dpclust::datasources
