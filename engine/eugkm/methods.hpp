#pragma once
// The methods `eugkm` and `hybrid_kmeans`: parameters in (ParamSpec), the algorithms of eugkm.hpp and
// hybrid_kmeans.hpp run, labels + release + diagnostics + evaluation + centres out.
#include <optional>

#include "core/method.hpp"
#include "eugkm/eugkm.hpp"
#include "eugkm/hybrid_kmeans.hpp"

namespace dpclust::eugkm {

const MethodInfo& eugkm_method_info();
const MethodInfo& hybrid_kmeans_method_info();

// The typed options of a validated parameter set (either method's; the hybrid's include EUGkM's).
EugkmOptions eugkm_options(const ParamSet& p);
HybridOptions hybrid_options(const ParamSet& p);

// The grid EUGkM will lay, from public inputs alone: grid_size, or the rule at N = n_public (n_source
// public), for the histogram's budget `epsilon_histogram` and d = the non-constant dimensions of the
// configured bounds (else the shape's d). Uncapped (max_cells is not applied). Empty otherwise: with N~ or
// the true n the grid is known only in the run, which caps it at max_grid_cells; the number of points of
// the data is never a reason to refuse a run (docs/privacy.md, "Checks before a run").
std::optional<GridSize> planned_grid(const EugkmOptions& o, double epsilon_histogram, const DataShape& shape);
// The grid the memory and time estimates assume: planned_grid, else the rule at the shape's n (N~ is n give
// or take a few 1/eps_N), capped at max_grid_cells as the run caps it. A resource estimate, never a check.
std::optional<GridSize> expected_grid(const EugkmOptions& o, double epsilon_histogram, const DataShape& shape);
// EUGkM's histogram budget of a method's options: eps (1 - n_fraction) when noisy, else eps; the hybrid's
// share of it (before its fallback rules) when `hybrid` is given.
double planned_histogram_epsilon(const EugkmOptions& o, const HybridOptions* hybrid = nullptr);

}  // namespace dpclust::eugkm
