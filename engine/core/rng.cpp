#include "core/rng.hpp"

#include <sys/random.h>
#include <boost/random/binomial_distribution.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "core/error.hpp"

namespace dpclust {

const char* to_string(Randomness r) { return r == Randomness::secure ? "secure" : "seeded"; }

Randomness parse_randomness(std::string_view name, const std::string& where) {
  if (name == "seeded") return Randomness::seeded;
  if (name == "secure") return Randomness::secure;
  throw InputError(
      where, "randomness must be seeded or secure, got '" + std::string(name.substr(0, 60)) + "'",
      "randomness: seeded (reproducible, the paper sweeps; the seed is published, so not a secure release) or "
      "randomness: secure (OS CSPRNG, no seed, not reproducible)");
}

namespace {
void fill_from_os(void* out, std::size_t bytes) {
  auto* p = static_cast<unsigned char*>(out);
  while (bytes > 0) {
    const ssize_t got = ::getrandom(p, bytes, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno) +
                               " (no secure randomness; nothing was released)");
    }
    p += got;
    bytes -= static_cast<std::size_t>(got);
  }
}
}  // namespace

std::uint64_t os_random_u64() {
  std::uint64_t x = 0;
  fill_from_os(&x, sizeof x);
  return x;
}

namespace {
std::atomic<std::uint64_t> g_seeded_generators{0};
}  // namespace

std::uint64_t seeded_generators_built() { return g_seeded_generators.load(std::memory_order_relaxed); }

Rng::Rng(std::uint64_t seed) : engine_(seed), seed_(seed) {
  g_seeded_generators.fetch_add(1, std::memory_order_relaxed);
}

Rng Rng::secure() {
  // The key is secret and used once, so the nonce may be fixed.
  return Rng(std::make_unique<ChaChaWordStream>(os_chacha_key(), ChaChaNonce{0, 0, 0}), Randomness::secure);
}

Rng Rng::over_stream(std::unique_ptr<ChaChaWordStream> stream, Randomness mode) {
  if (!stream) throw std::logic_error("Rng::over_stream: no stream");
  return Rng(std::move(stream), mode);
}

std::uint64_t Rng::seed() const {
  if (stream_)
    throw std::logic_error(is_secure() ? "a secure generator (randomness: secure) has no seed to write or reuse"
                                       : "a cell's ChaCha20 generator has no seed of its own");
  return seed_;
}

Rng Rng::split(std::uint64_t tag) const {
  if (is_secure()) return secure();
  if (stream_) throw std::logic_error("Rng::split of a cell's ChaCha20 generator");
  return Rng(splitmix64(seed_ ^ tag));
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t fnv1a64(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::uint64_t derive_seed(std::uint64_t base_seed, std::string_view cell_key, std::uint64_t trial) {
  return splitmix64(splitmix64(splitmix64(base_seed) ^ fnv1a64(cell_key)) ^ trial);
}

double Rng::normal() { return boost::random::normal_distribution<double>(0.0, 1.0)(*this); }

double Rng::laplace(double scale) {
  // u uniform on (-1/2, 1/2), excluding the endpoints: x = -scale * sgn(u) * ln(1 - 2|u|).
  const double u = uniform_open() - 0.5;
  const double a = std::fabs(u);
  const double mag = -scale * std::log1p(-2.0 * a);
  return u < 0 ? -mag : mag;
}

double Rng::exponential(double rate) { return -std::log(uniform_open()) / rate; }

double Rng::gamma(double shape, double scale) { return boost::random::gamma_distribution<double>(shape, scale)(*this); }

std::uint64_t Rng::binomial(std::uint64_t trials, double p) {
  return static_cast<std::uint64_t>(
      boost::random::binomial_distribution<long long, double>(static_cast<long long>(trials), p)(*this));
}

}  // namespace dpclust
