#include "privacy/mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "privacy/exact_binomial.hpp"
#include "privacy/gaussian_calibration.hpp"
#include "privacy/mpfr_scoped.hpp"
#include "privacy/samplers.hpp"

namespace dpclust::privacy {

const char* to_string(Sampler s) { return s == Sampler::secure ? "secure" : "textbook"; }

const char* const kTextbookSamplerNote =
    "sampler: textbook (continuous noise on doubles, as the papers): not floating-point safe (Mironov 2012)";

ParamSpec sampler_param() {
  return choice_param(
      "sampler", "secure", {"secure", "textbook"},
      "noise sampler: secure = exact integer noise for counts (discrete Laplace/Gaussian) and the snapping "
      "mechanism for real values; textbook = the papers' continuous samplers (flagged non-private)");
}

Sampler sampler_of(const ParamSet& params) {
  if (!params.has("sampler")) return Sampler::secure;
  return params.string("sampler") == "textbook" ? Sampler::textbook : Sampler::secure;
}

namespace {

void check_budget(double epsilon, double sensitivity, const std::string& step) {
  if (!(epsilon > 0) || !std::isfinite(epsilon))
    throw std::invalid_argument("privacy: epsilon of '" + step + "' must be finite and > 0");
  if (!(sensitivity > 0) || !std::isfinite(sensitivity))
    throw std::invalid_argument("privacy: the sensitivity of '" + step + "' must be finite and > 0");
}

std::string sampler_suffix(Sampler s) { return s == Sampler::textbook ? " (textbook)" : ""; }

// Pr[Z >= theta] for Laplace(b), theta >= 0.
double laplace_tail(double b, double theta) { return 0.5 * std::exp(-theta / b); }

// Pr[Z >= theta] for N(0, sigma^2).
double gaussian_tail(double sigma, double theta) { return 0.5 * std::erfc(theta / (sigma * std::sqrt(2.0))); }

// Exact draw from N(0, sigma^2) conditioned on Z >= theta >= 0: plain rejection below sigma, the
// exponential-proposal tail method (Marsaglia 1964 / Robert 1995) beyond.
double gaussian_tail_draw(Rng& rng, double sigma, double theta) {
  const double a = theta / sigma;
  if (a < 1.0) {
    for (;;) {
      const double z = gaussian_textbook(rng, 1.0);
      if (z >= a) return z * sigma;
    }
  }
  const double lambda = 0.5 * (a + std::sqrt(a * a + 4.0));  // Robert's optimal rate
  for (;;) {
    const double z = a - std::log(1.0 - rng.uniform()) / lambda;
    if (rng.uniform() <= std::exp(-0.5 * (z - lambda) * (z - lambda))) return z * sigma;
  }
}

// The typed entry of one release under the ledger's neighbouring relation.
BudgetEntry typed_entry(const BudgetLedger& ledger, std::string step, double epsilon, double delta,
                        std::string mechanism, double sensitivity, std::string norm, PrivacyMeasure measure,
                        std::string note) {
  BudgetEntry e;
  e.step = std::move(step);
  e.epsilon = epsilon;
  e.delta = delta;
  e.mechanism = std::move(mechanism);
  e.sensitivity = sensitivity;
  e.sensitivity_norm = std::move(norm);
  e.relation = ledger.relation();
  e.measure = measure;
  e.note = std::move(note);
  return e;
}

}  // namespace

double laplace_scale_at_least(double l1, double epsilon) {
  if (!(l1 > 0 && epsilon > 0) || !std::isfinite(l1) || !std::isfinite(epsilon))
    throw std::invalid_argument("privacy: a Laplace scale needs a finite sensitivity and epsilon > 0");
  const double s = l1 / epsilon;
  if (!std::isfinite(s)) throw std::invalid_argument("privacy: the Laplace scale l1 / epsilon overflows");
  // s eps >= l1 decided exactly: the product of two doubles has at most 106 significant bits.
  detail::Mpfr prod(128);
  mpfr_set_d(prod.v, s, MPFR_RNDN);
  mpfr_mul_d(prod.v, prod.v, epsilon, MPFR_RNDN);
  return mpfr_cmp_d(prod.v, l1) >= 0 ? s : std::nextafter(s, std::numeric_limits<double>::infinity());
}

double gaussian_sigma2_at_least(double l2, double epsilon, double delta) {
  if (!(l2 > 0 && epsilon > 0 && delta > 0 && delta < 1) || !std::isfinite(l2) || !std::isfinite(epsilon))
    throw std::invalid_argument(
        "privacy: a Gaussian sigma needs a finite sensitivity, epsilon > 0 and delta in (0, 1)");
  // 2 ln(1.25 / delta) l2^2 / eps^2, every step rounded up (the logarithm's argument too; eps^2 down).
  detail::Mpfr x(53), e2(53);
  mpfr_set_d(x.v, 1.25, MPFR_RNDN);
  mpfr_div_d(x.v, x.v, delta, MPFR_RNDU);
  mpfr_log(x.v, x.v, MPFR_RNDU);
  mpfr_mul_2ui(x.v, x.v, 1, MPFR_RNDU);
  mpfr_mul_d(x.v, x.v, l2, MPFR_RNDU);
  mpfr_mul_d(x.v, x.v, l2, MPFR_RNDU);
  mpfr_set_d(e2.v, epsilon, MPFR_RNDN);
  mpfr_sqr(e2.v, e2.v, MPFR_RNDD);
  mpfr_div(x.v, x.v, e2.v, MPFR_RNDU);
  return mpfr_get_d(x.v, MPFR_RNDU);
}

CountMechanism CountMechanism::laplace(BudgetLedger& ledger, Sampler sampler, double l1, double epsilon,
                                       std::string step, std::string note) {
  check_budget(epsilon, l1, step);
  CountMechanism m;
  m.kind_ = CountNoise::laplace;
  m.sampler_ = sampler;
  m.epsilon_ = epsilon;
  m.sensitivity_ = l1;
  m.scale_ = l1 / epsilon;
  m.factor_ = ledger.noise_scale();
  m.prepare_exact_parameter();
  ledger.charge(typed_entry(ledger, std::move(step), epsilon, 0.0,
                            sampler == Sampler::secure ? "discrete_laplace" : "laplace (textbook)", l1, "l1",
                            PrivacyMeasure::pure, std::move(note)));
  return m;
}

CountMechanism CountMechanism::gaussian(BudgetLedger& ledger, Sampler sampler, double l2, double epsilon, double delta,
                                        std::string step, std::string note) {
  check_budget(epsilon, l2, step);
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument("privacy: the Gaussian mechanism of '" + step + "' needs delta in (0, 1)");
  if (!(epsilon < 1))
    throw std::invalid_argument("privacy: the classic Gaussian mechanism of '" + step + "' needs epsilon < 1");
  CountMechanism m;
  m.kind_ = CountNoise::gaussian;
  m.sampler_ = sampler;
  m.epsilon_ = epsilon;
  m.delta_ = delta;
  m.sensitivity_ = l2;
  m.scale_ = std::sqrt(2.0 * std::log(1.25 / delta)) * l2 / epsilon;
  m.classic_gaussian_ = true;
  m.factor_ = ledger.noise_scale();
  m.prepare_exact_parameter();
  ledger.charge(typed_entry(ledger, std::move(step), epsilon, delta,
                            sampler == Sampler::secure ? "discrete_gaussian" : "gaussian (textbook)", l2, "l2",
                            PrivacyMeasure::approximate, std::move(note)));
  return m;
}

CountMechanism CountMechanism::gaussian_tight(BudgetLedger& ledger, Sampler sampler, double l2, double epsilon,
                                              double delta, std::string step, std::string note) {
  check_budget(epsilon, l2, step);
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument("privacy: the Gaussian mechanism of '" + step + "' needs delta in (0, 1)");
  CountMechanism m;
  m.kind_ = CountNoise::gaussian;
  m.sampler_ = sampler;
  m.epsilon_ = epsilon;
  m.delta_ = delta;
  m.sensitivity_ = l2;
  m.scale_ = sampler == Sampler::secure ? zcdp_gaussian_sigma(epsilon, delta, l2)
                                        : analytic_gaussian_sigma(epsilon, delta, l2);
  m.factor_ = ledger.noise_scale();
  m.prepare_exact_parameter();
  std::string calibration = sampler == Sampler::secure ? "sigma from rho-zCDP (CKS20 Thm 14, Cor 13)"
                                                       : "sigma by Balle & Wang's analytic calibration (Thm 8)";
  ledger.charge(typed_entry(ledger, std::move(step), epsilon, delta,
                            sampler == Sampler::secure ? "discrete_gaussian" : "gaussian (textbook)", l2, "l2",
                            PrivacyMeasure::approximate, note.empty() ? calibration : note + "; " + calibration));
  return m;
}

// The exact sampler's parameter (discrete Laplace scale, or discrete Gaussian sigma^2) as a rational,
// rounded up, never down; computed once per mechanism, at construction, not per draw (a histogram draws
// millions, from several threads at once).
// The scale (or sigma^2) is bounded exactly from l1 and eps (laplace_scale_at_least): the quotient rounded to
// nearest, which this used before, lies below l1 / eps for about one eps in four (eps = 0.68048: by 7.5e-17).
// An uncalibrated test mechanism (noise scale f != 1) multiplies it by f (f^2), rounded up.
void CountMechanism::prepare_exact_parameter() {
  if (sampler_ != Sampler::secure || factor_ == 0) return;  // no exact draw will ask for it
  const double inf = std::numeric_limits<double>::infinity();
  try {
    if (kind_ == CountNoise::laplace) {
      const double s = laplace_scale_at_least(sensitivity_, epsilon_);
      exact_ = rational_at_least(factor_ == 1 ? s : std::nextafter(s * factor_, inf));
    } else {
      // The classic calibration is bounded from its inputs; an accountant's sigma (gaussian_tight) is the
      // calibrated value itself, squared rounding up.
      double s2 = 0;
      if (classic_gaussian_) {
        s2 = gaussian_sigma2_at_least(sensitivity_, epsilon_, delta_);
      } else {
        detail::Mpfr sq(53);
        mpfr_set_d(sq.v, scale_, MPFR_RNDN);
        mpfr_sqr(sq.v, sq.v, MPFR_RNDU);
        s2 = mpfr_get_d(sq.v, MPFR_RNDU);
      }
      exact_ = rational_at_least(factor_ == 1 ? s2 : std::nextafter(s2 * factor_ * factor_, inf));
    }
    exact_ready_ = true;
  } catch (const std::invalid_argument& e) {
    // A scale beyond the exact samplers' range: building the mechanism (and its ledger entry) still
    // succeeds, as before; the first secure draw reports it.
    exact_error_ = e.what();
  }
}

Rational CountMechanism::exact_parameter() const {
  if (!exact_ready_)
    throw std::invalid_argument(exact_error_.empty() ? "privacy: no exact noise parameter" : exact_error_);
  return exact_;
}

double CountMechanism::noise(Rng& rng) const {
  if (factor_ == 0) return 0.0;
  const double s = scale_ * factor_;
  if (sampler_ == Sampler::textbook)
    return kind_ == CountNoise::laplace ? laplace_textbook(rng, s) : gaussian_textbook(rng, s);
  if (kind_ == CountNoise::laplace) return static_cast<double>(discrete_laplace(rng, exact_parameter()));
  return static_cast<double>(discrete_gaussian(rng, exact_parameter()));
}

double CountMechanism::noise(NumpyRandomState& numpy) const {
  if (sampler_ != Sampler::textbook)
    throw std::logic_error("privacy: numpy's stream draws continuous noise; the mechanism's sampler must be textbook");
  if (factor_ == 0) return 0.0;
  const double s = scale_ * factor_;
  return kind_ == CountNoise::laplace ? numpy.laplace(0.0, s) : numpy.normal(0.0, s);
}

double CountMechanism::tail_probability(double theta) const {
  if (factor_ == 0) return theta <= 0 ? 1.0 : 0.0;
  const double s = scale_ * factor_;
  if (sampler_ == Sampler::textbook)
    return kind_ == CountNoise::laplace ? laplace_tail(s, theta) : gaussian_tail(s, theta);
  const auto k = static_cast<std::int64_t>(std::ceil(theta));
  if (kind_ == CountNoise::laplace) return discrete_laplace_tail_probability(s, k);
  return discrete_gaussian_tail_probability(s * s, k);
}

std::uint64_t CountMechanism::count_at_least(Rng& rng, std::uint64_t trials, double theta) const {
  if (!(theta > 0) || !(theta < 0x1p62)) throw std::invalid_argument("privacy: count_at_least needs 0 < theta < 2^62");
  if (trials == 0 || factor_ == 0) return 0;  // no noise: every draw is 0 < theta
  if (sampler_ == Sampler::textbook) {
    const double p = tail_probability(theta);
    return p <= 0 ? 0 : rng.binomial(trials, p);
  }
  return binomial_tail_count(
      rng, trials, kind_ == CountNoise::laplace ? ExactNoise::discrete_laplace : ExactNoise::discrete_gaussian,
      exact_parameter(), static_cast<std::int64_t>(std::ceil(theta)));
}

double CountMechanism::draw_tail(Rng& rng, double theta) const {
  if (!(theta > 0)) throw std::invalid_argument("privacy: draw_tail needs theta > 0");
  if (factor_ == 0) return sampler_ == Sampler::secure ? std::ceil(theta) : theta;
  const double s = scale_ * factor_;
  if (sampler_ == Sampler::textbook) {
    // Laplace: memorylessness of the exponential tail (inverse transform); Gaussian: exact rejection.
    if (kind_ == CountNoise::laplace) return theta - s * std::log(1.0 - rng.uniform());
    return gaussian_tail_draw(rng, s, theta);
  }
  const auto k = static_cast<std::int64_t>(std::ceil(theta));
  if (kind_ == CountNoise::laplace) return static_cast<double>(discrete_laplace_tail(rng, exact_parameter(), k));
  return static_cast<double>(discrete_gaussian_tail(rng, exact_parameter(), k));
}

double CountMechanism::upper_quantile(double p) const {
  if (!(p > 0 && p <= 0.5)) throw std::invalid_argument("privacy: upper_quantile needs p in (0, 1/2]");
  // Monotone in theta: bisection on the tail probability (works for every kind and sampler).
  double lo = 0, hi = 1;
  while (tail_probability(hi) > p) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (tail_probability(mid) > p) lo = mid;
    else hi = mid;
  }
  return hi;
}

std::string CountMechanism::describe() const {
  std::ostringstream o;
  if (kind_ == CountNoise::laplace)
    o << (sampler_ == Sampler::secure ? "discrete Laplace" : "Laplace") << "(" << scale_ << "), L1 sensitivity "
      << sensitivity_;
  else
    o << (sampler_ == Sampler::secure ? "discrete Gaussian" : "Gaussian") << "(sigma " << scale_ << "), L2 sensitivity "
      << sensitivity_;
  o << sampler_suffix(sampler_);
  return o.str();
}

RealMechanism RealMechanism::laplace(BudgetLedger& ledger, Sampler sampler, double l1, double epsilon, double bound,
                                     std::string step, std::string note) {
  check_budget(epsilon, l1, step);
  if (!(bound > 0) || !std::isfinite(bound))
    throw std::invalid_argument("privacy: the range bound of '" + step + "' must be finite and > 0");
  RealMechanism m;
  m.sampler_ = sampler;
  m.epsilon_ = epsilon;
  m.sensitivity_ = l1;
  m.bound_ = bound;
  m.factor_ = ledger.noise_scale();
  if (sampler == Sampler::secure) {
    // Validates Mironov's conditions before the charge; an under-noised test mechanism is the same
    // construction at epsilon / factor.
    m.snapping_ = std::make_shared<SnappingLaplace>(epsilon, l1, bound);
    m.scale_ = m.snapping_->lambda();
    if (m.factor_ > 0 && m.factor_ != 1)
      m.snapping_ = std::make_shared<SnappingLaplace>(epsilon / m.factor_, l1, bound);
  } else {
    m.scale_ = l1 / epsilon;
  }
  ledger.charge(typed_entry(ledger, std::move(step), epsilon, 0.0,
                            sampler == Sampler::secure ? "snapping_laplace" : "laplace (textbook)", l1, "l1",
                            PrivacyMeasure::pure, std::move(note)));
  return m;
}

double RealMechanism::noisy(Rng& rng, double value) const {
  if (factor_ == 0) return sampler_ == Sampler::secure ? std::clamp(value, -bound_, bound_) : value;
  if (sampler_ == Sampler::textbook) return value + laplace_textbook(rng, scale_ * factor_);
  return snapping_->release(rng, value);
}

void charge(BudgetLedger& ledger, std::string step, double epsilon, std::string mechanism, double sensitivity,
            std::string sensitivity_norm, std::string note, double delta) {
  check_budget(epsilon, sensitivity, step);
  ledger.charge(typed_entry(
      ledger, std::move(step), epsilon, delta, std::move(mechanism), sensitivity, std::move(sensitivity_norm),
      ledger.measure() == PrivacyMeasure::local ? PrivacyMeasure::local
                                                : (delta > 0 ? PrivacyMeasure::approximate : PrivacyMeasure::pure),
      std::move(note)));
}

}  // namespace dpclust::privacy
