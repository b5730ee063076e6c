// `method: python` (engine/config/python_method.hpp): the backend that imports a config's callable and
// the Method that calls it once per trial, and the Ledger a mechanism spends its budget through.
//
// The contract (docs/python.md, python/dpclust/_mechanism.py):
//   labels | (labels, release) | {"labels": ..., "release": ..., ...}
//       = mechanism(points, bounds, params, rng, ledger)
// points: the dataset, a read-only (n, d) float64 view of the engine's buffer (no copy; valid during the
// call only); bounds: (lower, upper) arrays or None; params: the cell's parameters; rng: a
// numpy.random.Generator(PCG64(seed)) with the trial's seed; ledger: a Ledger over the trial's
// BudgetLedger, whose noise is drawn from the trial's engine generator (the engine's samplers: exact,
// deterministic per trial seed). The runner verifies the ledger after the call, as for C++ methods.
//
// Threads: the runner calls methods from OpenMP workers with the GIL released; each call takes the GIL
// (gil_scoped_acquire), so Python mechanisms run one at a time while C++ trials keep running beside them.
#include <memory>

#include "bindings.hpp"
#include "convert.hpp"
#include "core/error.hpp"
#include "config/python_method.hpp"
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
    if (!ledger_) throw std::runtime_error("this ledger belongs to a trial that has finished: spend budget only during the call");
    return *ledger_;
  }
  Rng& rng() const {
    get();
    return *rng_;
  }
  privacy::Sampler sampler(const std::string& name) {
    if (name == "secure") return privacy::Sampler::secure;
    if (name == "textbook") {
      textbook_ = true;  // the result is flagged as every textbook-sampled result is
      return privacy::Sampler::textbook;
    }
    throw InputError("sampler", "must be secure or textbook, got '" + name + "'");
  }

  // Counts with discrete Laplace (secure) or continuous Laplace (textbook) noise of scale l1/eps: one
  // entry for the whole vector (parallel composition over disjoint counts is the caller's argument).
  py::array_t<double> laplace_counts(py::handle values, double sensitivity, double epsilon, const std::string& step,
                                     const std::string& note, const std::string& sampler_name) {
    const auto mech = privacy::CountMechanism::laplace(get(), sampler(sampler_name), sensitivity, epsilon, step, note);
    return noisy(values, [&](double v) { return mech.noisy(rng(), v); });
  }
  py::array_t<double> gaussian_counts(py::handle values, double sensitivity, double epsilon, double delta, const std::string& step,
                                      const std::string& note, const std::string& sampler_name) {
    const auto mech = privacy::CountMechanism::gaussian(get(), sampler(sampler_name), sensitivity, epsilon, delta, step, note);
    return noisy(values, [&](double v) { return mech.noisy(rng(), v); });
  }
  // Real values in [-bound, bound]: the snapping mechanism (secure) or value + Laplace (textbook).
  py::array_t<double> laplace_reals(py::handle values, double sensitivity, double epsilon, double bound, const std::string& step,
                                    const std::string& note, const std::string& sampler_name) {
    const auto mech = privacy::RealMechanism::laplace(get(), sampler(sampler_name), sensitivity, epsilon, bound, step, note);
    return noisy(values, [&](double v) { return mech.noisy(rng(), v); });
  }
  // A mechanism whose noise the Python code draws itself (an exponential mechanism, ...): its typed entry.
  void charge(const std::string& step, double epsilon, const std::string& mechanism, double sensitivity, const std::string& norm,
              const std::string& note, double delta) {
    privacy::charge(get(), step, epsilon, mechanism, sensitivity, norm, note, delta);
    charged_ = true;  // the result is flagged (kPythonNoiseNote): this noise never went through an audited sampler
  }

 private:
  template <class Draw>
  static py::array_t<double> noisy(py::handle values, Draw draw) {
    const auto np = py::module_::import("numpy");
    auto in = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(np.attr("asarray")(values, "float64"));
    if (!in) throw InputError("values", "expected numbers");
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

// The non_private note of a mechanism that recorded noise it drew itself (issue 22, item 4): the entry
// states a budget, but nothing checks how the noise was drawn (numpy's floating-point samplers, a seeded
// PCG64), so only the Ledger's own samplers keep a release private.
const char* const kPythonNoiseNote =
    "noise drawn outside dpclust's audited samplers (ledger.charge in a Python mechanism): only ledger.laplace_counts, "
    "gaussian_counts and laplace_reals keep a release private";

// "Traceback (most recent call last): ... KeyError: 'epsilon'" of the frames the exception passed, or
// only its last line ("AttributeError: module 'm' has no attribute 'f'").
std::string python_error(py::error_already_set& e, bool with_traceback = true) {
  try {
    const auto tb = py::module_::import("traceback");
    const py::list lines = with_traceback ? tb.attr("format_exception")(e.type(), e.value(), e.trace())
                                          : tb.attr("format_exception_only")(e.type(), e.value());
    std::string text;
    for (auto line : lines) text += line.cast<std::string>();
    return text;
  } catch (const py::error_already_set&) {
    return e.what();
  }
}

class PythonMechanism final : public Method {
 public:
  PythonMechanism(std::string callable, fs::path config_dir) : callable_(std::move(callable)), config_dir_(std::move(config_dir)) {}

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
      py::array_t<double> points({static_cast<py::ssize_t>(data.n), static_cast<py::ssize_t>(data.d)},
                                 {static_cast<py::ssize_t>(data.d * sizeof(double)), static_cast<py::ssize_t>(sizeof(double))},
                                 const_cast<double*>(data.coords.data()), no_owner);
      points.attr("setflags")(py::arg("write") = false);
      const py::dict out = py::module_::import("dpclust._mechanism")
                               .attr("call")(callable_, config_dir_.string(), points, bounds_to_python(data.bounds), to_python(params),
                                             // randomness: secure has no seed: numpy's generator is then seeded from fresh OS entropy
                                             rng.is_secure() ? py::object(py::none()) : py::object(py::int_(rng.seed())),
                                             py::cast(handle));
      MethodResult r;
      r.labels = labels_from(out["labels"], callable_ + " labels");
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
  std::string callable_;
  fs::path config_dir_;
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
  py::class_<Ledger, std::shared_ptr<Ledger>>(m, "Ledger",
                                              "The privacy budget of one trial of a `method: python` mechanism. Every noisy "
                                              "release is recorded here; the runner checks after the call that the entries add "
                                              "up to the configured epsilon (and delta).")
      .def_property_readonly("private", [](const Ledger& l) { return l.get().is_private(); })
      .def_property_readonly("epsilon", [](const Ledger& l) { return l.get().total_epsilon(); }, "the configured total epsilon")
      .def_property_readonly("delta", [](const Ledger& l) { return l.get().total_delta(); })
      .def_property_readonly("spent_epsilon", [](const Ledger& l) { return l.get().spent_epsilon(); })
      .def_property_readonly("spent_delta", [](const Ledger& l) { return l.get().spent_delta(); })
      .def_property_readonly("remaining_epsilon", [](const Ledger& l) { return l.get().total_epsilon() - l.get().spent_epsilon(); })
      .def_property_readonly("relation", [](const Ledger& l) { return std::string(to_string(l.get().relation())); })
      .def_property_readonly("noise_scale", [](const Ledger& l) { return l.get().noise_scale(); },
                             "the audit's testable-noise factor (1 as calibrated); the methods below apply it")
      .def("to_dict", [](const Ledger& l) { return to_python(l.get().to_json()); })
      .def("laplace_counts", &Ledger::laplace_counts, py::arg("values"), py::kw_only(), py::arg("sensitivity"), py::arg("epsilon"),
           py::arg("step"), py::arg("note") = "", py::arg("sampler") = "secure",
           "values + Laplace noise of scale sensitivity/epsilon (discrete Laplace when secure), recorded as one entry")
      .def("gaussian_counts", &Ledger::gaussian_counts, py::arg("values"), py::kw_only(), py::arg("sensitivity"), py::arg("epsilon"),
           py::arg("delta"), py::arg("step"), py::arg("note") = "", py::arg("sampler") = "secure",
           "values + Gaussian noise for (epsilon, delta)-DP in L2 sensitivity (discrete Gaussian when secure)")
      .def("laplace_reals", &Ledger::laplace_reals, py::arg("values"), py::kw_only(), py::arg("sensitivity"), py::arg("epsilon"),
           py::arg("bound"), py::arg("step"), py::arg("note") = "", py::arg("sampler") = "secure",
           "real values in [-bound, bound] with Laplace noise (the snapping mechanism when secure)")
      .def("charge", &Ledger::charge, py::kw_only(), py::arg("step"), py::arg("epsilon"), py::arg("mechanism"), py::arg("sensitivity"),
           py::arg("sensitivity_norm"), py::arg("note") = "", py::arg("delta") = 0.0,
           "record the entry of noise drawn in Python (e.g. an exponential mechanism: sensitivity_norm='utility')");
  set_python_method_backend(PythonMethodBackend{
      resolve, [](const std::string& callable, const fs::path& dir) { return std::make_unique<PythonMechanism>(callable, dir); }});
}

}  // namespace dpclust::python
