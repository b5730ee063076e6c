#pragma once
// The exponential mechanism (McSherry & Talwar 2007) over a public, finite set of outcomes, sampled
// EXACTLY: no floating-point rounding decides which outcome comes out or with which probability.
//
// Why: a real output chosen by a mechanism and computed in doubles (`hi - u * (hi - lo)`, or the sum of
// exp() of doubles that picks an index) carries its private inputs in which doubles can occur and in
// rounding-biased probabilities (Mironov 2012; Ilvento 2020, "Implementing the Exponential Mechanism
// with Base-2 Differential Privacy", CCS). The cure Ilvento gives is (1) an output set that does not
// depend on the data and (2) selection probabilities computed exactly. Here:
//   (1) the outcomes are the points of a public set the caller enumerates in blocks (e.g. the points of
//       a public lattice of thresholds that fall in each partition of the data's values): block b holds
//       counts[b] outcomes, all of quality -distance[b]. Which block a point is in depends on the data,
//       the set of points does not.
//   (2) a point is chosen with probability exactly proportional to exp(-gamma * distance) with
//       gamma = eps / (2 Delta_q) rounded DOWN to a multiple of 2^-63 (a smaller gamma is a flatter, more
//       private distribution: the recorded epsilon is an upper bound of the real one), by rejection:
//         proposal   block b with probability Q_b / sum Q, Q_b an integer >= T_b = 2^40 counts[b]
//                    exp(-gamma (distance[b] - min distance)), computed in doubles with a 2^-30 margin
//                    (the doubles' error is below 2^-42 where exp does not underflow; where it does,
//                    T_b < 1 <= Q_b), drawn by an exact uniform 128-bit integer;
//         acceptance with probability T_b / Q_b <= 1, decided by comparing a uniform real, whose bits
//                    are drawn lazily, with lower and upper bounds of T_b / Q_b computed by MPFR with
//                    directed rounding at increasing precision (the "lazy Bernoulli" of exact sampling);
//         then       a uniform point of the block (Rng::below, integer arithmetic).
//       The accepted block has probability exactly T_b / sum T: every point of every block has
//       probability proportional to exp(-gamma distance). The expected number of proposals is below
//       1 + 2^-29 for up to 2^30 blocks.
// A point of the public set is released; the privacy argument is the textbook one (eps-DP for quality
// sensitivity Delta_q), with no floating-point caveat.
//
// Noise and budget in one call: build() records the ledger entry ("exponential_exact") from the same
// (epsilon, Delta_q) the sampler uses. Testable noise: the ledger's noise_scale f runs the sampler at
// eps / f (f = 0: the noiseless limit, the nearest non-empty block with certainty).
#include <cstdint>
#include <string>
#include <vector>

#include "core/ledger.hpp"
#include "core/rng.hpp"

namespace dpclust::privacy {

class ExponentialMechanism {
 public:
  // Records the entry (pure eps-DP, utility sensitivity `quality_sensitivity`) and fixes gamma.
  static ExponentialMechanism build(BudgetLedger& ledger, double epsilon, double quality_sensitivity, std::string step,
                                    std::string note = "");
  // The same sampler without a ledger entry, for callers whose entries are recorded apart (tests, the
  // audit's fixtures). f = noise scale as above.
  static ExponentialMechanism unrecorded(double epsilon, double quality_sensitivity, double noise_scale = 1.0);

  struct Choice {
    std::size_t block = 0;     // index into counts / distance
    std::uint64_t offset = 0;  // uniform in [0, counts[block])
  };
  // counts[b] <= 2^40 outcomes in block b, each at quality -distance[b] (distance <= 2^40); at least
  // one count must be positive (std::invalid_argument otherwise). Blocks of count 0 are never chosen.
  Choice choose(const std::vector<std::uint64_t>& counts, const std::vector<std::uint64_t>& distance, Rng& rng) const;

  // Probabilities of the blocks (doubles, for tests and diagnostics; not used to sample).
  std::vector<double> block_probabilities(const std::vector<std::uint64_t>& counts,
                                          const std::vector<std::uint64_t>& distance) const;

  bool noiseless() const { return noiseless_; }
  // gamma as used: a multiple of 2^-63 (or of a coarser power of two above 2^10), <= eps / (2 Delta_q).
  double gamma() const { return gamma_; }

 private:
  ExponentialMechanism() = default;
  double gamma_ = 0;
  bool noiseless_ = false;
};

namespace detail {
// GCC/Clang's 128-bit integer (the proposal weights: up to 2^81 each, summed over up to 2^40 blocks).
__extension__ typedef unsigned __int128 uint128;
// The largest x' <= x of the form num / 2^k with num < 2^63 and k <= 63 (x' = 0 for x < 2^-63); x >= 0
// finite. Exactly representable as a double.
double dyadic_at_most(double x);
// A Bernoulli(p) for p = 2^40 count exp(-gamma delta) / q in (0, 1], gamma a double as from
// dyadic_at_most, decided exactly by lazy comparison (MPFR bounds at increasing precision).
bool bernoulli_exp_ratio(Rng& rng, double gamma, std::uint64_t delta, std::uint64_t count, uint128 q);
// Uniform in [0, n), n > 0, exactly (rejection on the bit length).
uint128 below128(Rng& rng, uint128 n);
}  // namespace detail

}  // namespace dpclust::privacy
