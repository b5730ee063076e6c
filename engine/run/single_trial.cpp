#include "run/single_trial.hpp"

#include <chrono>
#include <stdexcept>
#include <vector>

#include "config/param_checks.hpp"
#include "core/error.hpp"
#include "core/named_choice.hpp"
#include "core/rng.hpp"
#include "loading/dataset_loading.hpp"
#include "metrics/nearest_centre.hpp"
#include "run/release_flags.hpp"
#include "run/runner.hpp"

namespace dpclust {

TrialRun run_single_trial(const MethodInfo& info, const Dataset& data, const ParamSet& params, std::uint64_t seed,
                          double noise_scale) {
  return run_single_trial(info, data, params, Randomness::seeded, seed, noise_scale);
}

bool trial_private_release(const MethodInfo& info, const TrialRun& run, const std::vector<std::string>& data_notes) {
  std::vector<std::string> notes = data_notes;
  notes.insert(notes.end(), run.result.non_private_notes.begin(), run.result.non_private_notes.end());
  return is_private_release(info.differentially_private, run.randomness, run.ledger, notes);
}

TrialRun run_single_trial(const MethodInfo& info, const Dataset& data, const ParamSet& params, Randomness mode,
                          std::uint64_t seed, double noise_scale, bool labels_needed, CentresOutsideDomain centres) {
  check_randomness(mode, params, "params");
  Rng rng = Rng::make(mode, seed);
  TrialRun out{MethodResult{}, trial_ledger(info, params, noise_scale), 0.0, mode, {}};
  const auto method = info.make();
  method->set_labels_needed(labels_needed);
  const auto t0 = std::chrono::steady_clock::now();
  out.result = method->run(data, params, rng, out.ledger);
  out.method_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.ledger.verify();
  MethodResult& res = out.result;
  if (res.labels.size() != data.n)
    throw std::logic_error("method '" + info.name + "' returned " + std::to_string(res.labels.size()) + " labels for " +
                           std::to_string(data.n) + " points");
  // Centres outside the public domain: moved into it by default, post-processing of the release with the public
  // bounds (no ledger entry, no privacy cost); the release, the centres the metrics read and nearest-centre labels
  // follow the moved centres.
  out.centres_policy = centres;
  out.centres_outside = centres_outside_domain(res.centres, data.bounds, centres);
  if (out.centres_outside > 0 && centres == CentresOutsideDomain::clamp) {
    if (res.release.is_object() && res.release.contains("centers")) res.release["centers"] = rows_json(res.centres);
    if (info.labels_are_nearest_centre && labels_needed)
      res.labels = nearest_centres(data.coords.data(), data.n, data.d, res.centres).labels;
  }
  // The notes a trial of `dpclust run` adds (runner.cpp, run_trial), in the same words. Labels a private
  // method computes for evaluation are not released: an evaluation_only note, not a privacy condition.
  if (info.differentially_private && !res.labels_are_release) out.evaluation_only.push_back(kLabelsEvaluationOnlyNote);
  if (out.ledger.noise_scale() != 1.0)
    res.non_private_notes.push_back("noise scaled by " + std::to_string(out.ledger.noise_scale()) +
                                    " of its calibrated value (a test of the privacy audit): not the recorded epsilon");
  return out;
}

}  // namespace dpclust
