#pragma once
// The WaveCluster methods' cost (core/trial_cost.hpp). Over the G = prod_j g_j grid cells: five arrays (counts,
// transform, significance, components, the synopsis or noisy copy), 5 x 8 G bytes (measured at 22 columns and g = 2,
// 4.2 million cells: 172 MB against 168 MB), plus 16 bytes a point; work 4 (level + 1) G + n d. Baseline adds its
// synthetic points (8 n d bytes). OCM/2CE (computed by default) run the mechanism again on each of cv_folds training
// parts, and C4.5 over the cells of the average subband (ceil(g / 2^level) per dimension): their lattice
// coordinates and per-attribute orders (12 d bytes a cell), two nodes a cell at most.
#include "core/trial_cost.hpp"

namespace dpclust::wavecluster {

TrialCost trial_cost(const CostInputs& in, bool synthetic_points);
CostAdvice cost_advice(const CostInputs& in);

}  // namespace dpclust::wavecluster
