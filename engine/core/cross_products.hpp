#pragma once
// Inner products of many points with a few others (the evaluation measures' distances in metrics/, the
// candidate filters of k-means in cluster/kmeans/): a blocked product written out so that its summation
// order is fixed -- each entry is sum_j a_j b_j accumulated in index order from 0, whatever the blocking,
// the thread count or the machine -- in 4 x 4 register tiles of SSE2 pairs (no -ffast-math needed: the
// vector lanes are independent entries, not parts of one sum). Eigen's GEMM chooses its blocking, and so
// its rounding, from the thread count when OpenMP is on.
#include <cstddef>

namespace dpclust {

// out[r * ldo + c] = sum_{j < d} A[r * d + j] * Bt[j * ldb + c]   (r < rows, c < cols)
// A: rows x d row-major; Bt: the other operand transposed, d x cols with row stride ldb >= cols.
void cross_products(const double* A, std::size_t rows, std::size_t d, const double* Bt, std::size_t ldb,
                    std::size_t cols, double* out, std::size_t ldo);

}  // namespace dpclust
