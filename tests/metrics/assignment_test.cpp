#include "metrics/assignment.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "core/rng.hpp"

namespace dpclust {
namespace {

// Exhaustive minimum over all injective maps of the smaller side into the larger one.
double brute_min(const std::vector<double>& c, std::size_t r, std::size_t k) {
  const bool tr = r > k;
  const std::size_t small = tr ? k : r, large = tr ? r : k;
  auto at = [&](std::size_t s, std::size_t l) { return tr ? c[l * k + s] : c[s * k + l]; };
  std::vector<std::size_t> perm(large);
  std::iota(perm.begin(), perm.end(), 0);
  double best = std::numeric_limits<double>::infinity();
  do {  // every permutation of the large side; the first `small` entries form the map
    double s = 0;
    for (std::size_t i = 0; i < small; ++i) s += at(i, perm[i]);
    best = std::min(best, s);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return small == 0 ? 0.0 : best;
}

TEST(Assignment, TextbookSquare) {
  // Classic 3 x 3 example: optimum 5 = 1 (0,1) + 2 (1,0) + 2 (2,2).
  const std::vector<double> c = {4, 1, 3, 2, 0, 5, 3, 2, 2};
  Assignment a = min_cost_assignment(c, 3, 3);
  EXPECT_DOUBLE_EQ(a.total, 5.0);
  EXPECT_EQ(a.row_to_col, (std::vector<std::ptrdiff_t>{1, 0, 2}));
  EXPECT_EQ(a.col_to_row, (std::vector<std::ptrdiff_t>{1, 0, 2}));
}

TEST(Assignment, RectangularBothOrientations) {
  // 2 x 3: row 0 -> col 2 (1), row 1 -> col 0 (2); column 1 unmatched.
  const std::vector<double> c = {5, 9, 1, 2, 8, 7};
  Assignment a = min_cost_assignment(c, 2, 3);
  EXPECT_DOUBLE_EQ(a.total, 3.0);
  EXPECT_EQ(a.row_to_col, (std::vector<std::ptrdiff_t>{2, 0}));
  EXPECT_EQ(a.col_to_row, (std::vector<std::ptrdiff_t>{1, -1, 0}));
  // Its transpose: 3 x 2, row 1 unmatched.
  const std::vector<double> t = {5, 2, 9, 8, 1, 7};
  Assignment b = min_cost_assignment(t, 3, 2);
  EXPECT_DOUBLE_EQ(b.total, 3.0);
  EXPECT_EQ(b.row_to_col, (std::vector<std::ptrdiff_t>{1, -1, 0}));
}

TEST(Assignment, MaxWeight) {
  const std::vector<double> w = {3, 1, 0, 2, 5, 1};  // 2 x 3: best 3 + 5 = 8
  Assignment a = max_weight_assignment(w, 2, 3);
  EXPECT_DOUBLE_EQ(a.total, 8.0);
  EXPECT_EQ(a.row_to_col, (std::vector<std::ptrdiff_t>{0, 1}));
}

TEST(Assignment, EmptyAndErrors) {
  Assignment a = min_cost_assignment({}, 0, 4);
  EXPECT_EQ(a.col_to_row.size(), 4u);
  EXPECT_DOUBLE_EQ(a.total, 0.0);
  EXPECT_THROW(min_cost_assignment({1, 2, 3}, 2, 2), std::invalid_argument);
  EXPECT_THROW(min_cost_assignment({1, std::numeric_limits<double>::quiet_NaN()}, 1, 2), std::invalid_argument);
}

TEST(Assignment, MatchesBruteForceOnRandomMatrices) {
  Rng rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t r = 1 + rng.below(6), k = 1 + rng.below(6);
    std::vector<double> c(r * k);
    // Small integer costs give many ties, negative ones included.
    for (auto& x : c) x = static_cast<double>(static_cast<std::int64_t>(rng.below(9)) - 3);
    Assignment a = min_cost_assignment(c, r, k);
    EXPECT_DOUBLE_EQ(a.total, brute_min(c, r, k)) << "trial " << trial;
    // A valid matching of min(r, k) distinct pairs, consistent in both directions.
    std::size_t matched = 0;
    for (std::size_t i = 0; i < r; ++i)
      if (a.row_to_col[i] >= 0) {
        ++matched;
        EXPECT_EQ(a.col_to_row[static_cast<std::size_t>(a.row_to_col[i])], static_cast<std::ptrdiff_t>(i));
      }
    EXPECT_EQ(matched, std::min(r, k));
  }
}

}  // namespace
}  // namespace dpclust
