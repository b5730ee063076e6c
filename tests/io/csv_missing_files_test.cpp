// Rows with a missing coordinate (the NYC crash export's empty LATITUDE /
// LONGITUDE), dropped and counted on request; several files of one layout (HAR70+'s per-participant
// CSVs) read as one dataset with every file's checksum.
#include <gtest/gtest.h>

#include "io/csv.hpp"
#include "io/io_test_util.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The crash export's shape: text columns around the coordinates, some coordinates empty.
const char* kCrash =
    "CRASH DATE,BOROUGH,LATITUDE,LONGITUDE,ON STREET\n"
    "09/11/2021,,40.667202,-73.8665,WHITESTONE EXPRESSWAY\n"  // line 2
    "03/26/2022,BROOKLYN,,,WEST 93 STREET\n"                  // line 3: both empty
    "06/29/2022,,40.86816,,BROOKLYN QUEENS EXPRESSWAY\n"      // line 4: longitude empty
    "09/11/2021,BRONX,40.83,-73.91,\n"                        // line 5 (an empty text column is fine)
    "12/14/2021,QUEENS, ,-73.95,3 AVENUE\n";                  // line 6: blank latitude

TEST(CsvMissing, DefaultIsAnErrorAtTheLineNamingTheOption) {
  auto p = write_file(temp_dir("miss") / "crash.csv", kCrash);
  CsvOptions o;
  o.columns = {"LONGITUDE", "LATITUDE"};
  const std::string msg = input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(contains(msg, "crash.csv:3")) << msg;
  EXPECT_TRUE(contains(msg, "3 of 5 rows have a missing value")) << msg;
  EXPECT_TRUE(contains(msg, "(rows per column: LONGITUDE: 2, LATITUDE: 2)")) << msg;
  EXPECT_TRUE(contains(msg, "missing: drop")) << msg;
}

TEST(CsvMissing, DropSkipsRowsWithAnEmptyCoordinateAndCountsThem) {
  auto p = write_file(temp_dir("miss") / "crash.csv", kCrash);
  CsvOptions o;
  o.columns = {"LONGITUDE", "LATITUDE"};
  o.missing = MissingPolicy::drop;
  Dataset ds = load_csv(p, o);
  ASSERT_EQ(ds.n, 2u);
  EXPECT_EQ(ds.coords, (std::vector<double>{-73.8665, 40.667202, -73.91, 40.83}));
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"LONGITUDE", "LATITUDE"}));
  EXPECT_EQ(ds.provenance["missing"]["policy"], "drop");
  EXPECT_EQ(ds.provenance["missing"]["rows_dropped"], 3);
  EXPECT_EQ(ds.provenance["rows"], 2);
}

TEST(CsvMissing, DropKeepsRejectingTextNanAndInf) {
  CsvOptions o;
  o.missing = MissingPolicy::drop;
  o.columns = {"x", "y"};  // listed: a value that is not a number is an error, not a missing value
  auto dir = temp_dir("miss");
  EXPECT_TRUE(contains(input_error([&] { load_csv(write_file(dir / "a.csv", "x,y\n1,2\n3,abc\n"), o); }), "a.csv:3"));
  EXPECT_TRUE(contains(input_error([&] { load_csv(write_file(dir / "b.csv", "x,y\n1,nan\n"), o); }), "NaN/inf"));
}

TEST(CsvMissing, MaxRowsCountsKeptRows) {
  auto p = write_file(temp_dir("miss") / "crash.csv", kCrash);
  CsvOptions o;
  o.columns = {"LONGITUDE", "LATITUDE"};
  o.missing = MissingPolicy::drop;
  o.max_rows = 2;
  Dataset ds = load_csv(p, o);
  EXPECT_EQ(ds.n, 2u);
  EXPECT_EQ(ds.coords.back(), 40.83);
}

TEST(CsvMissing, AllRowsMissingIsAnError) {
  auto p = write_file(temp_dir("miss") / "e.csv", "x,y\n,1\n2,\n");
  CsvOptions o;
  o.missing = MissingPolicy::drop;
  const std::string msg = input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(contains(msg, "2 rows dropped")) << msg;
}

TEST(CsvFiles, ConcatenatedInOrderWithEveryChecksumAndSharedLabelCodes) {
  auto dir = temp_dir("files");
  auto a = write_file(dir / "501.csv", "x,y,label\n1,2,a\n3,4,b\n");  // crc32 3bc5ae5b, 22 bytes
  auto b = write_file(dir / "502.csv", "x,y,label\n5,6,b\n7,8,c\n");  // crc32 77fbfe52, 22 bytes
  CsvOptions o;
  o.label = "label";
  o.name = "har";
  Dataset ds = load_csv_files({a, b}, o);
  ASSERT_EQ(ds.n, 4u);
  EXPECT_EQ(ds.coords, (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8}));
  // Text labels numbered over all files in order of first appearance: "b" is 1 in both files.
  EXPECT_EQ(ds.labels, (Labels{0, 1, 1, 2}));
  ASSERT_EQ(ds.provenance["files"].size(), 2u);
  EXPECT_EQ(ds.provenance["files"][0]["crc32"], "3bc5ae5b");
  EXPECT_EQ(ds.provenance["files"][1]["crc32"], "77fbfe52");
  EXPECT_EQ(ds.provenance["files"][1]["bytes"], 22);
  EXPECT_EQ(ds.provenance["rows_per_file"], (nlohmann::json{2, 2}));
  EXPECT_EQ(ds.provenance["rows"], 4);
}

TEST(CsvFiles, MaxRowsSpansFilesAndLaterFilesAreNotRead) {
  auto dir = temp_dir("files");
  auto a = write_file(dir / "a.csv", "x,y\n1,2\n3,4\n");
  auto b = write_file(dir / "b.csv", "x,y\n5,6\n7,8\n");
  auto c = write_file(dir / "c.csv", "x,y\n9,10\n");
  CsvOptions o;
  o.max_rows = 3;
  Dataset ds = load_csv_files({a, b, c}, o);
  EXPECT_EQ(ds.coords, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(ds.provenance["files"].size(), 2u);
}

TEST(CsvFiles, AnotherLayoutIsAnErrorNamingTheFile) {
  auto dir = temp_dir("files");
  auto a = write_file(dir / "a.csv", "x,y\n1,2\n");
  auto b = write_file(dir / "b.csv", "x,z\n5,6\n");
  const std::string msg = input_error([&] { load_csv_files({a, b}); });
  EXPECT_TRUE(contains(msg, "b.csv:1")) << msg;
  EXPECT_TRUE(contains(msg, "differ from the first file")) << msg;
  EXPECT_TRUE(contains(input_error([&] { load_csv_files({}); }), "no files"));
}

TEST(CsvFiles, MissingRowsCountedOverAllFiles) {
  auto dir = temp_dir("files");
  auto a = write_file(dir / "a.csv", "x,y\n1,2\n,4\n");
  auto b = write_file(dir / "b.csv", "x,y\n5,\n7,8\n");
  CsvOptions o;
  o.missing = MissingPolicy::drop;
  Dataset ds = load_csv_files({a, b}, o);
  EXPECT_EQ(ds.coords, (std::vector<double>{1, 2, 7, 8}));
  EXPECT_EQ(ds.provenance["missing"]["rows_dropped"], 2);
  EXPECT_EQ(ds.provenance["rows_per_file"], (nlohmann::json{1, 1}));
}

}  // namespace
}  // namespace dpclust
