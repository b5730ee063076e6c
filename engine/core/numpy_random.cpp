#include "core/numpy_random.hpp"

#include <cmath>
#include <string>

#include "core/error.hpp"

namespace dpclust {

double NumpyRandomState::standard_normal() {
  if (has_cached_normal_) {
    has_cached_normal_ = false;
    return cached_normal_;
  }
  // Polar method: a point uniform in the unit disc (rejecting the centre, where log(r2) is -inf);
  // the expression order below is numpy's, which decides the last bit.
  double x1, x2, r2;
  do {
    x1 = 2.0 * random_sample() - 1.0;
    x2 = 2.0 * random_sample() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  cached_normal_ = f * x1;
  has_cached_normal_ = true;
  return f * x2;
}

double NumpyRandomState::laplace(double loc, double scale) {
  for (;;) {
    const double u = random_sample();
    if (u >= 0.5) return loc - scale * std::log(2.0 - u - u);
    if (u > 0.0) return loc + scale * std::log(u + u);
    // u == 0 would give log(0) = -inf: numpy draws again.
  }
}

std::uint64_t NumpyRandomState::random_interval(std::uint64_t max) {
  if (max == 0) return 0;
  // Smallest all-ones mask covering max, so one draw is accepted with probability > 1/2.
  std::uint64_t mask = max;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  std::uint64_t value;
  if (max <= 0xffffffffULL) {
    do value = next_uint32() & mask;
    while (value > max);
  } else {
    do value = next_uint64() & mask;
    while (value > max);
  }
  return value;
}

std::int64_t NumpyRandomState::randint(std::int64_t low, std::int64_t high) {
  if (low >= high)
    throw InputError("NumpyRandomState::randint",
                     "low >= high (" + std::to_string(low) + " >= " + std::to_string(high) + ")",
                     "give an interval [low, high) with low < high");
  // numpy's int64 path draws offset + masked value on the inclusive range high - 1 - low, computed
  // modulo 2^64 so that the full int64 range does not overflow.
  const std::uint64_t range = static_cast<std::uint64_t>(high) - 1 - static_cast<std::uint64_t>(low);
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + random_interval(range));
}

std::vector<std::int64_t> NumpyRandomState::permutation(std::size_t n) {
  std::vector<std::int64_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<std::int64_t>(i);
  shuffle(values.data(), n);
  return values;
}

const char* to_string(RandomStream stream) {
  for (const auto& n : kRandomStreamNames)
    if (n.stream == stream) return n.name;
  return "?";
}

std::vector<std::string> random_stream_names() {
  std::vector<std::string> names;
  for (const auto& n : kRandomStreamNames) names.emplace_back(n.name);
  return names;
}

RandomStream parse_random_stream(const std::string& name, const std::string& where) {
  for (const auto& n : kRandomStreamNames)
    if (name == n.name) return n.stream;
  throw InputError(where, "unknown random stream '" + name + "'", "use dpclust or numpy");
}

ParamSpec rng_param() {
  return choice_param(
      "rng", "dpclust", random_stream_names(),
      "random stream: dpclust (the harness's) or numpy (numpy's legacy RandomState seeded with the trial's "
      "seed, noise drawn in the paper's code's order: with `seeds: [0, 1, 2]` the authors' own runs)");
}

RandomStream rng_of(const ParamSet& params) {
  return params.has("rng") ? parse_random_stream(params.string("rng"), "params.rng") : RandomStream::dpclust;
}

std::uint32_t numpy_seed_of(const Rng& trial_rng) {
  // randomness: secure has no seed. Methods read this before they know whether rng: numpy is chosen, and
  // check_randomness (run/single_trial.hpp) refuses rng: numpy with secure before any trial, so
  // the 0 never seeds a stream.
  if (trial_rng.is_secure()) return 0;
  return static_cast<std::uint32_t>(trial_rng.seed() & 0xFFFFFFFFu);
}

}  // namespace dpclust
