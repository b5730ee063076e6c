// The blocked inner products: every entry is the plain sum over the coordinates in index order, whatever
// the tile an entry falls in (4 x 4 tiles, edge rows and columns), so they equal the naive loop exactly.
#include "core/cross_products.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "core/rng.hpp"

namespace dpclust {
namespace {

TEST(CrossProducts, EqualTheNaiveSumInIndexOrder) {
  Rng rng(5);
  for (std::size_t rows : {1, 3, 4, 9}) {
    for (std::size_t cols : {1, 2, 4, 7, 13}) {
      for (std::size_t d : {0, 1, 5, 33}) {
        std::vector<double> a(rows * d), bt(d * (cols + 3));  // ldb = cols + 3: a row stride above the width
        for (double& v : a) v = rng.uniform(-10, 10);
        for (double& v : bt) v = rng.uniform(-10, 10);
        const std::size_t ldb = cols + 3, ldo = cols + 1;
        std::vector<double> out(rows * ldo, -1.0);
        cross_products(a.data(), rows, d, bt.data(), ldb, cols, out.data(), ldo);
        for (std::size_t r = 0; r < rows; ++r) {
          for (std::size_t c = 0; c < cols; ++c) {
            double s = 0.0;
            for (std::size_t j = 0; j < d; ++j) s += a[r * d + j] * bt[j * ldb + c];
            EXPECT_EQ(out[r * ldo + c], s) << rows << " x " << cols << " x " << d << " at " << r << ", " << c;
          }
          EXPECT_EQ(out[r * ldo + cols], -1.0);  // the padding column is left alone
        }
      }
    }
  }
}

}  // namespace
}  // namespace dpclust
