// The histogram noise choice mapped onto privacy::CountMechanism; see noise.hpp.
#include "dpdbscan/noise.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>

#include "core/error.hpp"

namespace dpclust::dpdbscan {

NoiseKind parse_noise(const std::string& name) {
  for (const NoiseName& n : kNoiseNames)
    if (name == n.name) return n.kind;
  throw InputError("params.noise", "unknown noise '" + name + "'", "use laplace, geometric or gaussian");
}

const char* to_string(NoiseKind k) {
  for (const NoiseName& n : kNoiseNames)
    if (n.kind == k) return n.name;
  return "?";
}

double l1_sensitivity(bool bounded_dp) { return bounded_dp ? 2.0 : 1.0; }
double l2_sensitivity(bool bounded_dp) { return bounded_dp ? std::sqrt(2.0) : 1.0; }

privacy::Sampler effective_sampler(NoiseKind kind, privacy::Sampler requested) {
  return kind == NoiseKind::geometric ? privacy::Sampler::secure : requested;
}

void check_numpy_stream(NoiseKind kind, privacy::Sampler sampler, bool linear) {
  if (kind == NoiseKind::geometric)
    throw InputError(
        "params.rng",
        "rng: numpy draws numpy's continuous Laplace or normal noise; noise is geometric (an exact integer sampler)",
        "use noise: laplace (the authors' default) with rng: numpy, or rng: dpclust");
  if (sampler != privacy::Sampler::textbook)
    throw InputError(
        "params.sampler", "rng: numpy draws the authors' continuous noise on doubles, which is the textbook sampler",
        "add sampler: textbook (the result is flagged non-private, as the authors' code is), or use rng: dpclust");
  if (linear)
    throw InputError(
        "params.histogram",
        "rng: numpy reproduces the authors' code, which noises every cell (the naive histogram); this run would use "
        "the linear-time histogram",
        "add histogram: naive, or use rng: dpclust");
}

bool gaussian_scale_supported(double epsilon, double delta, bool bounded_dp) {
  if (!(epsilon > 0) || !std::isfinite(epsilon) || !(delta > 0 && delta < 1)) return false;
  // The sigma^2 privacy::CountMechanism gives its sampler (gaussian_sigma2_at_least, then a rational that is
  // exact below 2^40).
  return privacy::gaussian_sigma2_at_least(l2_sensitivity(bounded_dp), epsilon, delta) <= 0x1p40;
}

void check_secure_epsilon(NoiseKind kind, privacy::Sampler sampler, double epsilon, double delta, bool bounded_dp) {
  if (kind != NoiseKind::gaussian || sampler != privacy::Sampler::secure || !(delta > 0 && delta < 1)) return;
  if (!(epsilon > 0) || !std::isfinite(epsilon) || gaussian_scale_supported(epsilon, delta, bounded_dp)) return;
  auto ok = [&](double e) { return gaussian_scale_supported(e, delta, bounded_dp); };
  const double min_eps = epsilon_boundary(epsilon, std::numeric_limits<double>::max(), ok);
  const std::string bound = limit_text(min_eps, true);
  throw InputError(
      "params.epsilon",
      "epsilon = " + limit_text(epsilon, true) + " is below " + bound +
          ", the smallest epsilon whose noise the secure discrete Gaussian sampler can draw at delta = " +
          limit_text(delta, true) + ": sigma = sqrt(2 ln(1.25/delta)) Delta_2 / eps must have sigma^2 <= 2^40",
      "use epsilon >= " + bound + ", a larger delta, noise: laplace, or sampler: textbook (flagged non-private)");
}

double epsilon_boundary(double bad, double good, const std::function<bool(double)>& accepted) {
  std::uint64_t b = std::bit_cast<std::uint64_t>(bad), g = std::bit_cast<std::uint64_t>(good);
  while (b + 1 < g || g + 1 < b) {
    const std::uint64_t mid = b < g ? b + (g - b) / 2 : g + (b - g) / 2;
    (accepted(std::bit_cast<double>(mid)) ? g : b) = mid;
  }
  return std::bit_cast<double>(g);
}

std::string limit_text(double x, bool lower) {
  for (int p = 6; p <= 17; ++p) {
    std::ostringstream s;
    s.precision(p);
    s << x;
    const double back = std::stod(s.str());
    if (p == 17 || (lower ? back >= x : back <= x)) return s.str();
  }
  return "";
}

privacy::CountMechanism histogram_mechanism(BudgetLedger& ledger, NoiseKind kind, privacy::Sampler sampler,
                                            double epsilon, double delta, bool bounded_dp, const std::string& step,
                                            const std::string& note) {
  if (!(std::isfinite(epsilon) && epsilon > 0))
    throw InputError("params.epsilon", "epsilon must be a finite number > 0");
  if (kind == NoiseKind::gaussian) {
    if (!(delta > 0 && delta < 1))
      throw InputError("params.delta", "gaussian noise needs delta in (0, 1)", "set delta, e.g. delta: 1e-6");
    if (!(epsilon < 1))
      throw InputError(
          "params.epsilon",
          "the classic Gaussian mechanism (sigma = sqrt(2 ln(1.25/delta)) Delta_2 / eps) is (eps, delta)-DP "
          "only for eps < 1",
          "use epsilon < 1 with gaussian noise, or laplace/geometric noise");
    check_secure_epsilon(kind, sampler, epsilon, delta, bounded_dp);
    return privacy::CountMechanism::gaussian(ledger, sampler, l2_sensitivity(bounded_dp), epsilon, delta, step, note);
  }
  return privacy::CountMechanism::laplace(ledger, effective_sampler(kind, sampler), l1_sensitivity(bounded_dp), epsilon,
                                          step, note);
}

}  // namespace dpclust::dpdbscan
