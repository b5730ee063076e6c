#pragma once
// The trivial baseline of a private clustering benchmark: k centres drawn uniformly at random from the public
// domain, without looking at the data (Hay et al., "Principled evaluation of differentially private
// algorithms using DPBench", SIGMOD 2016, Sec. 5: a data-independent baseline every private algorithm must
// beat to be worth its budget). Its output does not depend on the data, so it is 0-DP: it takes no epsilon
// and its ledger is private with total 0 (BudgetLedger::data_independent). A private method that does not
// beat it in a cell has spent its budget for nothing (the report's comparison flags that cell).
//
// Algorithm: for c = 1..k, for j = 1..d: centre[c][j] = lo_j + U (hi_j - lo_j), U uniform in [0, 1) from the
// trial's generator (53-bit, core/rng.hpp). Labels: each point's nearest centre (the first of equal squared
// distances), for evaluation only; they are computed from the data and are not released.
#include <cstddef>

#include "core/dataset.hpp"
#include "core/method.hpp"
#include "core/rng.hpp"

namespace dpclust {

struct UniformCentres {
  RowMatrix centres;  // k x d, inside the public bounds
  Labels labels;      // nearest centre of every point (evaluation only)
};

// k centres uniform in `bounds` (which must have data.d dimensions), and the nearest-centre labels of the data.
UniformCentres uniform_centres(const Dataset& data, const Bounds& bounds, std::size_t k, Rng& rng);

}  // namespace dpclust
