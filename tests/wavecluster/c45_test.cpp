// C4.5 (J48 semantics) on hand-computed cases and on Fisher's iris, whose J48 tree is the textbook one.
#include "wavecluster/c45.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.hpp"
#include "wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

TEST(C45, OneAttributeCutAtAnObservedValue) {
  // 1..8 with classes 0,0,0,0,1,1,1,1: gain 1 bit at the cut 4|5, MDL 1 - log2(5)/8 > 0; the midpoint
  // 4.5 is reset to the largest training value <= 4.5, i.e. 4.
  std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<std::int32_t> y = {0, 0, 0, 0, 1, 1, 1, 1};
  C45Tree t = C45Tree::fit(x, 8, 1, y, 2);
  EXPECT_EQ(t.to_text({"a"}, {"no", "yes"}), "a <= 4: no (4.0)\na > 4: yes (4.0)\n");
  EXPECT_EQ(t.predict(std::vector<double>{4.0}.data()), 0);
  EXPECT_EQ(t.predict(std::vector<double>{4.4}.data()), 1);  // above the reset threshold 4, as in J48
}

TEST(C45, MinimumLeafSizeKeepsLoneInstances) {
  // A single class-1 instance in the middle cannot get a leaf of its own (minNumObj = 2), and an
  // impure split that does not reduce training errors is collapsed.
  std::vector<double> x = {1, 2, 3, 4, 5, 6, 7};
  std::vector<std::int32_t> y = {0, 0, 0, 1, 0, 0, 0};
  C45Tree t = C45Tree::fit(x, 7, 1, y, 2);
  EXPECT_EQ(t.leaves(), 1u);
  EXPECT_EQ(t.predict(std::vector<double>{4}.data()), 0);
}

TEST(C45, TwoAttributesGridBlocks) {
  // Cells of a 4 x 4 grid: class 1 in the top-left 2 x 2 block, class 2 in the bottom-right 2 x 2 block,
  // class 0 elsewhere. Every cell is classified correctly (each class region is a union of rectangles
  // with >= 2 cells per leaf).
  std::vector<double> x;
  std::vector<std::int32_t> y;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      x.push_back(a);
      x.push_back(b);
      y.push_back(a < 2 && b < 2 ? 1 : (a >= 2 && b >= 2 ? 2 : 0));
    }
  C45Tree t = C45Tree::fit(x, 16, 2, y, 3);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(t.predict(&x[2 * i]), y[i]) << i;
}

// Weka 3.8 J48 (-C 0.25 -M 2) on iris.arff gives the textbook tree (Witten, Frank, Hall, "Data Mining",
// Weka output for iris): 5 leaves, size 9.
TEST(C45, IrisPrunedIsTheWekaTree) {
  DPCLUST_REQUIRE_DATA("uci/iris.csv");
  std::vector<double> x;
  std::vector<std::int32_t> y;
  dpclust::testing::read_iris_csv(dpclust::testing::data_root() / "uci/iris.csv", x, y);
  ASSERT_EQ(y.size(), 150u);
  C45Options pruned;
  pruned.prune = true;
  C45Tree t = C45Tree::fit(x, 150, 4, y, 3, pruned);
  const std::vector<std::string> att = {"sepallength", "sepalwidth", "petallength", "petalwidth"};
  const std::vector<std::string> cls = {"Iris-setosa", "Iris-versicolor", "Iris-virginica"};
  EXPECT_EQ(t.to_text(att, cls),
            "petalwidth <= 0.6: Iris-setosa (50.0)\n"
            "petalwidth > 0.6\n"
            "|   petalwidth <= 1.7\n"
            "|   |   petallength <= 4.9: Iris-versicolor (48.0/1.0)\n"
            "|   |   petallength > 4.9\n"
            "|   |   |   petalwidth <= 1.5: Iris-virginica (3.0)\n"
            "|   |   |   petalwidth > 1.5: Iris-versicolor (3.0/1.0)\n"
            "|   petalwidth > 1.7: Iris-virginica (46.0/1.0)\n");
  EXPECT_EQ(t.leaves(), 5u);
  EXPECT_EQ(t.size(), 9u);
  C45Tree u = C45Tree::fit(x, 150, 4, y, 3);  // unpruned (J48 -U)
  EXPECT_GE(u.leaves(), t.leaves());
}

}  // namespace
}  // namespace dpclust::wavecluster
