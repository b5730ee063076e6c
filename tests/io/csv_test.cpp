#include "io/csv.hpp"

#include <gtest/gtest.h>

#include "io/io_test_util.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;
using testing::write_gzip;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Csv, HeaderAutoDetectedAndLabelColumn) {
  auto p = write_file(temp_dir("csv") / "pts.csv", "x,y,label\n1.5,2,0\n-3,4e1,1\n5,6,noise\n7,8,-1\n");
  CsvOptions o;
  o.label = "label";
  Dataset ds = load_csv(p, o);
  EXPECT_EQ(ds.name, "pts");
  EXPECT_EQ(ds.n, 4u);
  EXPECT_EQ(ds.d, 2u);
  EXPECT_EQ(ds.coords, (std::vector<double>{1.5, 2, -3, 40, 5, 6, 7, 8}));
  EXPECT_EQ(ds.labels, (Labels{0, 1, -1, -1}));
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(ds.provenance["format"], "csv");
  EXPECT_EQ(ds.provenance["header"], true);
  ASSERT_EQ(ds.provenance["files"].size(), 1u);
  EXPECT_TRUE(contains(ds.provenance["files"][0]["path"].get<std::string>(), "pts.csv"));
  EXPECT_NO_THROW(ds.check_invariants());
}

TEST(Csv, WithoutHeaderAllColumnsByDefault) {
  auto p = write_file(temp_dir("csv") / "raw.csv", "1,2,3\n4,5,6\n");
  Dataset ds = load_csv(p);
  EXPECT_EQ(ds.n, 2u);
  EXPECT_EQ(ds.d, 3u);
  EXPECT_FALSE(ds.has_labels());
  EXPECT_EQ(ds.coords, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"col0", "col1", "col2"}));
  EXPECT_EQ(ds.provenance["header"], false);
}

TEST(Csv, TextLabelInFirstRowIsNotAHeader) {
  auto p = write_file(temp_dir("csv") / "t.csv", "1,2,b\n3,4,a\n5,6,b\n7,8,noise\n");
  CsvOptions o;
  o.label = "2";
  Dataset ds = load_csv(p, o);
  EXPECT_EQ(ds.n, 4u);
  EXPECT_EQ(ds.labels, (Labels{0, 1, 0, -1}));  // categories in order of first appearance
  EXPECT_EQ(ds.provenance["label_map"]["b"], 0);
  EXPECT_EQ(ds.provenance["label_map"]["a"], 1);
}

TEST(Csv, IntegerLabelsKeptAsValues) {
  auto p = write_file(temp_dir("csv") / "t.csv", "a,c\n1,7\n2,3.0\n3,7\n4,-1\n");
  CsvOptions o;
  o.label = "c";
  Dataset ds = load_csv(p, o);
  EXPECT_EQ(ds.labels, (Labels{7, 3, 7, -1}));
  EXPECT_FALSE(ds.provenance.contains("label_map"));
}

TEST(Csv, MixedLabelsBecomeCategories) {
  auto p = write_file(temp_dir("csv") / "t.csv", "a,c\n1,5\n2,x\n3,5\n");
  CsvOptions o;
  o.label = "c";
  EXPECT_EQ(load_csv(p, o).labels, (Labels{0, 1, 0}));
}

TEST(Csv, ColumnSelectionByNameAndIndex) {
  auto dir = temp_dir("csv");
  auto p = write_file(dir / "sel.csv", "id,lat,lon,label\n10,1.5,2.5,3\n11,3.5,4.5,4\n");
  CsvOptions by_name;
  by_name.columns = {"lon", "lat"};
  Dataset a = load_csv(p, by_name);
  EXPECT_EQ(a.d, 2u);
  EXPECT_EQ(a.coords, (std::vector<double>{2.5, 1.5, 4.5, 3.5}));
  EXPECT_EQ(a.column_names, (std::vector<std::string>{"lon", "lat"}));
  // The column named `label` (integers) is the label by its name; label: none takes none.
  EXPECT_EQ(a.labels, (Labels{3, 4}));
  EXPECT_EQ(a.provenance["label_rule"], "name: class, label or target");
  by_name.use_label = false;
  EXPECT_FALSE(load_csv(p, by_name).has_labels());

  CsvOptions by_index;
  by_index.columns = {"2", "1"};
  by_index.label = "3";
  Dataset b = load_csv(p, by_index);
  EXPECT_EQ(b.coords, a.coords);
  EXPECT_EQ(b.labels, (Labels{3, 4}));

  CsvOptions default_cols;
  default_cols.label = "label";
  EXPECT_EQ(load_csv(p, default_cols).column_names, (std::vector<std::string>{"id", "lat", "lon"}));

  auto q = write_file(dir / "noheader.csv", "10,1.5,2.5\n11,3.5,4.5\n");
  CsvOptions idx;
  idx.columns = {"2"};
  Dataset c = load_csv(q, idx);
  EXPECT_EQ(c.n, 2u);
  EXPECT_EQ(c.coords, (std::vector<double>{2.5, 4.5}));
}

TEST(Csv, ForcedHeaderAndMaxRows) {
  auto p = write_file(temp_dir("csv") / "f.csv", "1,2\n3,4\n5,6\n7,8\n");
  CsvOptions o;
  o.header = true;
  o.max_rows = 2;
  Dataset ds = load_csv(p, o);
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(ds.coords, (std::vector<double>{3, 4, 5, 6}));
  EXPECT_EQ(ds.provenance["max_rows"], 2);
}

TEST(Csv, TsvByExtensionWithQuotesBlanksAndCrlf) {
  auto p = write_file(temp_dir("csv") / "pts.tsv", "\"x\"\t\"y\"\r\n1\t2\r\n\r\n 3 \t 4 \r\n");
  Dataset ds = load_csv(p);
  EXPECT_EQ(ds.provenance["format"], "tsv");
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(ds.coords, (std::vector<double>{1, 2, 3, 4}));
}

TEST(Csv, GzipCsvAndGzipTsv) {
  auto dir = temp_dir("csv");
  std::string body = "lon,lat\n";
  for (int i = 0; i < 5000; ++i) body += std::to_string(-122 - i * 1e-4) + "," + std::to_string(37 + i * 1e-4) + "\n";
  Dataset ds = load_csv(write_gzip(dir / "cabs.csv.gz", body));
  EXPECT_EQ(ds.name, "cabs");
  EXPECT_EQ(ds.n, 5000u);
  EXPECT_DOUBLE_EQ(ds.coords[0], -122.0);
  EXPECT_NEAR(ds.coords[2 * 4999 + 1], 37.4999, 1e-9);

  Dataset t = load_csv(write_gzip(dir / "p.tsv.gz", "a\tb\n1\t2\n"));
  EXPECT_EQ(t.provenance["format"], "tsv");
  EXPECT_EQ(t.coords, (std::vector<double>{1, 2}));
}

TEST(Csv, ExplicitDelimiter) {
  auto p = write_file(temp_dir("csv") / "semi.txt", "x;y\n1;2\n");
  CsvOptions o;
  o.delimiter = ';';
  EXPECT_EQ(load_csv(p, o).coords, (std::vector<double>{1, 2}));
}

// ---- error paths: each message names the file and the line ----

TEST(CsvErrors, BadNumberNamesFileLineRecordAndColumnNotText) {
  auto p = write_file(temp_dir("csv") / "bad.csv", "x,y\n1,2\n3,4\n5,abc\n");
  CsvOptions named;
  named.header = true;
  named.columns = {"x", "y"};  // listed: the column must be numbers
  std::string msg = input_error([&] { load_csv(p, named); });
  EXPECT_TRUE(contains(msg, "bad.csv:4")) << msg;
  EXPECT_TRUE(contains(msg, "record 2 (0-based), column 'y': the value is not a number")) << msg;
  EXPECT_TRUE(contains(msg, "1 of 3 values is not a number")) << msg;
  EXPECT_FALSE(contains(msg, "abc")) << msg;  // a field's text is the record's data
  EXPECT_TRUE(contains(msg, "nominal: codes")) << msg;
  // header: auto: the first row is names, confirmed by the numbers of column x below its text name.
  CsvOptions by_index;
  by_index.columns = {"0", "1"};
  msg = input_error([&] { load_csv(p, by_index); });
  EXPECT_TRUE(contains(msg, "record 2 (0-based), column 'y': the value is not a number")) << msg;
  // A number above the numbers (a record, perhaps) confirms nothing: the names are not shown.
  auto q = write_file(temp_dir("csv") / "unconfirmed.csv", "7,y\n1,2\n3,4\n5,abc\n");
  msg = input_error([&] { load_csv(q, by_index); });
  EXPECT_TRUE(contains(msg,
                       "record 2 (0-based), column #1 (0-based; header: auto, names not shown; `header: true` shows "
                       "them): the value is not a number"))
      << msg;
}

TEST(CsvErrors, WrongColumnCount) {
  auto p = write_file(temp_dir("csv") / "count.csv", "x,y\n1,2\n3\n");
  std::string msg = input_error([&] { load_csv(p); });
  EXPECT_TRUE(contains(msg, "count.csv:3")) << msg;
  EXPECT_TRUE(contains(msg, "expected 2 fields")) << msg;
  EXPECT_TRUE(contains(msg, "found 1")) << msg;

  auto q = write_file(temp_dir("csv2") / "more.csv", "1,2\n3,4,5\n");
  msg = input_error([&] { load_csv(q); });
  EXPECT_TRUE(contains(msg, "more.csv:2")) << msg;
  EXPECT_TRUE(contains(msg, "found 3")) << msg;
}

TEST(CsvErrors, NanAndInfRejected) {
  auto dir = temp_dir("csv");
  for (const char* bad : {"nan", "NaN", "inf", "-Infinity"}) {
    auto p = write_file(dir / "nan.csv", std::string("x,y\n1,2\n\n") + bad + ",3\n");
    std::string msg = input_error([&] { load_csv(p); });
    EXPECT_TRUE(contains(msg, "nan.csv:4")) << msg;
    EXPECT_TRUE(contains(msg, "NaN/inf not allowed; remove or impute the row")) << msg;
  }
}

TEST(CsvErrors, EmptyValue) {
  auto p = write_file(temp_dir("csv") / "gap.csv", "x,y\n1,\n3,4\n");
  std::string msg = input_error([&] { load_csv(p); });
  EXPECT_TRUE(contains(msg, "gap.csv:2")) << msg;
  EXPECT_TRUE(contains(msg, "1 of 2 rows have a missing value")) << msg;
}

TEST(CsvErrors, UnknownColumnSuggestsClosestAndListsAvailable) {
  // With header: true (names confirmed); header: auto gives the count only (real_files_test.cpp).
  auto p = write_file(temp_dir("csv") / "names.csv", "longitude,latitude,label\n1,2,0\n");
  CsvOptions o;
  o.header = true;
  o.columns = {"longitude", "lattitude"};
  std::string msg = input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(contains(msg, "names.csv:1")) << msg;
  EXPECT_TRUE(contains(msg, "unknown column 'lattitude'")) << msg;
  EXPECT_TRUE(contains(msg, "did you mean 'latitude'")) << msg;
  EXPECT_TRUE(contains(msg, "longitude, latitude, label")) << msg;

  CsvOptions lab;
  lab.header = true;
  lab.label = "lable";
  msg = input_error([&] { load_csv(p, lab); });
  EXPECT_TRUE(contains(msg, "did you mean 'label'")) << msg;
}

TEST(CsvErrors, IndexOutOfRangeAndNamesWithoutHeader) {
  auto p = write_file(temp_dir("csv") / "n.csv", "1,2\n3,4\n");
  CsvOptions o;
  o.columns = {"5"};
  std::string msg = input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(contains(msg, "n.csv:1")) << msg;
  EXPECT_TRUE(contains(msg, "out of range")) << msg;
  CsvOptions named;
  named.columns = {"x"};
  msg = input_error([&] { load_csv(p, named); });
  EXPECT_TRUE(contains(msg, "no header")) << msg;
}

TEST(CsvErrors, EmptyFileAndHeaderOnly) {
  auto dir = temp_dir("csv");
  std::string msg = input_error([&] { load_csv(write_file(dir / "empty.csv", "")); });
  EXPECT_TRUE(contains(msg, "empty.csv")) << msg;
  EXPECT_TRUE(contains(msg, "empty")) << msg;
  msg = input_error([&] { load_csv(write_file(dir / "blank.csv", "\n\n")); });
  EXPECT_TRUE(contains(msg, "blank.csv")) << msg;
  msg = input_error([&] { load_csv(write_file(dir / "hdr.csv", "x,y\n")); });
  EXPECT_TRUE(contains(msg, "hdr.csv:1")) << msg;
  EXPECT_TRUE(contains(msg, "no data rows")) << msg;
}

TEST(CsvErrors, GzipErrorLineNumbersCountDecompressedLines) {
  auto p = write_gzip(temp_dir("csv") / "z.csv.gz", "a,b\n1,2\n3,4\n5,x\n");
  CsvOptions o;
  o.columns = {"a", "b"};
  std::string msg = input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(contains(msg, "z.csv.gz:4")) << msg;
}

TEST(CsvErrors, EmptyLabel) {
  auto p = write_file(temp_dir("csv") / "l.csv", "x,c\n1,0\n2,\n");
  CsvOptions o;
  o.label = "c";
  std::string msg = input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(contains(msg, "l.csv:3")) << msg;
}

}  // namespace
}  // namespace dpclust
