#pragma once
// Parameters checked against their declarations, outside a config file: an estimator's keyword
// arguments (python/dpclust), and what every cell checks before its first trial. The config reader
// (config.cpp, grid.cpp) and the Python estimators give the same messages through these.
#include <map>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/method.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpclust {

// The check of parse_param_value for a value that did not come from YAML (the Python estimators' keyword
// arguments): InputError(where, "'epsilon' must be a real number >= 1e-06, got -1", "epsilon is the ...")
// when spec refuses v, so every front end reports a bad value in the same words.
void check_param_value(const ParamSpec& spec, const ParamValue& v, const std::string& where);

// Parameters given by name (an estimator's keyword arguments) completed with the defaults and checked
// against their ParamSpecs as a config's are, in the same words: an unknown name (with the closest
// suggested), a missing required one, a value its spec refuses (check_param_value). `owner` names whose
// parameters they are ("method 'dp_dbscan'", "generator 'moons'"); `where` starts every message
// ("DPDBSCAN"). A std::monostate value counts as not given.
ParamSet complete_params(const std::vector<ParamSpec>& specs, const std::string& owner,
                         const std::map<std::string, ParamValue>& given, const std::string& where);

// What a config cell checks before its first trial: public bounds when the method needs them, and the
// method's check_shape (k > n, a grid too large for d, ...) on the data's exact shape. InputError naming
// where.<parameter>.
void check_trial_inputs(const MethodInfo& info, const ParamSet& params, const Dataset& data, const std::string& where);

// `rng: numpy` (the authors' numpy stream, seeded with the trial's seed) cannot be secure: InputError at
// where.rng when mode is secure and params choose it.
void check_randomness(Randomness mode, const ParamSet& params, const std::string& where);

}  // namespace dpclust
