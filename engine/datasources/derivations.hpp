#pragma once
// Derivations: how each of the papers' data files that is not published as it is gets built from its
// public source. Each function is the documented, tested form of one rule; the rules (and the
// checksums their outputs must reach) are stated next to each function.
//
// Common contract:
//   - The complete output is written to `out` (a temporary name chosen by the caller, who verifies the
//     SHA-256 and renames it into place), so a failed derivation never leaves a half-written file under
//     the final name. An existing file at `out` is replaced.
//   - Inputs are streamed line by line with bounded memory (the Cabs traces are 368 MB), through
//     io/line_reader, so gzip-compressed inputs are read transparently.
//   - Malformed input throws dpclust::InputError naming "file:line", what is wrong and how to fix it;
//     a failure to write the output throws std::runtime_error.
//   - Numbers are copied with their original text (never re-formatted): the outputs are byte-exact
//     reproductions of the published files, and re-printing a double could change its digits.
//   - Output lines end with "\n"; a CRLF input line is read without its "\r".
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dpclust::datasources {

struct DerivationReport {
  std::uint64_t rows_read = 0;                        // data lines (records) read from the inputs, headers excluded
  std::uint64_t rows_written = 0;                     // rows in the output, header excluded
  nlohmann::json details = nlohmann::json::object();  // named counts, e.g. {"dropped_outside_box": 1234}
};

// ---- Cabs (DP-DBSCAN paper, Qiu & Yi) -------------------------------------------------------------
// Source: the DP-DBSCAN authors' repository, GitHub QiuTedYuan/DpDBSCAN at commit
// ba4d5f43f1c59ea0def05a15b5cffe6f801858e7, the 536 files datasets/cabspottingdata/new_*.txt (368 MB;
// originally the CRAWDAD epfl/mobility cabspotting traces of San Francisco taxis). Each line is
// `lat lon occupied unixtime`, separated by single spaces, occupied being 0 or 1.
//
// Both derivations process the files in sorted file-name order (byte order of the file name; the
// functions sort `trace_files` themselves, so the caller's order does not matter) and the lines of each
// file in file order, and write `lon,lat` (longitude first, so x is east-west) with the original text
// of both numbers, under the header `lon,lat`. Coordinates are compared as doubles parsed with
// std::from_chars; box edges are inclusive.

// Cabs: every position inside the San Francisco box -122.6 <= lon <= -122.3, 37.55 <= lat <= 37.85.
// Output: gzip-compressed CSV (10,995,626 rows; SHA-256 of the uncompressed text
// d8b6d1c95384d5631e858e272ba6953f1cd9ee410eed63ec05a190d604b6186b).
// details: files, dropped_outside_box.
DerivationReport derive_cabs_positions(const std::vector<std::filesystem::path>& trace_files,
                                       const std::filesystem::path& out_csv_gz);

// Cabs-tiny: the pick-up and drop-off points. Per file a `loaded` flag starts false; a line is a
// pick-up when not loaded and occupied = 1, a drop-off when loaded and occupied = 0; at each such line
// the flag flips, and the line is kept when -122.48 <= lon <= -122.38 and 37.72 <= lat <= 37.82.
// Output: plain CSV (845,685 rows; SHA-256 62f786f82977dc6213ed1b274bf9e357bd41c4b5e454f5bdc804b446043a01e3).
// details: files, pickups, dropoffs (transitions seen, inside the box or not), dropped_outside_box
// (transitions outside the box).
DerivationReport derive_cabs_pickups_dropoffs(const std::vector<std::filesystem::path>& trace_files,
                                              const std::filesystem::path& out_csv);

// ---- Crash (DP-DBSCAN paper) ------------------------------------------------------------------------
// Source: NYC OpenData "Motor Vehicle Collisions - Crashes" (dataset h9gi-nx95), CSV export: a header
// of column names (quoted or not), RFC 4180 quoting (fields with commas, doubled quotes and line breaks
// inside double quotes). The LATITUDE and LONGITUDE columns are found by header name. Rows with an
// empty latitude or longitude are dropped (dropped_missing_location); rows outside the paper's box
// 40 <= lat <= 41, -75 <= lon <= -73 (40-41 N, 73-75 W) are dropped (dropped_outside_box; the 0.0
// placeholders of unknown locations fall here). Output `lon,lat` with the original text, header
// `lon,lat`, rows in file order. A coordinate that is present but not a finite number is an error.
// details: dropped_missing_location, dropped_outside_box, and with a cutoff dropped_after_cutoff.
// The date cutoff (last_crash_date, yyyymmdd; 0 = none): the export is live and grows every day, so a
// fetch keeps only the crashes dated on or before the last day the paper's data could hold and the
// derived file stops changing (up to crashes reported late; the fetch warns when a later fetch differs
// from the first). The registry sets 2024-09-28: the authors' loader reads crashes_240928.csv, the
// export of that day (see the note below); the paper (arXiv 2508.08749 v1, 12 Aug 2025, Sec. 6) says
// "from 2012 to 2024". Rows after the cutoff are dropped before the location checks. The CRASH DATE
// column (MM/DD/YYYY; the SODA export's YYYY-MM-DDT...) is then required, and a value that is not a
// date is an error.
// Note for whoever compares counts with the paper: the authors' own loader (data_provider.py in
// QiuTedYuan/DpDBSCAN, e.g. commit 7da9da9d0f11e27e0bdc7c0ade2edcca9ab4c30f) reads
// datasets/crashes_240928.csv, the 2024-09-28 export that repository ships as crashes_240928.zip, and
// keeps -74.2 < lon < -73 and 40 < lat < 41 (strict), a narrower box than the one stated in the paper
// and used here; the export date also changes the row count, since the data set grows daily.
DerivationReport derive_nyc_crash(const std::filesystem::path& raw_csv, const std::filesystem::path& out_csv,
                                  int last_crash_date = 0);
// "YYYY-MM-DD" -> yyyymmdd for derive_nyc_crash; InputError at `where` otherwise.
int parse_crash_cutoff(const std::string& where, const std::string& iso_date);

// ---- HAR70+ (DP-DBSCAN paper) -----------------------------------------------------------------------
// Source: the UCI Machine Learning Repository's "HAR70+" data set (id 780), a zip of one CSV per
// participant (501.csv ... 518.csv), header `timestamp,back_x,back_y,back_z,thigh_x,thigh_y,thigh_z,label`.
// The paper's HAR70+ set is 3-D (the back sensor) with 7 labels and 103,860 points; which participants
// give it is the caller's choice (a registry key), so this function takes the files to use.
// Output header `back_x,back_y,back_z,label`; the rows of the given files in the given order, the four
// fields with their original text. Columns are found by header name in each file.
// Surrounding blanks and quotes of a field are dropped. details: files, rows_per_file [{file, rows}].
DerivationReport derive_har70(const std::vector<std::filesystem::path>& participant_csvs,
                              const std::filesystem::path& out_csv);

// ---- Iris (scikit-learn's copy of UCI Iris) --------------------------------------------------------
// Source: scikit-learn's sklearn/datasets/data/iris.csv (what load_iris reads; 2,734 bytes, SHA-256
// f13ffa8fdd56fd8e6c8d16d4081a3fbd3114bcd0aae4256c43205169cd9d1449 in scikit-learn 1.2.1): a first line
// `150,4,setosa,versicolor,virginica` (rows, features, class names), then 150 rows of four measurements
// and the label 0/1/2. The output replaces the first line with the header
// `sepal_length,sepal_width,petal_length,petal_width,label`, keeps the label text and writes each
// measurement as the shortest text that reads back as the same double (scikit-learn's "3.0" becomes
// "3"; "4.9" stays "4.9"), which is how the published file was printed: SHA-256
// c76446d7595036b79f4e16e537de7ceb22c452a1adbed4f9a1498b4ba18133a7 (copying the rows byte for byte gives
// 874d28c2... instead). The first line is checked so that another file is not silently renamed, and the
// row count against the one it declares. details: numbers_reprinted (measurements whose text changed).
DerivationReport derive_sklearn_iris(const std::filesystem::path& sklearn_iris_csv,
                                     const std::filesystem::path& out_csv);

// ---- A data set scikit-learn ships as CSV (wine_data.csv, breast_cancer.csv: FastLloyd's evaluation) -------
// Source: scikit-learn's sklearn/datasets/data/<name>.csv (what load_wine / load_breast_cancer read; Debian's
// python3-sklearn 1.2.1 installs the same files): a first line `n_samples,n_features,class names...`, then the
// rows of n_features numbers and the class index. The output replaces the first line with the header
// `<columns...>,label` (the registry's `options: {columns: [...]}`, one name per feature) and copies every row
// with its original text. The first line is checked (its feature count against the columns, its row count
// against the rows), every feature must be a finite number and every label a class index. details: features,
// classes.
DerivationReport derive_sklearn_csv(const std::filesystem::path& sklearn_csv, const std::vector<std::string>& columns,
                                    const std::filesystem::path& out_csv);

// ---- A table of numbers separated by blanks (the UEF clustering benchmark's s1.txt, birch2.txt, g2-*.txt) ------
// Every line's fields split at runs of spaces and tabs (leading and trailing blanks ignored; blank lines
// skipped), written as CSV under the header `<columns...>` (the registry's `options: {columns: [...]}`; without
// it x0, x1, ... by the first line's width) with each number's original text. Every line must hold the same
// number of fields, each a finite number. details: columns.
DerivationReport derive_whitespace_columns(const std::filesystem::path& table, const std::vector<std::string>& columns,
                                           const std::filesystem::path& out_csv);

// ---- Several CSV files of one layout (UCI Gas Turbine Emissions: DPM's and Google's evaluations) ------
// The files in the given order (the registry's `members:` order), each starting with the same header line
// (surrounding blanks and a CR ignored; a different header is an error naming the file and line): the header
// once, then every non-blank data line of each file with its original text (without a trailing CR).
// details: files, rows_per_file [{file, rows}].
DerivationReport derive_concat_csv(const std::vector<std::filesystem::path>& csvs,
                                   const std::filesystem::path& out_csv);

// ---- A copy published gzip-compressed (connect.dat.gz in a public repository) ----------------------
// Its text, inflated within `text_bytes` (the registry's stated size of the text; 0 = unknown) plus 1/16
// and 1 MiB, else 64 x the compressed size, so a bomb ends early; a stream cut short or corrupt is an
// InputError (the same checks as sha256_gunzipped_file). rows_read = rows_written = the text's lines.
DerivationReport derive_gunzip(const std::filesystem::path& in, const std::filesystem::path& out,
                               std::uint64_t text_bytes);

}  // namespace dpclust::datasources
