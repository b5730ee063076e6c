#pragma once
// `method: python` (docs/python.md): a config entry that names a Python callable as a method and
// declares its parameters, so that a mechanism written in Python runs over the grid, the trials, the
// metrics, the report and the audit like a built-in one: its cells are ordinary cells (seeded from the
// cell key, fingerprinted, resumed), its ledger is verified after every trial by the runner.
//
//   methods:
//     - method: python
//       callable: "my_mechanisms:noisy_grid"  # module:function; the config's folder is searched too
//       as: noisy_grid                        # series name (default: the function's name)
//       private: true                         # default true: takes epsilon (declared here unless the
//                                             # entry declares it) and its ledger must add up to it
//       needs_bounds: true                    # default = private: the dataset must have public bounds
//       relation: add_remove                  # or replace_one: the relation its sensitivities assume
//       releases_centres: false               # true: every trial returns its released centres (k x d),
//                                             # which the k-means measures read
//       init: "my_mechanisms:random_start"    # optional: init(bounds, params, rng), called before the
//                                             # mechanism without the data; its draws are public
//       side_inputs:                          # inputs taken without a parameter (MethodInfo::side_inputs)
//         n: {source: private, how: "a noisy count with a tenth of epsilon"}
//       declare:                              # its own parameters, each a ParamSpec
//         cell_width: {type: real, default: 0.25, min: 0, min_open: true, description: "cell width"}
//         min_count: 5                        # shorthand: the type and default from the value
//         k: {type: int, min: 1}              # named like a built-in method's input: gives k
//         n_public: {type: int, default: 0, gives: {input: n, values: {0: {source: none, how: "no public n"}}}}
//       params: {epsilon: [0.5, 1.0], cell_width: 0.2}
//
// Parameter types: real (float), integer (int), boolean (bool), string (str), choice (a string with
// `choices`), real_vector. Side information (core/side_information.hpp) is declared as the built-in methods
// declare it: `gives: INPUT` (the parameter's value is that input; `values` its special values), `selects:`
// (the parameter chooses where the input comes from), `gives: none` (the parameter is no input). A parameter
// named like the input a built-in method's parameter of the same name gives (k, delta, alpha, min_pts, ...)
// gives it unless it says otherwise. An input declared with source `data` flags every result non-private.
//
// The engine holds no Python. The dpclust Python module (python/src/python_mechanism.cpp) installs a
// backend that imports the callable and builds the Method calling it; without a backend (the `dpclust`
// binary) parsing such an entry throws PythonMethodUnavailable, which the CLI answers by handing the
// command to `python3 -m dpclust` (experiments/python_handoff.cpp).
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/method.hpp"

namespace dpclust {

namespace yaml {
struct Located;  // config/yaml_reader.hpp: declare_python_method reads a config entry (config room only)
}

// What the backend needs to build the Method of one `method: python` entry.
struct PythonCallable {
  std::string callable;           // "module:function", the mechanism
  std::string init;               // "module:function" called before it without the data; empty: none
  bool releases_centres = false;  // every trial must return its released centres
  std::filesystem::path config_dir;
};

struct PythonMethodBackend {
  // Imports `callable` ("module:function"; config_dir is searched for the module when it is not
  // importable otherwise); throws InputError when it cannot be imported or is not callable. Returns a
  // digest of the module's source ("" when it has no source file), part of the cells' fingerprint.
  std::function<std::string(const std::string& callable, const std::filesystem::path& config_dir)> resolve;
  // A Method calling it (MethodInfo::make: one per trial).
  std::function<std::unique_ptr<Method>(const PythonCallable& call)> make;
};
// Installed once by the Python module when it is imported.
void set_python_method_backend(PythonMethodBackend backend);
bool has_python_method_backend();

// A config names `method: python` but this process cannot run Python (the `dpclust` binary).
class PythonMethodUnavailable : public InputError {
 public:
  using InputError::InputError;
};

// The keys of a `method: python` entry besides method, as, params and zip.
const std::vector<std::string>& python_method_keys();

// Parses a `method: python` entry (the keys above), registers its MethodInfo in the catalog under the
// name "python:<callable>" and returns it. The entry's `params` and `zip` stay with the caller.
const MethodInfo& declare_python_method(const yaml::Located& entry, const std::filesystem::path& config_dir);

// The default series name of such an entry: the function's name ("noisy_grid").
std::string python_function_name(const std::string& callable);

}  // namespace dpclust
