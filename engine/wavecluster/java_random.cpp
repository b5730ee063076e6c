#include "wavecluster/java_random.hpp"

#include <stdexcept>

namespace dpclust::wavecluster {

namespace {
constexpr std::uint64_t kMultiplier = 0x5DEECE66DULL;
constexpr std::uint64_t kAddend = 0xBULL;
constexpr std::uint64_t kMask = (std::uint64_t{1} << 48) - 1;
}  // namespace

void JavaRandom::set_seed(std::int64_t seed) { seed_ = (static_cast<std::uint64_t>(seed) ^ kMultiplier) & kMask; }

std::int32_t JavaRandom::next(int bits) {
  seed_ = (seed_ * kMultiplier + kAddend) & kMask;  // unsigned arithmetic wraps as Java's long does
  // (int)(seed >>> (48 - bits)): the low 32 bits, read as two's complement.
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(seed_ >> (48 - bits)));
}

std::int32_t JavaRandom::next_int() { return next(32); }

std::int32_t JavaRandom::next_int(std::int32_t bound) {
  if (bound <= 0) throw std::invalid_argument("JavaRandom::next_int: bound must be positive");
  std::int32_t r = next(31);
  const std::int32_t m = bound - 1;
  if ((bound & m) == 0) return static_cast<std::int32_t>((static_cast<std::int64_t>(bound) * r) >> 31);
  // Rejection: u - r + m overflows a Java int exactly when it exceeds INT32_MAX.
  for (std::int64_t u = r; u - (r = static_cast<std::int32_t>(u % bound)) + m > INT32_MAX; u = next(31)) {}
  return r;
}

}  // namespace dpclust::wavecluster
