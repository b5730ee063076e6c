// A table of numbers separated by blanks (the UEF clustering benchmark's .txt files: s1, birch2, the G2 sets), as
// CSV: the rule is in derivations.hpp.
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "datasources/derivations.hpp"
#include "io/line_reader.hpp"
#include "io/text.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

namespace {

constexpr const char* kWhitespaceFix =
    "pass a text file of numbers separated by blanks or tabs, the same count on every line";

// The blank-separated fields of a line (spaces and tabs; runs of them count once).
void split_blanks(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
}

}  // namespace

DerivationReport derive_whitespace_columns(const fs::path& table, const std::vector<std::string>& columns,
                                           const fs::path& out_csv) {
  LineReader in(table);
  std::ofstream out(out_csv, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot create " + out_csv.string());
  DerivationReport report;
  std::vector<std::string_view> fields;
  std::size_t width = columns.size();
  bool header_written = false;
  std::string_view line;
  std::string row;
  while (in.next(line)) {
    split_blanks(line, fields);
    if (fields.empty()) continue;
    ++report.rows_read;
    if (!header_written) {
      if (width == 0) width = fields.size();
      std::string header;
      for (std::size_t j = 0; j < width; ++j) {
        if (j) header += ',';
        if (!columns.empty()) {
          header += columns[j];
        } else {  // appended in two steps: GCC 12 warns falsely (-Wstringop-overflow) on "x" + to_string(j)
          header += 'x';
          header += std::to_string(j);
        }
      }
      out << header << '\n';
      header_written = true;
    }
    if (fields.size() != width)
      throw InputError(in.where(),
                       "expected " + std::to_string(width) + " numbers, found " + std::to_string(fields.size()),
                       kWhitespaceFix);
    row.clear();
    for (std::size_t j = 0; j < width; ++j) {
      double v = 0;
      if (!text::parse_double(fields[j], v) || !std::isfinite(v))
        throw InputError(in.where(), "field " + std::to_string(j) + " is not a finite number (the value is not shown)",
                         kWhitespaceFix);
      row.append(j ? "," : "").append(fields[j]);
    }
    row.push_back('\n');
    out.write(row.data(), static_cast<std::streamsize>(row.size()));
    ++report.rows_written;
  }
  if (report.rows_read == 0) throw InputError(table.string(), "no rows of numbers", kWhitespaceFix);
  out.close();
  if (!out) throw std::runtime_error("cannot write " + out_csv.string() + " (check free disk space)");
  report.details = {{"columns", width}};
  return report;
}

}  // namespace dpclust::datasources
