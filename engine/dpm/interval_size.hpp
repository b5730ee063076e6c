#pragma once
// DPM's private estimation of its one data-dependent hyper-parameter, the interval size w of the
// candidate separators (reference: DPM._interval_size_estimation, dpm.py of
// UzL-PrivSec/dp-mondrian-clustering; the paper's "private hyper-parameter estimation"):
//
//   1. the gaps between consecutive points, per dimension, after sorting each dimension;
//   2. their 65th percentile p, privately (diffprivlib's quantile: the exponential mechanism over the
//      intervals between sorted values, each weighted by its width, utility -|rank - q k|), on [0, B],
//      B the widest side of the public box, with the budget share eps_interval (4% of eps);
//   3. the codebook: for sigma in {0.5, 1, ..., 29.5} the 65th percentile of the gaps of N~ samples of
//      N(0, sigma^2), N~ = int(the root's noisy count); sigma* = the sigma whose entry is nearest to p;
//   4. w = sigma* / 2.
// The number of candidate positions per dimension is then int((hi - lo) / w).
//
// Two readings of step 1, `gap_statistic`:
//   pooled     (default) the d (n - 1) per-dimension gaps together. Adding or removing a point replaces, in
//              each dimension, one gap by two (or adds or drops one at an end), so the number of gaps
//              below any threshold moves by at most 2 per dimension and the rank utility's sensitivity is
//              2d; for d = 1 this is exactly the reference's statistic and sensitivity (the reference halves
//              epsilon "because sens is 2 instead of 1").
//   rank_mean  the reference's: the mean over the dimensions of the i-th gap of each dimension, i = 1..n-1,
//              charged with sensitivity 2 as the reference does. For d > 1 that is not its sensitivity: one
//              point shifts the ranks of every dimension at a different place, so which gaps are averaged
//              together changes for up to n - 1 values. Flagged non-private for d > 1, and the ledger
//              declared unbounded: no finite epsilon is stated for it (dpm.cpp).
// On synth_10d both give p / g(n) above 29.5, i.e. the largest codebook entry (w = 14.75).
//
// Step 3 without Monte Carlo: the reference fills its codebook by simulating 30 x N~ normal samples per
// sigma (59 sigmas; most of its ~60 s per fit on synth_10d). The spacings of N(0, sigma^2) samples are
// sigma times those of N(0, 1), so every entry is sigma g(N~) up to Monte-Carlo error, g(N~) the 65th
// percentile of the spacings of N~ standard normals. normal_spacing_quantile computes g exactly as the
// root of S(g) = 0.35, S(g) the expected fraction of the N~ - 1 spacings above g:
//   S(g) = (N~ Int phi(x) (1 - Phi(x + g) + Phi(x))^(N~ - 1) dx - 1) / (N~ - 1)
// (a point at x is followed by a gap above g iff no other point falls in (x, x + g], minus the case
// that it is the largest point, whose probability integrates to 1 / N~). The reference's averaged sample
// percentile estimates the same number (to O(1/N~)); tests/dpm compares the two.
//
// Secure sampler: the percentile is released on the public lattice {j B 2^-40 : j = 0..2^40} by the exact
// exponential mechanism (privacy/exponential.hpp): the lattice points between consecutive sorted gaps
// form one block, all at the block's utility, so "width times exp(utility)" is exactly the number of
// lattice points times it. Utilities are quantised to 1/K of a rank (K = kQualityUnits) and charged
// with sensitivity K Delta + 2 units (the +2 covers the quantisation's and the doubles' rounding).
// Textbook: diffprivlib's floating-point quantile (a uniform point of the chosen interval, in doubles;
// the ledger is declared unbounded, as for every continuous output computed from private values).
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpm {

enum class GapStatistic { pooled, rank_mean };
const char* to_string(GapStatistic s);

// The reference's constants: the percentile (q = 65 in _interval_size_estimation), the codebook's sigmas
// np.arange(0.5, 30, 0.5) and the factor 0.5 from sigma* to w.
inline constexpr double kGapQuantile = 0.65;
inline constexpr double kSigmaStep = 0.5;
inline constexpr int kSigmaCount = 59;  // 0.5, 1.0, ..., 29.5
inline constexpr double kIntervalPerSigma = 0.5;
// Quality units per unit of utility for the exact exponential mechanism (here and in separator_search).
inline constexpr std::uint64_t kQualityUnits = 4096;

// g(n): the 65th (or `quantile`) percentile of the spacings of n >= 2 standard normal samples (the root of
// S(g) = 1 - quantile above). Deterministic; about 1e-6 relative accuracy.
double normal_spacing_quantile(std::uint64_t n, double quantile = kGapQuantile);
// S(g) itself (for tests): the expected fraction of the n - 1 spacings above g.
double normal_spacing_survival(std::uint64_t n, double g);
// The codebook lookup: the sigma of {0.5, ..., 29.5} whose entry sigma g is nearest to p (the first on a
// tie, as numpy's argmin).
double codebook_sigma(double gap_percentile, double spacing_quantile);

// Step 1 on the clamped data (row-major n x d, every coordinate clamped into the bounds first).
std::vector<double> pooled_gaps(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds);
std::vector<double> rank_mean_gaps(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds);

// The private quantile of `values` (any order; sorted in place, clamped into [0, upper]) with the rank
// utility -|i - quantile k| of sensitivity `rank_sensitivity`, at `epsilon`; records its ledger entry
// under `step`. Secure: a lattice point (above); textbook: diffprivlib's continuous output (declares the
// ledger unbounded).
double private_quantile(std::vector<double>& values, double quantile, double upper, double rank_sensitivity,
                        double epsilon, privacy::Sampler sampler, Rng& rng, BudgetLedger& ledger,
                        const std::string& step);

// The secure percentile's blocks (above): block i holds the lattice points j upper 2^-40, j = 0..2^40, in
// the interval i between the sorted values (its first point `first`, `count` points), at distance
// ceil(K |i - quantile k|) from the target rank. Every lattice point is in exactly one block, whatever the
// data: an interval of more than 2^40 points (only when every value is 0) is two blocks at one distance.
struct LatticeBlocks {
  std::vector<std::uint64_t> count, distance, first;
};
LatticeBlocks quantile_lattice_blocks(const std::vector<double>& sorted, double quantile, double upper);

struct IntervalSizeEstimate {
  GapStatistic statistic = GapStatistic::pooled;
  double rank_sensitivity = 0;   // 2d (pooled) or 2 (rank_mean, the reference's claim)
  double gap_percentile = 0;     // p, released
  std::uint64_t codebook_n = 0;  // int(N~), at least 2
  double spacing_quantile = 0;   // g(codebook_n)
  double sigma = 0;              // sigma*
  double interval = 0;           // w = sigma* / 2
};

// Steps 1-4; `noisy_count` is the root's released count, `epsilon` the step's budget.
IntervalSizeEstimate estimate_interval_size(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                                            double noisy_count, double epsilon, GapStatistic statistic,
                                            privacy::Sampler sampler, Rng& rng, BudgetLedger& ledger);

}  // namespace dpclust::dpm
