// A data set scikit-learn ships as a CSV under sklearn/datasets/data/ (wine_data.csv, breast_cancer.csv): the
// rule is in derivations.hpp.
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

constexpr const char* kSklearnCsvFix =
    "pass scikit-learn's sklearn/datasets/data/<name>.csv (first line `n_samples,n_features,class names...`) and one "
    "registry column name per feature (options: {columns: [...]})";

}  // namespace

DerivationReport derive_sklearn_csv(const fs::path& sklearn_csv, const std::vector<std::string>& columns,
                                    const fs::path& out_csv) {
  LineReader in(sklearn_csv);
  std::string_view line;
  if (!in.next(line)) throw InputError(sklearn_csv.string(), "file is empty", kSklearnCsvFix);
  std::vector<std::string_view> fields;
  text::split_fields(line, ',', "", fields);
  std::int64_t declared_rows = 0, declared_features = 0;
  if (fields.size() < 3 || !text::parse_int(fields[0], declared_rows) ||
      !text::parse_int(fields[1], declared_features) || declared_rows < 1 || declared_features < 1)
    throw InputError(in.where(),
                     "first line '" + std::string(line) + "' is not scikit-learn's `n_samples,n_features,class names`",
                     kSklearnCsvFix);
  const auto features = static_cast<std::size_t>(declared_features);
  if (columns.size() != features)
    throw InputError(in.where(),
                     "the file declares " + std::to_string(features) + " features; the registry names " +
                         std::to_string(columns.size()) + " columns",
                     kSklearnCsvFix);
  const auto classes = static_cast<std::int64_t>(fields.size() - 2);

  std::ofstream out(out_csv, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot create " + out_csv.string());
  std::string header;
  for (const auto& c : columns) header += c + ",";
  header += "label\n";
  out << header;
  DerivationReport report;
  std::string row;
  while (in.next(line)) {
    if (text::trim(line).empty()) continue;
    ++report.rows_read;
    text::split_fields(line, ',', "", fields);
    if (fields.size() != features + 1)
      throw InputError(in.where(),
                       "expected " + std::to_string(features + 1) + " fields (the features and the label), found " +
                           std::to_string(fields.size()),
                       kSklearnCsvFix);
    for (std::size_t k = 0; k < features; ++k) {
      double v = 0;
      if (!text::parse_double(fields[k], v) || !std::isfinite(v))
        throw InputError(in.where(),
                         "feature " + std::to_string(k) + " is not a finite number (the value is not shown)",
                         kSklearnCsvFix);
    }
    std::int64_t label = 0;
    if (!text::parse_int(fields[features], label) || label < 0 || label >= classes)
      throw InputError(in.where(),
                       "the label is not a class index 0.." + std::to_string(classes - 1) + " (the value is not shown)",
                       kSklearnCsvFix);
    row.assign(line.data(), line.size());  // the numbers' own text (LineReader drops a trailing CR)
    row.push_back('\n');
    out.write(row.data(), static_cast<std::streamsize>(row.size()));
    ++report.rows_written;
  }
  if (report.rows_read != static_cast<std::uint64_t>(declared_rows))
    throw InputError(in.where(1),
                     "the first line declares " + std::to_string(declared_rows) + " rows but the file has " +
                         std::to_string(report.rows_read),
                     "the file is truncated; " + std::string(kSklearnCsvFix));
  out.close();
  if (!out) throw std::runtime_error("cannot write " + out_csv.string() + " (check free disk space)");
  report.details = {{"features", features}, {"classes", classes}};
  return report;
}

}  // namespace dpclust::datasources
