#pragma once
// CSV/TSV tables, plain or gzip: the format of the synthetic benchmarks, UCI tables, the taxi-trace data
// sets, and most data as people hold it (pandas, R, seaborn's and scikit-learn's sample files). Every
// column is accounted for, as an ARFF file's attributes are: each is typed from the whole file
// (io/csv_scan.hpp: numeric, true/false, date, timestamp, text or empty) and is then a coordinate, the
// label, or left out with one warning naming it and its type, and listed in
// provenance["skipped_attributes"] = [{name, index, type, reason}] (names and counts, never a value).
// Every problem in the file is reported as InputError at "file:line".
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "io/missing_values.hpp"
#include "io/table_options.hpp"

namespace dpclust {

// The most rows of column names a file may have (`header_rows`).
inline constexpr std::size_t kMaxHeaderRows = 100;

struct CsvOptions {
  // Field separator. '\0' (default) = auto: tab for *.tsv / *.tsv.gz, comma otherwise.
  char delimiter = '\0';
  // Whether the first row holds column names. Default (nullopt) = auto: a first row of numbers (every
  // non-empty field parses) is data, never names; a first row without any number is a header; a mixed
  // first row is a header only when a field that is text in it is a number in the second row. Columns
  // selected by name in a file found to have no header are an error that says so (and shows no value).
  std::optional<bool> header{};
  // Rows of column names at the top (`header_rows: N`, N >= 1), for files whose names take several rows
  // (pandas' header=[0, 1, 2]): each column's parts are joined with "_", empty parts left out
  // ("network_node_hemi"). 0 (default) = `header` decides (one row or none). Under header: auto, when the
  // rows after the first look like names too (text above numbers), a warning names this key.
  std::size_t header_rows = 0;
  // Coordinate columns, in output order, by header name or 0-based index ("3"). With a header an
  // exact name match wins; otherwise a string of digits is an index. Default (empty) = every numeric
  // column except the label, with the text and true/false columns under `nominal: codes | onehot` and
  // the date columns under `dates: days | seconds`; every other column is left out with one warning.
  // A column listed here must be numeric or true/false (0/1), text under codes / onehot, or a date
  // column under days / seconds; otherwise the load stops naming its type and the key that uses it.
  std::vector<std::string> columns{};
  // Ground-truth label column, by name or index. Default (empty): the one column named class, label or
  // target (any case) whose values are text, true/false or integers, with a warning (several such
  // columns: none, and the warning lists them); else the data has no labels. `use_label = false` (label:
  // none) takes none. Integer labels are kept ("1.0" counts as 1); "noise" (any case) and -1 become -1;
  // if any other label is not an integer, all non-noise labels are mapped to 0,1,2,... in order of first
  // appearance (recorded in provenance["label_map"]).
  std::string label{};
  bool use_label = true;
  // Text and true/false columns that are not the label (io/table_options.hpp). The codes of a text
  // column come from the values in the file, in `nominal_order`: the dataset is then flagged non-private
  // (one record with a new value moves the codes, or the one-hot columns, of the others).
  NominalEncoding nominal = NominalEncoding::skip;
  NominalOrder nominal_order = NominalOrder::sorted;
  // Date and timestamp columns (io/table_options.hpp): left out (default) or a coordinate.
  DateEncoding dates = DateEncoding::skip;
  // Read at most this many data rows; 0 (default) = all.
  std::size_t max_rows = 0;
  // Dataset name; empty (default) = the file name without extensions (".csv.gz" -> stem).
  std::string name{};
  // Rows whose selected columns (coordinates or label) hold a missing value: empty (or blanks), "?" or
  // "NA" (io/missing_values.hpp; the NYC crash export leaves LATITUDE/LONGITUDE empty in ~300k rows).
  // refuse (default): the whole file is read and the load stops with the count of such rows and their
  // columns; drop (`missing: drop`): each is skipped and counted in provenance["missing"] =
  // {"policy": "drop", "rows_dropped": N, "columns": [...]}. Unparseable text, NaN and inf are still
  // errors at their line. max_rows counts kept rows.
  MissingPolicy missing = MissingPolicy::refuse;
};

// Loads the selected columns as coordinates. provenance: files = [fingerprint], format ("csv" or
// "tsv"), delimiter, header, header_rows (when more than one), file_columns, columns ([{name, index}]),
// label (and label_rule: "named" or "name: class, label or target"), skipped_attributes, and when they
// apply: nominal_coordinates ({column: code | onehot | boolean}) with nominal_order and nominal_values
// ({column: [values in code order]}), date_coordinates ({column: unit}), blank_rows, missing, max_rows.
// No bounds are set: they must come from the config.
Dataset load_csv(const std::filesystem::path& path, const CsvOptions& options = {});

// Several files of the same layout (e.g. HAR70+'s one CSV per participant), read in the given order
// and concatenated as one dataset: every file must select the same columns (same header names, or the
// same column count without a header), labels are coded across all files (a text label gets the same
// number in every file). max_rows counts rows over all files. provenance: files = one fingerprint per
// file (path, bytes, crc32) in order, rows_per_file, and the single-file keys. Throws InputError naming
// the file and line of any problem, and for an empty list.
Dataset load_csv_files(const std::vector<std::filesystem::path>& paths, const CsvOptions& options = {});

// "moons" for "data/moons.csv.gz": the name a loader gives a dataset by default.
std::string dataset_stem(const std::filesystem::path& path);

}  // namespace dpclust
