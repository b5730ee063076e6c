// numpy.random.default_rng (SeedSequence + PCG64, Generator.integers and .permutation) against numpy 1.24.2 (Debian
// 12). Every literal is numpy's output, e.g. np.random.default_rng(42).integers(0, 773, size=10).tolist().
#include "core/numpy_generator.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace dpclust {
namespace {

std::vector<std::int64_t> draws(NumpyGenerator& g, std::int64_t low, std::int64_t high, int n) {
  std::vector<std::int64_t> v;
  for (int i = 0; i < n; ++i) v.push_back(g.integers(low, high));
  return v;
}

TEST(NumpyGenerator, SeedSequenceWords) {
  // np.random.SeedSequence(s).generate_state(4, np.uint32)
  EXPECT_EQ(NumpyGenerator::seed_sequence_state(42, 4),
            (std::vector<std::uint32_t>{0xcd540ab7, 0x9f1e2e6d, 0x79fb94b6, 0xd57873dc}));
  EXPECT_EQ(NumpyGenerator::seed_sequence_state(0, 4),
            (std::vector<std::uint32_t>{0xb0f478be, 0xdb2cd7e7, 0x2c71ba49, 0xabf4641a}));
  // A seed above 2^32 is two entropy words (low first).
  EXPECT_EQ(NumpyGenerator::seed_sequence_state((std::uint64_t{1} << 40) + 5, 4),
            (std::vector<std::uint32_t>{0xe08a170b, 0xdae41755, 0x7ecdcb2c, 0x8415abe8}));
}

TEST(NumpyGenerator, Pcg64StateAndRawDraws) {
  // np.random.PCG64(42).state and .random_raw(3)
  NumpyGenerator g(42);
  EXPECT_EQ(g.state_high(), 0xcea44f6798798f2aULL);
  EXPECT_EQ(g.state_low(), 0xacbc7c9d68860ac8ULL);
  EXPECT_EQ(g.inc_high(), 0xfa505436c9a8416eULL);
  EXPECT_EQ(g.inc_low(), 0x66caf2e28d25abffULL);
  EXPECT_EQ(g.next_uint64(), 0xc621fbcd16d92688ULL);
  EXPECT_EQ(g.next_uint64(), 0x705a5661a791ffc1ULL);
  EXPECT_EQ(g.next_uint64(), 0xdbcd12c26eda1624ULL);
}

TEST(NumpyGenerator, IntegersAndPermutationAsDefaultRng42) {
  // g = np.random.default_rng(42); g.integers(0, 773, size=10); g.permutation(10); g.integers(0, 2**40, size=3)
  NumpyGenerator g(42);
  EXPECT_EQ(draws(g, 0, 773, 10), (std::vector<std::int64_t>{68, 598, 505, 339, 334, 663, 66, 539, 155, 72}));
  EXPECT_EQ(g.permutation(10), (std::vector<std::int64_t>{4, 8, 2, 6, 5, 9, 7, 3, 0, 1}));
  EXPECT_EQ(draws(g, 0, std::int64_t{1} << 40, 3),
            (std::vector<std::int64_t>{904635960679, 487539067531, 249851616883}));
}

TEST(NumpyGenerator, TheBufferedHalfOfA64BitDrawCarriesOver) {
  // g = np.random.default_rng(42); g.integers(0, 5, size=6); g.integers(0, 2**32 - 1, size=2): the second call
  // starts with the high half the first left (and 2^32 - 1 values take one 32-bit draw each, no rejection).
  NumpyGenerator g(42);
  EXPECT_EQ(draws(g, 0, 5, 6), (std::vector<std::int64_t>{0, 3, 3, 2, 2, 4}));
  EXPECT_EQ(draws(g, 0, 4294967295LL, 2), (std::vector<std::int64_t>{369133708, 2995172877}));
}

TEST(NumpyGenerator, OtherSeedsOffsetsAndRanges) {
  // default_rng(s): integers(0, 10, size=5); integers(-7, 3 * 2**30, size=3); permutation(6)
  NumpyGenerator a(0);
  EXPECT_EQ(draws(a, 0, 10, 5), (std::vector<std::int64_t>{8, 6, 5, 2, 3}));
  EXPECT_EQ(draws(a, -7, 3LL << 30, 3), (std::vector<std::int64_t>{242365455, 53239233, 564575462}));
  EXPECT_EQ(a.permutation(6), (std::vector<std::int64_t>{5, 2, 4, 3, 1, 0}));
  NumpyGenerator b((std::uint64_t{1} << 40) + 5);
  EXPECT_EQ(draws(b, 0, 10, 5), (std::vector<std::int64_t>{0, 0, 4, 3, 9}));
  EXPECT_EQ(draws(b, -7, 3LL << 30, 3), (std::vector<std::int64_t>{1891598383, 2897287121, 487692398}));
  EXPECT_EQ(b.permutation(6), (std::vector<std::int64_t>{3, 2, 4, 5, 1, 0}));
  // default_rng(7): integers(5, 6, size=3) draws nothing; integers(0, 2**63 - 1, size=2) the 64-bit path.
  NumpyGenerator c(7);
  EXPECT_EQ(draws(c, 5, 6, 3), (std::vector<std::int64_t>{5, 5, 5}));
  EXPECT_EQ(draws(c, 0, INT64_MAX, 2), (std::vector<std::int64_t>{5765488047046174020LL, 8275336682942969161LL}));
}

}  // namespace
}  // namespace dpclust
