#pragma once
// Randomness with a stream that is the same on every platform, compiler and thread count.
//
// Engine: std::mt19937_64, whose output sequence the C++ standard fixes. Distributions: the standard
// library's are implementation-defined (libstdc++ and libc++ differ), so every draw here is either
// written out below (uniform, Laplace, exponential, integer) or taken from Boost.Random, whose
// algorithms are fixed code (normal = ziggurat, gamma, binomial).
//
// Seeds: every trial gets its own generator, seeded by derive_seed(base, cell_key, trial) (see
// README "Seeds"), so no generator is ever shared between threads and results never depend on the
// order in which trials run. A config may instead list the seeds (`seeds: [0, 1, 2]`, a paper's own
// seeds): trial t then uses seeds[t] itself, in every cell.
#include <cstdint>
#include <random>
#include <string_view>

namespace dpclust {

// SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
std::uint64_t splitmix64(std::uint64_t x);
// FNV-1a 64-bit hash of a string: stable across platforms (unlike std::hash).
std::uint64_t fnv1a64(std::string_view s);
// Seed of trial `trial` of the cell whose canonical key is `cell_key`:
//   splitmix64(splitmix64(splitmix64(base) ^ fnv1a64(cell_key)) ^ trial)
std::uint64_t derive_seed(std::uint64_t base_seed, std::string_view cell_key, std::uint64_t trial);

class Rng {
 public:
  using engine_type = std::mt19937_64;
  explicit Rng(std::uint64_t seed) : engine_(seed), seed_(seed) {}

  // The seed this generator was built from: the trial's seed for the generator a method receives. A
  // method offering another stream (the authors' numpy stream, `rng: numpy`) seeds that stream from it.
  std::uint64_t seed() const { return seed_; }

  std::uint64_t next_u64() { return engine_(); }
  // Uniform on [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Uniform on (0, 1): never 0, for logarithms.
  double uniform_open() { return open_unit(engine_()); }
  // The value uniform_open() makes of one 64-bit word: (top 53 bits + 1/2) / 2^53. The top word
  // would round to exactly 1.0 (2^53 - 1/2 needs 54 bits), which made Laplace(1 - 1.0) infinite;
  // it maps to the largest double below 1 instead, and every other word keeps its value.
  static double open_unit(std::uint64_t word) {
    const double u = (static_cast<double>(word >> 11) + 0.5) * 0x1.0p-53;
    return u < 1.0 ? u : 0x1.fffffffffffffp-1;
  }
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  // Unbiased integer in [0, n) (Lemire's multiply-shift with rejection); n > 0.
  std::uint64_t below(std::uint64_t n);
  // Standard normal (Boost.Random ziggurat).
  double normal();
  double normal(double mean, double sd) { return mean + sd * normal(); }
  // Laplace(0, scale) by inverse CDF: density exp(-|x|/scale) / (2 scale).
  double laplace(double scale);
  // Exponential with the given rate (mean 1/rate).
  double exponential(double rate);
  // Gamma(shape, scale) (Boost.Random).
  double gamma(double shape, double scale);
  // Binomial(trials, p) for trials up to 2^63 (Boost.Random, BTRD for large means).
  std::uint64_t binomial(std::uint64_t trials, double p);
  // Fisher-Yates shuffle of [first, first+n).
  template <class T>
  void shuffle(T* first, std::size_t n) {
    for (std::size_t i = n; i > 1; --i) {
      std::size_t j = static_cast<std::size_t>(below(i));
      std::swap(first[i - 1], first[j]);
    }
  }

  engine_type& engine() { return engine_; }

 private:
  engine_type engine_;
  std::uint64_t seed_;
};

}  // namespace dpclust
