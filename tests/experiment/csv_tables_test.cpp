// CSV files as data scientists have them, from the config to the loaded points (io/csv.hpp): every column
// typed from the whole file and accounted for (a coordinate, the label, or left out with its type and one
// warning), text and true/false columns under `nominal: codes | onehot`, ISO 8601 dates never read as
// numbers and a coordinate on request, headers of several rows, names shown once the data confirm them,
// and a label by its name (CSV and ARFF). Messages carry names and counts, never a record's value.
#include <gtest/gtest.h>

#include <algorithm>

#include "config/config.hpp"
#include "core/error.hpp"
#include "loading/dataset_loading.hpp"
#include "test_support.hpp"

namespace dpclust::csv_tables_test {
namespace fs = std::filesystem;

namespace {

ExperimentConfig parse(const fs::path& dir, const std::string& dataset_lines) {
  const std::string text = "experiment: tables\ndatasets:\n  - name: d\n" + dataset_lines +
                           "methods:\n  - method: kmeans\n    params: {k: 2}\n";
  return parse_config(text, (dir / "t.yaml").string(), dir, "/nonexistent-data-root");
}

// The dataset and what the load printed on stderr.
std::pair<Dataset, std::string> load(const fs::path& dir, const std::string& dataset_lines) {
  const ExperimentConfig cfg = parse(dir, dataset_lines);
  ::testing::internal::CaptureStderr();
  Dataset ds;
  try {
    ds = materialize_dataset(cfg.datasets.at(0));
  } catch (...) {
    ::testing::internal::GetCapturedStderr();
    throw;
  }
  return {std::move(ds), ::testing::internal::GetCapturedStderr()};
}

std::string error_of(const fs::path& dir, const std::string& dataset_lines) {
  try {
    load(dir, dataset_lines);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
std::size_t count(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) ++n;
  return n;
}

// A taxi-trip table as seaborn's: two timestamps, numbers, quoted text columns with an empty value and an
// NA, and a True/False column.
constexpr const char* kTrips =
    "pickup,dropoff,passengers,distance,fare,color,payment,zone,shared\n"
    "2019-03-23 20:21:09,2019-03-23 20:27:24,1,1.6,7.0,\"yellow\",credit card,\"Lenox Hill West\",False\n"
    "2019-03-04 16:11:55,2019-03-04 16:19:00,1,0.79,5.0,\"yellow\",cash,\"Upper West Side South\",True\n"
    "2019-03-27 17:53:01,2019-03-27 18:00:25,2,1.37,7.5,\"green\",,\"Alphabet City\",False\n"
    "2019-03-10 01:23:59,2019-03-10 01:49:51,1,7.7,27.0,\"yellow\",credit card,NA,False\n";

fs::path trips(const fs::path& dir) { return dpclust::testing::write_file(dir / "trips.csv", kTrips); }

nlohmann::json skipped_named(const Dataset& ds, const std::string& name) {
  for (const auto& s : ds.provenance["skipped_attributes"])
    if (s["name"] == name) return s;
  return nullptr;
}

}  // namespace

TEST(CsvTables, TextTrueFalseAndTimestampColumnsAreLeftOutWithOneWarningNamingThem) {
  const fs::path dir = dpclust::testing::temp_dir("tables");
  trips(dir);
  const auto [ds, err] = load(dir, "    file: trips.csv\n");
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"passengers", "distance", "fare"}));
  EXPECT_EQ(ds.n, 4u);  // the empty and NA fields are in columns that are left out
  EXPECT_EQ(ds.coords[0 * 3 + 1], 1.6);
  EXPECT_EQ(count(err, "warning:"), 1u) << err;
  EXPECT_TRUE(contains(err, "6 of 9 columns are left out")) << err;
  EXPECT_TRUE(contains(err, "timestamp: pickup, dropoff")) << err;
  EXPECT_TRUE(contains(err, "text: color, payment, zone")) << err;
  EXPECT_TRUE(contains(err, "true/false: shared")) << err;
  EXPECT_TRUE(contains(err, "`dates: days`")) << err;
  EXPECT_TRUE(contains(err, "`nominal: codes`")) << err;
  for (const char* value : {"yellow", "Lenox", "2019-03", "credit"})
    EXPECT_FALSE(contains(err, value)) << value << ": " << err;
  ASSERT_EQ(ds.provenance["skipped_attributes"].size(), 6u);
  EXPECT_EQ(skipped_named(ds, "pickup")["type"], "timestamp");
  EXPECT_EQ(skipped_named(ds, "zone")["type"], "text");
  EXPECT_EQ(skipped_named(ds, "shared")["type"], "true/false");
  EXPECT_EQ(skipped_named(ds, "shared")["index"], 8);
  EXPECT_EQ(ds.provenance["file_columns"], 9);
  EXPECT_TRUE(ds.non_private_notes.empty());
}

TEST(CsvTables, AColumnMixingNumbersAndTextIsTextAndItsWarningCountsTheWords) {
  const fs::path dir = dpclust::testing::temp_dir("tables");
  // Numbers in the first rows, words below: typed from the whole file, not its first row.
  std::string text = "x,reading\n";
  for (int i = 0; i < 30; ++i) text += std::to_string(i % 7) + "," + std::to_string(i * 0.5) + "\n";
  text += "1,offline\n2,n/a\n";
  dpclust::testing::write_file(dir / "mixed.csv", text);
  const auto [ds, err] = load(dir, "    file: mixed.csv\n");
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"x"}));
  EXPECT_TRUE(contains(err, "reading (2 of 32 values are not numbers, the first at")) << err;
  EXPECT_TRUE(contains(err, "mixed.csv:32")) << err;
  EXPECT_FALSE(contains(err, "offline")) << err;
  EXPECT_FALSE(contains(err, "n/a")) << err;
  EXPECT_EQ(skipped_named(ds, "reading")["type"], "text");
  // Listed in `columns`, it is an error at the first word's line, with the count and the keys that help.
  const std::string msg = error_of(dir, "    file: mixed.csv\n    columns: [x, reading]\n");
  EXPECT_TRUE(contains(msg, "mixed.csv:32")) << msg;
  EXPECT_TRUE(contains(msg, "column 'reading': the value is not a number")) << msg;
  EXPECT_TRUE(contains(msg, "2 of 32 values are not numbers")) << msg;
  EXPECT_FALSE(contains(msg, "offline")) << msg;
}

TEST(CsvTables, NominalCodesAndOnehotEncodeTextAndTrueFalseColumns) {
  const fs::path dir = dpclust::testing::temp_dir("tables");
  trips(dir);
  // codes: sorted values (green 0, yellow 1); True/False 0/1; rows with a missing value dropped.
  auto [codes, err] = load(dir, "    file: trips.csv\n    nominal: codes\n    missing: drop\n");
  EXPECT_EQ(codes.column_names,
            (std::vector<std::string>{"passengers", "distance", "fare", "color", "payment", "zone", "shared"}));
  ASSERT_EQ(codes.n, 2u);  // the rows with an empty payment and an NA zone are dropped
  EXPECT_EQ(std::vector<double>(codes.coords.begin(), codes.coords.begin() + 7),
            (std::vector<double>{1, 1.6, 7.0, 1, 1, 1, 0}));
  EXPECT_EQ(std::vector<double>(codes.coords.begin() + 7, codes.coords.end()),
            (std::vector<double>{1, 0.79, 5.0, 1, 0, 2, 1}));
  EXPECT_EQ(codes.provenance["nominal_coordinates"]["color"], "code");
  EXPECT_EQ(codes.provenance["nominal_coordinates"]["shared"], "boolean");
  EXPECT_EQ(codes.provenance["nominal_order"], "sorted");
  EXPECT_EQ(codes.provenance["nominal_values"]["color"], (nlohmann::json{"green", "yellow"}));
  EXPECT_EQ(codes.provenance["nominal_values"]["zone"],
            (nlohmann::json{"Alphabet City", "Lenox Hill West", "Upper West Side South"}));
  ASSERT_EQ(codes.non_private_notes.size(), 1u);  // the codes come from the data's values
  EXPECT_TRUE(contains(codes.non_private_notes[0], "color, payment, zone")) << codes.non_private_notes[0];
  EXPECT_EQ(count(err, "warning:"), 1u) << err;  // the timestamps, still left out
  // appearance: in order of first appearance (yellow 0, green 1).
  const auto appearance =
      load(dir, "    file: trips.csv\n    nominal: codes\n    nominal_order: appearance\n    columns: [color]\n").first;
  EXPECT_EQ(appearance.coords, (std::vector<double>{0, 0, 1, 0}));
  EXPECT_EQ(appearance.provenance["nominal_order"], "appearance");
  // onehot: one 0/1 column per value, named column=value; True/False stays one 0/1 column.
  const auto onehot = load(dir, "    file: trips.csv\n    nominal: onehot\n    columns: [color, shared]\n").first;
  EXPECT_EQ(onehot.column_names, (std::vector<std::string>{"color=green", "color=yellow", "shared"}));
  EXPECT_EQ(onehot.coords, (std::vector<double>{0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0}));
  // A text column listed without an encoding names the keys; a True/False column listed is 0/1 as it is.
  const std::string msg = error_of(dir, "    file: trips.csv\n    columns: [fare, color]\n");
  EXPECT_TRUE(contains(msg, "column 'color' is text (4 values, none of them a number)")) << msg;
  EXPECT_TRUE(contains(msg, "nominal: codes")) << msg;
  EXPECT_EQ(load(dir, "    file: trips.csv\n    columns: [shared]\n").first.coords, (std::vector<double>{0, 1, 0, 0}));
}

TEST(CsvTables, DatesAreNeverNumbersAndACoordinateOnRequest) {
  const fs::path dir = dpclust::testing::temp_dir("tables");
  dpclust::testing::write_file(dir / "dow.csv", "Date,Price\n1914-12-01,55.0\n1915-01-01,56.55\n2019-03-23,25502.32\n");
  // Left out by default, named with its type; never its year (1914) as a number.
  const auto [plain, err] = load(dir, "    file: dow.csv\n");
  EXPECT_EQ(plain.column_names, (std::vector<std::string>{"Price"}));
  EXPECT_TRUE(contains(err, "date: Date")) << err;
  EXPECT_EQ(skipped_named(plain, "Date")["type"], "date");
  // Listed, it needs `dates:`.
  const std::string msg = error_of(dir, "    file: dow.csv\n    columns: [Date, Price]\n");
  EXPECT_TRUE(contains(msg, "column 'Date' holds ISO 8601 dates")) << msg;
  EXPECT_TRUE(contains(msg, "dates: days")) << msg;
  // days / seconds since 1970-01-01 UTC, recorded.
  const auto days = load(dir, "    file: dow.csv\n    dates: days\n").first;
  EXPECT_EQ(days.column_names, (std::vector<std::string>{"Date", "Price"}));
  EXPECT_EQ(days.coords, (std::vector<double>{-20120, 55.0, -20089, 56.55, 17978, 25502.32}));
  EXPECT_TRUE(contains(days.provenance["date_coordinates"]["Date"].get<std::string>(), "days since 1970-01-01"));
  dpclust::testing::write_file(dir / "ts.csv", "t,v\n2019-03-23T20:21:09+01:00,1\n2019-03-23 20:21:09,2\n");
  const auto seconds = load(dir, "    file: ts.csv\n    dates: seconds\n").first;
  EXPECT_EQ(seconds.coords, (std::vector<double>{17978.0 * 86400 + 19 * 3600 + 21 * 60 + 9, 1,
                                                 17978.0 * 86400 + 20 * 3600 + 21 * 60 + 9, 2}));
  EXPECT_TRUE(
      contains(error_of(dir, "    file: dow.csv\n    dates: weeks\n"), "dates must be one of: skip, days, seconds"));
  EXPECT_TRUE(
      contains(error_of(dir, "    file: x.arff\n    dates: days\n"), "dates applies to csv and tsv files only"));
}

TEST(CsvTables, HeaderRowsJoinTheNamesAndBlankRowsAreSkippedAndCounted) {
  const fs::path dir = dpclust::testing::temp_dir("tables");
  // seaborn's brain_networks layout: names in three rows (the first column names the levels), a blank row
  // of empty fields, then an index column and the readings.
  std::string text = "network,1,1,2\nnode,1,1,1\nhemi,lh,rh,lh\n,,,\n";
  for (int i = 0; i < 12; ++i)
    text += std::to_string(i) + "," + std::to_string(i * 1.5) + ",-" + std::to_string(i) + "," + std::to_string(i % 3) +
            ".25\n";
  dpclust::testing::write_file(dir / "brain.csv", text);
  // Without the key the rows above the numbers make every column text: the load stops naming the key.
  const std::string msg = error_of(dir, "    file: brain.csv\n");
  EXPECT_TRUE(contains(msg, "no coordinates")) << msg;
  EXPECT_TRUE(contains(msg, "the first 3 rows look like column names above numbers")) << msg;
  EXPECT_TRUE(contains(msg, "header_rows: 3")) << msg;
  const auto [ds, err] = load(dir, "    file: brain.csv\n    header_rows: 3\n");
  // The index column (integers increasing in file order) is a record identifier, left out as such.
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"1_1_lh", "1_1_rh", "2_1_lh"}));
  EXPECT_EQ(ds.n, 12u);
  EXPECT_EQ(ds.coords[3], 1.5);
  EXPECT_EQ(ds.provenance["header_rows"], 3);
  EXPECT_EQ(ds.provenance["blank_rows"], 1);
  EXPECT_EQ(ds.provenance["identifier_columns_dropped"][0]["name"], "network_node_hemi");
  EXPECT_TRUE(
      contains(error_of(dir, "    file: brain.csv\n    header_rows: 3\n    header: false\n"), "header is false"));
  EXPECT_TRUE(contains(error_of(dir, "    file: brain.csv\n    header_rows: 0\n"), "between 1 and 100"));
}

TEST(CsvTables, HeaderAutoShowsNamesOnceTheNumbersBelowConfirmThem) {
  const fs::path dir = dpclust::testing::temp_dir("tables");
  dpclust::testing::write_file(dir / "named.csv", "width,height\n1.5,2\n2.5,3\n3.5,x\n");
  const std::string msg = error_of(dir, "    file: named.csv\n    columns: [\"0\", \"1\"]\n");
  EXPECT_TRUE(contains(msg, "column 'height'")) << msg;
  // A number above a numeric column confirms nothing (it could be a record): the index, and how to show names.
  dpclust::testing::write_file(dir / "unsure.csv", "7,height\n1.5,2\n2.5,3\n3.5,x\n");
  const std::string unsure = error_of(dir, "    file: unsure.csv\n    columns: [\"0\", \"1\"]\n");
  EXPECT_TRUE(contains(unsure, "column #1 (0-based; header: auto, names not shown; `header: true` shows them)"))
      << unsure;
}

TEST(CsvTables, AColumnNamedClassLabelOrTargetIsTheLabelUnlessTheConfigSaysOtherwise) {
  const fs::path dir = dpclust::testing::temp_dir("tables");
  dpclust::testing::write_file(dir / "wine.csv",
                               "Class,alcohol,malic_acid\n1,14.23,1.71\n1,13.2,1.78\n2,12.37,0.94\n3,13.17,2.59\n");
  const auto [ds, err] = load(dir, "    file: wine.csv\n");
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"alcohol", "malic_acid"}));
  EXPECT_EQ(ds.labels, (Labels{1, 1, 2, 3}));
  EXPECT_EQ(ds.provenance["label_rule"], "name: class, label or target");
  EXPECT_TRUE(contains(err, "column 'Class' (numeric) is taken as the label")) << err;
  // A label named in the config wins; label: none takes none (Class is then a coordinate).
  const auto named = load(dir, "    file: wine.csv\n    label: malic_acid\n    columns: [alcohol]\n").first;
  EXPECT_EQ(named.provenance["label_rule"], "named");
  EXPECT_EQ(load(dir, "    file: wine.csv\n    label: none\n").first.column_names,
            (std::vector<std::string>{"Class", "alcohol", "malic_acid"}));
  // The same in an ARFF file whose class is its first attribute (UCI wine's layout).
  dpclust::testing::write_file(
      dir / "wine.arff",
      "@relation wine\n@attribute class {1,2,3}\n@attribute Alcohol numeric\n@attribute Malic_acid numeric\n@data\n"
      "1,14.23,1.71\n2,12.37,0.94\n3,13.17,2.59\n");
  const auto [arff, arff_err] = load(dir, "    file: wine.arff\n");
  EXPECT_EQ(arff.labels, (Labels{1, 2, 3}));
  EXPECT_EQ(arff.column_names, (std::vector<std::string>{"Alcohol", "Malic_acid"}));
  EXPECT_TRUE(contains(arff_err, "attribute 'class' (nominal) is taken as the label")) << arff_err;
  EXPECT_FALSE(load(dir, "    file: wine.arff\n    label: none\n").first.has_labels());
}

TEST(CsvTables, TheNewKeysAreCheckedWhereTheyApply) {
  const fs::path dir = dpclust::testing::temp_dir("tables");
  trips(dir);
  EXPECT_TRUE(contains(error_of(dir, "    file: trips.csv\n    nominal: sorted\n"),
                       "nominal must be one of: skip, codes, onehot"));
  EXPECT_TRUE(contains(error_of(dir, "    file: trips.csv\n    nominal_order: appearance\n"), "`nominal` is skip"));
  EXPECT_TRUE(contains(error_of(dir, "    file: trips.csv\n    nominal: codes\n    nominal_order: random\n"),
                       "nominal_order must be one of: sorted, appearance"));
  EXPECT_TRUE(contains(error_of(dir, "    file: x.dat\n    format: fimi\n    nominal: codes\n"),
                       "csv, tsv and arff files only"));
}

}  // namespace dpclust::csv_tables_test
