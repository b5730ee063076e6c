// numpy's Generator (PCG64, SeedSequence), see numpy_generator.hpp.
#include "core/numpy_generator.hpp"

#include <array>
#include <limits>

namespace dpclust {
namespace {

// SeedSequence's constants (O'Neill's seed_seq_fe with numpy's choices).
constexpr std::uint32_t kInitA = 0x43b0d7e5, kMultA = 0x931e8875, kInitB = 0x8b51f9dd, kMultB = 0x58f38ded;
constexpr std::uint32_t kMixMultL = 0xca01f9dd, kMixMultR = 0x4973f715;
constexpr unsigned kXShift = 16;
constexpr std::size_t kPoolSize = 4;

std::array<std::uint32_t, kPoolSize> seed_pool(std::uint64_t seed) {
  std::vector<std::uint32_t> entropy;
  do {
    entropy.push_back(static_cast<std::uint32_t>(seed));
    seed >>= 32;
  } while (seed != 0);
  std::uint32_t hash_const = kInitA;
  const auto hashmix = [&](std::uint32_t v) {
    v ^= hash_const;
    hash_const *= kMultA;
    v *= hash_const;
    v ^= v >> kXShift;
    return v;
  };
  const auto mix = [](std::uint32_t x, std::uint32_t y) {
    std::uint32_t r = kMixMultL * x - kMixMultR * y;
    r ^= r >> kXShift;
    return r;
  };
  std::array<std::uint32_t, kPoolSize> pool{};
  for (std::size_t i = 0; i < kPoolSize; ++i) pool[i] = hashmix(i < entropy.size() ? entropy[i] : 0);
  for (std::size_t src = 0; src < kPoolSize; ++src)
    for (std::size_t dst = 0; dst < kPoolSize; ++dst)
      if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
  for (std::size_t src = kPoolSize; src < entropy.size(); ++src)
    for (std::size_t dst = 0; dst < kPoolSize; ++dst) pool[dst] = mix(pool[dst], hashmix(entropy[src]));
  return pool;
}

}  // namespace

std::vector<std::uint32_t> NumpyGenerator::seed_sequence_state(std::uint64_t seed, std::size_t n_words) {
  const auto pool = seed_pool(seed);
  std::uint32_t hash_const = kInitB;
  std::vector<std::uint32_t> out(n_words);
  for (std::size_t i = 0; i < n_words; ++i) {
    std::uint32_t v = pool[i % kPoolSize];
    v ^= hash_const;
    hash_const *= kMultB;
    v *= hash_const;
    v ^= v >> kXShift;
    out[i] = v;
  }
  return out;
}

namespace {
__extension__ typedef unsigned __int128 uint128;
constexpr uint128 kPcgMultiplier = (static_cast<uint128>(0x2360ed051fc65da4ULL) << 64) | 0x4385df649fccf645ULL;
}  // namespace

NumpyGenerator::NumpyGenerator(std::uint64_t seed) {
  // generate_state(4, uint64): consecutive 32-bit words, the first of each pair the low half.
  const std::vector<std::uint32_t> w = seed_sequence_state(seed, 8);
  const auto word = [&](std::size_t i) { return (static_cast<std::uint64_t>(w[2 * i + 1]) << 32) | w[2 * i]; };
  const u128 initstate = (static_cast<u128>(word(0)) << 64) | word(1);
  const u128 initseq = (static_cast<u128>(word(2)) << 64) | word(3);
  inc_ = (initseq << 1) | 1u;
  state_ = 0;
  state_ = state_ * kPcgMultiplier + inc_;
  state_ += initstate;
  state_ = state_ * kPcgMultiplier + inc_;
}

std::uint64_t NumpyGenerator::next_uint64() {
  state_ = state_ * kPcgMultiplier + inc_;
  const std::uint64_t x = static_cast<std::uint64_t>(state_ >> 64) ^ static_cast<std::uint64_t>(state_);
  const unsigned rot = static_cast<unsigned>(state_ >> 122);
  return (x >> rot) | (x << ((64u - rot) & 63u));
}

std::uint32_t NumpyGenerator::next_uint32() {
  if (has_buffered_) {
    has_buffered_ = false;
    return buffered_;
  }
  const std::uint64_t v = next_uint64();
  buffered_ = static_cast<std::uint32_t>(v >> 32);
  has_buffered_ = true;
  return static_cast<std::uint32_t>(v);
}

std::int64_t NumpyGenerator::integers(std::int64_t low, std::int64_t high) {
  const std::uint64_t rng = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) - 1u;
  const auto off = static_cast<std::uint64_t>(low);
  if (rng == 0) return low;
  if (rng <= 0xffffffffULL) {
    if (rng == 0xffffffffULL) return static_cast<std::int64_t>(off + next_uint32());
    const auto rng32 = static_cast<std::uint32_t>(rng);
    const std::uint32_t excl = rng32 + 1u;
    std::uint64_t m = static_cast<std::uint64_t>(next_uint32()) * excl;
    auto leftover = static_cast<std::uint32_t>(m);
    if (leftover < excl) {
      const std::uint32_t threshold = (std::numeric_limits<std::uint32_t>::max() - rng32) % excl;
      while (leftover < threshold) {
        m = static_cast<std::uint64_t>(next_uint32()) * excl;
        leftover = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::int64_t>(off + (m >> 32));
  }
  if (rng == std::numeric_limits<std::uint64_t>::max()) return static_cast<std::int64_t>(off + next_uint64());
  const std::uint64_t excl = rng + 1u;
  u128 m = static_cast<u128>(next_uint64()) * excl;
  auto leftover = static_cast<std::uint64_t>(m);
  if (leftover < excl) {
    const std::uint64_t threshold = (std::numeric_limits<std::uint64_t>::max() - rng) % excl;
    while (leftover < threshold) {
      m = static_cast<u128>(next_uint64()) * excl;
      leftover = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::int64_t>(off + static_cast<std::uint64_t>(m >> 64));
}

std::uint64_t NumpyGenerator::random_interval(std::uint64_t max) {
  if (max == 0) return 0;
  std::uint64_t mask = max;
  for (unsigned s = 1; s < 64; s <<= 1) mask |= mask >> s;
  std::uint64_t value = 0;
  if (max <= 0xffffffffULL) {
    while ((value = (next_uint32() & mask)) > max) {}
  } else {
    while ((value = (next_uint64() & mask)) > max) {}
  }
  return value;
}

std::vector<std::int64_t> NumpyGenerator::permutation(std::size_t n) {
  std::vector<std::int64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int64_t>(i);
  for (std::size_t i = n; i > 1; --i) {
    const auto j = static_cast<std::size_t>(random_interval(i - 1));
    std::swap(v[i - 1], v[j]);
  }
  return v;
}

}  // namespace dpclust
