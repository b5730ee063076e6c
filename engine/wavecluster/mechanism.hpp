#pragma once
// The five methods of the DP WaveCluster reproduction as thin adapters from validated parameters to
// the algorithms, each a WcMechanism: a Method whose typed output (WaveClusterOutput) the metrics can
// also obtain directly, e.g. when they re-run the mechanism on cross-validation folds (OCM, 2CE).
//
//   wavecluster  non-private WaveCluster (arXiv Sec. 3.2)                       wavecluster.hpp
//   wc_baseline  Baseline: DP synopsis -> synthetic data -> WaveCluster (Sec. 4.1)  baseline.hpp
//   privqt       PrivQT: noise on the count matrix (Sec. 4.2)                    privqt.hpp
//   privthr      PrivTHR: PrivQT + noisy |Z| to prune noisy positives (Alg. 1)   privthr.hpp
//   privthr_em   PrivTHR_EM: PrivQT + threshold by the exponential mechanism (Alg. 2)  privthr_em.hpp
//
// What a run gives (core/method.hpp): release = the significant cells with their cluster ids (plus
// Baseline's synopsis sizes); diagnostics = WaveClusterOutput::diagnostics() (k', |L'|, d', sizes:
// functions of the noisy synopsis); evaluation = WaveClusterOutput::evaluation() (the true k, |L|,
// |Z|); details = the WaveClusterOutput itself; the point labels are for evaluation only.
#include <memory>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "wavecluster/wavecluster.hpp"

namespace dpclust::wavecluster {

class WcMechanism : public Method {
 public:
  // One run on `data` (whose bounds are the public domain). Must spend exactly the configured
  // epsilon in `ledger` when private. `params` holds the method's validated parameters. `known_counts`:
  // data's count matrix on the grid of `wp` when the caller already has it (count_matrix,
  // wavecluster.hpp; cross-validation's training folds), the same numbers a pass over the points gives.
  virtual WaveClusterOutput run_wc(const Dataset& data, const WcParams& wp, const ParamSet& params, Rng& rng,
                                   BudgetLedger& ledger, const std::vector<double>* known_counts = nullptr) const = 0;
  // Whether run_wc reads the points even when given known_counts (Baseline's synopsis does; the
  // mechanisms on the count matrix do not, so cross-validation need not copy a fold's training points).
  virtual bool reads_points() const { return true; }
  // Method interface: run_wc, then point labels (evaluation only for the private mechanisms), the
  // release, diagnostics, evaluation and details (above).
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const override;
};

std::unique_ptr<WcMechanism> make_mechanism(const std::string& name);

// The typed result of a WaveCluster-family trial (MethodResult::details), or nullptr when the result
// holds none (another family's method).
const WaveClusterOutput* output_of(const MethodResult& result);

}  // namespace dpclust::wavecluster
