#pragma once
// The parts of the dpclust._core module (module.cpp puts them together), one file each.
#include <pybind11/pybind11.h>

namespace dpclust::python {
namespace py = pybind11;

void bind_estimators(py::module_& m);         // estimators.cpp: methods' parameters, one trial, release classifiers
void bind_experiments(py::module_& m);        // experiments.cpp: run, validate, audit, report, a config's datasets
void bind_metrics(py::module_& m);            // metrics.cpp: the engine's metrics on label arrays
void bind_python_mechanisms(py::module_& m);  // python_mechanism.cpp: `method: python`, the Ledger

}  // namespace dpclust::python
