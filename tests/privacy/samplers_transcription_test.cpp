// The exact discrete Laplace sampler (CKS20 Alg. 1-2, engine/privacy/samplers.cpp) against a transcription of
// its bit-by-bit form: Bernoulli(num/den) compares one random bit with one bit of the long division of num/den at
// a time. The library compares a whole 64-bit word per step and skips the 256-bit wrappers for t < 2^63; both
// must read the same random words and return the same integers, draw for draw, so every seeded result is
// unchanged by the faster arithmetic.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "privacy/samplers.hpp"

using namespace dpclust;
using namespace dpclust::privacy;

namespace {

__extension__ typedef unsigned __int128 bit_u128;

// Bernoulli(num / den), 0 <= num, den < 2^63: the first differing bit of U and of num/den decides.
bool ratio_bit_by_bit(Rng& rng, std::uint64_t num, std::uint64_t den) {
  if (num == 0) return false;
  if (num >= den) return true;
  for (;;) {
    const std::uint64_t word = rng.next_u64();
    for (int i = 63; i >= 0; --i) {
      num <<= 1;
      const bool p_bit = num >= den;
      if (p_bit) num -= den;
      const bool u_bit = ((word >> i) & 1) != 0;
      if (u_bit != p_bit) return p_bit;
    }
  }
}
// CKS20 Alg. 1 for gamma = num/den in [0, 1]: K <- 1; while Bernoulli(1/K) and Bernoulli(gamma): K <- K + 1.
bool bit_exp_unit(Rng& rng, std::uint64_t num, std::uint64_t den) {
  std::uint64_t k = 1;
  for (;;) {
    const bool a = (k == 1 || rng.below(k) == 0) && ratio_bit_by_bit(rng, num, den);
    if (!a) break;
    ++k;
  }
  return (k & 1) != 0;
}
bool bit_exp_any(Rng& rng, std::uint64_t num, std::uint64_t den) {
  while (num >= den) {
    if (!bit_exp_unit(rng, 1, 1)) return false;
    num -= den;
  }
  return bit_exp_unit(rng, num, den);
}
// CKS20 Alg. 2 before the sign, and with it.
bit_u128 bit_geometric(Rng& rng, std::uint64_t t, std::uint64_t s) {
  for (;;) {
    const std::uint64_t u = rng.below(t);
    if (!bit_exp_any(rng, u, t)) continue;
    std::uint64_t v = 0;
    while (bit_exp_unit(rng, 1, 1)) ++v;
    return (u + static_cast<bit_u128>(t) * v) / s;
  }
}
std::int64_t bit_laplace(Rng& rng, std::uint64_t t, std::uint64_t s) {
  for (;;) {
    const auto y = static_cast<std::int64_t>(bit_geometric(rng, t, s));
    const bool negative = (rng.next_u64() >> 63) != 0;
    if (negative && y == 0) continue;
    return negative ? -y : y;
  }
}

// Scales of the project's noisy counts (rational_at_least of 1/eps, 2/eps, ...), an integer one (s = 1) and a
// large one.
std::vector<Rational> bit_scales() {
  std::vector<Rational> r;
  for (double x : {0.05, 0.5, 1.0, 1.0 / 0.45, 2.0 / 0.3, 10.0 / 0.95, 21.05, 1000.0, 0x1p30 + 3})
    r.push_back(rational_at_least(x));
  r.push_back(Rational{3, 1});
  r.push_back(Rational{7, 2});
  return r;
}

}  // namespace

TEST(SamplersDiscreteLaplace, SameDrawsAsTheBitByBitTranscription) {
  for (const Rational& r : bit_scales()) {
    Rng a(0x5eed + r.num), b(0x5eed + r.num);
    for (int i = 0; i < 20000; ++i)
      ASSERT_EQ(discrete_laplace(a, r), bit_laplace(b, r.num, r.den)) << r.num << "/" << r.den << " draw " << i;
    EXPECT_EQ(a.next_u64(), b.next_u64()) << r.num << "/" << r.den << ": different numbers of words read";
  }
}

TEST(SamplersDiscreteLaplace, TailSameDrawsAsTheBitByBitTranscription) {
  // k >= 0: k + the geometric of Alg. 2 (memorylessness), the path DP-DBSCAN's linear histogram takes.
  for (const Rational& r : bit_scales()) {
    Rng a(0x7a11 + r.num), b(0x7a11 + r.num);
    for (std::int64_t k : {0, 1, 5, 1000})
      for (int i = 0; i < 5000; ++i)
        ASSERT_EQ(discrete_laplace_tail(a, r, k), k + static_cast<std::int64_t>(bit_geometric(b, r.num, r.den)))
            << r.num << "/" << r.den << " k " << k << " draw " << i;
    EXPECT_EQ(a.next_u64(), b.next_u64()) << r.num << "/" << r.den << ": different numbers of words read";
  }
}

TEST(SamplersBernoulliExp, SameDrawsAsTheBitByBitTranscription) {
  // bernoulli_exp (any gamma, the 256-bit path) agrees with the transcription too where both apply.
  for (const Rational& g :
       {Rational{1, 3}, Rational{5, 2}, Rational{999, 1000}, Rational{1, 1}, Rational{0, 1},
        rational_at_least(0.123456789), Rational{(std::uint64_t{1} << 62) - 1, std::uint64_t{1} << 61}}) {
    Rng a(91 + g.num), b(91 + g.num);
    for (int i = 0; i < 20000; ++i)
      ASSERT_EQ(bernoulli_exp(a, g), bit_exp_any(b, g.num, g.den)) << g.num << "/" << g.den << " draw " << i;
    EXPECT_EQ(a.next_u64(), b.next_u64()) << g.num << "/" << g.den;
  }
}
