#include "wavecluster/cost.hpp"

#include <cmath>

namespace dpclust::wavecluster {
namespace {

// The grid's cells: the product of the per-dimension g, or g^d for one g for every dimension; each side divided by
// `shrink` (rounded up) first.
double grid_cells(const CostInputs& in, double shrink) {
  const ParamValue& g = in.params.get("g");
  if (!std::holds_alternative<RealVector>(g)) return std::pow(std::ceil(in.number("g", 2) / shrink), in.d());
  double cells = 1;
  for (double x : std::get<RealVector>(g)) cells *= shrink == 1 ? x : std::ceil(x / shrink);
  return cells;
}

}  // namespace

TrialCost trial_cost(const CostInputs& in, bool synthetic_points) {
  const double n = in.n(), d = in.d();
  const double cells = grid_cells(in, 1);
  const double level = in.number("level", 1);
  TrialCost s{5 * kBytesPerDouble * cells + 16 * n, 4 * (level + 1) * cells + n * d};
  const bool cross_validates = in.computes("ocm", true) || in.computes("two_ce", true);
  if (cross_validates) s.memory += grid_cells(in, std::pow(2.0, level)) * (12 * d + 2 * 48);
  if (synthetic_points) s.memory += kBytesPerDouble * n * d;
  if (cross_validates) s.work *= 1 + in.number("cv_folds", 10);
  return s;
}

CostAdvice cost_advice(const CostInputs& /*in*/) {
  CostAdvice a;
  a.private_memory_fixes = {"a smaller g (about 40 bytes a grid cell)"};
  return a;
}

}  // namespace dpclust::wavecluster
