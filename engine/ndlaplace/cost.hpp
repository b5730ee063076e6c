#pragma once
// nD-Laplace's cost (core/trial_cost.hpp): two copies of the points and the clustering named by `cluster` (its own
// model, run twice: on the perturbed and on the original data); work 20 n d + twice the clustering +
// min(n^2, pe_max_pairs) d. Each report is drawn by a rejection sampler, counted in noise draws (d-dimensional
// samples, kSecondsPerNoiseDraw each for the textbook sampler); the secure grid sampler's proposals grow like
// (2 d / (pi e))^(d/2) (grid_laplace.hpp expected_proposals), each of d coordinates. Truncation by resampling redraws
// a point's noise until it lands in the box: with noise of mean radius d / rate against box sides L_j, roughly
// prod_j (1 + radius / L_j) draws per point (capped by max_retries); at small epsilon in 5-D that dominates
// everything else.
#include <optional>

#include "core/trial_cost.hpp"

namespace dpclust::ndlaplace {

// Seconds per coordinate of a secure grid sampler's proposal (measured).
inline constexpr double kSecondsPerCoordinateProposal = 2.5e-7;

// The rate per unit distance the noise is drawn at: epsilon / radius, halved when the normaliser depends on x
// (truncation resample, at this shape under truncation: auto, or the secure grid sampler) unless
// resampling_budget: thesis.
double draw_rate(const ParamSet& params, const DataShape& shape);
// Truncation by resampling: roughly prod_j (1 + d / rate / L_j) draws per point before the noise lands in a box of
// sides L_j (expected_resample_draws, mechanism.hpp; 0 when the cell does not resample at this shape, truncation:
// auto included, or the bounds are unknown).
double resample_draws_per_point(const ParamSet& params, const DataShape& shape);
// Seconds one trial spends drawing its reports (kSecondsPerNoiseDraw per textbook d-dimensional draw,
// kSecondsPerCoordinateProposal per coordinate of a secure grid proposal), the resampling draws and the secure
// sampler's expected proposals included; 0 when n or d is unknown.
double sampler_seconds(const ParamSet& params, const DataShape& shape);

TrialCost trial_cost(const CostInputs& in);
// The two rejection samplers against their limits (max_retries, --max-trial-seconds), with the fixes that apply at
// this shape: fewer columns (the most that fit), truncation: remap, sampler: textbook, max_rows.
std::optional<CostProblem> sampler_limits(const CostInputs& in, double max_trial_seconds);

}  // namespace dpclust::ndlaplace
