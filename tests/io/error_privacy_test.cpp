// A loader's error message names a record by file:line, its 0-based index and the
// column, and says what is wrong in general terms; it never carries the record's values -- neither a
// number nor the raw text of a field that does not parse (that text is the record's content too).
// Each case writes a distinctive value (123456.789, 98765, "secret...") and asserts it is absent.
#include <gtest/gtest.h>

#include <string>

#include "io/arff.hpp"
#include "io/csv.hpp"
#include "io/fimi.hpp"
#include "io/gowalla.hpp"
#include "io/io_test_util.hpp"
#include "io/label_file.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

void expect_no_value(const std::string& msg, std::initializer_list<const char*> values) {
  for (const char* v : values) EXPECT_FALSE(contains(msg, v)) << "message carries '" << v << "': " << msg;
}

TEST(ErrorPrivacy, CsvNotANumber) {
  const auto p = write_file(temp_dir("privacy") / "a.csv", "x,y\n1,2\n3,123456.789secret\n");
  CsvOptions named;
  named.header = true;
  named.columns = {"x", "y"};
  const std::string msg = input_error([&] { load_csv(p, named); });
  EXPECT_TRUE(contains(msg, "a.csv:3")) << msg;
  EXPECT_TRUE(contains(msg, "record 1 (0-based), column 'y': the value is not a number")) << msg;
  expect_no_value(msg, {"123456", "secret"});
  // Not listed, the column mixing numbers and text is left out: the warning counts, never shows.
  ::testing::internal::CaptureStderr();
  const Dataset ds = load_csv(p, CsvOptions{});
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"x"}));
  EXPECT_TRUE(contains(warning, "1 of 2 values is not a number, the first at")) << warning;
  expect_no_value(warning, {"123456", "secret"});
}

TEST(ErrorPrivacy, CsvNotFinite) {
  const auto p = write_file(temp_dir("privacy") / "b.csv", "x,y\n1,2\n123456.789,inf\n");
  CsvOptions named;
  named.header = true;
  const std::string msg = input_error([&] { load_csv(p, named); });
  EXPECT_TRUE(contains(msg, "b.csv:3")) << msg;
  EXPECT_TRUE(contains(msg, "record 1 (0-based), column 'y': the value is NaN or infinite")) << msg;
  expect_no_value(msg, {"123456", "'inf'"});
}

TEST(ErrorPrivacy, CsvEmptyLabelNamesRecord) {
  const auto p = write_file(temp_dir("privacy") / "c.csv", "x,y,label\n123456.789,2,a\n3,4,\n");
  CsvOptions o;
  o.label = "label";
  const std::string msg = input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(contains(msg, "c.csv:3")) << msg;
  EXPECT_TRUE(contains(msg, "1 of 2 rows have a missing value")) << msg;
  EXPECT_TRUE(contains(msg, "(rows per column: label: 1)")) << msg;
  expect_no_value(msg, {"123456"});
}

const char* kArffHeader =
    "@relation r\n"
    "@attribute x numeric\n"
    "@attribute y numeric\n"
    "@attribute class {a,b}\n"
    "@data\n";  // line 5

TEST(ErrorPrivacy, ArffNotANumber) {
  const auto p = write_file(temp_dir("privacy") / "a.arff", std::string(kArffHeader) + "1,2,a\n123456.789x,2,a\n");
  const std::string msg = input_error([&] { load_arff(p); });
  EXPECT_TRUE(contains(msg, "a.arff:7")) << msg;
  EXPECT_TRUE(contains(msg, "record 1 (0-based), attribute 'x': the value is not a number")) << msg;
  expect_no_value(msg, {"123456"});
}

TEST(ErrorPrivacy, ArffNotFinite) {
  const auto p = write_file(temp_dir("privacy") / "b.arff", std::string(kArffHeader) + "123456.789,nan,a\n");
  const std::string msg = input_error([&] { load_arff(p); });
  EXPECT_TRUE(contains(msg, "b.arff:6")) << msg;
  EXPECT_TRUE(contains(msg, "record 0 (0-based), attribute 'y': the value is NaN or infinite")) << msg;
  expect_no_value(msg, {"123456", "'nan'"});
}

TEST(ErrorPrivacy, ArffUndeclaredLabelIsCodedAndNotPrinted) {
  // A label value the header does not declare (cure-t2-4k's classes 3..6) gets a label of its
  // own; the warning names the attribute and the count, never the value.
  const auto p =
      write_file(temp_dir("privacy") / "c.arff", std::string(kArffHeader) + "1,2,a\n3,4,secretclass\n5,6,b\n");
  ::testing::internal::CaptureStderr();
  const Dataset d = load_arff(p);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(d.n, 3u);
  EXPECT_EQ(d.labels[0], 0);
  EXPECT_EQ(d.labels[2], 1);
  EXPECT_EQ(d.labels[1], 2);  // after the declared a, b
  EXPECT_EQ(d.provenance["undeclared_label_values"], 1);
  EXPECT_TRUE(contains(err, "label attribute 'class': 1 value(s) not declared")) << err;
  expect_no_value(err, {"secretclass"});
}

TEST(ErrorPrivacy, FimiBadItem) {
  const auto p = write_file(temp_dir("privacy") / "a.dat", "1 2 3\n4 123456.789 6\n");
  const std::string msg = input_error([&] { load_fimi(p); });
  EXPECT_TRUE(contains(msg, "a.dat:2")) << msg;
  EXPECT_TRUE(contains(msg, "record 1 (0-based), item 2: not a non-negative integer item id")) << msg;
  expect_no_value(msg, {"123456"});
}

TEST(ErrorPrivacy, GowallaNotANumberAndOutOfRange) {
  const auto dir = temp_dir("privacy");
  std::string msg =
      input_error([&] { load_gowalla(write_file(dir / "a.txt", "0\tt\t1\t2\t3\n0\tt\t12x3456\t2\t3\n")); });
  EXPECT_TRUE(contains(msg, "a.txt:2")) << msg;
  EXPECT_TRUE(contains(msg, "record 1 (0-based), latitude: the value is not a number")) << msg;
  expect_no_value(msg, {"12x3456"});
  msg = input_error([&] { load_gowalla(write_file(dir / "b.txt", "0\tt\t45\t123456.789\t3\n")); });
  EXPECT_TRUE(contains(msg, "b.txt:1")) << msg;
  EXPECT_TRUE(contains(msg, "record 0 (0-based), longitude: the value is outside [-180, 180] or not finite")) << msg;
  expect_no_value(msg, {"123456"});
}

TEST(ErrorPrivacy, LabelFileNotAnIntegerAndOutOfRange) {
  const auto dir = temp_dir("privacy");
  std::string msg = input_error([&] { read_label_file(write_file(dir / "a.txt", "0\n1\n123456.789\n")); });
  EXPECT_TRUE(contains(msg, "a.txt:3")) << msg;
  EXPECT_TRUE(contains(msg, "record 2 (0-based): expected one integer label")) << msg;
  expect_no_value(msg, {"123456"});
  msg = input_error([&] { read_label_file(write_file(dir / "b.txt", "0\n-123456789\n")); });
  EXPECT_TRUE(contains(msg, "b.txt:2")) << msg;
  EXPECT_TRUE(contains(msg, "record 1 (0-based): the label is out of range")) << msg;
  expect_no_value(msg, {"123456"});
}

}  // namespace
}  // namespace dpclust
