// dpclust._core: the engine for Python (docs/python.md). The pure-Python package python/dpclust
// wraps it in scikit-learn-style estimators, metrics functions and experiment helpers.
#include "bindings.hpp"
#include "core/error.hpp"
#include "core/files.hpp"

namespace py = pybind11;
using namespace dpclust;

PYBIND11_MODULE(_core, m) {
  m.doc() = "dpclust engine bindings (use the dpclust package, not this module directly)";
  // Bad input (a parameter outside its spec, a config error) is a ValueError carrying the CLI's message:
  // "where: what" and "  fix: ...".
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  const BuildInfo& b = build_info();
  m.attr("__version__") = b.version;
  m.attr("build") = py::dict(py::arg("version") = b.version, py::arg("git_commit") = b.git_commit,
                             py::arg("build_type") = b.build_type, py::arg("compiler") = b.compiler,
                             py::arg("source_dir") = b.source_dir);
  python::bind_estimators(m);
  python::bind_experiments(m);
  python::bind_metrics(m);
  python::bind_python_mechanisms(m);
}
