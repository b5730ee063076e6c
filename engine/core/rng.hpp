#pragma once
// Randomness with a stream that is the same on every platform, compiler and thread count.
//
// Engine: MT19937-64 (core/mt19937_64.hpp: std::mt19937_64's sequence, which the C++ standard fixes,
// with a faster state refill). Distributions: the standard
// library's are implementation-defined (libstdc++ and libc++ differ), so every draw here is either
// written out below (uniform, Laplace, exponential, integer) or taken from Boost.Random, whose
// algorithms are fixed code (normal = ziggurat, gamma, binomial).
//
// Seeds: every trial gets its own generator, seeded by derive_seed(base, cell_key, trial) (see
// docs/results.md "Seeds and randomness"), so no generator is ever shared between threads and results never depend on
// the order in which trials run. A config may instead list the seeds (`seeds: [0, 1, 2]`, a paper's own seeds): trial t
// then uses seeds[t] itself, in every cell.
//
// Two randomness modes (docs/results.md "Seeds and randomness"):
//   seeded  the above: reproducible, and therefore NOT a secure release: the seed is published with each
//           trial and mt19937_64 is not a cryptographic generator, so anyone holding the results file
//           regenerates the noise and subtracts it (PrivQT's counts come back exactly).
//   secure  every 64-bit word comes from ChaCha20 (core/chacha20.hpp, OpenSSL) keyed with 256 bits from the
//           operating system's CSPRNG (getrandom(2)): there is no seed, nothing to write down, and no run can
//           be repeated. The samplers and the Boost distributions all draw through next_u64() / operator(),
//           so they use it unchanged. No code path builds a seeded generator during a secure release
//           (seeded_generators_built() lets a test check it).
// A third kind of generator reads the ChaCha20 stream addressed by a cell (core/cell_streams.hpp): the noise
// of DP-DBSCAN's cells, keyed per trial (from the trial's seed when seeded, from the OS when secure).
#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "core/chacha20.hpp"
#include "core/mt19937_64.hpp"

namespace dpclust {

// SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
std::uint64_t splitmix64(std::uint64_t x);
// FNV-1a 64-bit hash of a string: stable across platforms (unlike std::hash).
std::uint64_t fnv1a64(std::string_view s);
// Seed of trial `trial` of the cell whose canonical key is `cell_key`:
//   splitmix64(splitmix64(splitmix64(base) ^ fnv1a64(cell_key)) ^ trial)
std::uint64_t derive_seed(std::uint64_t base_seed, std::string_view cell_key, std::uint64_t trial);

// `randomness: seeded | secure` (config top level; the Python estimators' `randomness`).
enum class Randomness { seeded, secure };
const char* to_string(Randomness r);
// "seeded" / "secure"; throws InputError(where, ...) naming both otherwise.
Randomness parse_randomness(std::string_view name, const std::string& where);
// One 64-bit word from the operating system's CSPRNG (getrandom(2)); for values that must not be
// derived from anything written down (a secure trial's evaluation-only generators).
std::uint64_t os_random_u64();

// How many generators were built from a seed (Rng(seed), and split() of a seeded one) in this process:
// a test runs a secure release and checks that the count did not move (no path of a secure
// release may build a seeded generator).
std::uint64_t seeded_generators_built();

class Rng {
 public:
  using engine_type = Mt19937_64;
  // A uniform random bit generator (for Boost.Random): the same result type and range as mt19937_64, so
  // the seeded stream of every Boost distribution is the one it was before the secure mode existed.
  using result_type = engine_type::result_type;
  static constexpr result_type min() { return engine_type::min(); }
  static constexpr result_type max() { return engine_type::max(); }

  explicit Rng(std::uint64_t seed);
  // A generator drawing from ChaCha20 keyed from the OS CSPRNG (randomness: secure). It has no seed.
  static Rng secure();
  // A generator reading `stream` (a cell's ChaCha20 stream, core/cell_streams.hpp); `mode` is the mode of
  // the trial whose key it uses. It has no seed of its own.
  static Rng over_stream(std::unique_ptr<ChaChaWordStream> stream, Randomness mode);
  // A generator for `mode`: Rng(seed) when seeded, Rng::secure() (seed ignored) when secure.
  static Rng make(Randomness mode, std::uint64_t seed) { return mode == Randomness::secure ? secure() : Rng(seed); }
  // An independent generator for a side computation (an evaluation probe): Rng(splitmix64(seed ^ tag))
  // when seeded, a fresh secure generator when secure.
  Rng split(std::uint64_t tag) const;

  bool is_secure() const { return mode_ == Randomness::secure; }
  Randomness mode() const { return mode_; }
  // The ChaCha20 stream this generator reads (secure and cell generators), or null (seeded MT19937-64).
  ChaChaWordStream* chacha_stream() { return stream_.get(); }
  // The seed this generator was built from: the trial's seed for the generator a method receives. A
  // method offering another stream (the authors' numpy stream, `rng: numpy`) seeds that stream from it.
  // A secure generator has none: std::logic_error (nothing may write or reuse one).
  std::uint64_t seed() const;

  std::uint64_t next_u64() {
    if (stream_) [[unlikely]]
      return stream_->next();
    return engine_();
  }
  result_type operator()() { return next_u64(); }
  // Skips n words, as n calls of next_u64() would (a seeded stream continues where it would have).
  void discard(std::uint64_t n) {
    if (stream_) [[unlikely]] {
      for (; n > 0; --n) stream_->next();
      return;
    }
    engine_.discard(n);
  }
  // Uniform on [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  // Uniform on (0, 1): never 0, for logarithms.
  double uniform_open() { return open_unit(next_u64()); }
  // The value uniform_open() makes of one 64-bit word: (top 53 bits + 1/2) / 2^53. The top word
  // would round to exactly 1.0 (2^53 - 1/2 needs 54 bits), which made Laplace(1 - 1.0) infinite;
  // it maps to the largest double below 1 instead, and every other word keeps its value.
  static double open_unit(std::uint64_t word) {
    const double u = (static_cast<double>(word >> 11) + 0.5) * 0x1.0p-53;
    return u < 1.0 ? u : 0x1.fffffffffffffp-1;
  }
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  // Unbiased integer in [0, n) (Lemire's multiply-shift with rejection); n > 0. Inline: the exact
  // samplers (privacy/samplers.cpp) call it for most of their random words.
  std::uint64_t below(std::uint64_t n) {
    // Lemire (2019), "Fast random integer generation in an interval".
    __extension__ typedef unsigned __int128 u128;
    u128 m = static_cast<u128>(next_u64()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) [[unlikely]] {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<u128>(next_u64()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }
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

  // The generator Boost distributions draw from: this Rng itself (seeded or secure).
  Rng& engine() { return *this; }

 private:
  Rng(std::unique_ptr<ChaChaWordStream> stream, Randomness mode)
      : engine_(0), seed_(0), mode_(mode), stream_(std::move(stream)) {}
  engine_type engine_;
  std::uint64_t seed_;
  Randomness mode_ = Randomness::seeded;
  std::unique_ptr<ChaChaWordStream> stream_;  // null for a seeded MT19937-64 generator
};

}  // namespace dpclust
