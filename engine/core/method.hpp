#pragma once
// The one small interface every clustering method and private mechanism implements.
//
// A method receives the data, its validated parameters, its own random generator and the trial's
// budget ledger; it returns point labels (for evaluation) and the JSON of what it releases. Private
// mechanisms must record every data access in the ledger; the runner verifies the sum.
#include <any>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpclust {

// What one trial of a method gives, split by what it may reveal:
//   release      what the mechanism publishes, covered by the ledger (spans, noisy centres, ...);
//   diagnostics  public numbers: functions of the release and the parameters only (k' counted on
//                the noisy synopsis, the iteration count a public rule fixed, the span count);
//   evaluation   exact statistics of the true data (the true k, |Z|, occupied cells, inertia on the
//                true points, ...), computed for the report and written under "evaluation" in the
//                results, which are not private; never part of the release;
//   details      the method's own typed result, which its family's metrics read (std::any_cast to
//                the type the family declares), so no metric looks numbers up by a string key.
struct MethodResult {
  Labels labels;  // one per input point, kNoise = -1
  // True when the labels themselves are the private release. When false for a private mechanism,
  // the labels were extracted for evaluation only and are flagged so in the results.
  bool labels_are_release = false;
  nlohmann::json release = nlohmann::json::object();
  nlohmann::json diagnostics = nlohmann::json::object();
  nlohmann::json evaluation = nlohmann::json::object();
  std::any details;
  std::vector<std::string> non_private_notes;  // reasons this output is not a private release
};

class Method {
 public:
  virtual ~Method() = default;
  virtual MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const = 0;
};

struct MethodInfo {
  std::string name;       // config name, e.g. "dbscan"
  std::string summary;    // one line
  std::string reference;  // paper and section
  bool differentially_private = false;  // private methods take "epsilon" (and maybe "delta")
  bool needs_bounds = false;            // uses the public domain bounds of the dataset
  // The neighbouring relation the method's sensitivities are computed under, and whether its
  // guarantee is local (per record, metric: nD-Laplace) rather than central.
  NeighbourRelation relation = NeighbourRelation::add_remove;
  bool local_privacy = false;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Method>()> make;
  nlohmann::json to_json() const;
};

}  // namespace dpclust
