// Every attribute of an ARFF file accounted for: nominal attributes left out with a warning naming them
// (and in the provenance), used as coordinates when listed (numbers) or under `nominal: codes | onehot`;
// a label only by name or by the file's convention (the last attribute, nominal, not a discretised
// reading); missing values ('?') refused with their count or dropped and counted, as in a CSV file.
#include <gtest/gtest.h>

#include "io/arff.hpp"
#include "io/csv.hpp"
#include "io/io_test_util.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;

bool says(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A clinical-score file: one numeric attribute (age), three nominal scores {0,1,2,3}, a text-valued
// nominal attribute and the class last.
const char* kClinical =
    "@relation clinical\n"
    "@attribute erythema {0,1,2,3}\n"
    "@attribute scaling {0,1,2,3}\n"
    "@attribute sex {male,female}\n"
    "@attribute age numeric\n"
    "@attribute itching {0,1,2,3}\n"
    "@attribute class {1,2,3}\n"
    "@data\n"
    "2,2,male,55,0,2\n"
    "3,3,female,8,1,1\n"
    "2,1,female,26,3,3\n";

TEST(ArffNominal, LeftOutWithAWarningNamingThemAndInTheProvenance) {
  auto p = write_file(temp_dir("arffnom") / "clin.arff", kClinical);
  ::testing::internal::CaptureStderr();
  const Dataset ds = load_arff(p);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(ds.d, 1u);
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"age"}));
  EXPECT_EQ(ds.labels, (Labels{2, 1, 3}));
  EXPECT_TRUE(says(err, "4 of 6 attributes are nominal and left out")) << err;
  EXPECT_TRUE(says(err, "erythema, scaling, sex, itching")) << err;
  EXPECT_TRUE(says(err, "nominal: codes")) << err;
  EXPECT_FALSE(says(err, "female")) << err;  // names, never values
  ASSERT_EQ(ds.provenance["skipped_attributes"].size(), 4u);
  EXPECT_EQ(ds.provenance["skipped_attributes"][0]["name"], "erythema");
  EXPECT_EQ(ds.provenance["skipped_attributes"][0]["type"], "nominal");
}

TEST(ArffNominal, ListedNominalWithNumberValuesIsACoordinate) {
  auto p = write_file(temp_dir("arffnom") / "clin.arff", kClinical);
  ArffOptions o;
  o.columns = {"age", "erythema", "itching"};
  const Dataset ds = load_arff(p, o);
  EXPECT_EQ(ds.coords, (std::vector<double>{55, 2, 0, 8, 3, 1, 26, 2, 3}));
  EXPECT_EQ(ds.provenance["nominal_coordinates"]["erythema"], "number");
  // A nominal attribute whose values are words is no coordinate as it stands: the message says it is
  // nominal (not "unknown numeric attribute") and names the two encodings.
  o.columns = {"age", "sex"};
  const std::string msg = input_error([&] { load_arff(p, o); });
  EXPECT_TRUE(says(msg, "'sex' is nominal")) << msg;
  EXPECT_TRUE(says(msg, "nominal: codes")) << msg;
  EXPECT_TRUE(says(msg, "nominal: onehot")) << msg;
  // An unknown name lists every attribute by type.
  o.columns = {"agee"};
  const std::string unknown = input_error([&] { load_arff(p, o); });
  EXPECT_TRUE(says(unknown, "did you mean 'age'")) << unknown;
  EXPECT_TRUE(says(unknown, "nominal: erythema, scaling, sex, itching, class")) << unknown;
}

TEST(ArffNominal, CodesAndOnehot) {
  auto p = write_file(temp_dir("arffnom") / "clin.arff", kClinical);
  ArffOptions o;
  o.nominal = NominalEncoding::codes;
  const Dataset codes = load_arff(p, o);
  EXPECT_EQ(codes.column_names, (std::vector<std::string>{"erythema", "scaling", "sex", "age", "itching"}));
  // Number values as themselves; sex by its position in the declaration {male, female}.
  EXPECT_EQ(codes.coords, (std::vector<double>{2, 2, 0, 55, 0, 3, 3, 1, 8, 1, 2, 1, 1, 26, 3}));
  EXPECT_EQ(codes.labels, (Labels{2, 1, 3}));  // the label is never a coordinate
  EXPECT_EQ(codes.provenance["nominal_coordinates"]["sex"], "code");
  EXPECT_FALSE(codes.provenance.contains("skipped_attributes"));
  o.nominal = NominalEncoding::onehot;
  o.columns = {"sex", "age"};
  const Dataset hot = load_arff(p, o);
  EXPECT_EQ(hot.column_names, (std::vector<std::string>{"sex=male", "sex=female", "age"}));
  EXPECT_EQ(hot.coords, (std::vector<double>{1, 0, 55, 0, 1, 8, 0, 1, 26}));
}

TEST(ArffLabel, OnlyTheLastAttributeWhenNominalNeverANumericOne) {
  auto dir = temp_dir("arfflab");
  // The last attribute is a reading: no label, although a nominal attribute exists elsewhere.
  auto sensor =
      write_file(dir / "sensor.arff",
                 "@relation s\n@attribute site {a,b}\n@attribute x numeric\n@attribute reading numeric\n@data\n"
                 "a,1,0.5\nb,2,0.25\n");
  ::testing::internal::CaptureStderr();
  const Dataset s = load_arff(sensor);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(s.has_labels());
  EXPECT_TRUE(s.provenance["label"].is_null());
  EXPECT_EQ(s.d, 2u);
  EXPECT_TRUE(says(err, "no label: the last attribute 'reading' is numeric")) << err;
  // A last nominal attribute of numbers with fractions (a discretised reading) is no class either.
  auto steps = write_file(dir / "steps.arff",
                          "@relation s\n@attribute x numeric\n@attribute level {0.5,1.25,2}\n@data\n1,0.5\n2,2\n");
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(load_arff(steps).has_labels());
  EXPECT_TRUE(says(::testing::internal::GetCapturedStderr(), "numbers with fractions"));
  // Named, it is the label.
  ArffOptions o;
  o.label = "level";
  EXPECT_TRUE(load_arff(steps, o).has_labels());
  // Naming a numeric attribute as the label says what it is.
  o.label = "x";
  const std::string msg = input_error([&] { load_arff(steps, o); });
  EXPECT_TRUE(says(msg, "has type numeric")) << msg;
}

const char* kWithGaps =
    "@relation gaps\n@attribute a numeric\n@attribute b numeric\n@attribute c numeric\n@attribute cls {x,y}\n@data\n"
    "1,2,3,x\n"  // 7
    "?,2,3,x\n"  // 8
    "4,?,?,y\n"  // 9
    "5,6,7,?\n"  // 10
    "8,9,10,y\n";

TEST(ArffMissing, RefusedWithTheCountOfRowsAndColumns) {
  auto p = write_file(temp_dir("arffmiss") / "gaps.arff", kWithGaps);
  const std::string msg = input_error([&] { load_arff(p); });
  EXPECT_TRUE(says(msg, "3 of 5 rows have a missing value")) << msg;
  EXPECT_TRUE(says(msg, "in 4 of the selected columns (rows per column: a: 1, b: 1, c: 1, cls: 1)")) << msg;
  EXPECT_TRUE(says(msg, "the first at")) << msg;
  EXPECT_TRUE(says(msg, "gaps.arff:8")) << msg;
  EXPECT_TRUE(says(msg, "missing: drop")) << msg;
}

TEST(ArffMissing, DropLeavesRowsOutAndCountsThem) {
  auto p = write_file(temp_dir("arffmiss") / "gaps.arff", kWithGaps);
  ArffOptions o;
  o.missing = MissingPolicy::drop;
  const Dataset ds = load_arff(p, o);
  EXPECT_EQ(ds.n, 2u);
  EXPECT_EQ(ds.coords, (std::vector<double>{1, 2, 3, 8, 9, 10}));
  EXPECT_EQ(ds.labels, (Labels{0, 1}));
  EXPECT_EQ(ds.provenance["missing"]["policy"], "drop");
  EXPECT_EQ(ds.provenance["missing"]["rows_dropped"], 3);
  EXPECT_EQ(ds.provenance["missing"]["columns"], (nlohmann::json{"a", "b", "c", "cls"}));
  // Only the selected columns count: without b and c and the label, one row is left out.
  o.columns = {"a"};
  o.use_label = false;
  EXPECT_EQ(load_arff(p, o).n, 4u);
}

TEST(CsvMissingMarks, QuestionMarkAndNaAreMissingAsInArff) {
  auto p = write_file(temp_dir("csvmiss") / "uci.csv", "a,b,cls\n1,2,x\n?,2,x\n3,NA,y\n4,5,\n6,7,y\n");
  CsvOptions o;
  o.label = "cls";
  const std::string msg = input_error([&] { load_csv(p, o); });
  EXPECT_TRUE(says(msg, "3 of 5 rows have a missing value")) << msg;
  EXPECT_TRUE(says(msg, "uci.csv:3")) << msg;
  o.missing = MissingPolicy::drop;
  const Dataset ds = load_csv(p, o);
  EXPECT_EQ(ds.coords, (std::vector<double>{1, 2, 6, 7}));
  EXPECT_EQ(ds.provenance["missing"]["rows_dropped"], 3);
}

}  // namespace
}  // namespace dpclust
