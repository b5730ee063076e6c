#pragma once
// numpy's legacy random stream, numpy.random.RandomState(seed), draw for draw.
//
// Why: the DP-DBSCAN authors' code and scikit-learn (make_moons, make_circles, make_blobs, utils.shuffle,
// every `random_state=int`) draw from RandomState. Reproducing their data sets and noise exactly, not
// just in distribution, needs the same stream: same engine, same seeding, and the same algorithm per
// distribution, down to the order of floating-point operations. dpclust's own stream (core/rng.hpp,
// mt19937_64 + Boost) stays the default everywhere; this one is chosen explicitly (`stream: numpy`).
//
// Algorithms (written from their published descriptions, checked value by value against numpy 1.24):
//   engine      32-bit Mersenne Twister MT19937 (Matsumoto & Nishimura 1998). RandomState(int) seeds it
//               with init_genrand (Knuth's multiplier 1812433253), which is exactly what std::mt19937's
//               seed constructor does, and the C++ standard fixes that engine's output sequence.
//   random_sample  53-bit double from two 32-bit words: ((a >> 5) * 2^26 + (b >> 6)) / 2^53.
//   standard_normal  Marsaglia's polar method (Marsaglia & Bray 1964) as in numpy's legacy_gauss: one
//               accepted pair gives two normals; the second (f * x1) is cached and returned next.
//   laplace     inverse CDF on one uniform U: U >= 1/2 -> loc - scale*log(2 - U - U), else
//               loc + scale*log(U + U); U == 0 is rejected and redrawn (numpy >= 1.17 random_laplace).
//   randint     numpy's legacy bounded integers: range r = high - low - 1, mask = r with every bit below
//               its top bit set, draw (32-bit word if r < 2^32, else 64-bit word = high word first)
//               & mask until <= r ("masked rejection"; not Lemire's method, which only numpy.Generator uses).
//   random_interval / shuffle / permutation  numpy's legacy shuffle: for i = n-1 down to 1, swap
//               element i with element random_interval(i), random_interval being the same masked
//               rejection on [0, i].
// No method allocates, except permutation(), which returns its vector.
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpclust {

class NumpyRandomState {
 public:
  // numpy.random.RandomState(seed); numpy accepts exactly the seeds 0 .. 2^32 - 1.
  explicit NumpyRandomState(std::uint32_t seed) : engine_(seed) {}

  // One raw 32-bit MT19937 output (numpy: randint(2**32, dtype=np.uint32) draws the same words).
  std::uint32_t next_uint32() { return static_cast<std::uint32_t>(engine_()); }
  // Two words, the first one high: numpy's next_uint64 for the MT19937 bit generator.
  std::uint64_t next_uint64() {
    const std::uint64_t high = next_uint32();
    return (high << 32) | next_uint32();
  }

  // RandomState.random_sample(): uniform on [0, 1), 53 random bits.
  double random_sample() {
    const std::uint32_t a = next_uint32() >> 5, b = next_uint32() >> 6;
    return (static_cast<double>(a) * 67108864.0 + static_cast<double>(b)) / 9007199254740992.0;
  }
  // RandomState.standard_normal(): polar method with the cached second value (see above).
  double standard_normal();
  // RandomState.normal(loc, scale) = loc + scale * standard_normal(); scale >= 0 is the caller's to check.
  double normal(double loc, double scale) { return loc + scale * standard_normal(); }
  // RandomState.uniform(low, high) = low + (high - low) * random_sample().
  double uniform(double low, double high) { return low + (high - low) * random_sample(); }
  // RandomState.laplace(loc, scale).
  double laplace(double loc, double scale);

  // RandomState.randint(low, high) with numpy's default int64 dtype: uniform on [low, high).
  // Throws InputError when low >= high (numpy raises ValueError "low >= high").
  std::int64_t randint(std::int64_t low, std::int64_t high);
  // Uniform on [0, max] (inclusive) by masked rejection: numpy's random_interval, used by shuffle.
  std::uint64_t random_interval(std::uint64_t max);

  // RandomState.shuffle on a 1-D array: Fisher-Yates from the end, j = random_interval(i).
  template <class T>
  void shuffle(T* first, std::size_t n) {
    for (std::size_t i = n; i > 1; --i) {
      const auto j = static_cast<std::size_t>(random_interval(i - 1));
      std::swap(first[i - 1], first[j]);
    }
  }
  // RandomState.permutation(n): shuffle(arange(n)).
  std::vector<std::int64_t> permutation(std::size_t n);

 private:
  std::mt19937 engine_;
  // legacy_gauss's cache: the second normal of the last accepted polar pair.
  double cached_normal_ = 0.0;
  bool has_cached_normal_ = false;
};

// Which random stream draws: the one enum of the dataset generators' `stream` and the methods' `rng`.
//   dpclust  the harness's stream (core/rng.hpp): the default;
//   numpy    numpy's legacy RandomState (this file). A generator draws scikit-learn's exact points; a method
//            (`rng: numpy`) draws its noise from RandomState(trial seed) in the same order as the paper's own
//            code (each method's header says which order), so that with the paper's seeds (`seeds: [0, 1,
//            2]` in the config) a run reproduces the authors' per-seed numbers exactly.
enum class RandomStream { dpclust, numpy };
struct RandomStreamName {
  const char* name;
  RandomStream stream;
};
inline constexpr RandomStreamName kRandomStreamNames[] = {{"dpclust", RandomStream::dpclust},
                                                          {"numpy", RandomStream::numpy}};
const char* to_string(RandomStream stream);
std::vector<std::string> random_stream_names();
// InputError(where, ...) for an unknown name.
RandomStream parse_random_stream(const std::string& name, const std::string& where);

// The methods' `rng` parameter (choices dpclust | numpy, default dpclust) and its value (dpclust when the
// method has no such parameter).
ParamSpec rng_param();
RandomStream rng_of(const ParamSet& params);
// numpy's RandomState takes seeds 0 .. 2^32 - 1: a listed seed (config `seeds:`, checked there) is used
// as it is; a derived 64-bit trial seed is folded to its low 32 bits (documented; the trial's seed is
// in the results).
std::uint32_t numpy_seed_of(const Rng& trial_rng);

}  // namespace dpclust
