#include "cluster/dbscan/cost.hpp"

namespace dpclust {

TrialCost dbscan_cost(double n, double d) { return {48 * n, 32 * n * d}; }

TrialCost dbscan_trial_cost(const CostInputs& in) { return dbscan_cost(in.n(), in.d()); }

}  // namespace dpclust
