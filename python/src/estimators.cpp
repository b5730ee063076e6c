// The engine side of the estimators (python/dpclust/_estimator.py): the methods' declared parameters, one
// trial of a method on an array, and the post-processing classifiers of the releases (DP-DBSCAN's span
// classifier, DP-k-means' nearest centre, WaveCluster's cells).
#include <any>
#include <map>

#include "bindings.hpp"
#include "catalog/catalog.hpp"
#include "convert.hpp"
#include "core/error.hpp"
#include "data/transforms.hpp"
#include "dpdbscan/dp_kmeans.hpp"
#include "dpdbscan/release_classifier.hpp"
#include "drbt/register.hpp"
#include "loading/dataset_loading.hpp"
#include "ndlaplace/nd_laplace.hpp"
#include "run/release_flags.hpp"
#include "run/single_trial.hpp"
#include "store/accounting.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/wavecluster.hpp"

namespace dpclust::python {
namespace {

const MethodInfo& method_named(const std::string& name) {
  const MethodInfo* info = find_method(name);
  if (!info) {
    const std::string s = closest_match(name, names_of(all_methods()));
    throw InputError("dpclust", "unknown method '" + name + "'",
                     (s.empty() ? "" : "did you mean '" + s + "'? ") + "see `dpclust list`");
  }
  return *info;
}

py::dict spec_dict(const ParamSpec& p) {
  py::dict d;
  d["name"] = p.name;
  d["type"] = to_string(p.type);
  d["required"] = p.required();
  d["default"] = to_python(p.default_value);
  d["description"] = p.description;
  d["allowed"] = p.allowed();
  d["choices"] = py::cast(p.choices);
  return d;
}

py::dict method_dict(const MethodInfo& m) {
  py::dict d;
  d["name"] = m.name;
  d["summary"] = m.summary;
  d["reference"] = m.reference;
  d["private"] = m.differentially_private;
  d["needs_bounds"] = m.needs_bounds;
  d["relation"] = to_string(m.relation);
  d["local_privacy"] = m.local_privacy;
  d["privacy_notion"] = privacy_notion(m);
  d["python_estimator"] = m.python_estimator;
  d["no_python_estimator"] = m.no_python_estimator;
  py::list ps;
  for (const auto& p : m.params) ps.append(spec_dict(p));
  d["params"] = ps;
  return d;
}

// Keyword arguments typed against their specs (unknown names are left for complete_params to name).
std::map<std::string, ParamValue> typed(const std::vector<ParamSpec>& specs, const py::dict& given,
                                        const std::string& where) {
  std::map<std::string, ParamValue> out;
  for (auto kv : given) {
    const std::string name = kv.first.cast<std::string>();
    const ParamSpec* spec = nullptr;
    for (const auto& s : specs)
      if (s.name == name) spec = &s;
    out[name] = spec ? param_value(*spec, kv.second, where + "." + name) : ParamValue(std::string("(unknown)"));
  }
  return out;
}

// The estimator's data: X (and y) with public bounds, or bounds derived from the data (flagged as
// `bounds: data` is in a config), checked as a config dataset is (finite values, inside the bounds).
Dataset estimator_data(py::handle X, py::handle y, py::handle bounds, const std::string& where) {
  Dataset data = dataset_from(X, y, "X");
  validate_points(data, where + " (X)");
  if (py::isinstance<py::str>(bounds) && bounds.cast<std::string>() == "data") {
    data.bounds = bounding_box(data);
    data.bounds_source = BoundsSource::data;
    data.non_private_notes.push_back("domain bounds derived from the data (bounds: data)");
  } else if (!bounds.is_none()) {
    data.bounds = bounds_from(bounds, data.d, where + ".bounds");
    data.bounds_source = BoundsSource::config;
    check_within_bounds(data, where + " (X)");
  }
  return data;
}

// The family's typed result (MethodResult::details) as arrays for the estimator's attributes.
void add_details(MethodResult& r, std::size_t d, py::dict& out) {
  if (const auto* km = std::any_cast<dpdbscan::DpKmeansResult>(&r.details)) {
    out["centers"] = to_numpy(RowMatrix(km->centers));
  } else if (const wavecluster::WaveClusterOutput* wc = wavecluster::output_of(r)) {
    std::vector<py::ssize_t> shape;
    for (std::size_t s : wc->clustering.shape.dims) shape.push_back(static_cast<py::ssize_t>(s));
    out["cell_labels"] = to_numpy(std::vector<std::int32_t>(wc->clustering.cell_cluster), shape);
    out["transformed"] = to_numpy(std::vector<double>(wc->transformed), shape);
  } else if (auto* nd = std::any_cast<ndlaplace::NdLaplaceResult>(&r.details)) {
    const auto n = static_cast<py::ssize_t>(nd->released.size() / d);
    out["released"] = to_numpy(std::move(nd->released), {n, static_cast<py::ssize_t>(d)});
  } else if (auto* dr = std::any_cast<drbt::DrbtResult>(&r.details)) {
    out["disguised"] = to_numpy(std::move(dr->disguised));
  }
  // Any other method that releases centres (MethodResult::centres: DPM, EUGkM, LSH clustering, FastLloyd, HST
  // clustering, ...).
  if (!out.contains("centers") && r.centres.rows() > 0) out["centers"] = to_numpy(RowMatrix(r.centres));
}

// randomness: "seeded" (Rng(seed), reproducible, not a secure release) or "secure" (the OS CSPRNG; seed
// ignored, none is returned). docs/results.md "Seeds and randomness".
py::dict fit(const std::string& method, py::handle X, py::handle y, py::handle bounds, const py::dict& params,
             std::uint64_t seed, const std::string& where, double noise_scale, const std::string& randomness) {
  const MethodInfo& info = method_named(method);
  const Randomness mode = parse_randomness(randomness, where + ".randomness");
  const ParamSet ps =
      complete_params(info.params, "method '" + info.name + "'", typed(info.params, params, where), where);
  check_randomness(mode, ps, where);
  const Dataset data = estimator_data(X, y, bounds, where);
  check_trial_inputs(info, ps, data, where);
  TrialRun run = [&] {
    py::gil_scoped_release free_gil;  // other Python threads run while the engine works
    return run_single_trial(info, data, ps, mode, seed, noise_scale);
  }();
  const bool private_release = trial_private_release(info, run, data.non_private_notes);
  MethodResult& r = run.result;
  // The conditions a cell of `dpclust run` reports (runner.cpp build_cell_json): the data's and the trial's.
  std::vector<std::string> notes = data.non_private_notes;
  for (auto& n : r.non_private_notes) notes.push_back(std::move(n));
  if (!info.differentially_private) notes.push_back("method is not differentially private");
  py::dict out;
  const auto n = static_cast<py::ssize_t>(r.labels.size());
  out["labels"] = to_numpy(std::move(r.labels), {n});
  out["labels_are_release"] = r.labels_are_release;
  out["release"] = to_python(r.release);
  out["diagnostics"] = to_python(r.diagnostics);
  out["evaluation"] = to_python(r.evaluation);
  out["ledger"] = to_python(run.ledger.to_json());
  // What the trial spent, read from its ledger as results.json reads every trial's (store/accounting.hpp),
  // unbounded when the ledger says so or the domain came from the data: the estimators' epsilon_spent_ and
  // the accountant's charge.
  out["privacy_spent"] = to_python(trial_privacy_spent_on(run.ledger.to_json(), dataset_summary(data)));
  out["non_private"] = py::cast(notes);
  out["evaluation_only"] = py::cast(run.evaluation_only);
  out["private_release"] = private_release;
  out["randomness"] = to_python(randomness_record(mode));
  out["params"] = to_python(ps);
  out["bounds"] = bounds_to_python(data.bounds);
  out["seed"] = mode == Randomness::secure ? py::object(py::none()) : py::object(py::int_(seed));
  out["method_seconds"] = run.method_seconds;
  add_details(r, data.d, out);
  return out;
}

// New points for a post-processing classifier: read in place when X is already C-ordered float64.
py::array_t<double, py::array::c_style | py::array::forcecast> points(py::handle X, std::size_t d, const char* of) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(X);
  if (!a || a.ndim() != 2 || static_cast<std::size_t>(a.shape(1)) != d)
    throw InputError("X", std::string("the points must be a 2-d array with ") + std::to_string(d) +
                              " features, the dimension of " + of);
  return a;
}

// DP-DBSCAN's span classifier built once from a release (Sec. 3: "check which span the given point
// falls into"): post-processing of the release, no privacy cost.
class SpanModel {
 public:
  explicit SpanModel(const py::dict& release)
      : spans_(dpdbscan::spans_from_release(to_json(release, "release"), "release")) {}
  py::array_t<std::int32_t> classify(py::handle X) const {
    const auto pts = points(X, spans_.grid.d, "the release");
    Labels labels = dpdbscan::classify_with_release(spans_, pts.data(), static_cast<std::size_t>(pts.shape(0)));
    const auto n = static_cast<py::ssize_t>(labels.size());
    return to_numpy(std::move(labels), {n});
  }
  std::size_t n_spans() const { return spans_.spans.n_spans; }

 private:
  dpdbscan::ReleasedSpans spans_;
};

py::array_t<std::int32_t> nearest_centers(py::handle centers, py::handle X) {
  const Dataset c = dataset_from(centers, py::none(), "centers");
  const auto pts = points(X, c.d, "the centres");
  const auto n = static_cast<std::size_t>(pts.shape(0));
  Labels labels(n);
  dpdbscan::assign_nearest(pts.data(), n, c.d, RowMatrix(c.matrix()), labels);
  return to_numpy(std::move(labels), {static_cast<py::ssize_t>(n)});
}

// Points labelled with the released significant cells of a WaveCluster-family run (arXiv Sec. 3.2, "map
// the clusters back to the original space"), over the same public grid: post-processing of the release.
py::array_t<std::int32_t> wavecluster_labels(const std::string& method, const py::dict& params, py::handle bounds,
                                             const py::dict& release, py::handle X) {
  const MethodInfo& info = method_named(method);
  Dataset pts = estimator_data(X, py::none(), bounds, "X");
  const ParamSet ps =
      complete_params(info.params, "method '" + info.name + "'", typed(info.params, params, "params"), "params");
  const wavecluster::WcParams wp = wavecluster::WcParams::from(ps, pts.d);
  const wavecluster::Clustering c = wavecluster::clustering_from_release(to_json(release, "release"));
  Labels labels = wavecluster::label_points(pts, wavecluster::make_quantizer(pts, wp), wp.wavelet.level, c);
  return to_numpy(std::move(labels), {static_cast<py::ssize_t>(pts.n)});
}

}  // namespace

void bind_estimators(py::module_& m) {
  m.def(
      "methods", [] { return names_of(all_methods()); }, "Names of the built-in methods (`dpclust list`).");
  m.def(
      "method_info", [](const std::string& name) { return method_dict(method_named(name)); }, py::arg("name"),
      "A method's summary, reference, privacy and declared parameters (the ParamSpecs `dpclust list` shows).");
  m.def("fit", &fit, py::arg("method"), py::arg("X"), py::arg("y"), py::arg("bounds"), py::arg("params"),
        py::arg("seed"), py::arg("where"), py::arg("noise_scale") = 1.0, py::arg("randomness") = "seeded",
        "One trial of a method on X (validated as a config cell; the GIL is released while it runs).");
  py::class_<SpanModel>(m, "SpanModel", "DP-DBSCAN's span classifier rebuilt from a release (post-processing).")
      .def(py::init<const py::dict&>(), py::arg("release"))
      .def("classify", &SpanModel::classify, py::arg("X"))
      .def_property_readonly("n_spans", &SpanModel::n_spans);
  m.def("nearest_centers", &nearest_centers, py::arg("centers"), py::arg("X"),
        "Nearest released centre of each point (ties: lowest index).");
  m.def("wavecluster_labels", &wavecluster_labels, py::arg("method"), py::arg("params"), py::arg("bounds"),
        py::arg("release"), py::arg("X"),
        "Points labelled by the released significant cells of a WaveCluster-family run.");
}

}  // namespace dpclust::python
