// Noise distributions of the DP histogram; see noise.hpp.
#include "dpdbscan/noise.hpp"

#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <sstream>

#include "core/error.hpp"

namespace dpclust::dpdbscan {

NoiseKind parse_noise(const std::string& name) {
  if (name == "laplace") return NoiseKind::laplace;
  if (name == "geometric") return NoiseKind::geometric;
  if (name == "gaussian") return NoiseKind::gaussian;
  throw InputError("params.noise", "unknown noise '" + name + "'", "use laplace, geometric or gaussian");
}

const char* to_string(NoiseKind k) {
  switch (k) {
    case NoiseKind::laplace: return "laplace";
    case NoiseKind::geometric: return "geometric";
    case NoiseKind::gaussian: return "gaussian";
  }
  return "?";
}

Noise::Noise(NoiseKind kind, double epsilon, double delta, bool bounded_dp)
    : kind_(kind), epsilon_(epsilon), delta_(delta), l1_(bounded_dp ? 2.0 : 1.0), l2_(bounded_dp ? std::sqrt(2.0) : 1.0) {
  if (!(std::isfinite(epsilon) && epsilon > 0)) throw InputError("params.epsilon", "epsilon must be a finite number > 0");
  switch (kind) {
    case NoiseKind::laplace:
      scale_ = l1_ / epsilon;
      break;
    case NoiseKind::geometric:
      scale_ = l1_ / epsilon;
      q_ = std::exp(-epsilon / l1_);
      break;
    case NoiseKind::gaussian:
      if (!(delta > 0 && delta < 1))
        throw InputError("params.delta", "gaussian noise needs delta in (0, 1)", "set delta, e.g. delta: 1e-6");
      if (!(epsilon < 1))
        throw InputError("params.epsilon",
                         "the classic Gaussian mechanism (sigma = sqrt(2 ln(1.25/delta)) Delta_2 / eps) is (eps, delta)-DP "
                         "only for eps < 1",
                         "use epsilon < 1 with gaussian noise, or laplace/geometric noise");
      scale_ = std::sqrt(2.0 * std::log(1.25 / delta)) * l2_ / epsilon;
      break;
  }
}

double Noise::geometric_draw(Rng& rng) const {
  // Inverse CDF: Pr[floor(ln U / ln q) >= k] = Pr[U <= q^k] = q^k.
  return std::floor(std::log(rng.uniform_open()) / std::log(q_));
}

double Noise::draw(Rng& rng) const {
  switch (kind_) {
    case NoiseKind::laplace: return rng.laplace(scale_);
    case NoiseKind::geometric: {
      // The difference of two i.i.d. geometric variables is two-sided geometric with the same ratio.
      const double a = geometric_draw(rng);
      return a - geometric_draw(rng);
    }
    case NoiseKind::gaussian: return scale_ * rng.normal();
  }
  return 0;
}

double Noise::tail_probability(double theta) const {
  switch (kind_) {
    case NoiseKind::laplace: return 0.5 * std::exp(-theta / scale_);
    case NoiseKind::geometric: {
      // Pr[Z = z] = (1-q)/(1+q) q^|z|, so Pr[Z >= t] = q^t / (1+q) for integer t >= 0.
      const double t = std::ceil(theta);
      return std::pow(q_, t) / (1.0 + q_);
    }
    case NoiseKind::gaussian: return 0.5 * std::erfc(theta / (scale_ * std::sqrt(2.0)));
  }
  return 0;
}

double Noise::draw_tail(Rng& rng, double theta) const {
  switch (kind_) {
    case NoiseKind::laplace:
      // Alg. 2 line 12 by inverse transform (Sec. 6): CDF 1 - exp(-(z - theta)/b) above theta.
      return theta - scale_ * std::log(rng.uniform_open());
    case NoiseKind::geometric:
      // Z | Z >= t, t = ceil(theta) >= 0, is t + G (Pr[Z = t+g] ∝ q^g).
      return std::ceil(theta) + geometric_draw(rng);
    case NoiseKind::gaussian: {
      const double a = theta / scale_;
      if (a < 1.0) {
        // Acceptance Pr[N >= a] >= 0.158: plain rejection is cheap and exact.
        for (;;) {
          const double z = rng.normal();
          if (z >= a) return scale_ * z;
        }
      }
      // Marsaglia (1964): X = sqrt(a^2 - 2 ln U) accepted when V X <= a is exactly N | N >= a.
      for (;;) {
        const double x = std::sqrt(a * a - 2.0 * std::log(rng.uniform_open()));
        if (rng.uniform() * x <= a) return scale_ * x;
      }
    }
  }
  return 0;
}

double Noise::upper_quantile(double p) const {
  switch (kind_) {
    case NoiseKind::laplace:
    case NoiseKind::geometric: return scale_ * std::log(0.5 / p);
    case NoiseKind::gaussian: return scale_ * std::sqrt(2.0) * boost::math::erfc_inv(2.0 * p);
  }
  return 0;
}

std::string Noise::describe() const {
  std::ostringstream s;
  s << (kind_ == NoiseKind::laplace ? "Laplace" : kind_ == NoiseKind::geometric ? "two-sided geometric" : "Gaussian");
  if (kind_ == NoiseKind::gaussian)
    s << " (sigma " << scale_ << "), L2 sensitivity " << l2_;
  else
    s << " (scale " << scale_ << "), L1 sensitivity " << l1_;
  s << (l1_ > 1 ? " (bounded DP)" : " (unbounded DP)");
  return s.str();
}

}  // namespace dpclust::dpdbscan
