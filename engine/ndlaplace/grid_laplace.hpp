#pragma once
// Discretised nD-Laplace, sampled exactly: the `sampler: secure` variant of the nD-Laplace perturbation.
//
// Why: the thesis's sampler (mechanism.hpp, `sampler: textbook`) computes x + r (cos t, sin t) in
// doubles. Like the textbook Laplace mechanism (Mironov 2012), the set of doubles such a sampler can
// return depends on x, so the low-order bits of a report can single out the input. Andres, Bordenabe,
// Chatzikokolakis and Palamidessi ("Geo-Indistinguishability", CCS 2013, Sec. 4.1-4.2) answer this for
// the planar mechanism by discretisation (reports restricted to a grid of step u) plus truncation (to
// a finite region); they bound what the floating-point polar sampler loses on the grid by an enlarged
// eps' that depends on u, the largest radius r_max and the machine precision of the angle. That bound
// is a statement about the 2-D polar sampler in floating point; it does not carry over to the Gamma
// radius / Gaussian direction sampler used for d != 2.
//
// This file keeps the paper's answer (a grid, and truncation to the public domain) but removes the
// floating-point term instead of bounding it: the grid distribution is sampled EXACTLY, so the proof
// below needs nothing but the triangle inequality and holds for every dimension d.
//
// The mechanism (rate e per unit distance, grid origin o, step u, G(k) = o + u k for k in Z^d, the
// coordinates rounded to doubles once -- G is a fixed public map, so its rounding is part of the
// definition, not an error):
//
//   P[k | x] = exp(-e ||G(k) - x||_2) [G(k) in A] / Z_A(x),   Z_A(x) = sum_k exp(-e ||G(k) - x||_2) [G(k) in A]
//
// with A = the public domain box under truncation `resample` (conditioning, thesis Alg. 1) and A = R^d
// under `remap` / `none` (the report G(k) is then clamped to the box, or released as is: post-processing).
//
// Privacy (any d). For x, x' in the domain and every k, by the triangle inequality
//   exp(-e ||G(k) - x||) <= exp(e d(x, x')) exp(-e ||G(k) - x'||),
// so the numerator changes by at most exp(e d(x, x')), and the normaliser Z_A, a sum of such terms,
// changes by at most the same factor in the other direction:
//   P[k | x] <= exp(2 e d(x, x')) P[k | x'].
// The factor 2 is the normaliser's: conditioning on the domain (resampling) makes it depend on x (the
// continuous case has the same factor, see mechanism.hpp); on the grid it depends on x even without
// truncation, because the grid is not invariant under translation by x - x'. (Without truncation the
// normaliser is periodic in x with period u, so its ratio is also at most exp(e sqrt(d) u / 2): the
// guarantee is exp(e d + e min(d, sqrt(d) u / 2)); the ledger records the uniform bound 2 e.) The
// method therefore draws at e = epsilon / (2 radius) so that the release is epsilon-geo-indistinguishable
// at distance radius (mechanism.hpp, NdLaplaceMechanism).
//
// Exact sampling (no floating-point decision anywhere that could make the output distribution differ
// from the formula above):
//   1. proposal: k = k0 + m, k0 = the grid index nearest to x (any function of x will do: it cancels),
//      m_j i.i.d. two-sided geometric, P[m_j] proportional to exp(-|m_j| / t) for an integer
//      t >= sqrt(d) / (e u): privacy::discrete_laplace (Canonne, Kamath & Steinke 2020, Alg. 2,
//      integer arithmetic only);
//   2. accept with probability exp(-T), T = e ||G(k) - x||_2 - ||m||_1 / t + c(x), where
//      c(x) = (1 + 1e-6) (||x - G(k0)||_1 + d u / 1024) / (t u) >= sup_m (||m||_1 / t - e ||G(k) - x||_2)
//      makes T >= 0: u |m_j| <= |G(k)_j - x_j| + |x_j - G(k0)_j| + (rounding of G, below u / 1024 when
//      u >= 2^-40 max(|o_j| + |x_j|)), ||.||_1 <= sqrt(d) ||.||_2 and sqrt(d) / (t u) <= e. c depends on
//      x but not on k, so the accepted k has probability proportional to
//      exp(-||m||_1 / t) exp(-T) = exp(-c(x)) exp(-e ||G(k) - x||_2): the target, for every x. (T >= 0 is
//      also checked exactly at run time: a violated bound throws, it never bends the distribution);
//   3. Bernoulli(exp(-T)) exactly although T is irrational: T = e sqrt(S) - q with e, S (a sum of
//      squares of differences of doubles) and q rational; Canonne-Kamath-Steinke's Alg. 1 reduces it to
//      Bernoulli(exp(-floor(T))) (privacy::bernoulli_exp, rational) and Bernoulli(f / K) draws for
//      f = frac(T), and U < f / K is decided by
//      drawing the bits of U lazily and comparing intervals with T exactly (squaring both sides, big
//      rationals). A double-precision pre-check with a proven error bound (IEEE-754 +, -, *, / and sqrt
//      are correctly rounded; -ffp-contract=off) decides almost every comparison without big numbers;
//      when it cannot, the exact path decides.
//   4. truncation `resample`: a draw with G(k) outside the box is discarded and drawn again (thesis
//      Alg. 1), which conditions the distribution on A exactly.
// The RNG is treated as a source of independent uniform bits (as everywhere in dpclust); the running
// time depends on x (rejection loops), which this guarantee, like the paper's, does not cover.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"

namespace dpclust::ndlaplace {

// Bernoulli(exp(-T)), T = eps ||a - b||_2 - l1 / t + c, computed exactly from the doubles eps, a, b, c
// and the integers l1, t. Throws std::logic_error when T < 0 (the proposal bound was violated).
// fast = false skips the double-precision pre-check (tests use it to exercise the exact path).
bool bernoulli_exp_minus_distance(Rng& rng, double eps, const double* a, const double* b, std::size_t d,
                                  std::uint64_t l1, std::uint64_t t, double c, bool fast = true);

// The grid step used when `grid_step` is 0 (auto): 1/100 of the noise scale 1/e, at most 1/1000 of the
// narrowest side of the domain box (when given), and never finer than max_abs * 2^-38, so that the
// grid's doubles resolve it (max_abs = the largest |coordinate| of the box, at least 1). Public: a
// function of the parameters and of the public domain only.
double auto_grid_step(double eps, const std::vector<double>& lo, const std::vector<double>& hi);
// The finest step the sampler accepts for coordinates of magnitude up to max_abs: max_abs * 2^-40.
double finest_grid_step(double max_abs);

// The expected number of proposals of one GridLaplaceSampler::draw (a continuous approximation, close
// when the step u is small against the noise scale 1 / e, as the auto step is). The proposal is a
// product of d two-sided geometric laws, an L1-shaped envelope of the L2-radial target, and its
// acceptance rate is the ratio of their masses,
//   Z_target / Z_envelope = [2 pi^(d/2) Gamma(d) / (Gamma(d/2) e^d)] / (2 t u)^d,   t u >= sqrt(d) / e,
// times exp(-c) (c ~ d / (4 t), the offset of x from the grid). It falls like (pi e / (2 d))^(d/2):
// 1.3 proposals at d = 2, 296 at d = 22, 10^7 at d = 60, 10^31 at d = 262. Each proposal draws d
// coordinates, so the cost of a point grows like d (2 d / (pi e))^(d/2); the cost model refuses a cell
// whose draws do not fit (ndlaplace/cost.cpp, sampler_limits) instead of letting it run for days.
double expected_proposals(std::size_t d, double eps, double step);
// The largest dimension at which one draw needs at most `max_proposals` proposals (auto grid step).
std::size_t largest_dimension_within(double max_proposals);

// One draw of the untruncated grid distribution P[k | x] proportional to exp(-e ||G(k) - x||_2).
class GridLaplaceSampler {
 public:
  // eps: rate e per unit distance (> 0); origin: o (d values); step: u (> 0).
  GridLaplaceSampler(std::size_t d, double eps, std::vector<double> origin, double step);
  // Writes G(k) to out[0..d). `proposals` (if given) is increased by the proposals the draw used.
  // Throws std::invalid_argument (no coordinates in the text) when the step is finer than
  // finest_grid_step(max_j |o_j| + |x_j|): the doubles of G could then not resolve the grid.
  void draw(const double* x, Rng& rng, double* out, std::uint64_t* proposals = nullptr) const;
  double coordinate(std::size_t j, std::int64_t k) const { return origin_[j] + step_ * static_cast<double>(k); }
  std::uint64_t geometric_scale() const { return t_; }
  double step() const { return step_; }

 private:
  std::size_t d_;
  double eps_;
  std::vector<double> origin_;
  double step_;
  std::uint64_t t_;  // proposal scale: integer >= (1 + 1e-9) sqrt(d) / (e u)
};

}  // namespace dpclust::ndlaplace
