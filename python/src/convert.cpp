#include "convert.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "config/yaml_reader.hpp"
#include "core/error.hpp"

namespace dpclust::python {

py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    case nlohmann::json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& x : j) l.append(to_python(x));
      return l;
    }
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[py::str(it.key())] = to_python(it.value());
      return d;
    }
    default: return py::none();
  }
}

nlohmann::json to_json(py::handle obj, const std::string& where) {
  if (obj.is_none()) return nullptr;
  if (py::isinstance<py::bool_>(obj)) return obj.cast<bool>();
  if (py::isinstance<py::int_>(obj)) {
    // Python ints are unbounded: beyond 64 bits they become doubles, as JSON readers would take them.
    try {
      return obj.cast<std::int64_t>();
    } catch (const py::cast_error&) {
      try {
        return obj.cast<std::uint64_t>();
      } catch (const py::cast_error&) {
        return obj.cast<double>();
      }
    }
  }
  if (py::isinstance<py::float_>(obj)) return obj.cast<double>();
  if (py::isinstance<py::str>(obj)) return obj.cast<std::string>();
  if (py::isinstance<py::dict>(obj)) {
    nlohmann::json o = nlohmann::json::object();
    for (auto kv : obj.cast<py::dict>()) {
      if (!py::isinstance<py::str>(kv.first))
        // Named by type: a key can be a value of the data (a dict keyed by a record's field).
        throw InputError(where, "dictionary keys must be strings, got a key of type " +
                                    py::str(py::type::handle_of(kv.first).attr("__name__")).cast<std::string>());
      const std::string key = kv.first.cast<std::string>();
      o[key] = to_json(kv.second, where + "." + key);
    }
    return o;
  }
  if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
    nlohmann::json a = nlohmann::json::array();
    std::size_t i = 0;
    for (auto x : obj) a.push_back(to_json(x, where + "[" + std::to_string(i++) + "]"));
    return a;
  }
  // numpy: arrays and scalars through their Python values (tolist / item).
  if (py::hasattr(obj, "tolist") && py::hasattr(obj, "dtype")) return to_json(obj.attr("tolist")(), where);
  throw InputError(where,
                   "cannot store a " + py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>() +
                       " in the results (JSON)",
                   "use dicts, lists, numbers, strings, booleans, None or numpy arrays");
}

py::object to_python(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> py::object {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) return py::none();
        else if constexpr (std::is_same_v<T, RealVector>) return py::cast(x);
        else return py::cast(x);
      },
      v);
}

py::dict to_python(const ParamSet& params) {
  py::dict d;
  for (const auto& [name, v] : params.values()) d[py::str(name)] = to_python(v);
  return d;
}

namespace {

[[noreturn]] void wrong_kind(const ParamSpec& spec, py::handle value, const std::string& where) {
  throw InputError(
      where,
      yaml::clip("'" + spec.name + "' must be " + spec.allowed() + ", got " + py::repr(value).cast<std::string>(), 600),
      spec.description.empty() ? "" : spec.name + " is the " + spec.description);
}

bool is_bool(py::handle v) {
  if (py::isinstance<py::bool_>(v)) return true;
  const auto numpy_bool = py::module_::import("numpy").attr("bool_");
  return py::isinstance(v, numpy_bool);
}

// An int, or a numpy integer (anything with __index__ that is not a bool).
bool is_integer(py::handle v) { return !is_bool(v) && (py::isinstance<py::int_>(v) || py::hasattr(v, "__index__")); }
bool is_real(py::handle v) {
  return !is_bool(v) && (is_integer(v) || py::isinstance<py::float_>(v) || py::hasattr(v, "__float__"));
}

}  // namespace

ParamValue param_value(const ParamSpec& spec, py::handle value, const std::string& where) {
  if (value.is_none()) return std::monostate{};
  switch (spec.type) {
    case ParamType::integer: {
      if (is_integer(value)) {
        try {
          return py::int_(py::reinterpret_borrow<py::object>(value)).cast<std::int64_t>();
        } catch (const py::cast_error&) {
          wrong_kind(spec, value, where);
        }
      }
      // 1e6 is an integer in a config; so it is here.
      if (is_real(value)) {
        const double x = py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>();
        if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 9.2e18) return static_cast<std::int64_t>(x);
      }
      wrong_kind(spec, value, where);
    }
    case ParamType::real:
      if (!is_real(value)) wrong_kind(spec, value, where);
      return py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>();
    case ParamType::boolean:
      if (!is_bool(value)) wrong_kind(spec, value, where);
      return py::bool_(py::reinterpret_borrow<py::object>(value)).cast<bool>();
    case ParamType::string:
      if (!py::isinstance<py::str>(value)) wrong_kind(spec, value, where);
      return value.cast<std::string>();
    case ParamType::real_vector: {
      if (py::isinstance<py::str>(value)) wrong_kind(spec, value, where);
      if (!py::hasattr(value, "__len__")) {
        if (!is_real(value)) wrong_kind(spec, value, where);
        return py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>();
      }
      RealVector out;
      for (auto x : value) {
        if (!is_real(x)) wrong_kind(spec, value, where);
        out.push_back(py::float_(py::reinterpret_borrow<py::object>(x)).cast<double>());
      }
      return out;
    }
  }
  wrong_kind(spec, value, where);
}

py::array_t<double> to_numpy(RowMatrix&& m) {
  const auto rows = static_cast<py::ssize_t>(m.rows()), cols = static_cast<py::ssize_t>(m.cols());
  auto* owned = new RowMatrix(std::move(m));
  py::capsule owner(owned, [](void* p) { delete static_cast<RowMatrix*>(p); });
  return py::array_t<double>({rows, cols}, owned->data(), owner);
}

Labels labels_from(py::handle array, const std::string& what) {
  const auto np = py::module_::import("numpy");
  py::array a = np.attr("asarray")(array);
  if (a.ndim() != 1)
    throw InputError(what, "labels must be a 1-d array, got " + std::to_string(a.ndim()) + " dimensions");
  if (!np.attr("issubdtype")(a.dtype(), np.attr("integer")).cast<bool>())
    throw InputError(
        what, "labels must be integers (cluster ids, -1 = noise), got dtype " + py::str(a.dtype()).cast<std::string>());
  if (py::isinstance<py::array_t<Label, py::array::c_style>>(a)) {  // the engine's own type: one copy, no checks needed
    const auto a32 = py::array_t<Label, py::array::c_style>::ensure(a);
    return Labels(a32.data(), a32.data() + a32.size());
  }
  auto a64 = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
  Labels out(static_cast<std::size_t>(a64.size()));
  const std::int64_t* p = a64.data();
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (p[i] < std::numeric_limits<Label>::min() || p[i] > std::numeric_limits<Label>::max())
      // The label of a record is data: its index is named, its value never.
      throw InputError(what, "the label at index " + std::to_string(i) +
                                 " (0-based) does not fit in 32 bits (the value is not shown: "
                                 "error messages never print a record's values)");
    out[i] = static_cast<Label>(p[i]);
  }
  return out;
}

Dataset dataset_from(py::handle X, py::handle y, const std::string& name) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(X);
  if (!a) throw InputError(name, "X must be an array of numbers");
  if (a.ndim() != 2)
    throw InputError(name, "X must be 2-d (n_samples, n_features), got " + std::to_string(a.ndim()) + " dimensions",
                     "reshape a single feature with X.reshape(-1, 1)");
  Dataset d;
  d.name = name;
  d.n = static_cast<std::size_t>(a.shape(0));
  d.d = static_cast<std::size_t>(a.shape(1));
  if (d.n == 0 || d.d == 0)
    throw InputError(name, "X is empty (" + std::to_string(d.n) + " x " + std::to_string(d.d) + ")");
  d.coords.resize(d.n * d.d);
  std::memcpy(d.coords.data(), a.data(), d.coords.size() * sizeof(double));
  if (!y.is_none()) {
    d.labels = labels_from(y, name + " (y)");
    if (d.labels.size() != d.n)
      throw InputError(name,
                       "y has " + std::to_string(d.labels.size()) + " labels for " + std::to_string(d.n) + " points");
  }
  return d;
}

py::object bounds_to_python(const Bounds& b) {
  if (b.empty()) return py::none();
  return py::make_tuple(py::array_t<double>(static_cast<py::ssize_t>(b.lo.size()), b.lo.data()),
                        py::array_t<double>(static_cast<py::ssize_t>(b.hi.size()), b.hi.data()));
}

Bounds bounds_from(py::handle bounds, std::size_t d, const std::string& where) {
  const std::string fix = "bounds=(lower, upper), each a number or one value per feature, lower < upper";
  if (!py::isinstance<py::tuple>(bounds) && !py::isinstance<py::list>(bounds))
    throw InputError(where, "bounds must be a pair (lower, upper)", fix);
  auto pair = py::reinterpret_borrow<py::sequence>(bounds);
  if (pair.size() != 2) throw InputError(where, "bounds must be a pair (lower, upper)", fix);
  const auto np = py::module_::import("numpy");
  Bounds b;
  for (int side = 0; side < 2; ++side) {
    auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(
        np.attr("atleast_1d")(pair[static_cast<std::size_t>(side)]));
    if (!a || a.ndim() != 1 || (a.size() != 1 && static_cast<std::size_t>(a.size()) != d))
      throw InputError(
          where,
          std::string(side ? "upper" : "lower") + " bounds must be a number or " + std::to_string(d) + " numbers", fix);
    std::vector<double>& v = side ? b.hi : b.lo;
    for (std::size_t j = 0; j < d; ++j) v.push_back(a.data()[a.size() == 1 ? 0 : j]);
  }
  for (std::size_t j = 0; j < d; ++j)
    if (!(b.lo[j] < b.hi[j]) || !std::isfinite(b.lo[j]) || !std::isfinite(b.hi[j]))
      throw InputError(where, "bounds of feature " + std::to_string(j) + " are not finite with lower < upper", fix);
  return b;
}

}  // namespace dpclust::python
