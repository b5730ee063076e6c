// Grid expansion: cartesian products, zip groups, ranges, and stable cell keys (the seed input).
#include <gtest/gtest.h>

#include "config/config.hpp"
#include "config/grid.hpp"

using namespace dpclust;

namespace {
std::vector<Cell> expand(const std::string& text) {
  return expand_grid(parse_config(text, "g.yaml", std::filesystem::temp_directory_path(), ""));
}
const std::string kHead =
    "experiment: g\ndatasets:\n  - {name: a, generator: {type: moons}}\n  - {name: b, generator: {type: circles}}\n";
}  // namespace

TEST(Grid, CartesianProductInDocumentedOrder) {
  auto cells = expand(kHead + "methods:\n  - method: dbscan\n    params: {alpha: [0.1, 0.2, 0.3], min_pts: [4, 8]}\n");
  ASSERT_EQ(cells.size(), 2u * 3u * 2u);
  // Datasets outermost; then parameters by name (alpha slower than min_pts).
  EXPECT_EQ(cells[0].key, "dataset=a|method=dbscan|alpha=0.1;min_pts=4");
  EXPECT_EQ(cells[1].key, "dataset=a|method=dbscan|alpha=0.1;min_pts=8");
  EXPECT_EQ(cells[2].key, "dataset=a|method=dbscan|alpha=0.2;min_pts=4");
  EXPECT_EQ(cells[6].key, "dataset=b|method=dbscan|alpha=0.1;min_pts=4");
  for (std::size_t i = 0; i < cells.size(); ++i) EXPECT_EQ(cells[i].index, i);
}

TEST(Grid, ZipVariesParametersTogether) {
  auto cells = expand(kHead +
                      "methods:\n  - method: dbscan\n    params: {alpha: [0.1, 0.2, 0.3], min_pts: [4, 8, 16]}\n    "
                      "zip: [[alpha, min_pts]]\n");
  ASSERT_EQ(cells.size(), 2u * 3u);
  EXPECT_EQ(cells[1].key, "dataset=a|method=dbscan|alpha=0.2;min_pts=8");
  EXPECT_EQ(cells[2].key, "dataset=a|method=dbscan|alpha=0.3;min_pts=16");
}

TEST(Grid, RangesAreExactDecimals) {
  auto cells = expand(
      kHead + "methods:\n  - method: dbscan\n    params: {alpha: {from: 0.1, to: 2.0, step: 0.1}, min_pts: 5}\n");
  ASSERT_EQ(cells.size(), 2u * 20u);
  EXPECT_EQ(cells[2].params.real("alpha"), 0.3);  // not 0.30000000000000004
  EXPECT_EQ(cells[19].params.real("alpha"), 2.0);
}

TEST(Grid, DatasetParamsApplyOnlyToMethodsThatDeclareThem) {
  auto cells = expand(
      "experiment: g\ndatasets:\n  - {name: a, generator: {type: moons}, params: {alpha: 0.2, min_pts: 5, k: 2}}\n"
      "methods: [dbscan, kmeans]\n");
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].key, "dataset=a|method=dbscan|alpha=0.2;min_pts=5");
  EXPECT_EQ(cells[1].key, "dataset=a|method=kmeans|k=2");  // defaults are not part of the key
  EXPECT_EQ(cells[1].params.integer("max_iter"), 300);     // but they are in the cell's parameters
}

TEST(Grid, SeriesNamesSeparateSameMethod) {
  auto cells = expand(
      "experiment: g\ndatasets: [{name: a, generator: {type: moons}, params: {k: 2}}]\n"
      "methods:\n  - method: kmeans\n  - {method: kmeans, as: kmeans10, params: {n_init: 10}}\n");
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[1].method_label, "kmeans10");
  EXPECT_NE(cells[0].id, cells[1].id);
}

TEST(Grid, CellIdsAreStableAcrossRuns) {
  auto a = expand(kHead + "methods:\n  - method: dbscan\n    params: {alpha: 0.2, min_pts: 5}\n");
  auto b = expand(kHead + "methods:\n  - method: dbscan\n    params: {min_pts: 5, alpha: 0.2}\n");
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].id, b[i].id);
}

TEST(Grid, DefaultsDoNotChangeTheKey) {
  // Writing a default explicitly names the same cell (same key, same seeds) as leaving it out.
  auto a =
      expand("experiment: g\ndatasets: [{name: a, generator: {type: moons}, params: {k: 2}}]\nmethods: [kmeans]\n");
  auto b = expand(
      "experiment: g\ndatasets: [{name: a, generator: {type: moons}, params: {k: 2}}]\n"
      "methods: [{method: kmeans, params: {max_iter: 300, n_init: 1}}]\n");
  auto c = expand(
      "experiment: g\ndatasets: [{name: a, generator: {type: moons}, params: {k: 2}}]\n"
      "methods: [{method: kmeans, params: {n_init: 5}}]\n");
  EXPECT_EQ(a[0].key, b[0].key);
  EXPECT_EQ(a[0].id, b[0].id);
  EXPECT_EQ(c[0].key, "dataset=a|method=kmeans|k=2;n_init=5");
}
