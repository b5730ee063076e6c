// A fixed-order blocked inner-product kernel; see distance_blocks.hpp.
#include "metrics/distance_blocks.hpp"

#include <algorithm>

namespace dpclust {

void cross_products(const double* A, std::size_t rows, std::size_t d, const double* Bt, std::size_t ldb, std::size_t cols,
                    double* out, std::size_t ldo) {
  // Four rows of A at a time share every load of Bt; for each coordinate j the products are added to the
  // running sums of all columns (a loop over independent outputs, which the compiler vectorises).
  std::size_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    double* __restrict o0 = out + r * ldo;
    double* __restrict o1 = o0 + ldo;
    double* __restrict o2 = o1 + ldo;
    double* __restrict o3 = o2 + ldo;
    std::fill_n(o0, cols, 0.0);
    std::fill_n(o1, cols, 0.0);
    std::fill_n(o2, cols, 0.0);
    std::fill_n(o3, cols, 0.0);
    const double* a = A + r * d;
    for (std::size_t j = 0; j < d; ++j) {
      const double a0 = a[j], a1 = a[d + j], a2 = a[2 * d + j], a3 = a[3 * d + j];
      const double* __restrict b = Bt + j * ldb;
      for (std::size_t c = 0; c < cols; ++c) {
        const double bc = b[c];
        o0[c] += a0 * bc;
        o1[c] += a1 * bc;
        o2[c] += a2 * bc;
        o3[c] += a3 * bc;
      }
    }
  }
  for (; r < rows; ++r) {
    double* __restrict o = out + r * ldo;
    std::fill_n(o, cols, 0.0);
    const double* a = A + r * d;
    for (std::size_t j = 0; j < d; ++j) {
      const double aj = a[j];
      const double* __restrict b = Bt + j * ldb;
      for (std::size_t c = 0; c < cols; ++c) o[c] += aj * b[c];
    }
  }
}

}  // namespace dpclust
