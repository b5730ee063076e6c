#pragma once
// `dpclust run|validate|audit` on a config naming a Python method (`method: python`,
// engine/config/python_method.hpp). The binary holds no Python interpreter, so it hands the whole
// command to `python3 -m dpclust` (python/dpclust/__main__.py), which runs it through the same engine with
// the Python module's backend installed: same cells, seeds and results files.
#include "config/python_method.hpp"

namespace dpclust::cli {

// argv[0] is the subcommand (run, validate, audit). Replaces this process with the interpreter of this
// build's Python module (python/CMakeLists.txt; $DPCLUST_PYTHON overrides it), this build's package
// first on PYTHONPATH. Returns an exit code only when that is impossible (no Python module in this build,
// another subcommand, exec failing), after printing why and the fix.
int hand_off_to_python(int argc, char** argv, const PythonMethodUnavailable& why);

}  // namespace dpclust::cli
