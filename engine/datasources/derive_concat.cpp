// Several CSV files of one layout as one file (rule in derivations.hpp): UCI's Gas Turbine Emissions zip holds one
// file a year, which DPM's artifact and Google's README read together.
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

DerivationReport derive_concat_csv(const std::vector<fs::path>& csvs, const fs::path& out_csv) {
  if (csvs.empty()) throw InputError("concat_csv", "no input files given", "list the files to join under `members:`");
  std::ofstream out(out_csv, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot create " + out_csv.string());
  DerivationReport report;
  nlohmann::json per_file = nlohmann::json::array();
  std::string header;
  std::string_view line;
  for (const fs::path& file : csvs) {
    LineReader in(file);
    bool got = false;
    while ((got = in.next(line)) && text::trim(line).empty()) {}
    if (!got)
      throw InputError(file.string(), "file is empty (no header)",
                       "each file to join starts with the same header line");
    const std::string h(text::trim(line));
    if (header.empty()) {
      header = h;
      out << header << '\n';
    } else if (h != header) {
      // The lines are not quoted: a file without a header would put a record in the message.
      throw InputError(in.where(),
                       "the first line differs from the first file's header (" + csvs.front().filename().string() + ")",
                       "join only files of one layout (the same header, the same columns in the same order)");
    }
    std::uint64_t rows = 0;
    while (in.next(line)) {
      if (text::trim(line).empty()) continue;
      out << line << '\n';
      ++rows;
    }
    report.rows_read += rows;
    per_file.push_back({{"file", file.filename().string()}, {"rows", rows}});
  }
  out.close();
  if (!out) throw std::runtime_error("write failed: " + out_csv.string());
  report.rows_written = report.rows_read;
  report.details["files"] = csvs.size();
  report.details["rows_per_file"] = per_file;
  return report;
}

}  // namespace dpclust::datasources
