#pragma once
// The one small interface every clustering method and private mechanism implements.
//
// A method receives the data, its validated parameters, its own random generator and the trial's
// budget ledger; it returns point labels (for evaluation) and the JSON of what it releases. Private
// mechanisms must record every data access in the ledger; the runner verifies the sum.
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

struct MethodResult {
  Labels labels;  // one per input point, kNoise = -1
  // True when the labels themselves are the private release. When false for a private mechanism,
  // the labels were extracted for evaluation only and are flagged so in the results.
  bool labels_are_release = false;
  nlohmann::json release = nlohmann::json::object();      // what the mechanism publishes (spans, centroids, ...)
  nlohmann::json diagnostics = nlohmann::json::object();  // numbers worth keeping (iterations, k', ...)
  std::vector<std::string> non_private_notes;             // reasons this output is not a private release
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
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Method>()> make;
  nlohmann::json to_json() const;
};

}  // namespace dpclust
