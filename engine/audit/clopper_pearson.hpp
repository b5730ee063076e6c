#pragma once
// Exact (Clopper-Pearson 1934) confidence bounds for a binomial proportion, and the lower bound on
// epsilon they give for one output event (the statistical core of `dpclust audit`).
//
// For k successes in n runs, the one-sided bounds at level 1 - a are the Beta quantiles
//   lower(k, n) = Beta^{-1}(a; k, n - k + 1)      (0 when k = 0)
//   upper(k, n) = Beta^{-1}(1 - a; k + 1, n - k)  (1 when k = n)
// (Boost.Math's ibeta_inv: the regularized incomplete beta inverse).
//
// An (eps, delta)-DP mechanism M satisfies, for neighbours D, D' and every event E,
//   P[M(D) in E] <= e^eps P[M(D') in E] + delta,   so   eps >= ln((P[M(D) in E] - delta) / P[M(D') in E]).
// With p_lo a lower confidence bound of P[M(D) in E] and p_hi an upper one of P[M(D') in E], each at
// level 1 - a/2 on independent runs, eps_lower = ln((p_lo - delta) / p_hi) is a lower bound on the true
// epsilon with confidence 1 - a (Jagielski, Ullman & Oprea 2020; Nasr et al. 2023). It is 0 when
// p_lo <= delta (no evidence).
#include <cstdint>

namespace dpclust::audit {

// One-sided Clopper-Pearson bounds at confidence `level` (e.g. 0.975).
double clopper_pearson_lower(std::uint64_t successes, std::uint64_t trials, double level);
double clopper_pearson_upper(std::uint64_t successes, std::uint64_t trials, double level);

struct EpsilonBound {
  double eps_lower = 0;  // >= 0
  double p_lo = 0;       // lower bound of P[E | D]
  double p_hi = 1;       // upper bound of P[E | D']
};
// The bound for an event seen k_d times in n_d runs on D and k_dprime times in n_dprime runs on D', at
// overall confidence `confidence` (each side at 1 - (1 - confidence)/2).
EpsilonBound epsilon_lower_bound(std::uint64_t k_d, std::uint64_t n_d, std::uint64_t k_dprime, std::uint64_t n_dprime,
                                 double delta, double confidence);

}  // namespace dpclust::audit
