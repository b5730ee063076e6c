#pragma once
// The five methods of the DP WaveCluster reproduction, each a WcMechanism: a Method whose structured
// output (significant cells and their clusters) the metrics can also obtain directly, e.g. when they
// re-run the mechanism on cross-validation folds (OCM, 2CE).
//
//   wavecluster  non-private WaveCluster (arXiv Sec. 3.2)
//   wc_baseline  Baseline: DP synopsis -> synthetic data -> WaveCluster (arXiv Alg. "Baseline")
//   privqt       PrivQT: Laplace noise on the count matrix (arXiv Alg. "PrivQT", Sec. 4.2)
//   privthr      PrivTHR: PrivQT + noisy |Z| to prune |Z|'/2 noisy positives (Alg. 1, Sec. 4.3)
//   privthr_em   PrivTHR_EM: PrivQT + threshold by the exponential mechanism (Alg. 2, Sec. 4.4)
#include <memory>
#include <string>

#include "core/method.hpp"
#include "wavecluster/wavecluster.hpp"

namespace dpclust::wavecluster {

class WcMechanism : public Method {
 public:
  // One run on `data` (whose bounds are the public domain). Must spend exactly the configured
  // epsilon in `ledger` when private. `params` holds the method's validated parameters.
  virtual WcOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet& params, Rng& rng,
                          BudgetLedger& ledger) const = 0;
  // Method interface: run_wc, then point labels (evaluation only for the private mechanisms) and the
  // release (significant cells with cluster ids, plus the synopsis sizes for Baseline).
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const override;
};

std::unique_ptr<WcMechanism> make_mechanism(const std::string& name);

}  // namespace dpclust::wavecluster
