#include "core/mt19937_64.hpp"

namespace dpclust {

// The twist of [rand.eng.mers] over the whole state at once: x_k = x_{k+m} xor (y >> 1) xor (y odd ? a : 0)
// with y = the upper bit of x_k joined to the lower 63 bits of x_{k+1}. Written as three loops without a
// branch so that each vectorises: k < n - m reads only old words, k >= n - m reads words this pass already
// wrote (x_{k+m-n}), at distance m = 156, far beyond a vector's width.
void Mt19937_64::refill() {
  constexpr std::uint64_t kMatrixA = 0xb5026f5aa96619e9ULL, kUpper = 0xffffffff80000000ULL, kLower = 0x7fffffffULL;
  constexpr std::size_t n = kStateWords, m = kShift;
  std::uint64_t* x = state_.data();
  for (std::size_t k = 0; k < n - m; ++k) {
    const std::uint64_t y = (x[k] & kUpper) | (x[k + 1] & kLower);
    x[k] = x[k + m] ^ (y >> 1) ^ ((0 - (y & 1)) & kMatrixA);
  }
  for (std::size_t k = n - m; k < n - 1; ++k) {
    const std::uint64_t y = (x[k] & kUpper) | (x[k + 1] & kLower);
    x[k] = x[k + m - n] ^ (y >> 1) ^ ((0 - (y & 1)) & kMatrixA);
  }
  const std::uint64_t y = (x[n - 1] & kUpper) | (x[0] & kLower);
  x[n - 1] = x[m - 1] ^ (y >> 1) ^ ((0 - (y & 1)) & kMatrixA);
  // Tempering (u, d, s, b, t, c, l of [rand.predef]) of the whole block.
  std::uint64_t* out = tempered_.data();
  for (std::size_t k = 0; k < n; ++k) {
    std::uint64_t z = x[k];
    z ^= (z >> 29) & 0x5555555555555555ULL;
    z ^= (z << 17) & 0x71d67fffeda60000ULL;
    z ^= (z << 37) & 0xfff7eee000000000ULL;
    z ^= z >> 43;
    out[k] = z;
  }
  next_ = 0;
}

}  // namespace dpclust
