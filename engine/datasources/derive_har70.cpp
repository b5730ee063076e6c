// HAR70+ (back sensor and label) from the UCI "HAR70+" participant files (rule in derivations.hpp).
// The files are plain CSV without quoting (a timestamp, six accelerations, an integer label), written by
// the same tool, but each file's header is read on its own so that a file with its columns in another
// order is still read correctly rather than misaligned.
#include <algorithm>
#include <array>
#include <cmath>
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

// The back sensor's three axes (the paper's HAR70+ is 3-D) and the activity label, in output order.
constexpr std::array<std::string_view, 4> kColumns{"back_x", "back_y", "back_z", "label"};

constexpr const char* kFix =
    "each participant file of the UCI HAR70+ zip has the header "
    "timestamp,back_x,back_y,back_z,thigh_x,thigh_y,thigh_z,label; re-download and unpack it";

}  // namespace

DerivationReport derive_har70(const std::vector<fs::path>& participant_csvs, const fs::path& out_csv) {
  if (participant_csvs.empty())
    throw InputError("HAR70+ participants", "no participant files given", "pass one or more of 501.csv ... 518.csv");
  std::ofstream out(out_csv, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot create " + out_csv.string());
  out << "back_x,back_y,back_z,label\n";

  DerivationReport report;
  nlohmann::json per_file = nlohmann::json::array();
  std::vector<std::string_view> fields;
  std::string row;
  std::string_view line;
  for (const fs::path& file : participant_csvs) {
    LineReader in(file);
    bool got = false;
    while ((got = in.next(line)) && text::trim(line).empty()) {}
    if (!got) throw InputError(file.string(), "file is empty (no header)", kFix);
    text::split_fields(line, ',', "\"", fields);
    const std::size_t ncols = fields.size();
    std::array<std::size_t, kColumns.size()> col{};
    for (std::size_t k = 0; k < kColumns.size(); ++k) {
      auto it = std::find(fields.begin(), fields.end(), kColumns[k]);
      if (it == fields.end())
        throw InputError(in.where(), "no column '" + std::string(kColumns[k]) + "' in the header", kFix);
      col[k] = static_cast<std::size_t>(it - fields.begin());
    }
    std::uint64_t rows = 0;
    while (in.next(line)) {
      if (text::trim(line).empty()) continue;
      text::split_fields(line, ',', "\"", fields);
      if (fields.size() != ncols)
        throw InputError(
            in.where(),
            "expected " + std::to_string(ncols) + " fields (as in the header), found " + std::to_string(fields.size()),
            kFix);
      // Checked here so that a corrupt file fails at its line rather than later, in a loader that can
      // no longer say which participant file the row came from.
      for (std::size_t k = 0; k < 3; ++k) {
        double v = 0;
        if (!text::parse_double(fields[col[k]], v) || !std::isfinite(v))
          throw InputError(in.where(), std::string(kColumns[k]) + " is not a finite number (the value is not shown)",
                           kFix);
      }
      std::int64_t label = 0;
      if (!text::parse_int(fields[col[3]], label))
        throw InputError(in.where(), "the label is not an integer (the value is not shown)", kFix);
      row.clear();
      for (std::size_t k = 0; k < kColumns.size(); ++k) {
        row.append(fields[col[k]]);
        row.push_back(k + 1 < kColumns.size() ? ',' : '\n');
      }
      out.write(row.data(), static_cast<std::streamsize>(row.size()));
      ++rows;
    }
    report.rows_read += rows;
    per_file.push_back({{"file", file.filename().string()}, {"rows", rows}});
  }
  out.close();
  if (!out) throw std::runtime_error("cannot write " + out_csv.string() + " (check free disk space)");
  report.rows_written = report.rows_read;
  report.details = {{"files", participant_csvs.size()}, {"rows_per_file", per_file}};
  return report;
}

}  // namespace dpclust::datasources
