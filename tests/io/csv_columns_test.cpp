// The CSV loader's column typing and roles (io/csv_scan.hpp, io/csv_columns.hpp) on small hand-made files:
// what the first pass reads, when header: auto suggests header_rows, which text columns are categories,
// the label by name when it is ambiguous, and the one-pass read of listed numeric columns giving the same
// dataset as the full first pass.
#include <gtest/gtest.h>

#include <string>

#include "io/csv.hpp"
#include "io/io_test_util.hpp"
#include "test_support.hpp"

namespace dpclust::csv_columns_test {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Loads with stderr captured.
std::pair<Dataset, std::string> load_quietly(const std::filesystem::path& p, const CsvOptions& o) {
  ::testing::internal::CaptureStderr();
  Dataset ds;
  try {
    ds = load_csv(p, o);
  } catch (...) {
    ::testing::internal::GetCapturedStderr();
    throw;
  }
  return {std::move(ds), ::testing::internal::GetCapturedStderr()};
}

TEST(CsvColumns, ListedNumericColumnsReadInOnePassGiveTheSameDatasetAsTheFullPass) {
  // A blank row, a missing value, a header row: every count must come out the same either way.
  const auto p = write_file(temp_dir("csvcols") / "xy.csv", "x,y\n1.5,2\n,,\n3.5,NA\n4.5,5\n");
  CsvOptions listed;
  listed.columns = {"x", "y"};  // one pass: every listed value is a number
  listed.missing = MissingPolicy::drop;
  CsvOptions all;  // no columns: the full first pass types both
  all.missing = MissingPolicy::drop;
  const Dataset a = load_csv(p, listed), b = load_csv(p, all);
  EXPECT_EQ(a.coords, (std::vector<double>{1.5, 2, 4.5, 5}));
  EXPECT_EQ(a.coords, b.coords);
  EXPECT_EQ(a.column_names, b.column_names);
  EXPECT_EQ(a.provenance, b.provenance);
  EXPECT_EQ(a.provenance["blank_rows"], 1);
  EXPECT_EQ(a.provenance["missing"]["rows_dropped"], 1);
  EXPECT_EQ(a.provenance["header_confirmed_by_data"], true);
  // A listed column that is not all numbers falls back to the full pass, which names its type.
  const auto q = write_file(temp_dir("csvcols") / "flags.csv", "x,ok\n1,True\n2,False\n");
  CsvOptions flags;
  flags.columns = {"x", "ok"};
  EXPECT_EQ(load_csv(q, flags).coords, (std::vector<double>{1, 1, 2, 0}));
}

TEST(CsvColumns, TheFirstPassReadsTheRowsThatWillBeLoaded) {
  const auto dir = temp_dir("csvcols");
  const auto p = write_file(dir / "late.csv", "x,y\n1,2\n3,4\n5,abc\n");
  CsvOptions two;
  two.max_rows = 2;  // missing: refuse reads exactly these rows: y is numeric in them
  EXPECT_EQ(load_csv(p, two).column_names, (std::vector<std::string>{"x", "y"}));
  two.missing = MissingPolicy::drop;  // a dropped row may be replaced by a later one: the whole file is typed
  EXPECT_EQ(load_quietly(p, two).first.column_names, (std::vector<std::string>{"x"}));
}

TEST(CsvColumns, OneStrayWordUnderTheHeaderIsATextValueNotAHeaderRow) {
  std::string text = "a,b,c,d\n1,2,3,4\nunknown,5,6,7\n";
  for (int i = 0; i < 10; ++i) text += std::to_string(i) + ",1,2,3\n";
  const auto [ds, err] = load_quietly(write_file(temp_dir("csvcols") / "stray.csv", text), CsvOptions{});
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"b", "c", "d"}));
  EXPECT_TRUE(has(err, "text mixing numbers and words: a (1 of 12 values is not a number")) << err;
  EXPECT_FALSE(has(err, "header_rows")) << err;
  EXPECT_FALSE(has(err, "unknown")) << err;
}

TEST(CsvColumns, HeaderFalseOnAFileWithNamesSaysHeaderTrue) {
  CsvOptions o;
  o.header = false;
  const std::string msg =
      input_error([&] { load_quietly(write_file(temp_dir("csvcols") / "n.csv", "u,v\n1,2\n3,4\n"), o); });
  EXPECT_TRUE(has(msg, "no coordinates")) << msg;
  EXPECT_TRUE(has(msg, "the first row looks like column names above numbers")) << msg;
  EXPECT_TRUE(has(msg, "set `header: true`")) << msg;
}

TEST(CsvColumns, TextNamingRecordsIsNoCategoryUnderCodes) {
  std::string text = "name,kind,v\n";
  for (int i = 0; i < 60; ++i)
    text += "car" + std::to_string(i) + "," + (i % 2 ? "suv" : "van") + "," + std::to_string(i) + ".5\n";
  CsvOptions o;
  o.nominal = NominalEncoding::codes;
  const auto [ds, err] = load_quietly(write_file(temp_dir("csvcols") / "cars.csv", text), o);
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"kind", "v"}));
  EXPECT_TRUE(has(err, "name (60 distinct values in 60 rows: a name or free text, not a category)")) << err;
  EXPECT_EQ(ds.provenance["skipped_attributes"][0]["reason"],
            "60 distinct values in 60 rows: a name or free text, not a category");
  EXPECT_EQ(ds.provenance["nominal_values"]["kind"], (nlohmann::json{"suv", "van"}));
  EXPECT_EQ(ds.coords[0], 1.0);  // van
}

TEST(CsvColumns, TwoColumnsNamedLikeALabelGiveNoneAndSaySo) {
  const auto p = write_file(temp_dir("csvcols") / "two.csv", "class,x,target\na,1,0\nb,2,1\n");
  const auto [ds, err] = load_quietly(p, CsvOptions{});
  EXPECT_FALSE(ds.has_labels());
  EXPECT_TRUE(has(err, "no label: 2 columns are named like one (class, target)")) << err;
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"x", "target"}));
  // A column named like a label whose numbers have fractions is a reading, not a class.
  const auto q = write_file(temp_dir("csvcols") / "reg.csv", "x,target\n1,0.5\n2,1.25\n");
  EXPECT_FALSE(load_quietly(q, CsvOptions{}).first.has_labels());
}

TEST(CsvColumns, DatesAndTimestampsMixedWithTextAreText) {
  const auto p =
      write_file(temp_dir("csvcols") / "when.csv", "when,v\n2019-03-23,1\nyesterday,2\n2019-03-24 10:00:00,3\n");
  const auto [ds, err] = load_quietly(p, CsvOptions{});
  EXPECT_EQ(ds.provenance["skipped_attributes"][0]["type"], "text");
  const auto q = write_file(temp_dir("csvcols") / "mixed_dates.csv", "when,v\n2019-03-23,1\n2019-03-24 10:00:00,2\n");
  EXPECT_EQ(load_quietly(q, CsvOptions{}).first.provenance["skipped_attributes"][0]["type"], "timestamp");
}

}  // namespace
}  // namespace dpclust::csv_columns_test
