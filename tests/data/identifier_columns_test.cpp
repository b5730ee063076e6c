// Columns that identify records are left out of the coordinates (data/identifier_columns.hpp).
#include "data/identifier_columns.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"

namespace dpclust {
namespace {

// n rows of (id, x): ids as given, x = 0.5 * i.
Dataset with_ids(const std::vector<double>& ids, const std::string& id_name) {
  Dataset ds;
  ds.n = ids.size();
  ds.d = 2;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    ds.coords.push_back(ids[i]);
    ds.coords.push_back(0.5 * static_cast<double>(i));
  }
  ds.column_names = {id_name, "x"};
  ds.provenance["columns"] = nlohmann::json::array({id_name, "x"});
  return ds;
}

std::vector<double> counting(std::size_t n, double from) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(from + 3 * static_cast<double>(i));
  return v;
}

TEST(IdentifierColumns, NamesLikeAnIdentifier) {
  for (const char* name : {"id", "ID", "Id", "IDNumber", "idnumber", "patient_id", "Sample-ID", "id_case", "sampleID",
                           "userId", "index", "Row", "row_number", "UUID"})
    EXPECT_TRUE(identifier_name(name)) << name;
  for (const char* name : {"x", "lipid", "grid", "ACID", "valid", "width", "idle", "rows_total", "_id", "identity", ""})
    EXPECT_FALSE(identifier_name(name)) << name;
}

// A date coordinate of a time series (CSV `dates: days`, days since 1970 increasing row by row) is when a
// record was taken, not which record it is; the same numbers under another name are a row number.
TEST(IdentifierColumns, ADateCoordinateIsNoIdentifier) {
  Dataset series = with_ids(counting(12, 17978), "Date");
  series.provenance["date_coordinates"] = {{"Date", "days since 1970-01-01T00:00:00Z"}};
  EXPECT_TRUE(find_identifier_columns(series).empty());
  EXPECT_EQ(find_identifier_columns(with_ids(counting(12, 17978), "Date")).size(), 1u);
}

TEST(IdentifierColumns, IncreasingIntegersFromTenRowsOn) {
  EXPECT_TRUE(increasing_integers(with_ids(counting(10, 842302), "a"), 0));
  EXPECT_FALSE(increasing_integers(with_ids(counting(9, 842302), "a"), 0));  // too few rows to tell
  std::vector<double> repeat = counting(12, 1);
  repeat[5] = repeat[4];
  EXPECT_FALSE(increasing_integers(with_ids(repeat, "a"), 0));  // not strictly increasing
  std::vector<double> frac = counting(12, 1);
  frac[7] += 0.25;
  EXPECT_FALSE(increasing_integers(with_ids(frac, "a"), 0));             // not all integers
  EXPECT_FALSE(increasing_integers(with_ids(counting(12, 1), "a"), 1));  // x = 0, 0.5, 1, ...
}

TEST(IdentifierColumns, DropRemovesTheColumnEverywhereAndNotesIt) {
  // wdbc's IDNumber: not monotone, found by its name.
  std::vector<double> ids = {842302, 842517,   84300903, 84348301, 84358402, 843786,
                             844359, 84458202, 844981,   84501001, 845636};
  Dataset ds = with_ids(ids, "IDNumber");
  ::testing::internal::CaptureStderr();
  const auto dropped = drop_identifier_columns(ds, "dataset 'wdbc' (wdbc.arff)");
  const std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_EQ(dropped.size(), 1u);
  EXPECT_EQ(dropped[0].reason, "name");
  EXPECT_EQ(ds.d, 1u);
  EXPECT_EQ(ds.coords.size(), ids.size());
  EXPECT_EQ(ds.coords[3], 1.5);
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"x"}));
  EXPECT_EQ(ds.provenance["columns"], nlohmann::json::array({"x"}));
  EXPECT_EQ(ds.provenance["identifier_columns_dropped"],
            nlohmann::json::parse(R"([{"name": "IDNumber", "reason": "name"}])"));
  EXPECT_NO_THROW(ds.check_invariants());
  EXPECT_NE(err.find("dataset 'wdbc' (wdbc.arff): column 'IDNumber' looks like a record identifier"), std::string::npos)
      << err;
  EXPECT_NE(err.find("identifier_columns: keep"), std::string::npos) << err;
  EXPECT_EQ(err.find("842302"), std::string::npos) << err;  // never a value
}

TEST(IdentifierColumns, NothingToDropLeavesTheDataAlone) {
  Dataset ds = with_ids({3, 1, 2, 5, 4, 6, 8, 7, 9, 10, 11}, "a");
  const Dataset before = ds;
  EXPECT_TRUE(drop_identifier_columns(ds, "t").empty());
  EXPECT_EQ(ds.coords, before.coords);
  EXPECT_FALSE(ds.provenance.contains("identifier_columns_dropped"));
}

TEST(IdentifierColumns, EveryColumnAnIdentifierIsAnError) {
  Dataset ds;
  ds.n = 12;
  ds.d = 1;
  ds.coords = counting(12, 1);
  ds.column_names = {"k"};
  const std::string msg = [&] {
    try {
      drop_identifier_columns(ds, "dataset 'one' (one.csv)");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  EXPECT_NE(msg.find("every coordinate column looks like a record identifier: 'k' (increasing integers)"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("identifier_columns: keep"), std::string::npos) << msg;
  EXPECT_EQ(ds.d, 1u);
}

}  // namespace
}  // namespace dpclust
