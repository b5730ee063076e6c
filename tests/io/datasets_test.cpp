// The real benchmark files load with the shapes and label counts the papers report.
#include <gtest/gtest.h>

#include <algorithm>

#include "io/arff.hpp"
#include "io/csv.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::data_root;

TEST(RealData, MoonsCsv) {
  DPCLUST_REQUIRE_DATA("synthetic/moons.csv");
  CsvOptions o;
  o.label = "label";
  Dataset ds = load_csv(data_root() / "synthetic/moons.csv", o);
  EXPECT_EQ(ds.n, 2000u);
  EXPECT_EQ(ds.d, 2u);
  EXPECT_EQ(count_clusters(ds.labels), 2u);
  EXPECT_EQ(std::count(ds.labels.begin(), ds.labels.end(), kNoise), 0);
}

TEST(RealData, ClutoT4HasNoiseAndSixClusters) {
  DPCLUST_REQUIRE_DATA("benchmark/cluto-t4-8k.arff");
  Dataset ds = load_arff(data_root() / "benchmark/cluto-t4-8k.arff");
  EXPECT_EQ(ds.n, 8000u);
  EXPECT_EQ(ds.d, 2u);
  // 764 data rows are labelled noise (`grep -c noise` says 765 because it also counts the
  // @ATTRIBUTE line that declares the value).
  EXPECT_EQ(std::count(ds.labels.begin(), ds.labels.end(), kNoise), 764);
  EXPECT_EQ(count_clusters(ds.labels), 6u);
}

TEST(RealData, WaveClusterSpiral30k) {
  DPCLUST_REQUIRE_DATA("wavecluster/spiral-30k.arff");
  Dataset ds = load_arff(data_root() / "wavecluster/spiral-30k.arff");
  EXPECT_EQ(ds.n, 31200u);
  EXPECT_EQ(ds.d, 2u);
  EXPECT_EQ(count_clusters(ds.labels), 3u);
}

TEST(RealData, CabsTiny) {
  DPCLUST_REQUIRE_DATA("geo/cabs_tiny.csv");
  Dataset ds = load_csv(data_root() / "geo/cabs_tiny.csv");
  EXPECT_EQ(ds.n, 845685u);
  EXPECT_EQ(ds.d, 2u);
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"lon", "lat"}));
  const auto [lo, hi] = std::minmax_element(ds.coords.begin(), ds.coords.end());
  EXPECT_GT(*lo, -123.0);
  EXPECT_LT(*hi, 39.0);
}

}  // namespace
}  // namespace dpclust
