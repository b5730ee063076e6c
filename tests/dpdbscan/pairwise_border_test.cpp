// The pairwise baseline's border rule (pairwise.hpp): with noise too small to move any distance across
// alpha, its labels are exact DBSCAN's under either rule, so border: noise is the paper's core-only
// DBSCAN (Qiu & Yi, Sec. 2) and border: assign scikit-learn's.
#include <gtest/gtest.h>

#include <vector>

#include "cluster/dbscan/dbscan.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "dpdbscan/pairwise.hpp"

namespace dpclust::dpdbscan {
namespace {

TEST(PairwiseBorder, NoiseRuleLeavesBorderPointsNoise) {
  // Two dense rows of 6 points 0.1 apart with one straggler each, 0.5 beyond the row's end: with
  // alpha = 0.55 and min_pts = 4 the stragglers are border points (2 points within alpha).
  std::vector<double> p;
  for (int row = 0; row < 2; ++row) {
    for (int k = 0; k < 6; ++k) p.insert(p.end(), {0.1 * k, 5.0 * row});
    p.insert(p.end(), {1.0, 5.0 * row});
  }
  const std::size_t n = p.size() / 2;
  const Bounds b{{-1, -1}, {6, 6}};
  PairwiseOptions o;
  o.alpha = 0.55;
  o.min_pts = 4;
  o.epsilon = 1e13;  // noise scale (n - 1) D / eps ~ 1e-11: no distance crosses alpha
  for (BorderRule rule : {BorderRule::assign, BorderRule::noise}) {
    SCOPED_TRACE(to_string(rule));
    o.border = rule;
    Rng rng(3);
    BudgetLedger ledger(o.epsilon, 0.0, NeighbourRelation::replace_one);
    const PairwiseResult r = pairwise_noisy_dbscan(p.data(), n, b, o, rng, ledger);
    EXPECT_EQ(r.labels, dbscan(p.data(), n, 2, o.alpha, o.min_pts, nullptr, rule));
    EXPECT_EQ(r.clusters, 2u);
    const Label straggler = rule == BorderRule::noise ? kNoise : 0;
    EXPECT_EQ(r.labels[6], straggler);
    EXPECT_EQ(r.labels[13], rule == BorderRule::noise ? kNoise : 1);
    EXPECT_EQ(r.labels[0], 0);
  }
}

}  // namespace
}  // namespace dpclust::dpdbscan
