#include "experiment/single_trial.hpp"

#include <chrono>
#include <stdexcept>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "experiment/dataset_factory.hpp"
#include "experiment/param_values.hpp"
#include "experiment/release_flags.hpp"
#include "experiment/runner.hpp"

namespace dpclust {

ParamSet complete_params(const std::vector<ParamSpec>& specs, const std::string& owner, const std::map<std::string, ParamValue>& given,
                         const std::string& where) {
  std::vector<std::string> names;
  for (const auto& spec : specs) names.push_back(spec.name);
  for (const auto& [name, value] : given) {
    bool known = false;
    for (const auto& n : names) known = known || n == name;
    if (known) continue;
    const std::string s = closest_match(name, names);
    throw InputError(where, "'" + name + "' is not a parameter of " + owner,
                     (s.empty() ? "" : "did you mean '" + s + "'? ") + "see `dpclust list` for each method's parameters");
  }
  ParamSet out;
  for (const auto& spec : specs) {
    auto it = given.find(spec.name);
    if (it != given.end() && !std::holds_alternative<std::monostate>(it->second)) {
      check_param_value(spec, it->second, where + "." + spec.name);
      out.set(spec.name, it->second);
    } else if (!spec.required()) {
      out.set(spec.name, spec.default_value);
    } else {
      throw InputError(where, owner + " needs parameter '" + spec.name + "' (" + spec.description + ")",
                       "set " + spec.name + "=...");
    }
  }
  return out;
}

void check_trial_inputs(const MethodInfo& info, const ParamSet& params, const Dataset& data, const std::string& where) {
  if (info.needs_bounds && data.bounds.empty())
    throw InputError(where, "method '" + info.name + "' needs the public domain bounds of the data",
                     "pass bounds=(lower, upper) (public knowledge), or bounds='data' (derived from the data; flagged non-private)");
  if (!info.check_shape) return;
  try {
    info.check_shape(params, shape_of(data));
  } catch (const InputError& e) {
    const std::string& w = e.where();
    throw InputError(w.rfind("params.", 0) == 0 ? where + "." + w.substr(7) : where + (w.empty() ? "" : " (" + w + ")"),
                     "method '" + info.name + "': " + e.problem(), e.fix());
  } catch (const std::invalid_argument& e) {
    throw InputError(where, "method '" + info.name + "': " + e.what(), "check this method's parameters against the data");
  }
}

void check_randomness(Randomness mode, const ParamSet& params, const std::string& where) {
  if (mode != Randomness::secure || !params.has("rng")) return;
  const ParamValue& v = params.get("rng");
  if (const auto* s = std::get_if<std::string>(&v); s && *s == "numpy")
    throw InputError(where + ".rng",
                     "rng: numpy draws the authors' numpy stream from a seed (RandomState(seed)), which randomness: secure "
                     "does not have: a seeded stream cannot be a secure release",
                     "use rng: dpclust (the harness's samplers) with randomness: secure, or randomness: seeded to reproduce the authors' runs");
}

TrialRun run_single_trial(const MethodInfo& info, const Dataset& data, const ParamSet& params, std::uint64_t seed, double noise_scale) {
  return run_single_trial(info, data, params, Randomness::seeded, seed, noise_scale);
}

bool trial_private_release(const MethodInfo& info, const TrialRun& run, const std::vector<std::string>& data_notes) {
  std::vector<std::string> notes = data_notes;
  notes.insert(notes.end(), run.result.non_private_notes.begin(), run.result.non_private_notes.end());
  return is_private_release(info.differentially_private, run.randomness, run.ledger, notes);
}

TrialRun run_single_trial(const MethodInfo& info, const Dataset& data, const ParamSet& params, Randomness mode, std::uint64_t seed,
                          double noise_scale) {
  check_randomness(mode, params, "params");
  Rng rng = Rng::make(mode, seed);
  TrialRun out{MethodResult{}, trial_ledger(info, params, noise_scale), 0.0, mode, {}};
  const auto method = info.make();
  const auto t0 = std::chrono::steady_clock::now();
  out.result = method->run(data, params, rng, out.ledger);
  out.method_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.ledger.verify();
  MethodResult& res = out.result;
  if (res.labels.size() != data.n)
    throw std::logic_error("method '" + info.name + "' returned " + std::to_string(res.labels.size()) + " labels for " +
                           std::to_string(data.n) + " points");
  // The notes a trial of `dpclust run` adds (runner.cpp, run_trial), in the same words. Labels a private
  // method computes for evaluation are not released: an evaluation_only note, not a privacy condition.
  if (info.differentially_private && !res.labels_are_release) out.evaluation_only.push_back(kLabelsEvaluationOnlyNote);
  if (out.ledger.noise_scale() != 1.0)
    res.non_private_notes.push_back("noise scaled by " + std::to_string(out.ledger.noise_scale()) +
                                    " of its calibrated value (a test of the privacy audit): not the recorded epsilon");
  return out;
}

}  // namespace dpclust
