#pragma once
// Conversions between the engine's types and Python objects, shared by the dpclust._core bindings.
// Arrays leave the engine without a copy where the engine's result owns a buffer (labels, released points):
// the vector or matrix is moved into a capsule that the numpy array keeps alive.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/params.hpp"

namespace dpclust::python {
namespace py = pybind11;

py::object to_python(const nlohmann::json& j);
// dict (str keys), list, tuple, str, bool, int, float, None, numpy arrays and scalars; InputError(where)
// for anything else (a set, an object).
nlohmann::json to_json(py::handle obj, const std::string& where);

py::object to_python(const ParamValue& v);
py::dict to_python(const ParamSet& params);
// A Python value as the type `spec` declares (an integer-valued float for an integer, as the CLI takes
// 1e6; a number or a sequence for a per-dimension vector); None is std::monostate (not given). A value
// of the wrong kind is an InputError in the CLI's words ("'k' must be an integer >= 1, got 'x'"); the
// range is checked later, by complete_params.
ParamValue param_value(const ParamSpec& spec, py::handle value, const std::string& where);

template <class T>
py::array_t<T> to_numpy(std::vector<T>&& v, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(std::move(shape), owned->data(), owner);
}
py::array_t<double> to_numpy(RowMatrix&& m);

// A label array (integers in int32's range, any integer dtype) as Labels.
Labels labels_from(py::handle array, const std::string& what);

// A Dataset of the rows of X (n x d float64; the engine's Dataset owns its coordinates, so this is the
// one copy on the way in), with optional ground-truth labels y (None: none).
Dataset dataset_from(py::handle X, py::handle y, const std::string& name);

// (lower, upper) arrays of bounds, or None when empty.
py::object bounds_to_python(const Bounds& b);
// (lower, upper) of length d (sequences or arrays) as Bounds; InputError(where) when malformed.
Bounds bounds_from(py::handle bounds, std::size_t d, const std::string& where);

}  // namespace dpclust::python
