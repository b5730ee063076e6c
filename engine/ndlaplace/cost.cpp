#include "ndlaplace/cost.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cluster/affinity/cost.hpp"
#include "cluster/dbscan/cost.hpp"
#include "cluster/kmeans/cost.hpp"
#include "core/method.hpp"
#include "ndlaplace/grid_laplace.hpp"
#include "ndlaplace/mechanism.hpp"

namespace dpclust::ndlaplace {
namespace {

bool secure_sampler(const ParamSet& p) { return p.has("sampler") && p.string("sampler") == "secure"; }

// The clustering nd_laplace runs on its perturbed (and, for the metrics, original) points.
TrialCost clustering_cost(const CostInputs& in) {
  const std::string& algo = in.params.string("cluster");
  if (algo == "affinity") return affinity_cost(in.n(), in.number("ap_max_iter", 200));
  if (algo == "dbscan") return dbscan_cost(in.n(), in.d());
  return kmeans_cost(in.n(), in.d(), in.number("k", 4), in.number("n_init", 10), 300);
}

// The secure sampler's grid step: grid_step, or the automatic one for the rate and the box.
double grid_step_of(const ParamSet& p, double rate, const DataShape& shape) {
  double step = number_or(p, "grid_step", 0);
  if (step > 0) return step;
  const std::size_t d = *shape.d;
  const Bounds& b = shape.bounds;
  return auto_grid_step(std::max(rate, 1e-300), b.dims() == d ? b.lo : std::vector<double>{},
                        b.dims() == d ? b.hi : std::vector<double>{});
}

// The truncation a cell's nD-Laplace uses at this shape (truncation: auto decides by the shape's bounds,
// choose_truncation; unknown bounds count as none, which the run then judges on the data's).
Truncation truncation_of(const ParamSet& p, const DataShape& shape) {
  const std::string name = p.has("truncation") ? p.string("truncation") : "auto";
  const bool thesis = p.has("resampling_budget") && p.string("resampling_budget") == "thesis";
  const std::size_t d = shape.d.value_or(0);
  return choose_truncation(name, number_or(p, "epsilon", 1), number_or(p, "radius", 1),
                           thesis ? ResamplingBudget::thesis : ResamplingBudget::halve,
                           static_cast<std::int64_t>(number_or(p, "max_retries", 1e4)), d,
                           shape.bounds.dims() == d ? shape.bounds : Bounds{})
      .truncation;
}

}  // namespace

double draw_rate(const ParamSet& p, const DataShape& shape) {
  const bool resample = truncation_of(p, shape) == Truncation::resample;
  const bool thesis = resample && p.has("resampling_budget") && p.string("resampling_budget") == "thesis";
  const double rate = number_or(p, "epsilon", 1) / number_or(p, "radius", 1);
  // NdLaplaceMechanism::create: halved when the normaliser depends on x (resampling, or the grid), unless
  // the thesis's reading is asked for.
  return (resample || secure_sampler(p)) && !thesis ? rate / 2 : rate;
}

double resample_draws_per_point(const ParamSet& p, const DataShape& shape) {
  if (!shape.d || shape.bounds.dims() != *shape.d || truncation_of(p, shape) != Truncation::resample) return 0;
  return expected_resample_draws(*shape.d, draw_rate(p, shape), shape.bounds);
}

double sampler_seconds(const ParamSet& p, const DataShape& shape) {
  if (!shape.n || !shape.d || *shape.d == 0) return 0;
  const std::size_t d = *shape.d;
  const double points = static_cast<double>(*shape.n) + 2 * number_or(p, "privacy_probe_draws", 0);
  double draws = resample_draws_per_point(p, shape);
  if (draws <= 0) draws = 1;
  draws = std::min(draws, number_or(p, "max_retries", 1e4));
  if (!secure_sampler(p)) return points * draws * kSecondsPerNoiseDraw;
  const double rate = draw_rate(p, shape);
  const double proposals = expected_proposals(d, rate, grid_step_of(p, rate, shape));
  return points * draws * proposals * static_cast<double>(d) * kSecondsPerCoordinateProposal;
}

TrialCost trial_cost(const CostInputs& in) {
  const double n = in.n(), d = in.d();
  const TrialCost c = clustering_cost(in);
  TrialCost s;
  s.memory = 2 * kBytesPerDouble * n * d + c.memory;
  s.work = 20 * n * d + 2 * c.work + std::min(n * n, in.number("pe_max_pairs", 4e6)) * d;
  s.noise_draws = sampler_seconds(in.params, in.shape) / kSecondsPerNoiseDraw;
  return s;
}

std::optional<CostProblem> sampler_limits(const CostInputs& in, double max_trial_seconds) {
  const DataShape& shape = in.shape;
  const std::size_t d = *shape.d;
  const ParamSet& p = in.params;
  const double rate = draw_rate(p, in.shape), full_rate = in.number("epsilon", 1) / in.number("radius", 1);
  const std::string rate_text =
      "the noise is drawn at rate " + round_up_2(rate) + " per data unit (epsilon / radius = " + round_up_2(full_rate) +
      (rate < full_rate ? ", halved: the truncated or grid noise's normaliser depends on the point, mechanism.hpp)"
                        : ")");
  // Truncation by resampling (thesis Alg. 1) redraws a point until its noise lands in the domain; when the
  // expected draws are far past max_retries, every trial would fail after minutes of draws.
  const double draws = resample_draws_per_point(p, shape), retries = in.number("max_retries", 1e4);
  if (draws > 10 * retries) {
    const std::size_t fit = static_cast<std::size_t>(largest_fitting(
        1, d, [&](std::uint64_t m) { return resample_draws_per_point(p, first_columns(shape, m)) <= 10 * retries; }));
    std::string fix = "truncation: remap; or raise epsilon or lower radius (" + rate_text + ")";
    if (fit > 0) fix += "; or fewer columns: at most " + std::to_string(fit) + " fit (list them in `columns`)";
    return CostProblem{"truncation by resampling needs " +
                           (draws >= 1e12 ? std::string("more than 1e+12") : "about " + format_count(draws)) +
                           " draws per point to land in the domain (the noise's mean length d / rate = " +
                           round_up_2(static_cast<double>(d) / rate) +
                           " against the domain's sides), over max_retries = " + format_count(retries),
                       fix};
  }
  const double seconds = sampler_seconds(p, shape);
  if (seconds <= max_trial_seconds) return std::nullopt;
  const bool secure = secure_sampler(p);
  std::string problem = "drawing the reports takes about " + format_seconds(seconds) + " a trial, over the limit of " +
                        format_seconds(max_trial_seconds) + " (--max-trial-seconds)";
  if (secure)
    problem += ": the secure sampler's exact rejection step needs about " +
               format_count(expected_proposals(d, rate, grid_step_of(p, rate, shape))) + " proposals a point in " +
               std::to_string(d) + " dimensions (its envelope accepts a share that falls like (2 d / (pi e))^(-d/2))";
  std::vector<std::string> fixes;
  const std::size_t fit = static_cast<std::size_t>(largest_fitting(
      1, d, [&](std::uint64_t m) { return sampler_seconds(p, first_columns(shape, m)) <= max_trial_seconds; }));
  if (fit > 0)
    fixes.push_back("fewer columns: at most " + std::to_string(fit) +
                    " fit (list them in `columns`, or project the data)");
  if (secure) {
    ParamSet textbook = p;
    textbook.set("sampler", std::string("textbook"));
    const double t = sampler_seconds(textbook, shape);
    if (t <= max_trial_seconds)
      fixes.push_back("sampler: textbook (about " + format_seconds(t) +
                      " a trial; floating-point noise: the results are flagged as not a private release)");
  }
  const double per_point = seconds / static_cast<double>(*shape.n);
  const auto rows = static_cast<std::uint64_t>(max_trial_seconds / per_point);
  if (rows >= 1 && rows < *shape.n)
    fixes.push_back("max_rows: " + std::to_string(rows) + " (or sample: " + std::to_string(rows) + ")");
  fixes.push_back("--max-trial-seconds " + format_count(std::ceil(seconds)) + " if you can wait " +
                  format_seconds(seconds) + " a trial");
  std::string fix;
  for (std::size_t i = 0; i < fixes.size(); ++i) fix += (i ? "; or " : "") + fixes[i];
  return CostProblem{problem, fix};
}

}  // namespace dpclust::ndlaplace
