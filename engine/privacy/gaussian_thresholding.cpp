// Gaussian noise on occupied cells' counts, released above a threshold; see gaussian_thresholding.hpp.
#include "privacy/gaussian_thresholding.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace dpclust::privacy {
namespace {

// The floating-point tail is trusted to a relative 1e-9: the target is lowered by that much.
constexpr double kTailMargin = 1.0 - 1e-9;

}  // namespace

double standard_normal_upper_quantile(double p) {
  auto tail = [](double x) { return 0.5 * std::erfc(x / std::sqrt(2.0)); };
  double lo = 0, hi = 1;
  while (tail(hi) > p) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (tail(mid) > p) lo = mid;
    else hi = mid;
  }
  return hi;
}

GaussianThresholding GaussianThresholding::build(BudgetLedger& ledger, Sampler sampler, std::uint64_t cells_per_record,
                                                 double epsilon, double delta, double threshold_share,
                                                 const std::string& step, const std::string& note) {
  if (cells_per_record < 1) throw std::invalid_argument("privacy: '" + step + "' needs at least one cell per record");
  if (!(delta > 0 && delta < 1))
    throw std::invalid_argument("privacy: the thresholded Gaussian of '" + step + "' needs delta in (0, 1)");
  if (!(threshold_share > 0 && threshold_share < 1))
    throw std::invalid_argument("privacy: the threshold's share of delta in '" + step + "' must be in (0, 1)");
  const double m = static_cast<double>(cells_per_record);
  const double delta_threshold = threshold_share * delta, delta_gaussian = delta - delta_threshold;
  std::ostringstream gauss_note;
  gauss_note << "every occupied cell's count; a record adds 1 to at most " << cells_per_record
             << " counts (l2 sensitivity sqrt(" << cells_per_record << "))";
  if (!note.empty()) gauss_note << "; " << note;
  GaussianThresholding g(
      CountMechanism::gaussian_tight(ledger, sampler, std::sqrt(m), epsilon, delta_gaussian, step, gauss_note.str()));
  g.cells_ = cells_per_record;
  g.threshold_delta_ = delta_threshold;
  g.factor_ = ledger.noise_scale();
  if (g.factor_ == 0) {
    g.threshold_ = 1.0;  // no noise: every occupied cell (the non-private histogram)
  } else {
    // tau = 1 + q, Pr[Z >= q] <= delta_T / m for the noise drawn (secure: the discrete tail at an integer q).
    const double p = std::min(0.5, delta_threshold / m * kTailMargin);
    if (sampler == Sampler::secure) {
      // The smallest integer q with Pr[Z >= q] <= p, searched from the continuous Gaussian's quantile (within a
      // unit or two of it): a few evaluations of the discrete tail, each O(sigma) terms.
      auto tail = [&](std::int64_t q) { return g.gauss_.tail_probability(static_cast<double>(q)); };
      auto q = static_cast<std::int64_t>(std::ceil(g.drawn_sigma() * standard_normal_upper_quantile(p)));
      while (tail(q) > p) ++q;
      while (q > 0 && tail(q - 1) <= p) --q;
      g.threshold_ = 1.0 + static_cast<double>(q);
    } else {
      g.threshold_ = 1.0 + g.gauss_.upper_quantile(p);
    }
  }
  BudgetEntry e;
  e.step = step + ": threshold";
  e.epsilon = 0;
  e.delta = delta_threshold;
  e.mechanism = sampler == Sampler::secure ? "discrete_gaussian" : "gaussian (textbook)";
  e.sensitivity = m;
  e.sensitivity_norm = "l0";
  e.relation = ledger.relation();
  e.measure = PrivacyMeasure::approximate;
  std::ostringstream t;
  t << "a cell is released when its noisy count reaches tau = " << g.threshold_
    << "; a cell only one of two neighbouring datasets "
    << "occupies holds one record and is released with probability Pr[Z >= tau - 1]; at most " << cells_per_record
    << " such cells: delta_T <= " << cells_per_record << " Pr[Z >= tau - 1]";
  e.note = t.str();
  ledger.charge(std::move(e));
  return g;
}

double GaussianThresholding::single_record_release_probability() const {
  return gauss_.tail_probability(threshold_ - 1.0);
}

void GaussianThresholding::raise_threshold(double tau) {
  if (!std::isfinite(tau)) throw std::invalid_argument("privacy: a threshold must be finite");
  if (tau > threshold_) threshold_ = sampler() == Sampler::secure ? std::ceil(tau) : tau;
}

std::optional<double> GaussianThresholding::release(Rng& rng, std::int64_t count) const {
  if (count < 1) throw std::invalid_argument("privacy: a thresholded count is drawn for occupied cells only");
  const double noisy = static_cast<double>(count) + gauss_.noise(rng);
  if (noisy >= threshold_) return noisy;
  return std::nullopt;
}

}  // namespace dpclust::privacy
