// NumpyRandomState against numpy itself. Every literal below is the output of numpy 1.24.2's
// numpy.random.RandomState(seed) (Debian 12's python3-numpy), printed with float.hex / int, e.g.
//   rs = np.random.RandomState(30); [rs.random_sample().hex() for _ in range(3)]
// Each expectation uses a fresh generator, as each Python line did.
#include "core/numpy_random.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "core/error.hpp"

namespace dpclust {
namespace {

template <class Draw>
std::vector<double> draws(std::uint32_t seed, std::size_t count, Draw draw) {
  NumpyRandomState rs(seed);
  std::vector<double> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(draw(rs));
  return out;
}

template <class Draw>
std::vector<std::int64_t> int_draws(std::uint32_t seed, std::size_t count, Draw draw) {
  NumpyRandomState rs(seed);
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(draw(rs));
  return out;
}

// Exact equality (EXPECT_EQ on doubles compares bits up to the sign of zero, which is what we want).
TEST(NumpyRandomState, RawWordsAreMt19937InitGenrand) {
  // np.random.RandomState(s).randint(0, 2**32, size=3, dtype=np.uint32)
  EXPECT_EQ(int_draws(30, 3, [](auto& rs) { return rs.next_uint32(); }),
            (std::vector<std::int64_t>{2766575397, 3938390437, 1635302317}));
  EXPECT_EQ(int_draws(0, 3, [](auto& rs) { return rs.next_uint32(); }),
            (std::vector<std::int64_t>{2357136044, 2546248239, 3071714933}));
}

TEST(NumpyRandomState, RandomSample) {
  EXPECT_EQ(draws(30, 3, [](auto& rs) { return rs.random_sample(); }),
            (std::vector<double>{0x1.49cd2e7aafc46p-1, 0x1.85e2ee9befd78p-2, 0x1.537b03da322d2p-1}));
  EXPECT_EQ(draws(0, 3, [](auto& rs) { return rs.random_sample(); }),
            (std::vector<double>{0x1.18fe1565f12a8p-1, 0x1.6e2d4cf608733p-1, 0x1.349d66b6e894bp-1}));
}

TEST(NumpyRandomState, StandardNormalUsesThePolarMethodsCachedValue) {
  EXPECT_EQ(draws(30, 5, [](auto& rs) { return rs.standard_normal(); }),
            (std::vector<double>{-0x1.4398f497a2e48p+0, 0x1.8724ce1caba47p+0, -0x1.f10106293c2d6p-1,
                                 0x1.e1da614433bb8p-2, -0x1.9c742900f4d4bp-4}));
  EXPECT_EQ(draws(0, 5, [](auto& rs) { return rs.standard_normal(); }),
            (std::vector<double>{0x1.c398ef3e5cfa5p+0, 0x1.99c2cfacc8953p-2, 0x1.f51d25222c9abp-1, 0x1.1ed5969e3314ep+1,
                                 0x1.de1847cb13ddap+0}));
}

TEST(NumpyRandomState, NormalAndUniform) {
  EXPECT_EQ(draws(30, 3, [](auto& rs) { return rs.normal(1.5, 0.25); }),
            (std::vector<double>{0x1.2f19c2da1746ep+0, 0x1.e1c933872ae92p+0, 0x1.41dfdf3ad87a5p+0}));
  EXPECT_EQ(draws(0, 3, [](auto& rs) { return rs.uniform(-10, 10); }),
            (std::vector<double>{0x1.f3d9abf6d7520p-1, 0x1.1371406715200p+2, 0x1.071301928ae78p+1}));
  EXPECT_EQ(draws(30, 3, [](auto& rs) { return rs.uniform(-10, 10); }),
            (std::vector<double>{0x1.7101e8656ed60p+1, -0x1.3148ab7a28654p+1, 0x1.a1671342fae18p+1}));
}

TEST(NumpyRandomState, Laplace) {
  EXPECT_EQ(draws(30, 5, [](auto& rs) { return rs.laplace(0, 1); }),
            (std::vector<double>{0x1.5c3e196c87af6p-2, -0x1.170221fee6606p-2, 0x1.9423ac3549b95p-2,
                                 -0x1.1deb6ea5de730p+0, 0x1.4bec381cdf24fp+1}));
  EXPECT_EQ(draws(0, 5, [](auto& rs) { return rs.laplace(0, 1); }),
            (std::vector<double>{0x1.a4c56907608b9p-4, 0x1.20252b72516c7p-1, 0x1.d73211528d9b4p-3, 0x1.813ebccc1b1d6p-4,
                                 -0x1.5354d23846f13p-3}));
  EXPECT_EQ(draws(0, 3, [](auto& rs) { return rs.laplace(3.5, 2.25); }),
            (std::vector<double>{0x1.dd95e16284c9dp+1, 0x1.310a743826e68p+2, 0x1.01218537cdf4fp+2}));
}

TEST(NumpyRandomState, RandintSmallRangeUses32BitWords) {
  EXPECT_EQ(int_draws(30, 10, [](auto& rs) { return rs.randint(0, 10); }),
            (std::vector<std::int64_t>{5, 5, 4, 7, 2, 5, 1, 3, 9, 7}));
  EXPECT_EQ(int_draws(0, 10, [](auto& rs) { return rs.randint(0, 10); }),
            (std::vector<std::int64_t>{5, 0, 3, 3, 7, 9, 3, 5, 2, 4}));
}

TEST(NumpyRandomState, RandintWideRangeUses64BitWordsHighFirst) {
  EXPECT_EQ(int_draws(30, 4, [](auto& rs) { return rs.randint(0, std::int64_t{1} << 40); }),
            (std::vector<std::int64_t>{162852180389, 743966748461, 1049730004108, 651301991298}));
  EXPECT_EQ(int_draws(0, 4, [](auto& rs) { return rs.randint(0, std::int64_t{1} << 40); }),
            (std::vector<std::int64_t>{741280623151, 506137267392, 291447657211, 841157541223}));
}

TEST(NumpyRandomState, RandintNegativeAndFullRanges) {
  // rs.randint(-2**63, 2**63 - 1) three times, then rs.randint(-5, 3) five times, on one generator.
  NumpyRandomState rs(30);
  const std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(rs.randint(lo, hi), 2658978819116831141);
  EXPECT_EQ(rs.randint(lo, hi), -2199802065329344723);
  EXPECT_EQ(rs.randint(lo, hi), 3007703012883346572);
  std::vector<std::int64_t> small;
  for (int i = 0; i < 5; ++i) small.push_back(rs.randint(-5, 3));
  EXPECT_EQ(small, (std::vector<std::int64_t>{2, -3, 0, -2, -4}));
}

TEST(NumpyRandomState, RandintRejectsAnEmptyRange) {
  NumpyRandomState rs(0);
  EXPECT_THROW(rs.randint(3, 3), InputError);
  EXPECT_EQ(rs.randint(7, 8), 7);  // a one-value range draws nothing and returns low
}

TEST(NumpyRandomState, ShuffleAndPermutation) {
  for (const auto& [seed, expected] :
       {std::pair<std::uint32_t, std::vector<std::int64_t>>{30, {0, 1, 2, 3, 6, 4, 7, 8, 9, 5}},
        std::pair<std::uint32_t, std::vector<std::int64_t>>{0, {2, 8, 4, 9, 1, 6, 7, 3, 0, 5}}}) {
    NumpyRandomState shuffler(seed);
    std::vector<std::int64_t> values(10);
    std::iota(values.begin(), values.end(), 0);
    shuffler.shuffle(values.data(), values.size());  // a = np.arange(10); rs.shuffle(a)
    EXPECT_EQ(values, expected) << "seed " << seed;
    EXPECT_EQ(NumpyRandomState(seed).permutation(10), expected) << "seed " << seed;
  }
  // rs.permutation(2000)[:5]: the size sklearn's make_* shuffle with.
  const std::vector<std::int64_t> perm = NumpyRandomState(30).permutation(2000);
  EXPECT_EQ(std::vector<std::int64_t>(perm.begin(), perm.begin() + 5),
            (std::vector<std::int64_t>{1856, 364, 1948, 1458, 609}));
}

TEST(NumpyRandomState, LargestSeed) {
  EXPECT_EQ(draws(4294967295u, 2, [](auto& rs) { return rs.random_sample(); }),
            (std::vector<double>{0x1.8fe69a3924820p-4, 0x1.d323d824032b1p-1}));
}

}  // namespace
}  // namespace dpclust
