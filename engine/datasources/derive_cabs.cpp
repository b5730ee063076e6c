// Cabs and Cabs-tiny from the cabspotting traces in the DP-DBSCAN authors' repository
// (QiuTedYuan/DpDBSCAN @ ba4d5f43f1c59ea0def05a15b5cffe6f801858e7, datasets/cabspottingdata/new_*.txt).
// The rules are stated in derivations.hpp; this file is about doing one 368 MB pass in a few seconds:
// lines are views into the reader's 4 MiB buffer, numbers are parsed in place with std::from_chars,
// and output goes through one large buffer, so nothing is allocated per line.
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "datasources/derivations.hpp"
#include "io/line_reader.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

namespace {

// The boxes of the published files (DP-DBSCAN paper's Cabs and Cabs-tiny; inclusive edges).
struct Box {
  double lon_lo, lon_hi, lat_lo, lat_hi;
  bool contains(double lon, double lat) const {
    return lon >= lon_lo && lon <= lon_hi && lat >= lat_lo && lat <= lat_hi;
  }
};
constexpr Box kCabsBox{-122.6, -122.3, 37.55, 37.85};
constexpr Box kCabsTinyBox{-122.48, -122.38, 37.72, 37.82};

// One trace line `lat lon occupied unixtime`. Text views stay valid until the reader's next line.
struct TraceLine {
  std::string_view lat_text, lon_text;
  double lat = 0, lon = 0;
  bool occupied = false;
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Names the line and the field, never the field's text (a record's values stay out of
// error messages).
[[noreturn, gnu::cold, gnu::noinline]] void bad_line(const LineReader& in, const std::string& what) {
  throw InputError(in.where(), what,
                   "each line of a cabspotting trace is `latitude longitude occupied(0|1) unixtime`; "
                   "re-download the file (it may be truncated or not a trace file)");
}

bool parse_number(std::string_view s, double& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(out);
}

// Splits at runs of blanks (the files use single spaces; tolerating more costs nothing) and checks every
// field, so a corrupt file is reported at its first bad line rather than silently filtered.
// Returns false for a blank line (skipped: a trailing empty line is not data).
bool parse_trace_line(std::string_view line, const LineReader& in, TraceLine& out) {
  std::string_view f[4];
  std::size_t n = 0;
  std::size_t i = 0;
  const std::size_t len = line.size();
  while (true) {
    while (i < len && is_blank(line[i])) ++i;
    if (i == len) break;
    const std::size_t start = i;
    while (i < len && !is_blank(line[i])) ++i;
    if (n == 4) bad_line(in, "more than 4 fields");
    f[n++] = line.substr(start, i - start);
  }
  if (n == 0) return false;
  if (n != 4) bad_line(in, "expected 4 fields (latitude longitude occupied unixtime), found " + std::to_string(n));
  if (!parse_number(f[0], out.lat)) bad_line(in, "latitude is not a finite number");
  if (!parse_number(f[1], out.lon)) bad_line(in, "longitude is not a finite number");
  if (f[2] != "0" && f[2] != "1") bad_line(in, "occupied flag is not 0 or 1");
  std::int64_t t = 0;
  const auto [end, ec] = std::from_chars(f[3].data(), f[3].data() + f[3].size(), t);
  if (ec != std::errc() || end != f[3].data() + f[3].size()) bad_line(in, "unix time is not an integer");
  out.lat_text = f[0];
  out.lon_text = f[1];
  out.occupied = f[2] == "1";
  return true;
}

// Sorted by file name (byte order), as the published files were built; the full path breaks ties so
// the order never depends on the caller's.
std::vector<fs::path> sorted_by_name(const std::vector<fs::path>& files) {
  if (files.empty())
    throw InputError("cabspotting traces", "no trace files given",
                     "pass the 536 files datasets/cabspottingdata/new_*.txt of QiuTedYuan/DpDBSCAN");
  std::vector<fs::path> sorted = files;
  std::sort(sorted.begin(), sorted.end(), [](const fs::path& a, const fs::path& b) {
    const std::string na = a.filename().string(), nb = b.filename().string();
    return na != nb ? na < nb : a.native() < b.native();
  });
  return sorted;
}

// Output through one large buffer, to a plain file (stdio, its own buffer disabled) or gzip (zlib's
// gz* API). The whole output is a few hundred MB, so writes are batched in 4 MiB blocks.
class OutputBuffer {
 public:
  static constexpr std::size_t kBytes = std::size_t{4} << 20;

  OutputBuffer(const fs::path& path, bool gzip) : path_(path), buf_(std::make_unique<char[]>(kBytes)) {
    if (gzip) {
      // Level 1: on the 217 MB Cabs text it compresses in 2.5 s to 67 MB, where zlib's default level 6
      // takes 8.8 s for 53 MB (measured); the checksum is of the uncompressed text, so the level is free.
      gz_ = gzopen(path.c_str(), "wb1");
      if (gz_) gzbuffer(gz_, 1u << 20);
    } else {
      plain_ = std::fopen(path.c_str(), "wb");
      if (plain_) std::setvbuf(plain_, nullptr, _IONBF, 0);
    }
    if (!gz_ && !plain_) throw std::runtime_error("cannot create " + path.string() + ": " + std::strerror(errno));
  }
  ~OutputBuffer() {
    if (gz_) gzclose(gz_);
    if (plain_) std::fclose(plain_);
  }
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  void append(std::string_view s) {
    if (used_ + s.size() > kBytes) flush();
    if (s.size() > kBytes) {  // never for these rows; kept correct anyway
      write_block(s.data(), s.size());
      return;
    }
    std::memcpy(buf_.get() + used_, s.data(), s.size());
    used_ += s.size();
  }
  // `lon,lat\n` with the original text of both numbers.
  void row(std::string_view lon, std::string_view lat) {
    const std::size_t need = lon.size() + lat.size() + 2;
    if (used_ + need > kBytes) flush();
    char* p = buf_.get() + used_;
    std::memcpy(p, lon.data(), lon.size());
    p += lon.size();
    *p++ = ',';
    std::memcpy(p, lat.data(), lat.size());
    p += lat.size();
    *p = '\n';
    used_ += need;
  }
  // Flushes and closes, reporting any write error (a full disk shows up here at the latest).
  void close() {
    flush();
    if (gz_) {
      const int rc = gzclose(gz_);
      gz_ = nullptr;
      if (rc != Z_OK) fail("gzclose failed");
    }
    if (plain_) {
      const int rc = std::fclose(plain_);
      plain_ = nullptr;
      if (rc != 0) fail(std::strerror(errno));
    }
  }

 private:
  void flush() {
    if (used_) write_block(buf_.get(), used_);
    used_ = 0;
  }
  void write_block(const char* data, std::size_t n) {
    if (gz_) {
      while (n > 0) {
        const auto chunk = static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30));
        if (gzwrite(gz_, data, chunk) != static_cast<int>(chunk)) {
          int code = 0;
          const char* msg = gzerror(gz_, &code);
          fail(msg ? msg : "gzwrite failed");
        }
        data += chunk;
        n -= chunk;
      }
    } else if (std::fwrite(data, 1, n, plain_) != n) {
      fail(std::strerror(errno));
    }
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("cannot write " + path_.string() + ": " + why + " (check free disk space)");
  }

  fs::path path_;
  std::unique_ptr<char[]> buf_;
  std::size_t used_ = 0;
  gzFile gz_ = nullptr;
  std::FILE* plain_ = nullptr;
};

}  // namespace

DerivationReport derive_cabs_positions(const std::vector<fs::path>& trace_files, const fs::path& out_csv_gz) {
  const std::vector<fs::path> files = sorted_by_name(trace_files);
  OutputBuffer out(out_csv_gz, /*gzip=*/true);
  out.append("lon,lat\n");
  DerivationReport report;
  std::uint64_t outside = 0;
  TraceLine t;
  std::string_view line;
  for (const fs::path& file : files) {
    LineReader in(file);
    while (in.next(line)) {
      if (!parse_trace_line(line, in, t)) continue;
      ++report.rows_read;
      if (kCabsBox.contains(t.lon, t.lat)) {
        out.row(t.lon_text, t.lat_text);
        ++report.rows_written;
      } else {
        ++outside;
      }
    }
  }
  out.close();
  report.details = {{"files", files.size()}, {"dropped_outside_box", outside}};
  return report;
}

DerivationReport derive_cabs_pickups_dropoffs(const std::vector<fs::path>& trace_files, const fs::path& out_csv) {
  const std::vector<fs::path> files = sorted_by_name(trace_files);
  OutputBuffer out(out_csv, /*gzip=*/false);
  out.append("lon,lat\n");
  DerivationReport report;
  std::uint64_t pickups = 0, dropoffs = 0, outside = 0;
  TraceLine t;
  std::string_view line;
  for (const fs::path& file : files) {
    LineReader in(file);
    // Each file is one cab: its state starts empty, and the flag flips only at a change of the
    // occupied bit, so a run of occupied = 1 lines yields one pick-up (its first line).
    bool loaded = false;
    while (in.next(line)) {
      if (!parse_trace_line(line, in, t)) continue;
      ++report.rows_read;
      if (t.occupied == loaded) continue;  // no change of state
      loaded = t.occupied;
      ++(loaded ? pickups : dropoffs);
      if (kCabsTinyBox.contains(t.lon, t.lat)) {
        out.row(t.lon_text, t.lat_text);
        ++report.rows_written;
      } else {
        ++outside;
      }
    }
  }
  out.close();
  report.details = {
      {"files", files.size()}, {"pickups", pickups}, {"dropoffs", dropoffs}, {"dropped_outside_box", outside}};
  return report;
}

}  // namespace dpclust::datasources
