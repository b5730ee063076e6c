#pragma once
// EUGkM's and the hybrid's cost (core/trial_cost.hpp): the m^d-cell histogram (true and noisy counts, 16 bytes a
// cell) and the weighted k-means of its positive cells (about half the empty cells draw positive noise, plus the
// occupied ones), whose centres hold d + 1 doubles; the noise is one exact draw a cell (about 40 basic operations).
// The hybrid adds DPLloyd's iterations on the data (at most 7 by its rule).
#include "core/trial_cost.hpp"

namespace dpclust::eugkm {

TrialCost trial_cost(const CostInputs& in, bool hybrid);
// The grid's parameters, named in a refusal over the memory limit.
CostAdvice cost_advice(const CostInputs& in);

}  // namespace dpclust::eugkm
