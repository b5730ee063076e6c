// Real files as researchers have them: ARFF string/date attributes
// skipped with a note, ARFF rows separated by blanks as Weka reads them, CSV `header: auto` that never
// takes a row of numbers for names, and messages about a header-less file or a missing @data line that
// carry no value of a record. Each file below writes distinctive values and asserts they are absent.
#include <gtest/gtest.h>

#include <string>

#include "io/arff.hpp"
#include "io/csv.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;

bool has_text(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The shape of UCI yeast as the clustering benchmark ships it: a string attribute naming the protein.
const char* kYeastLike =
    "@relation yeast\n"                 // 1
    "@attribute SequenceName string\n"  // 2
    "@attribute mcg numeric\n"          // 3
    "@attribute gvh numeric\n"          // 4
    "@attribute class {MIT,NUC,CYT}\n"  // 5
    "@data\n"                           // 6
    "ADT1_YEAST,0.58,0.61,MIT\n"        // 7
    "'ADT 2 YEAST',0.43,0.67,NUC\n"     // 8: a quoted value with blanks
    "ADT3_YEAST,0.64,0.62,CYT\n";       // 9

TEST(ArffText, StringAttributeSkippedWithANoteNamingItNeverAValue) {
  const auto p = write_file(temp_dir("realfiles") / "yeast.arff", kYeastLike);
  ::testing::internal::CaptureStderr();
  const Dataset ds = load_arff(p);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(ds.n, 3u);
  EXPECT_EQ(ds.d, 2u);
  EXPECT_EQ(ds.coords, (std::vector<double>{0.58, 0.61, 0.43, 0.67, 0.64, 0.62}));
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"mcg", "gvh"}));
  EXPECT_EQ(ds.labels, (Labels{0, 1, 2}));  // the nominal class, not the string attribute
  EXPECT_EQ(ds.provenance["label"], "class");
  ASSERT_TRUE(ds.provenance.contains("skipped_attributes"));
  EXPECT_EQ(ds.provenance["skipped_attributes"],
            nlohmann::json::parse(R"([{"name": "SequenceName", "type": "string"}])"));
  EXPECT_TRUE(has_text(err, "yeast.arff:2")) << err;
  EXPECT_TRUE(has_text(err, "attribute 'SequenceName' has type string: skipped")) << err;
  EXPECT_FALSE(has_text(err, "ADT")) << err;
}

TEST(ArffText, DateAttributeWithQuotedValuesSkipped) {
  const auto p =
      write_file(temp_dir("realfiles") / "d.arff",
                 "@relation d\n@attribute when date \"yyyy-MM-dd HH:mm:ss\"\n@attribute x real\n@attribute y real\n"
                 "@data\n\"2021-03-04 10:11:12\",1.5,2.5\n'2021-03-05 00:00:00',3.5,4.5\n");
  ::testing::internal::CaptureStderr();
  const Dataset ds = load_arff(p);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(ds.d, 2u);
  EXPECT_EQ(ds.coords, (std::vector<double>{1.5, 2.5, 3.5, 4.5}));
  EXPECT_EQ(ds.provenance["skipped_attributes"][0]["type"], "date");
  EXPECT_TRUE(has_text(err, "attribute 'when' has type date")) << err;
  EXPECT_FALSE(has_text(err, "2021")) << err;
}

TEST(ArffText, StringLabelIsCodedLikeATextLabel) {
  const auto p = write_file(temp_dir("realfiles") / "yeast.arff", kYeastLike);
  ArffOptions o;
  o.label = "SequenceName";  // a string label is allowed (codes in order of first appearance)
  ::testing::internal::CaptureStderr();
  const Dataset ds = load_arff(p, o);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(ds.labels, (Labels{0, 1, 2}));
  EXPECT_EQ(ds.provenance["label"], "SequenceName");
  EXPECT_EQ(ds.provenance["label_map"]["ADT 2 YEAST"], 1);
  // The nominal class, neither the label (SequenceName is) nor a coordinate, is left out and said.
  ASSERT_EQ(ds.provenance["skipped_attributes"].size(), 1u);
  EXPECT_EQ(ds.provenance["skipped_attributes"][0]["type"], "nominal");
  EXPECT_TRUE(has_text(err, "1 of 4 attributes are nominal and left out")) << err;
}

TEST(ArffText, WhitespaceSeparatedRowsEqualTheCommaVersion) {
  const std::string header = "@relation w\n@attribute x real\n@attribute y real\n@attribute c {a,'b c',noise}\n@data\n";
  const auto dir = temp_dir("realfiles");
  const Dataset commas = load_arff(write_file(dir / "commas.arff", header + "1.0,2.0,a\n-3.5,4e1,'b c'\n5,6,noise\n"));
  const Dataset blanks =
      load_arff(write_file(dir / "blanks.arff", header + "1.0 2.0 a\n-3.5\t4e1   'b c'\n  5 6 noise  \n"));
  const Dataset mixed =
      load_arff(write_file(dir / "mixed.arff", header + "1.0, 2.0 a\n-3.5 ,4e1,'b c'\n5 ,\t6 , noise\n"));
  EXPECT_EQ(commas.coords, (std::vector<double>{1.0, 2.0, -3.5, 40, 5, 6}));
  EXPECT_EQ(commas.labels, (Labels{0, 1, -1}));
  EXPECT_EQ(blanks.coords, commas.coords);
  EXPECT_EQ(blanks.labels, commas.labels);
  EXPECT_EQ(mixed.coords, commas.coords);
  EXPECT_EQ(mixed.labels, commas.labels);
  // Two commas still mean an empty value for its attribute (not a shifted row): a missing value of y.
  const std::string msg = input_error([&] { load_arff(write_file(dir / "gap.arff", header + "1,,a\n")); });
  EXPECT_TRUE(has_text(msg, "gap.arff:6")) << msg;
  EXPECT_TRUE(has_text(msg, "(rows per column: y: 1)")) << msg;
}

TEST(ArffText, MissingDataLineShowsNoRowValue) {
  const auto p = write_file(temp_dir("realfiles") / "nodata.arff",
                            "@relation r\n@attribute x real\n@attribute y real\n123456.789,98765.4321\n");
  const std::string msg = input_error([&] { load_arff(p); });
  EXPECT_TRUE(has_text(msg, "nodata.arff:4")) << msg;
  EXPECT_TRUE(has_text(msg, "@data")) << msg;
  EXPECT_FALSE(has_text(msg, "123456")) << msg;
  EXPECT_FALSE(has_text(msg, "98765")) << msg;
}

TEST(CsvHeaderAuto, FirstRowOfNumbersIsData) {
  const auto dir = temp_dir("realfiles");
  const Dataset ds = load_csv(write_file(dir / "n.csv", "1.5,2.5,0\n3.5,4.5,1\n5.5,6.5,1\n"));
  EXPECT_EQ(ds.n, 3u);  // the first record counted as data
  EXPECT_EQ(ds.provenance["header"], false);
  EXPECT_EQ(ds.coords.front(), 1.5);
  // A missing value in the first record is no sign of a header either: the record is data (and here
  // dropped as missing), not the names of the columns.
  CsvOptions drop;
  drop.missing = MissingPolicy::drop;
  const Dataset gap = load_csv(write_file(dir / "gap.csv", "1.5,,7\n3.5,4.5,8\n5.5,6.5,9\n"), drop);
  EXPECT_EQ(gap.provenance["header"], false);
  EXPECT_EQ(gap.provenance["missing"]["rows_dropped"], 1);
  EXPECT_EQ(gap.coords, (std::vector<double>{3.5, 4.5, 8, 5.5, 6.5, 9}));
  EXPECT_EQ(gap.column_names, (std::vector<std::string>{"col0", "col1", "col2"}));
}

TEST(CsvHeaderAuto, MixedFirstRowIsAHeaderOnlyWhenTheSecondRowShowsIt) {
  const auto dir = temp_dir("realfiles");
  // "x" is text above a number: a header (even with a name that is a number).
  const Dataset named = load_csv(write_file(dir / "h.csv", "x,2019\n1,2\n3,4\n"));
  EXPECT_EQ(named.provenance["header"], true);
  EXPECT_EQ(named.column_names, (std::vector<std::string>{"x", "2019"}));
  EXPECT_EQ(named.n, 2u);
  // A text column in every row (a name, a class) is data: the first record is not a header.
  CsvOptions o;
  o.columns = {"1", "2"};
  o.label = "3";
  const Dataset data = load_csv(write_file(dir / "y.csv", "ADT1_YEAST,0.58,0.61,MIT\nADT2_YEAST,0.43,0.67,NUC\n"), o);
  EXPECT_EQ(data.provenance["header"], false);
  EXPECT_EQ(data.n, 2u);
  EXPECT_EQ(data.coords, (std::vector<double>{0.58, 0.61, 0.43, 0.67}));
  // Read as a header, that first record would name the columns, and a message about the text column
  // would print a record's value as the column's name.
  CsvOptions lab;
  lab.label = "3";
  ::testing::internal::CaptureStderr();
  const Dataset text_left_out =
      load_csv(write_file(dir / "y2.csv", "ADT1_YEAST,0.58,0.61,MIT\nADT2_YEAST,0.43,0.67,NUC\n"), lab);
  const std::string warning = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(text_left_out.provenance["header"], false);
  EXPECT_EQ(text_left_out.coords, (std::vector<double>{0.58, 0.61, 0.43, 0.67}));
  EXPECT_EQ(text_left_out.provenance["skipped_attributes"][0]["name"], "col0");
  EXPECT_EQ(text_left_out.provenance["skipped_attributes"][0]["type"], "text");
  EXPECT_TRUE(has_text(warning, "text: col0")) << warning;
  EXPECT_FALSE(has_text(warning, "ADT")) << warning;
}

TEST(CsvHeaderAuto, NamesInAHeaderlessFileAreRefusedWithoutShowingTheFirstRecord) {
  const auto dir = temp_dir("realfiles");
  const auto p =
      write_file(dir / "yeast.csv", "ADT1_YEAST,0.58,0.61,MIT\nADT2_YEAST,0.43,0.67,NUC\nADT3_YEAST,0.64,0.62,CYT\n");
  CsvOptions o;
  o.columns = {"mcg", "gvh"};
  o.label = "class";
  const std::string msg = input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(has_text(msg, "yeast.csv:1")) << msg;
  EXPECT_TRUE(has_text(msg, "no header row")) << msg;
  EXPECT_TRUE(has_text(msg, "0-based index")) << msg;
  EXPECT_TRUE(has_text(msg, "header: true")) << msg;
  for (const char* v : {"ADT1", "0.58", "0.61", "MIT"}) EXPECT_FALSE(has_text(msg, v)) << v << ": " << msg;
  // The same with a first row of numbers only.
  const auto q = write_file(dir / "num.csv", "123456.789,98765.4321\n1,2\n");
  CsvOptions named;
  named.columns = {"x"};
  const std::string msg2 = input_error([&] { load_csv(q, named); });
  EXPECT_TRUE(has_text(msg2, "no header row")) << msg2;
  EXPECT_TRUE(has_text(msg2, "header: true")) << msg2;
  EXPECT_FALSE(has_text(msg2, "123456")) << msg2;
  EXPECT_FALSE(has_text(msg2, "98765")) << msg2;
}

}  // namespace
}  // namespace dpclust
