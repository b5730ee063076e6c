#pragma once
// CSV/TSV point files, plain or gzip: the format of the synthetic benchmarks, UCI tables and the
// taxi-trace data sets. Every problem in the file is reported as InputError at "file:line".
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "io/missing_values.hpp"

namespace dpclust {

struct CsvOptions {
  // Field separator. '\0' (default) = auto: tab for *.tsv / *.tsv.gz, comma otherwise.
  char delimiter = '\0';
  // Whether the first row holds column names. Default (nullopt) = auto: a first row of numbers (every
  // non-empty field parses) is data, never names; a first row without any number is a header; a mixed
  // first row is a header only when a field that is text in it is a number in the second row. Columns
  // selected by name in a file found to have no header are an error that says so (and shows no value).
  std::optional<bool> header{};
  // Coordinate columns, in output order, by header name or 0-based index ("3"). With a header an
  // exact name match wins; otherwise a string of digits is an index. Default (empty) = every column
  // except the label column.
  std::vector<std::string> columns{};
  // Ground-truth label column, by name or index; empty (default) = the data has no labels.
  // Integer labels are kept ("1.0" counts as 1); "noise" (any case) and -1 become -1; if any
  // other label is not an integer, all non-noise labels are mapped to 0,1,2,... in order of first
  // appearance (recorded in provenance["label_map"]).
  std::string label{};
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
// "tsv"), delimiter, header, columns, label. No bounds are set: they must come from the config.
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
