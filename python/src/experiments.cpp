// Experiments from Python: dpclust.run / validate / audit / report and a config's datasets, through the
// engine functions the `dpclust` commands call (experiments/dpclust.cpp), with the same checks in the same
// order and the same messages. The GIL is released while cells or audit runs compute, so `method: python`
// cells (which take it back per trial) and other Python threads keep running.
#include "audit/auditor.hpp"
#include "bindings.hpp"
#include "config/config.hpp"
#include "convert.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/rng.hpp"
#include "loading/cost_model.hpp"
#include "loading/dataset_loading.hpp"
#include "report/comparison_export.hpp"
#include "report/report.hpp"
#include "run/runner.hpp"

namespace dpclust::python {
namespace fs = std::filesystem;
namespace {

// A config file (path), or config text (a dict the Python side wrote as JSON, which is YAML) read with
// `label` in its messages and relative paths resolved against base_dir.
struct ConfigSource {
  std::string path, text, label, base_dir, data_root;
};

ExperimentConfig config_from(const ConfigSource& s) {
  const fs::path root = resolve_data_root(s.data_root);
  if (!s.data_root.empty() && !fs::is_directory(root))
    throw InputError("data_root", "'" + root.string() + "' is not a directory",
                     "point it at the folder holding the papers' datasets");
  if (!s.path.empty()) return load_config(s.path, root);
  return parse_config(s.text, s.label, s.base_dir.empty() ? fs::current_path() : fs::path(s.base_dir), root);
}

// `--trials N` of `dpclust run` (the same checks and messages).
void override_trials(ExperimentConfig& cfg, std::int64_t t) {
  if (t < 1 || t > kMaxTrials) throw InputError("trials", "must be >= 1 and <= 1000000, got " + std::to_string(t));
  if (!cfg.seeds.empty() && t > static_cast<std::int64_t>(cfg.seeds.size()))
    throw InputError("trials",
                     std::to_string(t) + " trials, but " + cfg.file.string() + " lists " +
                         std::to_string(cfg.seeds.size()) + " seeds (one trial per listed seed)",
                     "use trials=" + std::to_string(cfg.seeds.size()) + " or fewer, or list more seeds");
  cfg.trials = t;
}

py::dict run(const ConfigSource& src, const std::string& out, int threads, std::int64_t trials, bool force,
             bool progress, double noise_scale) {
  if (threads < 0) throw InputError("threads", "must be >= 0");
  ExperimentConfig cfg = config_from(src);
  if (trials > 0) override_trials(cfg, trials);
  RunLimits limits;
  limits.threads = threads;
  cfg.max_cells = limits.max_cells;
  check_run_cost(cfg, limits);
  RunOptions ro;
  ro.out_dir = out;
  ro.threads = threads;
  ro.resume = !force;
  ro.progress = progress;
  ro.noise_scale = noise_scale;
  RunReport r;
  {
    py::gil_scoped_release free_gil;
    r = run_experiment(cfg, ro);
  }
  py::dict d;
  d["experiment"] = cfg.name;
  d["experiment_dir"] = r.experiment_dir.string();
  d["results_file"] = r.results_file.empty() ? py::object(py::none()) : py::object(py::str(r.results_file.string()));
  d["cells_total"] = r.cells_total;
  d["cells_run"] = r.cells_run;
  d["cells_reused"] = r.cells_reused;
  d["trials_run"] = r.trials_run;
  d["complete"] = r.complete;
  d["up_to_date"] = r.up_to_date;
  d["wall_seconds"] = r.wall_seconds;
  return d;
}

// `dpclust validate` (experiments/dpclust.cpp cmd_validate), the same steps: the config, then with load_data
// (the default, as the command's) every dataset read and every cell checked against it; every problem at once
// (InputErrors: a ValueError numbering them).
py::dict validate(const ConfigSource& src, bool load_data, int threads) {
  if (threads < 0) throw InputError("threads", "must be >= 0");
  ExperimentConfig cfg = config_from(src);
  RunLimits limits;
  limits.threads = threads;
  cfg.max_cells = limits.max_cells;
  ProblemList problems;
  RunCost cost;
  Validation v;
  problems.collect([&] { cost = check_run_cost(cfg, limits, /*cells_may_be_skipped=*/load_data); });
  {
    py::gil_scoped_release free_gil;  // reading the data files
    problems.collect([&] { v = validate_experiment(cfg, load_data, limits); });
  }
  problems.throw_if_any();
  py::dict d;
  d["experiment"] = cfg.name;
  d["cells"] = cost.cells;
  d["trials"] = cfg.trials;
  d["cost"] = describe_cost(load_data ? v.cost : cost);
  d["notes"] = py::cast(v.notes);
  d["data_loaded"] = load_data;
  return d;
}

py::dict audit(const ConfigSource& src, const std::string& out, int threads, std::int64_t runs, std::int64_t pilot_runs,
               bool progress, double noise_scale) {
  if (threads < 0) throw InputError("threads", "must be >= 0");
  ExperimentConfig cfg = config_from(src);
  if (runs > 0) {
    if (runs < 200 || runs > 100'000'000) throw InputError("runs", "must be in [200, 100000000]");
    cfg.audit.runs = static_cast<std::uint64_t>(runs);
  }
  if (pilot_runs > 0) {
    if (pilot_runs < 20 || pilot_runs > 1'000'000) throw InputError("pilot_runs", "must be in [20, 1000000]");
    cfg.audit.pilot_runs = static_cast<std::uint64_t>(pilot_runs);
  }
  audit::AuditOptions ao;
  ao.out_dir = out;
  ao.threads = threads;
  ao.progress = progress;
  ao.noise_scale = noise_scale;
  audit::AuditReport rep;
  {
    py::gil_scoped_release free_gil;
    rep = audit::run_audit(cfg, ao);
  }
  py::list cells;
  for (const auto& c : rep.cells) cells.append(to_python(audit::to_json(c)));
  py::dict d;
  d["experiment"] = cfg.name;
  d["file"] = rep.file.string();
  d["violations"] = rep.violations;
  d["wall_seconds"] = rep.wall_seconds;
  d["cells"] = cells;
  return d;
}

// `dpclust report`: REPORT.md of a results directory against the published numbers.
py::dict report(const std::string& results_dir, const std::string& published, const std::string& figures,
                const std::string& out) {
  const std::string source = build_info().source_dir;
  const fs::path ref_file = published.empty() ? fs::path(source) / "reference" / "published.yaml" : fs::path(published);
  report::ReportOptions ropts{figures.empty() ? fs::path(source) / "plots" / "out" : fs::path(figures),
                              out.empty() ? fs::path(results_dir) / "REPORT.md" : fs::path(out),
                              std::nullopt,
                              {}};
  ropts.tables_dir = ropts.report_path.parent_path() / "tables";  // the comparison's CSV and LaTeX, as `dpclust report`
  const report::Reference ref = report::load_reference(ref_file);
  const report::Results results(results_dir);
  const std::string md = report::write_markdown(ref, results, ropts);
  write_file_atomic(ropts.report_path, md);
  report::write_comparison_tables(results, ropts.tables_dir);
  std::size_t holds = 0, within = 0, differs = 0, not_run = 0;
  for (const auto& v : ref.values) {
    const report::Verdict verdict = report::evaluate(v, results, ref.verdicts).verdict;
    holds += verdict == report::Verdict::holds;
    within += verdict == report::Verdict::within_seed_variance;
    differs += verdict == report::Verdict::differs;
    not_run += verdict == report::Verdict::not_run;
  }
  py::dict d;
  d["file"] = ropts.report_path.string();
  d["markdown"] = md;
  d["published_values"] = ref.values.size();
  d["holds"] = holds;
  d["within_seed_variance"] = within;
  d["differs"] = differs;
  d["not_run"] = not_run;
  d["claims"] = ref.claims.size();
  return d;
}

// A dataset of a config exactly as `dpclust run` materialises it (file or generator, then projection,
// bounds, sampling, scaling).
py::dict load_dataset(const ConfigSource& src, const std::string& name) {
  const ExperimentConfig cfg = config_from(src);
  std::vector<std::string> names;
  for (const auto& spec : cfg.datasets) {
    names.push_back(spec.name);
    if (spec.name != name) continue;
    check_dataset_available(spec);
    Dataset data = materialize_dataset(spec);
    const auto n = static_cast<py::ssize_t>(data.n), d = static_cast<py::ssize_t>(data.d);
    py::dict out;
    out["name"] = data.name;
    out["bounds"] = bounds_to_python(data.bounds);
    out["bounds_source"] = to_string(data.bounds_source);
    out["non_private"] = py::cast(data.non_private_notes);
    out["columns"] = py::cast(data.column_names);
    out["y"] = data.has_labels() ? py::object(to_numpy(std::move(data.labels), {n})) : py::object(py::none());
    out["X"] = to_numpy(std::move(data.coords), {n, d});
    return out;
  }
  std::string all;
  for (const auto& x : names) all += (all.empty() ? "" : ", ") + x;
  const std::string s = closest_match(name, names);
  throw InputError(cfg.file.string(), "no dataset '" + name + "' in this config",
                   (s.empty() ? "" : "did you mean '" + s + "'? ") + "datasets: " + all);
}

}  // namespace

void bind_experiments(py::module_& m) {
  py::class_<ConfigSource>(m, "ConfigSource",
                           "A config file (path) or config text (label and base_dir for its messages and paths).")
      .def(py::init<std::string, std::string, std::string, std::string, std::string>(), py::arg("path") = "",
           py::arg("text") = "", py::arg("label") = "", py::arg("base_dir") = "", py::arg("data_root") = "");
  m.def("run", &run, py::arg("config"), py::arg("out"), py::arg("threads") = 0, py::arg("trials") = 0,
        py::arg("force") = false, py::arg("progress") = false, py::arg("noise_scale") = 1.0,
        "`dpclust run` on one config.");
  m.def("validate", &validate, py::arg("config"), py::arg("load_data") = true, py::arg("threads") = 0,
        "`dpclust validate` on one config (with load_data, the default, the data files read and every cell checked "
        "against them).");
  m.def("audit", &audit, py::arg("config"), py::arg("out"), py::arg("threads") = 0, py::arg("runs") = 0,
        py::arg("pilot_runs") = 0, py::arg("progress") = false, py::arg("noise_scale") = 1.0,
        "`dpclust audit` on one config.");
  m.def("report", &report, py::arg("results_dir"), py::arg("published") = "", py::arg("figures") = "",
        py::arg("out") = "", "`dpclust report`: writes REPORT.md.");
  m.def("load_dataset", &load_dataset, py::arg("config"), py::arg("name"),
        "A config's dataset as `dpclust run` materialises it.");
  m.def("derive_seed", &derive_seed, py::arg("base_seed"), py::arg("cell_key"), py::arg("trial"),
        "The seed of trial `trial` of the cell with this key (docs/results.md \"Seeds and randomness\").");
}

}  // namespace dpclust::python
