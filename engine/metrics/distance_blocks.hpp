#pragma once
// The inner products behind the evaluation measures' distances (nearest_centre, silhouette): a blocked
// product written out so that its summation order is fixed -- each entry sums over the coordinates in
// index order, whatever the blocking, the thread count or the machine -- and that vectorises without
// -ffast-math (the innermost loop runs over independent output columns, not along a sum). Eigen's GEMM is
// faster but chooses its blocking, and so its rounding, from the thread count when OpenMP is on.
#include <cstddef>

namespace dpclust {

// out[r * ldo + c] = sum_{j < d} A[r * d + j] * Bt[j * ldb + c]   (r < rows, c < cols)
// A: rows x d row-major; Bt: the other operand transposed, d x cols with row stride ldb >= cols.
void cross_products(const double* A, std::size_t rows, std::size_t d, const double* Bt, std::size_t ldb, std::size_t cols,
                    double* out, std::size_t ldo);

}  // namespace dpclust
