// Joint accounts: noise of steps calibrated together by one accountant; see joint_account.hpp.
#include "privacy/joint_account.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace dpclust::privacy {
namespace {

// The typed entry of a step of `account`: epsilon = delta = 0, the account's name.
BudgetEntry step_entry(const JointAccount& account, std::string step, std::string mechanism, double sensitivity,
                       std::string norm, PrivacyMeasure measure, std::string note) {
  BudgetEntry e;
  e.step = std::move(step);
  e.mechanism = std::move(mechanism);
  e.sensitivity = sensitivity;
  e.sensitivity_norm = std::move(norm);
  e.relation = account.ledger().relation();
  e.measure = measure;
  e.note = std::move(note);
  e.joint = account.name();
  return e;
}

void check_positive(double x, const char* what, const std::string& step) {
  if (!(x > 0) || !std::isfinite(x))
    throw std::invalid_argument(std::string("privacy: the ") + what + " of '" + step + "' must be finite and > 0");
}

}  // namespace

JointAccount::JointAccount(BudgetLedger& ledger, std::string name, std::string accountant, double epsilon, double delta,
                           std::string note)
    : ledger_(&ledger), name_(std::move(name)) {
  if (name_.empty()) throw std::invalid_argument("privacy: a joint account needs a name");
  check_positive(epsilon, "epsilon", name_);
  if (!(delta >= 0 && delta < 1))
    throw std::invalid_argument("privacy: the delta of the joint account '" + name_ + "' must be in [0, 1)");
  BudgetEntry e;
  e.step = name_;
  e.epsilon = epsilon;
  e.delta = delta;
  e.mechanism = std::move(accountant);
  e.sensitivity_norm = "none";
  e.relation = ledger.relation();
  e.measure = ledger.measure() == PrivacyMeasure::local
                  ? PrivacyMeasure::local
                  : (delta > 0 ? PrivacyMeasure::approximate : PrivacyMeasure::pure);
  e.note = std::move(note);
  e.joint = name_;
  e.joint_total = true;
  ledger.charge(std::move(e));
}

JointCountNoise::JointCountNoise(const JointAccount& account, double scale, double l1, std::string step,
                                 std::string note) {
  check_positive(scale, "noise scale", step);
  check_positive(l1, "sensitivity", step);
  const double factor = account.ledger().noise_scale();
  if (factor > 0) {
    // Rounded up, never down: at least the scale the account certified (throws beyond 2^64; the sampler
    // itself refuses scales above 2^40 at the first draw).
    exact_ = rational_at_least(scale * factor);
    drawn_scale_ = static_cast<double>(exact_.num) / static_cast<double>(exact_.den);
  }
  account.ledger().charge(
      step_entry(account, std::move(step), "discrete_laplace", l1, "l1", PrivacyMeasure::pure, std::move(note)));
}

std::int64_t JointCountNoise::noise(Rng& rng) const {
  if (drawn_scale_ == 0) return 0;
  return discrete_laplace(rng, exact_);
}

JointGaussianNoise::JointGaussianNoise(const JointAccount& account, Sampler sampler, double sigma, double l2,
                                       std::string step, std::string note)
    : sampler_(sampler) {
  check_positive(sigma, "standard deviation", step);
  check_positive(l2, "sensitivity", step);
  const double factor = account.ledger().noise_scale();
  if (factor > 0) {
    const double s = sigma * factor;
    if (sampler == Sampler::secure) {
      sigma2_ = rational_at_least(std::nextafter(s * s, std::numeric_limits<double>::infinity()));
      drawn_sigma_ = std::sqrt(static_cast<double>(sigma2_.num) / static_cast<double>(sigma2_.den));
    } else {
      drawn_sigma_ = s;
    }
  }
  account.ledger().charge(step_entry(account, std::move(step),
                                     sampler == Sampler::secure ? "discrete_gaussian" : "gaussian (textbook)", l2, "l2",
                                     PrivacyMeasure::approximate, std::move(note)));
}

std::int64_t JointGaussianNoise::integer_noise(Rng& rng) const {
  if (sampler_ != Sampler::secure) throw std::logic_error("privacy: integer Gaussian noise needs the secure sampler");
  if (drawn_sigma_ == 0) return 0;
  return discrete_gaussian(rng, sigma2_);
}

double JointGaussianNoise::real_noise(Rng& rng) const {
  if (sampler_ != Sampler::textbook)
    throw std::logic_error("privacy: real Gaussian noise on doubles is the textbook sampler only");
  if (drawn_sigma_ == 0) return 0.0;
  return gaussian_textbook(rng, drawn_sigma_);
}

}  // namespace dpclust::privacy
