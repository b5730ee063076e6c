#pragma once
// Counts of the cells a dataset occupies, released only where the noisy count reaches a threshold: the
// Gaussian mechanism with thresholding (partition selection; Korolova, Kenthapadi, Mishra & Ntoulas 2009 for
// the Laplace form, Wilson et al. 2020, "Differentially Private SQL with Bounded User Contribution", for the
// Gaussian one). The private HST of Cohen-Addad et al. (KDD 2022) releases its cells this way (their
// gaussian_thresholding.py, get_gaussian_thresholding_params).
//
// Setting: a record adds 1 to the counts of at most m cells (the l0 bound `cells_per_record`, l_inf 1); only
// cells holding at least one record exist (the universe of cells is never enumerated). Every existing cell gets
// Z ~ N(0, sigma^2) (secure: the discrete Gaussian), and its noisy count c + Z is released when c + Z >= tau.
//
// Why (eps, delta_G + delta_T)-DP under add/remove neighbours D, D' = D + x:
//   - the cells both datasets occupy: their count vectors differ by 1 in at most m coordinates, l2 sensitivity
//     sqrt(m), so their noisy counts are (eps, delta_G)-indistinguishable (sigma calibrated below), and
//     thresholding them is post-processing;
//   - the at most m cells only D' occupies hold one record each: each is released with probability
//     Pr[1 + Z >= tau], so none is with probability >= 1 - delta_T when m Pr[Z >= tau - 1] <= delta_T.
//   D' -> D: split on whether a cell of D' alone is released (at most delta_T), the rest is the Gaussian's.
//   D -> D': compare M(D) with M~(D), which also noises the cells of D' alone at count 0 (total variation at
//   most m Pr[Z >= tau] <= delta_T); M~(D) and M(D') are the Gaussian on the same cells, (eps, delta_G).
// Calibration: sigma by CountMechanism::gaussian_tight at (eps, delta_G) and l2 sensitivity sqrt(m) (the
// analytic Gaussian of Balle & Wang on doubles for `sampler: textbook`; the discrete Gaussian through
// zCDP for `secure`); tau = 1 + q with q the smallest value (secure: integer) for which the noise's own tail
// Pr[Z >= q] <= delta_T / m (with a relative margin of 1e-9 for the floating-point tail).
//
// Ledger: two typed entries under the ledger's relation, both naming the sampler that draws the noise: the
// Gaussian (eps, delta_G; sensitivity sqrt(m), l2) and the threshold (0, delta_T; sensitivity m, "l0": the
// cells one record can add).
//
// Testable noise: draws are multiplied by the ledger's noise_scale(); tau then follows the noise drawn, and
// with no noise at all (noise scale 0) tau = 1: every occupied cell is released (the non-private histogram).
#include <cstdint>
#include <optional>
#include <string>

#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::privacy {

// x with Pr[N(0, 1) >= x] = p, 0 < p <= 1/2: bisection on the tail 0.5 erfc(x / sqrt 2), to a relative 1e-15.
double standard_normal_upper_quantile(double p);

class GaussianThresholding {
 public:
  // cells_per_record: m >= 1; 0 < delta < 1; 0 < threshold_share < 1 (delta_T = threshold_share delta, delta_G
  // the rest). Throws std::invalid_argument for anything else (and what gaussian_tight throws).
  static GaussianThresholding build(BudgetLedger& ledger, Sampler sampler, std::uint64_t cells_per_record,
                                    double epsilon, double delta, double threshold_share, const std::string& step,
                                    const std::string& note);

  Sampler sampler() const { return gauss_.sampler(); }
  std::uint64_t cells_per_record() const { return cells_; }
  double l2_sensitivity() const { return gauss_.sensitivity(); }
  double epsilon() const { return gauss_.epsilon(); }
  double gaussian_delta() const { return gauss_.delta(); }
  double threshold_delta() const { return threshold_delta_; }
  // The calibrated standard deviation (for the secure sampler the discrete Gaussian's sigma parameter).
  double sigma() const { return gauss_.scale(); }
  // The standard deviation the draws use: sigma times the ledger's noise scale.
  double drawn_sigma() const { return gauss_.scale() * factor_; }
  // tau: a cell is released when its noisy count is >= tau.
  double threshold() const { return threshold_; }
  // Pr[Z >= tau - 1]: how likely a cell holding a single record is released (m times it is <= delta_T).
  double single_record_release_probability() const;
  // Raises tau to at least `tau` (a reproduction's own, more conservative, threshold): a higher threshold only
  // makes the cells of one dataset alone less likely to appear. Never lowers it.
  void raise_threshold(double tau);

  // One occupied cell: its noisy count when it reaches the threshold, otherwise nothing. count >= 1 (a cell
  // that holds no record does not exist: std::invalid_argument). One draw of Z from `rng`.
  std::optional<double> release(Rng& rng, std::int64_t count) const;

 private:
  explicit GaussianThresholding(CountMechanism gauss) : gauss_(std::move(gauss)) {}
  CountMechanism gauss_;
  std::uint64_t cells_ = 1;
  double threshold_delta_ = 0;
  double threshold_ = 1;
  double factor_ = 1;
};

}  // namespace dpclust::privacy
