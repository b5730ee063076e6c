#pragma once
// numpy's new-style random stream, numpy.random.default_rng(seed) (a Generator on PCG64), draw for draw, for
// what DPM's artifact draws with it: Generator.integers(low, high, size) and Generator.permutation(n)
// (UzL-PrivSec/clustering-evaluation, datasets.py uciLetters: 720 rows of each letter with replacement, then a
// permutation, from default_rng(42)). numpy's legacy RandomState is core/numpy_random.hpp.
//
// Algorithms (written from their published descriptions, checked value by value against numpy 1.24.2, Debian
// 12's: tests/core/numpy_generator_test.cpp):
//   SeedSequence   the integer seed as 32-bit words (least significant first; 0 -> [0]), mixed into a pool of
//                  four 32-bit words (hashmix with INIT_A / MULT_A, mix with MIX_MULT_L / MIX_MULT_R, xorshift
//                  16), generate_state(4, uint64) from the pool (INIT_B / MULT_B): O'Neill's seed_seq design as
//                  numpy's bit_generator.pyx implements it; no spawn key.
//   PCG64          128-bit LCG (multiplier 0x2360ed051fc65da44385df649fccf645), seeded as pcg_setseq_128_srandom:
//                  inc = (seq << 1) | 1, state = 0, step, state += initstate, step, with initstate = words 0-1 and
//                  seq = words 2-3 of the seed sequence (high word first); each draw steps, then outputs XSL-RR:
//                  rotr64(high ^ low, state >> 122).
//   next_uint32    PCG64's buffered halves: a 64-bit draw gives its low 32 bits now and its high 32 bits next.
//   integers       [low, high) with numpy's default int64: range r = high - 1 - low; r = 0 draws nothing; r <
//                  2^32 - 1: Lemire's multiply-shift on 32-bit draws with rejection below (2^32 - 1 - r) mod
//                  (r + 1) when the low word is below r + 1 (buffered_bounded_lemire_uint32); r = 2^32 - 1: one
//                  32-bit draw; larger: the same on 64-bit draws with a 128-bit product (bounded_lemire_uint64).
//   permutation    shuffle(arange(n)): for i = n - 1 down to 1, swap element i with random_interval(i), the
//                  masked rejection on [0, i] (32-bit draws when i < 2^32).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpclust {

class NumpyGenerator {
 public:
  // numpy.random.default_rng(seed) for a non-negative integer seed.
  explicit NumpyGenerator(std::uint64_t seed);

  std::uint64_t next_uint64();
  std::uint32_t next_uint32();

  // Generator.integers(low, high) (one draw of integers(low, high, size)); low < high (the caller checks).
  std::int64_t integers(std::int64_t low, std::int64_t high);
  // Generator.permutation(n).
  std::vector<std::int64_t> permutation(std::size_t n);
  // Uniform on [0, max] by masked rejection (numpy's random_interval).
  std::uint64_t random_interval(std::uint64_t max);

  // The generator's 128-bit state and increment (high, low words), as PCG64().state reports them.
  std::uint64_t state_high() const { return static_cast<std::uint64_t>(state_ >> 64); }
  std::uint64_t state_low() const { return static_cast<std::uint64_t>(state_); }
  std::uint64_t inc_high() const { return static_cast<std::uint64_t>(inc_ >> 64); }
  std::uint64_t inc_low() const { return static_cast<std::uint64_t>(inc_); }

  // SeedSequence(seed).generate_state(n, uint32).
  static std::vector<std::uint32_t> seed_sequence_state(std::uint64_t seed, std::size_t n_words);

 private:
  __extension__ typedef unsigned __int128 u128;  // GCC/Clang 128-bit integer (__extension__: no -Wpedantic note)
  u128 state_ = 0, inc_ = 0;
  std::uint32_t buffered_ = 0;
  bool has_buffered_ = false;
};

}  // namespace dpclust
