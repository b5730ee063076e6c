// `method: python` (engine/config/python_method.hpp): the backend that imports a config's callable and
// the Method that calls it once per trial, and the Ledger a mechanism spends its budget through.
//
// The contract (docs/python.md, python/dpclust/_mechanism.py):
//   labels | (labels, release) | {"labels": ..., "centres": ..., "release": ..., ...}
//       = mechanism(points, bounds, params, rng, ledger[, init=init(bounds, params, rng)])
// points: the dataset, a read-only (n, d) float64 view of the engine's buffer (no copy; valid during the
// call only); bounds: (lower, upper) arrays or None; params: the cell's parameters; rng: a
// numpy.random.Generator(PCG64(seed)) with the trial's seed; ledger: a Ledger over the trial's
// BudgetLedger, whose noise is drawn from the trial's engine generator (the engine's samplers: exact,
// deterministic per trial seed). The runner verifies the ledger after the call, as for C++ methods.
// A trial's error names the exception's type and frames, never a value (_mechanism.describe_failure).
//
// Threads: the runner calls methods from OpenMP workers with the GIL released; each call takes the GIL
// (gil_scoped_acquire), so Python mechanisms run one at a time while C++ trials keep running beside them.
#include <cmath>
#include <memory>

#include "bindings.hpp"
#include "config/python_method.hpp"
#include "convert.hpp"
#include "core/error.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::python {
namespace fs = std::filesystem;
namespace {

// The Python face of one trial's ledger. It points into the trial, so it is closed when the call returns:
// a mechanism that keeps it and spends later gets an error instead of writing into a finished trial.
class Ledger {
 public:
  Ledger(BudgetLedger& ledger, Rng& rng) : ledger_(&ledger), rng_(&rng) {}
  void close() { ledger_ = nullptr, rng_ = nullptr; }
  bool textbook_used() const { return textbook_; }
  bool charged() const { return charged_; }

  BudgetLedger& get() const {
    if (!ledger_)
      throw std::runtime_error("this ledger belongs to a trial that has finished: spend budget only during the call");
    return *ledger_;
  }
  Rng& rng() const {
    get();
    return *rng_;
  }
  using Sampler = privacy::Sampler;
  privacy::Sampler sampler(const std::string& name) {
    if (name == "secure") return privacy::Sampler::secure;
    if (name == "textbook") {
      textbook_ = true;  // the result is flagged as every textbook-sampled result is
      return privacy::Sampler::textbook;
    }
    throw InputError("sampler", "must be secure or textbook, got '" + name + "'");
  }

  // Counts with discrete Laplace (secure) or continuous Laplace (textbook) noise of scale l1/eps: one
  // entry for the whole vector, whose L1 sensitivity is `sensitivity` (parallel composition over disjoint
  // counts is the caller's argument). The values are read before anything is charged.
  py::array_t<double> laplace_counts(py::handle values, double sensitivity, double epsilon, const std::string& step,
                                     const std::string& note, const std::string& sampler_name) {
    const Sampler s = sampler(sampler_name);
    const auto in = numbers(values, "laplace_counts", s == Sampler::secure);
    const auto mech = privacy::CountMechanism::laplace(get(), s, sensitivity, epsilon, step, note);
    return noisy(in, [&](double v) { return mech.noisy(rng(), v); });
  }
  // The same with Gaussian noise for (eps, delta)-DP; `sensitivity` is the vector's L2 sensitivity.
  py::array_t<double> gaussian_counts(py::handle values, double sensitivity, double epsilon, double delta,
                                      const std::string& step, const std::string& note,
                                      const std::string& sampler_name) {
    const Sampler s = sampler(sampler_name);
    const auto in = numbers(values, "gaussian_counts", s == Sampler::secure);
    const auto mech = privacy::CountMechanism::gaussian(get(), s, sensitivity, epsilon, delta, step, note);
    return noisy(in, [&](double v) { return mech.noisy(rng(), v); });
  }
  // Real values in [-bound, bound]: the snapping mechanism (secure) or value + Laplace (textbook), each value
  // released with the L1 sensitivity `sensitivity`.
  py::array_t<double> laplace_reals(py::handle values, double sensitivity, double epsilon, double bound,
                                    const std::string& step, const std::string& note, const std::string& sampler_name) {
    const Sampler s = sampler(sampler_name);
    const auto in = numbers(values, "laplace_reals", false);
    const auto mech = privacy::RealMechanism::laplace(get(), s, sensitivity, epsilon, bound, step, note);
    return noisy(in, [&](double v) { return mech.noisy(rng(), v); });
  }
  // A mechanism whose noise the Python code draws itself (an exponential mechanism, ...): its typed entry.
  void charge(const std::string& step, double epsilon, const std::string& mechanism, double sensitivity,
              const std::string& norm, const std::string& note, double delta) {
    privacy::charge(get(), step, epsilon, mechanism, sensitivity, norm, note, delta);
    charged_ = true;  // the result is flagged (kPythonNoiseNote): this noise never went through an audited sampler
  }

 private:
  using Values = py::array_t<double, py::array::c_style | py::array::forcecast>;

  // `values` as float64, checked: finite numbers, and whole numbers for the discrete samplers, which add
  // integer noise and so would release a value's fractional part exactly. Each problem is named by its
  // position, never by a value (the values are private).
  static Values numbers(py::handle values, const char* function, bool whole) {
    const auto np = py::module_::import("numpy");
    Values in;
    try {
      in = Values::ensure(np.attr("asarray")(values, "float64"));
    } catch (const py::error_already_set&) {  // numpy's message quotes the value it could not read
      in = Values();
    }
    if (!in)
      throw InputError(
          std::string("Ledger.") + function,
          "values must be numbers (an array, a list or a number); what was given is not",
          "pass the counts or sums as numbers (the values are not shown: an error message never prints data)");
    const double* v = in.data();
    for (py::ssize_t i = 0; i < in.size(); ++i) {
      if (!std::isfinite(v[i]))
        throw InputError(std::string("Ledger.") + function,
                         "value " + std::to_string(i) + " (0-based, flattened) is not a finite number",
                         "the values are not shown: clamp or drop non-finite values before releasing them");
      if (whole && v[i] != std::floor(v[i]))
        throw InputError(
            std::string("Ledger.") + function,
            "value " + std::to_string(i) +
                " (0-based, flattened) is not a whole number: the secure sampler adds integer noise, "
                "so the value's fractional part would be released exactly",
            "release real values with ledger.laplace_reals (the snapping mechanism), or round the counts first "
            "(the values are not shown)");
    }
    return in;
  }

  template <class Draw>
  static py::array_t<double> noisy(const Values& in, Draw draw) {
    py::array_t<double> out(std::vector<py::ssize_t>(in.shape(), in.shape() + in.ndim()));
    const double* src = in.data();
    double* dst = out.mutable_data();
    for (py::ssize_t i = 0; i < in.size(); ++i) dst[i] = draw(src[i]);
    return out;
  }

  BudgetLedger* ledger_;
  Rng* rng_;
  bool textbook_ = false;
  bool charged_ = false;
};

// The non_private note of a mechanism that recorded noise it drew itself: the entry states a budget, but nothing checks
// how the noise was drawn (numpy's floating-point samplers, a seeded PCG64), so only the Ledger's own samplers keep a
// release private.
const char* const kPythonNoiseNote =
    "noise drawn outside dpclust's audited samplers (ledger.charge in a Python mechanism): only ledger.laplace_counts, "
    "gaussian_counts and laplace_reals keep a release private";

// The text of a mechanism's exception: its frames and type, its message only when it cannot quote the data
// (_mechanism.describe_failure); for an import error at parse time, its last line ("ModuleNotFoundError: No
// module named 'm'", which names code only).
std::string python_error(py::error_already_set& e, bool with_traceback = true) {
  try {
    if (with_traceback)
      return py::module_::import("dpclust._mechanism")
          .attr("describe_failure")(e.value(), e.trace())
          .cast<std::string>();
    const py::list lines = py::module_::import("traceback").attr("format_exception_only")(e.type(), e.value());
    std::string text;
    for (auto line : lines) text += line.cast<std::string>();
    return text;
  } catch (const py::error_already_set&) {
    return std::string(py::str(e.type().attr("__name__"))) + " (its message is not shown)";
  }
}

class PythonMechanism final : public Method {
 public:
  explicit PythonMechanism(PythonCallable call) : call_(std::move(call)), callable_(call_.callable) {}

  MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const override {
    py::gil_scoped_acquire gil;
    auto handle = std::make_shared<Ledger>(ledger, rng);
    struct Close {
      std::shared_ptr<Ledger> l;
      ~Close() { l->close(); }
    } close{handle};
    try {
      // The engine's buffer, read-only, owned by the trial (the capsule frees nothing).
      py::capsule no_owner(data.coords.data(), [](void*) {});
      py::array_t<double> points(
          {static_cast<py::ssize_t>(data.n), static_cast<py::ssize_t>(data.d)},
          {static_cast<py::ssize_t>(data.d * sizeof(double)), static_cast<py::ssize_t>(sizeof(double))},
          const_cast<double*>(data.coords.data()), no_owner);
      points.attr("setflags")(py::arg("write") = false);
      const py::dict out =
          py::module_::import("dpclust._mechanism")
              .attr("call")(
                  callable_, call_.config_dir.string(), points, bounds_to_python(data.bounds), to_python(params),
                  // randomness: secure has no seed: numpy's generator is then seeded from fresh OS entropy
                  rng.is_secure() ? py::object(py::none()) : py::object(py::int_(rng.seed())), py::cast(handle),
                  call_.init.empty() ? py::object(py::none()) : py::object(py::str(call_.init)),
                  call_.releases_centres);
      MethodResult r;
      r.labels = labels_from(out["labels"], callable_ + " labels");
      // Checked in _mechanism.call: an (m, d) array of finite numbers, (0, d) for a method that releases none.
      const auto centres = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(out["centres"]);
      if (call_.releases_centres && centres.shape(0) > 0)
        r.centres = Eigen::Map<const RowMatrix>(centres.data(), centres.shape(0), centres.shape(1));
      r.labels_are_release = out["labels_are_release"].cast<bool>();
      r.release = to_json(out["release"], callable_ + " release");
      r.diagnostics = to_json(out["diagnostics"], callable_ + " diagnostics");
      r.evaluation = to_json(out["evaluation"], callable_ + " evaluation");
      r.non_private_notes = out["non_private"].cast<std::vector<std::string>>();
      if (handle->textbook_used()) r.non_private_notes.push_back(privacy::kTextbookSamplerNote);
      if (handle->charged()) r.non_private_notes.push_back(kPythonNoiseNote);
      return r;
    } catch (py::error_already_set& e) {
      // A Python exception becomes the trial's error (the runner names the cell and trial), with the
      // traceback of the mechanism's own frames.
      throw std::runtime_error("Python mechanism " + callable_ + " failed:\n" + python_error(e));
    }
  }

 private:
  PythonCallable call_;
  std::string callable_;
};

std::string resolve(const std::string& callable, const fs::path& config_dir) {
  py::gil_scoped_acquire gil;
  try {
    return py::module_::import("dpclust._mechanism").attr("resolve")(callable, config_dir.string()).cast<std::string>();
  } catch (py::error_already_set& e) {
    std::string why = python_error(e, false);
    while (!why.empty() && why.back() == '\n') why.pop_back();
    throw InputError("", "cannot use callable '" + callable + "': " + why,
                     "the module must be importable (on sys.path, or next to the config) and name a function");
  }
}

}  // namespace

void bind_python_mechanisms(py::module_& m) {
  py::class_<Ledger, std::shared_ptr<Ledger>>(
      m, "Ledger",
      "The privacy budget of one trial of a `method: python` mechanism. Every noisy "
      "release is recorded here; the runner checks after the call that the entries add "
      "up to the configured epsilon (and delta).")
      .def_property_readonly("private", [](const Ledger& l) { return l.get().is_private(); })
      .def_property_readonly(
          "epsilon", [](const Ledger& l) { return l.get().total_epsilon(); }, "the configured total epsilon")
      .def_property_readonly("delta", [](const Ledger& l) { return l.get().total_delta(); })
      .def_property_readonly("spent_epsilon", [](const Ledger& l) { return l.get().spent_epsilon(); })
      .def_property_readonly("spent_delta", [](const Ledger& l) { return l.get().spent_delta(); })
      .def_property_readonly("remaining_epsilon",
                             [](const Ledger& l) { return l.get().total_epsilon() - l.get().spent_epsilon(); })
      .def_property_readonly("relation", [](const Ledger& l) { return std::string(to_string(l.get().relation())); })
      .def_property_readonly(
          "noise_scale", [](const Ledger& l) { return l.get().noise_scale(); },
          "the audit's testable-noise factor (1 as calibrated); the methods below apply it")
      .def("to_dict", [](const Ledger& l) { return to_python(l.get().to_json()); })
      .def(
          "laplace_counts", &Ledger::laplace_counts, py::arg("values"), py::kw_only(), py::arg("sensitivity"),
          py::arg("epsilon"), py::arg("step"), py::arg("note") = "", py::arg("sampler") = "secure",
          "values + Laplace noise of scale sensitivity/epsilon per value, recorded as one eps-DP entry. values: whole "
          "numbers (counts; the secure sampler adds discrete Laplace noise, which would keep a fractional part exact). "
          "sensitivity: the L1 norm of the change one record makes to the whole array under the entry's relation "
          "(1 for disjoint counts, a histogram). Returns float64 of values' shape.")
      .def("gaussian_counts", &Ledger::gaussian_counts, py::arg("values"), py::kw_only(), py::arg("sensitivity"),
           py::arg("epsilon"), py::arg("delta"), py::arg("step"), py::arg("note") = "", py::arg("sampler") = "secure",
           "values + Gaussian noise of sigma = sqrt(2 ln(1.25/delta)) sensitivity/epsilon per value (discrete Gaussian "
           "when secure), one (epsilon, delta)-DP entry. values: whole numbers. sensitivity: the L2 norm of the change "
           "one record makes to the whole array (1 for disjoint counts).")
      .def(
          "laplace_reals", &Ledger::laplace_reals, py::arg("values"), py::kw_only(), py::arg("sensitivity"),
          py::arg("epsilon"), py::arg("bound"), py::arg("step"), py::arg("note") = "", py::arg("sampler") = "secure",
          "real values released in [-bound, bound] with Laplace noise of scale sensitivity/epsilon, one eps-DP entry; "
          "secure: Mironov's snapping mechanism (each value clamped to [-bound, bound], noised, rounded to a "
          "power-of-two "
          "grid, clamped again; bound must exceed the noise scale). bound: a public bound on |value| (e.g. the public "
          "count bound times a coordinate's half width for a centred sum). sensitivity: the L1 change one record makes "
          "to a value; one entry covers values of which a record changes at most one (disjoint parts: one coordinate "
          "of every cluster's sum). Release a record's several coordinates with one call each.")
      .def("charge", &Ledger::charge, py::kw_only(), py::arg("step"), py::arg("epsilon"), py::arg("mechanism"),
           py::arg("sensitivity"), py::arg("sensitivity_norm"), py::arg("note") = "", py::arg("delta") = 0.0,
           "record the entry of noise drawn in Python (e.g. an exponential mechanism: sensitivity_norm='utility'); the "
           "result is flagged non-private (noise outside dpclust's audited samplers)");
  set_python_method_backend(
      PythonMethodBackend{resolve, [](const PythonCallable& call) { return std::make_unique<PythonMechanism>(call); }});
}

}  // namespace dpclust::python
