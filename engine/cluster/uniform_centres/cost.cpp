#include "cluster/uniform_centres/cost.hpp"

namespace dpclust {

TrialCost uniform_centres_trial_cost(const CostInputs& in) {
  const double n = in.n(), d = in.d(), k = in.number("k", 1);
  return {16 * n + kBytesPerDouble * k * d, n * k * d};
}

}  // namespace dpclust
