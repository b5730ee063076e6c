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

// The grid EUGkM will lay, from what is known before the data are read: the rule at N = n_public
// (n_source public) or the dataset's known size (noisy: N~ is n give or take a few 1/eps_N; data: n),
// for the histogram's budget `epsilon_histogram`, and d = the non-constant dimensions of the configured
// bounds (else the shape's d). Uncapped (max_cells is not applied). Empty when N or d is unknown.
std::optional<GridSize> planned_grid(const EugkmOptions& o, double epsilon_histogram, const DataShape& shape);
// EUGkM's histogram budget of a method's options: eps (1 - n_fraction) when noisy, else eps; the hybrid's
// share of it (before its fallback rules) when `hybrid` is given.
double planned_histogram_epsilon(const EugkmOptions& o, const HybridOptions* hybrid = nullptr);

}  // namespace dpclust::eugkm
