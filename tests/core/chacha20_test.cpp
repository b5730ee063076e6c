// ChaCha20 (OpenSSL) as the engine reads it, the secure generator built on it, and the cell-addressed
// streams of DP-DBSCAN's histograms (core/chacha20.hpp, core/cell_streams.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "core/cell_streams.hpp"
#include "core/chacha20.hpp"
#include "core/rng.hpp"

namespace dpclust {
namespace {

ChaChaKey rfc_key() {
  ChaChaKey k{};
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<std::uint8_t>(i);
  return k;
}

TEST(ChaCha20, Rfc8439BlockTestVector) {
  // RFC 8439 section 2.3.2: key 00..1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00, block counter 1; the
  // serialized block begins 10 f1 e7 e4 d1 3b 59 15 | 50 0f dd 1f a3 20 71 c4 and ends ... a2 50 3c 4e.
  ChaCha20 c(rfc_key());
  std::uint64_t w[8];
  c.blocks(ChaChaNonce{0x09000000u, 0x4a000000u, 0}, 1, w, 1);
  EXPECT_EQ(w[0], 0x15593bd1e4e7f110ULL);
  EXPECT_EQ(w[1], 0xc47120a31fdd0f50ULL);
  EXPECT_EQ(w[7], 0x4e3c50a2e883d0cbULL);
}

TEST(ChaCha20, BlocksAreAddressedByCounter) {
  // Block b of a bulk call equals the block generated alone at counter b.
  ChaCha20 c(seeded_chacha_key(7));
  std::vector<std::uint64_t> bulk(8 * 100);
  c.blocks(ChaChaNonce{1, 2, 3}, 1000, bulk.data(), 100);
  std::uint64_t one[8];
  c.blocks(ChaChaNonce{1, 2, 3}, 1057, one, 1);
  EXPECT_TRUE(std::equal(one, one + 8, bulk.begin() + 57 * 8));
  EXPECT_THROW(c.blocks(ChaChaNonce{1, 2, 3}, 0xffffffffu, bulk.data(), 2), std::logic_error);
}

TEST(ChaCha20, SeededKeysDifferBySeed) {
  EXPECT_NE(seeded_chacha_key(1), seeded_chacha_key(2));
  EXPECT_EQ(seeded_chacha_key(5), seeded_chacha_key(5));
  EXPECT_NE(os_chacha_key(), os_chacha_key());
}

TEST(SecureRng, EveryWordComesFromChaCha20KeyedByTheOs) {
  Rng a = Rng::secure(), b = Rng::secure();
  ASSERT_NE(a.chacha_stream(), nullptr);
  EXPECT_TRUE(a.is_secure());
  EXPECT_THROW((void)a.seed(), std::logic_error);
  // Two secure generators share nothing: their first 1000 words differ everywhere (2^-64 per word).
  int equal = 0;
  for (int i = 0; i < 1000; ++i) equal += a.next_u64() == b.next_u64();
  EXPECT_EQ(equal, 0);
  // No seeded generator is built by a secure one, also not when split.
  const std::uint64_t before = seeded_generators_built();
  Rng c = a.split(3);
  EXPECT_TRUE(c.is_secure());
  for (int i = 0; i < 5000; ++i) (void)c.laplace(1.0);
  EXPECT_EQ(seeded_generators_built(), before);
  Rng seeded(1);
  EXPECT_EQ(seeded_generators_built(), before + 1);
}

TEST(CellStreams, LayoutFirstBlockThenOwnOverflowStream) {
  const ChaChaKey key = seeded_chacha_key(11);
  const CellStreams streams(key, 5, Randomness::seeded);
  CellCursor cursor(streams);
  const std::uint64_t cell = (std::uint64_t{3} << 32) + 77;
  Rng& r = cursor.at(cell);
  std::vector<std::uint64_t> got(24);
  for (auto& w : got) w = r.next_u64();
  ChaCha20 c(key);
  std::uint64_t first[8], rest[16];
  c.blocks(ChaChaNonce{5, 3, 0}, 77, first, 1);
  c.blocks(ChaChaNonce{5u | 0x80000000u, 3, 77}, 0, rest, 2);
  EXPECT_TRUE(std::equal(first, first + 8, got.begin()));
  EXPECT_TRUE(std::equal(rest, rest + 16, got.begin() + 8));
  EXPECT_THROW(CellStreams(key, 0x80000000u, Randomness::seeded), std::logic_error);
}

TEST(CellStreams, ACellsWordsDoNotDependOnTheVisitingOrder) {
  const CellStreams streams(seeded_chacha_key(3), 1, Randomness::seeded);
  auto words_of = [&](const std::vector<std::uint64_t>& order) {
    CellCursor cursor(streams);
    std::vector<std::vector<std::uint64_t>> out(2000);
    for (std::uint64_t cell : order) {
      Rng& r = cursor.at(cell);
      // A variable number of words per cell, some past the first block.
      for (std::uint64_t k = 0; k < 3 + cell % 11; ++k) out[cell].push_back(r.next_u64());
    }
    return out;
  };
  std::vector<std::uint64_t> ascending(2000), scattered(2000);
  for (std::uint64_t i = 0; i < 2000; ++i) ascending[i] = i;
  for (std::uint64_t i = 0; i < 2000; ++i) scattered[i] = (i * 1237) % 2000;  // a permutation (gcd = 1)
  EXPECT_EQ(std::set<std::uint64_t>(scattered.begin(), scattered.end()).size(), 2000u);
  const auto a = words_of(ascending), b = words_of(scattered);
  EXPECT_EQ(a, b);
  // Distinct cells, distinct streams.
  EXPECT_NE(a[0][0], a[1][0]);
  // The cell streams of a secure trial are keyed from the OS; a seeded trial's from one word of its seed.
  Rng secure = Rng::secure();
  EXPECT_EQ(CellStreams::for_trial(secure, 1).mode(), Randomness::secure);
  Rng s1(9), s2(9);
  EXPECT_EQ(CellStreams::for_trial(s1, 1).key(), CellStreams::for_trial(s2, 1).key());
}

}  // namespace
}  // namespace dpclust
