// `header: auto` names are data until confirmed: a first row of text taken for names may be a record
// (`NA,NA,SECRETJOHN`), so a message about an unknown column gives their count and the 0-based indices, not
// their text; with `header: true` the names are the user's and are listed (csv_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "io/csv.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

bool mentions(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(CsvHeaderAutoNames, UnknownColumnGivesTheCountOfGuessedNamesNotTheirText) {
  const auto dir = testing::temp_dir("header_auto_names");
  const auto p = testing::write_file(dir / "people.csv", "NA,NA,SECRETJOHN\n1.5,2.5,3.5\n4.5,5.5,6.5\n");
  CsvOptions o;
  o.columns = {"x", "y"};
  const std::string msg = testing::input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(mentions(msg, "people.csv:1")) << msg;
  EXPECT_TRUE(mentions(msg, "unknown column 'x'")) << msg;
  EXPECT_TRUE(mentions(msg, "of 3 fields")) << msg;
  EXPECT_TRUE(mentions(msg, "header: true")) << msg;
  EXPECT_TRUE(mentions(msg, "0..2")) << msg;
  EXPECT_FALSE(mentions(msg, "SECRETJOHN")) << msg;
  EXPECT_FALSE(mentions(msg, "NA")) << msg;
  EXPECT_FALSE(mentions(msg, "Available columns")) << msg;
  // The label column likewise, and a column selected twice by index is named by its index.
  CsvOptions lab;
  lab.label = "cls";
  const std::string msg2 = testing::input_error([&] { load_csv(p, lab); });
  EXPECT_TRUE(mentions(msg2, "unknown label column 'cls'")) << msg2;
  EXPECT_FALSE(mentions(msg2, "SECRETJOHN")) << msg2;
  CsvOptions twice;
  twice.columns = {"2", "2"};
  const std::string msg3 = testing::input_error([&] { load_csv(p, twice); });
  EXPECT_TRUE(
      mentions(msg3, "column #2 (0-based; header: auto, names not shown; `header: true` shows them) is selected twice"))
      << msg3;
  EXPECT_FALSE(mentions(msg3, "SECRETJOHN")) << msg3;
  // Confirmed by header: true, the names are the user's: listed.
  CsvOptions confirmed = o;
  confirmed.header = true;
  const std::string msg4 = testing::input_error([&] { load_csv(p, confirmed); });
  EXPECT_TRUE(mentions(msg4, "Available columns: NA, NA, SECRETJOHN")) << msg4;
}

TEST(CsvHeaderAutoNames, SecondFileOfAnotherLayoutIsToldWithoutTheFirstFilesGuessedNames) {
  const auto dir = testing::temp_dir("header_auto_names");
  const auto a = testing::write_file(dir / "a.csv", "SECRETJOHN,SECRETJANE\n1,2\n");
  const auto b = testing::write_file(dir / "b.csv", "u,v,w\n1,2,3\n");
  const std::string msg = testing::input_error([&] { load_csv_files({a, b}, CsvOptions{}); });
  EXPECT_TRUE(mentions(msg, "differ from the first file's (2 columns)")) << msg;
  EXPECT_FALSE(mentions(msg, "SECRET")) << msg;
}

TEST(CsvHeaderAutoNames, ABadValueNamesAGuessedColumnByItsIndexAndAConfirmedOneByName) {
  const auto dir = testing::temp_dir("header_auto_names");
  // "NA" above a column of numbers may be a record's missing value: the first row is not confirmed as names.
  const auto p = testing::write_file(dir / "people.csv", "NA,SECRETJANE,SECRETJOHN\n1.5,2.5,1\n4.5,oops,2\n");
  CsvOptions by_index;
  by_index.columns = {"0", "1"};
  const std::string msg = testing::input_error([&] { load_csv(p, by_index); });
  EXPECT_TRUE(mentions(msg, "column #1 (0-based; header: auto, names not shown; `header: true` shows them)")) << msg;
  EXPECT_FALSE(mentions(msg, "SECRET")) << msg;
  // Typed in the config, the name is the user's: shown.
  CsvOptions named;
  named.columns = {"0", "SECRETJANE"};
  const std::string msg2 = testing::input_error([&] { load_csv(p, named); });
  EXPECT_TRUE(mentions(msg2, "column 'SECRETJANE'")) << msg2;
  // Not listed, the column is left out: the warning names it by its index only.
  ::testing::internal::CaptureStderr();
  const Dataset left = load_csv(p, CsvOptions{});
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(left.d, 2u);
  EXPECT_TRUE(mentions(warning, "#1 (1 of 2 values is not a number")) << warning;
  EXPECT_TRUE(mentions(warning, "`header: true` shows them")) << warning;
  EXPECT_FALSE(mentions(warning, "SECRET")) << warning;
  // The provenance says which names were guessed and never confirmed (dpclust release withholds those).
  const auto q = testing::write_file(dir / "ok.csv", "SECRETJOHN,NA\n1.5,2.5\n4.5,5.5\n");
  CsvOptions one;
  one.columns = {"SECRETJOHN", "1"};
  const Dataset ds = load_csv(q, one);
  EXPECT_EQ(ds.provenance["header_guessed"], true);
  EXPECT_EQ(ds.provenance["columns"][0]["name_confirmed"], true);
  EXPECT_EQ(ds.provenance["columns"][1]["name_confirmed"], false);
}

TEST(CsvHeaderAutoNames, AFirstRowConfirmedByTheNumbersBelowItIsShown) {
  const auto dir = testing::temp_dir("header_auto_names");
  // Text above every numeric column: names, not a record, so messages show them.
  const auto p = testing::write_file(dir / "named.csv", "width,height,kind\n1.5,2.5,a\n4.5,oops,b\n");
  CsvOptions o;
  o.columns = {"0", "1"};
  const std::string msg = testing::input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(mentions(msg, "record 1 (0-based), column 'height': the value is not a number")) << msg;
  o.columns = {"0"};
  const Dataset ds = load_csv(p, o);
  EXPECT_EQ(ds.provenance["header_confirmed_by_data"], true);
  EXPECT_EQ(ds.provenance["columns"][0]["name_confirmed"], true);
}

}  // namespace
}  // namespace dpclust
