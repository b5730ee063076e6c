#include "io/arff.hpp"

#include <gtest/gtest.h>

#include "io/io_test_util.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const char* kCluto =
    "% a comment\n"                     // 1
    "@RELATION cluto\n"                 // 2
    "\n"                                // 3
    "@ATTRIBUTE x REAL\n"               // 4
    "@attribute 'y value' numeric\n"    // 5
    "@ATTRIBUTE CLASS {0,1,2,noise}\n"  // 6
    "@DATA\n"                           // 7
    "1.5,2,0\n"                         // 8
    "% inside data\n"                   // 9
    "3,4,noise\n"                       // 10
    "\n"                                // 11
    "5,6,2\n";                          // 12

TEST(Arff, NumericCoordinatesNoiseAndIntegerLabels) {
  auto p = write_file(temp_dir("arff") / "c.arff", kCluto);
  Dataset ds = load_arff(p);
  EXPECT_EQ(ds.name, "c");
  EXPECT_EQ(ds.n, 3u);
  EXPECT_EQ(ds.d, 2u);
  EXPECT_EQ(ds.coords, (std::vector<double>{1.5, 2, 3, 4, 5, 6}));
  EXPECT_EQ(ds.labels, (Labels{0, -1, 2}));
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"x", "y value"}));
  EXPECT_EQ(ds.provenance["format"], "arff");
  EXPECT_EQ(ds.provenance["relation"], "cluto");
  EXPECT_EQ(ds.provenance["label"], "CLASS");
  EXPECT_EQ(ds.provenance["files"].size(), 1u);
}

TEST(Arff, NonIntegerNominalValuesUseDeclarationOrder) {
  auto p = write_file(temp_dir("arff") / "w.arff",
                      "@relation w\n@attribute x-value numeric\n@attribute y-value numeric\n"
                      "@attribute label {C2,C4,'C 3',noise,C1}\n@data\n1,1,C1\n2,2,C2\n3,3,'C 3'\n4,4,noise\n5,5,C4\n");
  Dataset ds = load_arff(p);
  EXPECT_EQ(ds.labels, (Labels{3, 0, 2, -1, 1}));
  EXPECT_EQ(ds.provenance["label_map"]["C2"], 0);
}

TEST(Arff, SelectColumnsAndLabelByName) {
  auto p = write_file(temp_dir("arff") / "s.arff",
                      "@relation s\n@attribute a integer\n@attribute kind {u,v}\n@attribute b real\n"
                      "@attribute c real\n@attribute cls {7,9}\n@data\n1,u,2,3,9\n4,v,5,6,7\n");
  ArffOptions o;
  o.columns = {"c", "a"};
  o.label = "kind";
  Dataset ds = load_arff(p, o);
  EXPECT_EQ(ds.coords, (std::vector<double>{3, 1, 6, 4}));
  EXPECT_EQ(ds.labels, (Labels{0, 1}));
  Dataset dflt = load_arff(p);  // last nominal attribute, integer values
  EXPECT_EQ(dflt.d, 3u);
  EXPECT_EQ(dflt.labels, (Labels{9, 7}));
  ArffOptions none;
  none.use_label = false;
  none.max_rows = 1;
  Dataset unl = load_arff(p, none);
  EXPECT_FALSE(unl.has_labels());
  EXPECT_EQ(unl.n, 1u);
}

TEST(ArffErrors, SparseRow) {
  auto p = write_file(temp_dir("arff") / "sp.arff", "@relation r\n@attribute x real\n@data\n1\n{0 2}\n");
  std::string msg = input_error([&] { load_arff(p); });
  EXPECT_TRUE(contains(msg, "sp.arff:5")) << msg;
  EXPECT_TRUE(contains(msg, "sparse")) << msg;
  EXPECT_TRUE(contains(msg, "not supported")) << msg;
}

TEST(ArffErrors, WrongValueCount) {
  std::string text = kCluto;
  text += "7,8\n";  // line 13
  auto p = write_file(temp_dir("arff") / "cnt.arff", text);
  std::string msg = input_error([&] { load_arff(p); });
  EXPECT_TRUE(contains(msg, "cnt.arff:13")) << msg;
  EXPECT_TRUE(contains(msg, "expected 3 values")) << msg;
}

TEST(ArffErrors, BadNumberAndNan) {
  std::string text = kCluto;
  auto dir = temp_dir("arff");
  std::string msg = input_error([&] { load_arff(write_file(dir / "num.arff", text + "7,zz,1\n")); });
  EXPECT_TRUE(contains(msg, "num.arff:13")) << msg;
  EXPECT_TRUE(contains(msg, "record 3 (0-based), attribute 'y value': the value is not a number")) << msg;
  EXPECT_FALSE(contains(msg, "zz")) << msg;  // never the field's text
  msg = input_error([&] { load_arff(write_file(dir / "nan.arff", text + "NaN,1,1\n")); });
  EXPECT_TRUE(contains(msg, "nan.arff:13")) << msg;
  EXPECT_TRUE(contains(msg, "NaN/inf not allowed")) << msg;
}

TEST(ArffErrors, MissingValue) {
  auto dir = temp_dir("arff");
  std::string msg = input_error([&] { load_arff(write_file(dir / "miss.arff", std::string(kCluto) + "?,1,1\n")); });
  EXPECT_TRUE(contains(msg, "miss.arff:13")) << msg;
  EXPECT_TRUE(contains(msg, "1 of 4 rows have a missing value")) << msg;
  EXPECT_TRUE(contains(msg, "missing: drop")) << msg;
  msg = input_error([&] { load_arff(write_file(dir / "miss2.arff", std::string(kCluto) + "1,1,?\n")); });
  EXPECT_TRUE(contains(msg, "miss2.arff:13")) << msg;
  EXPECT_TRUE(contains(msg, "(rows per column: CLASS: 1)")) << msg;
}

TEST(ArffErrors, UndeclaredLabelValueGetsALabelOfItsOwn) {
  // The header declares {0, 1, 2, noise}; a row holding 3 keeps its own class (real files, such as
  // the clustering benchmark's cure-t2-4k, hold classes their header does not list).
  auto p = write_file(temp_dir("arff") / "lab.arff", std::string(kCluto) + "1,1,3\n2,2,3\n");
  const Dataset d = load_arff(p);
  ASSERT_EQ(d.n, 5u);
  EXPECT_EQ(d.labels[3], d.labels[4]);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NE(d.labels[i], d.labels[3]);
  EXPECT_EQ(d.provenance["undeclared_label_values"], 1);
  EXPECT_EQ(d.provenance["label_map"]["3"], d.labels[3]);
}

TEST(ArffErrors, StringOrDateAttributeAsCoordinate) {
  // Such attributes are skipped by default (arff_text_test.cpp); naming one as a coordinate is
  // an error at its declaration.
  auto dir = temp_dir("arff");
  ArffOptions o;
  o.columns = {"x", "name"};
  std::string msg = input_error([&] {
    load_arff(write_file(dir / "str.arff", "@relation r\n@attribute x real\n@attribute name string\n@data\n1,a\n"), o);
  });
  EXPECT_TRUE(contains(msg, "str.arff:3")) << msg;
  EXPECT_TRUE(contains(msg, "attribute 'name' has type string: a string or date attribute cannot be a coordinate"))
      << msg;
  o.columns = {"when"};
  msg = input_error([&] {
    load_arff(
        write_file(dir / "date.arff", "@relation r\n\n@attribute when DATE \"yyyy-MM-dd\"\n@attribute x real\n@data\n"),
        o);
  });
  EXPECT_TRUE(contains(msg, "date.arff:3")) << msg;
  EXPECT_TRUE(contains(msg, "has type date")) << msg;
}

TEST(ArffErrors, HeaderProblems) {
  auto dir = temp_dir("arff");
  std::string msg =
      input_error([&] { load_arff(write_file(dir / "nodata.arff", "@relation r\n@attribute x real\n")); });
  EXPECT_TRUE(contains(msg, "nodata.arff")) << msg;
  EXPECT_TRUE(contains(msg, "no @data")) << msg;
  msg = input_error([&] { load_arff(write_file(dir / "junk.arff", "@relation r\nhello\n@data\n")); });
  EXPECT_TRUE(contains(msg, "junk.arff:2")) << msg;
  msg = input_error([&] { load_arff(write_file(dir / "empty.arff", "@relation r\n@attribute x real\n@data\n")); });
  EXPECT_TRUE(contains(msg, "empty.arff:3")) << msg;
  EXPECT_TRUE(contains(msg, "no data rows")) << msg;
  ArffOptions o;
  o.columns = {"X"};
  msg = input_error([&] { load_arff(write_file(dir / "c.arff", kCluto), o); });
  EXPECT_TRUE(contains(msg, "did you mean 'x'")) << msg;
}

}  // namespace
}  // namespace dpclust
