// A fixed-order blocked inner-product kernel; see cross_products.hpp.
#include "core/cross_products.hpp"

#include <cstring>

namespace dpclust {
namespace {

// Two doubles in one SSE2 register (GCC/Clang vector extension; unaligned loads through memcpy). With
// -ffp-contract=off the multiply and the add stay two roundings, as in the scalar code.
typedef double Pair __attribute__((vector_size(16)));

inline Pair load_pair(const double* p) {
  Pair v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store_pair(double* p, Pair v) { std::memcpy(p, &v, sizeof v); }

// One entry: the sum over j in index order, starting from 0 (the order every entry of the kernel keeps).
inline double dot(const double* a, const double* bt, std::size_t ldb, std::size_t d) {
  double s = 0.0;
  for (std::size_t j = 0; j < d; ++j) s += a[j] * bt[j * ldb];
  return s;
}

}  // namespace

void cross_products(const double* A, std::size_t rows, std::size_t d, const double* Bt, std::size_t ldb,
                    std::size_t cols, double* out, std::size_t ldo) {
  // Tiles of 4 rows x 4 columns whose 16 running sums stay in 8 registers for the whole of j: per
  // coordinate, two loads of Bt, four of A and 16 multiply-adds (the products are not fused). Every entry
  // is sum_j a_j b_j accumulated in index order from 0, in the tiles and in the edge loops alike, so the
  // blocking does not change a value.
  if (d == 0) {
    // Every sum is empty. A and Bt may then be null (an empty vector's data()), and no offset may be added to a
    // null pointer.
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) out[r * ldo + c] = 0.0;
    return;
  }
  std::size_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const double* a0 = A + r * d;
    const double* a1 = a0 + d;
    const double* a2 = a1 + d;
    const double* a3 = a2 + d;
    std::size_t c = 0;
    for (; c + 4 <= cols; c += 4) {
      Pair s00 = {0, 0}, s01 = {0, 0}, s10 = {0, 0}, s11 = {0, 0}, s20 = {0, 0}, s21 = {0, 0}, s30 = {0, 0},
           s31 = {0, 0};
      const double* b = Bt + c;
      for (std::size_t j = 0; j < d; ++j, b += ldb) {
        const Pair b0 = load_pair(b), b1 = load_pair(b + 2);
        const Pair x0 = {a0[j], a0[j]}, x1 = {a1[j], a1[j]}, x2 = {a2[j], a2[j]}, x3 = {a3[j], a3[j]};
        s00 += x0 * b0;
        s01 += x0 * b1;
        s10 += x1 * b0;
        s11 += x1 * b1;
        s20 += x2 * b0;
        s21 += x2 * b1;
        s30 += x3 * b0;
        s31 += x3 * b1;
      }
      double* o = out + r * ldo + c;
      store_pair(o, s00);
      store_pair(o + 2, s01);
      store_pair(o + ldo, s10);
      store_pair(o + ldo + 2, s11);
      store_pair(o + 2 * ldo, s20);
      store_pair(o + 2 * ldo + 2, s21);
      store_pair(o + 3 * ldo, s30);
      store_pair(o + 3 * ldo + 2, s31);
    }
    for (; c < cols; ++c)
      for (std::size_t i = 0; i < 4; ++i) out[(r + i) * ldo + c] = dot(A + (r + i) * d, Bt + c, ldb, d);
  }
  for (; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) out[r * ldo + c] = dot(A + r * d, Bt + c, ldb, d);
}

}  // namespace dpclust
