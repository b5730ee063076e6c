// The histogram noise choice mapped onto privacy::CountMechanism; see noise.hpp.
#include "dpdbscan/noise.hpp"

#include <cmath>

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
    throw InputError("params.rng", "rng: numpy draws numpy's continuous Laplace or normal noise; noise is geometric (an exact integer sampler)",
                     "use noise: laplace (the authors' default) with rng: numpy, or rng: dpclust");
  if (sampler != privacy::Sampler::textbook)
    throw InputError("params.sampler", "rng: numpy draws the authors' continuous noise on doubles, which is the textbook sampler",
                     "add sampler: textbook (the result is flagged non-private, as the authors' code is), or use rng: dpclust");
  if (linear)
    throw InputError("params.histogram",
                     "rng: numpy reproduces the authors' code, which noises every cell (the naive histogram); this run would use "
                     "the linear-time histogram",
                     "add histogram: naive, or use rng: dpclust");
}

privacy::CountMechanism histogram_mechanism(BudgetLedger& ledger, NoiseKind kind, privacy::Sampler sampler, double epsilon,
                                            double delta, bool bounded_dp, const std::string& step, const std::string& note) {
  if (!(std::isfinite(epsilon) && epsilon > 0)) throw InputError("params.epsilon", "epsilon must be a finite number > 0");
  if (kind == NoiseKind::gaussian) {
    if (!(delta > 0 && delta < 1))
      throw InputError("params.delta", "gaussian noise needs delta in (0, 1)", "set delta, e.g. delta: 1e-6");
    if (!(epsilon < 1))
      throw InputError("params.epsilon",
                       "the classic Gaussian mechanism (sigma = sqrt(2 ln(1.25/delta)) Delta_2 / eps) is (eps, delta)-DP "
                       "only for eps < 1",
                       "use epsilon < 1 with gaussian noise, or laplace/geometric noise");
    return privacy::CountMechanism::gaussian(ledger, sampler, l2_sensitivity(bounded_dp), epsilon, delta, step, note);
  }
  return privacy::CountMechanism::laplace(ledger, effective_sampler(kind, sampler), l1_sensitivity(bounded_dp), epsilon, step, note);
}

}  // namespace dpclust::dpdbscan
