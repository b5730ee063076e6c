#pragma once
// One trial of a method outside an experiment: what the Python estimators run (python/dpclust). It takes
// the steps of a trial of `dpclust run` (runner.cpp): the generator seeded with the trial's seed, the
// ledger built by trial_ledger and verified after the run, one label per point, the labels of a private
// method that are not its release flagged. An estimator with random_state = s therefore gives the numbers
// of the config trial whose seed is s: a config with `seeds: [s]`, or any trial of a results file (each
// records its `seed`) on the same data and parameters.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "config/param_checks.hpp"  // complete_params, check_trial_inputs, check_randomness (callers of this header use them)
#include "core/centres_domain.hpp"
#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/method.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpclust {

struct TrialRun {
  MethodResult result;
  BudgetLedger ledger;
  double method_seconds = 0;
  Randomness randomness = Randomness::seeded;
  // What the result holds for evaluation only (release_flags.hpp): not a privacy condition.
  std::vector<std::string> evaluation_only;
  // Released centres outside the public domain (core/centres_domain.hpp), and what was done with them: moved
  // into it (clamp, the default: the release, the centres the metrics read and, for a method whose labels are
  // the nearest centre, the labels), or left (keep).
  std::size_t centres_outside = 0;
  CentresOutsideDomain centres_policy = CentresOutsideDomain::clamp;
};

// The trial (the ledger verified, the label count checked, the non-private and evaluation-only notes of
// runner.cpp added). The data's own non_private_notes are the caller's to report, as a cell reports them
// once. Seeded: Rng(seed); secure: Rng::secure() and `seed` is ignored. labels_needed: Method::set_labels_needed.
TrialRun run_single_trial(const MethodInfo& info, const Dataset& data, const ParamSet& params, Randomness mode,
                          std::uint64_t seed, double noise_scale = 1.0, bool labels_needed = true,
                          CentresOutsideDomain centres = CentresOutsideDomain::clamp);
TrialRun run_single_trial(const MethodInfo& info, const Dataset& data, const ParamSet& params, std::uint64_t seed,
                          double noise_scale = 1.0);

// release_flags.hpp's rule for one trial: the data's notes and the trial's own.
bool trial_private_release(const MethodInfo& info, const TrialRun& run, const std::vector<std::string>& data_notes);

}  // namespace dpclust
