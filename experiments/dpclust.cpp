// dpclust: the command-line driver. Thin by design: it parses options (Boost.Program_options) and
// calls the engine; every rule (validation, seeds, resume, results layout) lives in the engine (engine/config, run,
// store, scaleout).
#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "audit/auditor.hpp"
#include "catalog/catalog.hpp"
#include "catalog/catalog_docs.hpp"
#include "cli_support.hpp"
#include "config/config.hpp"
#include "config/grid.hpp"
#include "config/yaml_reader.hpp"  // yaml::clip for user text in messages
#include "core/error.hpp"
#include "core/files.hpp"
#include "data_command.hpp"
#include "dpdbscan/release_classifier.hpp"
#include "io/csv.hpp"
#include "io/label_file.hpp"
#include "io/text.hpp"
#include "loading/dataset_loading.hpp"
#include "metrics/clustering_scores.hpp"
#include "python_handoff.hpp"
#include "report/comparison_export.hpp"
#include "report/report.hpp"
#include "run_command.hpp"
#include "store/merge.hpp"
#include "store/release_view.hpp"
#include "store/span_release.hpp"
#include "submit_command.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using namespace dpclust;
using namespace dpclust::cli;

namespace {

const char* kUsage =
    "usage: dpclust <command> [options]\n"
    "\n"
    "commands:\n"
    "  run CONFIG...        run experiment configs, write JSON results (resumes by default)\n"
    "  validate CONFIG...   check configs fully without running\n"
    "  list                 datasets, methods (with parameters and defaults), metrics\n"
    "  score                ARI, AMI, NMI and cluster counts between two label files\n"
    "  merge INPUT...       join the outputs of shard runs\n"
    "  release RESULTS      write only the release fields of a results.json (no evaluation of the true data)\n"
    "  submit CONFIG...     run a sweep as a batch job array (Slurm) with a merge job after it\n"
    "  status OUT_DIR       cells done / running / failed / pending per experiment, across shards\n"
    "  classify             label new points with a DP-DBSCAN trial's released spans (post-processing)\n"
    "  report RESULTS_DIR   REPORT.md: published numbers next to the reproduced ones, with verdicts\n"
    "  audit CONFIG...      empirical privacy audit: a lower bound on each private method's epsilon\n"
    "  data ACTION          the papers' datasets: list, fetch (from their public sources), verify\n"
    "  --version            version and git commit\n"
    "\n"
    "`dpclust <command> --help` describes each command's options.\n";

int cmd_list(int argc, char** argv) {
  po::options_description opts("list options");
  opts.add_options()("json", "machine-readable output")("data-root", po::value<std::string>(),
                                                        "directory of the papers' datasets")(
      "method-table", "print docs/privacy.md's method table (privacy notion, release, when private) as Markdown")(
      "config-keys", "print docs/config-keys.md (every method's, generator's and metric's parameters) as Markdown");
  po::variables_map vm;
  if (!parse(argc, argv, "usage: dpclust list [--json | --method-table | --config-keys]", opts, nullptr, vm)) return 0;
  if (vm.count("method-table")) {
    std::cout << method_table_markdown();
    return 0;
  }
  if (vm.count("config-keys")) {
    std::cout << config_keys_markdown();
    return 0;
  }
  const fs::path root = data_root_from(vm);
  nlohmann::json j;
  j["methods"] = nlohmann::json::array();
  for (const auto& m : all_methods()) j["methods"].push_back(m.to_json());
  j["metrics"] = nlohmann::json::array();
  for (const auto& m : all_metrics())
    j["metrics"].push_back({{"name", m.name},
                            {"summary", m.summary},
                            {"needs_truth", m.needs_truth},
                            {"needs_centres", m.needs_centres},
                            {"by_default", m.by_default}});
  j["generators"] = nlohmann::json::array();
  for (const auto& g : all_generators()) {
    nlohmann::json ps = nlohmann::json::array();
    for (const auto& p : g.params) ps.push_back(p.to_json());
    j["generators"].push_back({{"name", g.name}, {"summary", g.summary}, {"params", ps}});
  }
  j["registered_datasets"] = nlohmann::json::array();
  for (const auto& name : registry_names()) {
    // Availability: parse a one-dataset config naming it.
    std::string where = "available";
    try {
      ExperimentConfig c = parse_config(
          "experiment: probe\ndatasets: [{name: " + name + "}]\nmethods: [" + all_methods()[0].name + "]\n", "registry",
          fs::current_path(), root);
      const auto& d = c.datasets[0];
      if (!d.file.empty() && (d.resolved.empty() || !fs::exists(d.resolved)))
        where = d.fallback_available ? "file absent: built-in generator fallback" : "file absent (set --data-root)";
      j["registered_datasets"].push_back(
          {{"name", name}, {"file", d.file}, {"status", where}, {"reference", d.reference}});
    } catch (const std::exception& e) {
      j["registered_datasets"].push_back({{"name", name}, {"status", std::string("invalid: ") + e.what()}});
    }
  }
  j["data_root"] = root.string();
  if (vm.count("json")) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << "data root: " << (root.empty() ? "(none: set --data-root or DPCLUST_DATA_ROOT)" : root.string())
            << "\n\n";
  std::cout << "registered datasets (datasets/registry.yaml):\n";
  std::size_t name_width = 16;  // the longest name and two spaces, so that a long name never runs into its file
  for (const auto& d : j["registered_datasets"])
    name_width = std::max(name_width, d["name"].get<std::string>().size() + 2);
  for (const auto& d : j["registered_datasets"])
    std::cout << "  " << std::left << std::setw(static_cast<int>(name_width)) << d["name"].get<std::string>()
              << d.value("file", "") << "  [" << d["status"].get<std::string>() << "]\n";
  std::cout << "\ngenerators (datasets: - name: x\n              generator: {type: <name>, ...}):\n";
  // Every column as wide as its longest entry and two spaces, so that no name or default runs into the next column.
  std::size_t generator_param_width = 14;
  for (const auto& g : all_generators())
    for (const auto& p : g.params) generator_param_width = std::max(generator_param_width, p.name.size() + 2);
  for (const auto& g : all_generators()) {
    std::cout << "  " << std::left << std::setw(18) << g.name << g.summary << "\n";
    for (const auto& p : g.params)
      std::cout << "      " << std::setw(static_cast<int>(generator_param_width)) << p.name
                << to_display(p.default_value) << "  " << p.allowed() << "\n";
  }
  std::cout << "\nmethods:\n";
  std::size_t width = 16;
  for (const auto& m : all_methods()) width = std::max(width, m.name.size() + 2);
  for (const auto& m : all_methods()) {
    // A method's parameter and default columns as wide as its longest entry and two spaces, so that none runs into
    // the next column (set per method: one long name elsewhere would push every description right).
    std::size_t param_width = 14, default_width = 10;
    for (const auto& p : m.params) {
      param_width = std::max(param_width, p.name.size() + 2);
      default_width =
          std::max(default_width, (p.required() ? std::string("required") : to_display(p.default_value)).size() + 2);
    }
    std::cout << "  " << std::left << std::setw(static_cast<int>(width)) << m.name << m.summary
              << (m.differentially_private ? "  [private]" : "") << "\n"
              << "  " << std::setw(static_cast<int>(width)) << "" << m.reference << "\n";
    for (const auto& p : m.params)
      std::cout << "      " << std::setw(static_cast<int>(param_width)) << p.name
                << std::setw(static_cast<int>(default_width))
                << (p.required() ? "required" : to_display(p.default_value)) << p.description << "; " << p.allowed()
                << "\n";
  }
  std::cout << "\nmetrics:\n";
  std::size_t metric_width = 16;
  for (const auto& m : all_metrics()) metric_width = std::max(metric_width, m.name.size() + 2);
  for (const auto& m : all_metrics())
    std::cout << "  " << std::left << std::setw(static_cast<int>(metric_width)) << m.name << m.summary
              << (m.needs_centres ? "  [methods that release centres]" : "")
              << (m.by_default ? "" : "  [only when named]") << "\n";
  return 0;
}

int cmd_score(int argc, char** argv) {
  po::options_description opts("score options");
  std::string truth, pred;
  opts.add_options()("truth", po::value(&truth)->required(),
                     "ground-truth label file (one integer per line, -1 = noise)")(
      "pred", po::value(&pred)->required(), "predicted label file (same format)")("json", "machine-readable output");
  po::variables_map vm;
  if (!parse(argc, argv, "usage: dpclust score --truth FILE --pred FILE [--json]", opts, nullptr, vm)) return 0;
  const Labels t = read_label_file(truth), p = read_label_file(pred);
  if (t.size() != p.size())
    throw InputError(pred,
                     "has " + std::to_string(p.size()) + " labels but " + truth + " has " + std::to_string(t.size()),
                     "both files must label the same points in the same order");
  const ClusteringScores s = score_labelings(t, p);
  nlohmann::json j{{"n", t.size()},
                   {"ari", s.ari},
                   {"ami", s.ami},
                   {"nmi", s.nmi},
                   {"clusters_truth", s.n_clusters_true},
                   {"clusters_pred", s.n_clusters_pred},
                   {"noise_truth", s.n_noise_true},
                   {"noise_pred", s.n_noise_pred}};
  if (vm.count("json")) {
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << std::fixed << std::setprecision(6) << "points   " << t.size() << "\nARI      " << s.ari
              << "\nAMI      " << s.ami << "\nNMI      " << s.nmi << "\nclusters truth " << s.n_clusters_true
              << ", pred " << s.n_clusters_pred << "\nnoise    truth " << s.n_noise_true << ", pred " << s.n_noise_pred
              << "\n";
  }
  return 0;
}

int cmd_merge(int argc, char** argv) {
  po::options_description opts("merge options");
  std::vector<std::string> inputs;
  std::string out;
  opts.add_options()("input", po::value(&inputs)->multitoken(), "output directories of shard runs")(
      "out,o", po::value(&out)->required(), "directory to write the merged experiment(s) into");
  po::positional_options_description pos;
  pos.add("input", -1);
  po::variables_map vm;
  if (!parse(argc, argv, "usage: dpclust merge --out DIR SHARD_DIR...", opts, &pos, vm)) return 0;
  if (inputs.empty()) throw InputError("dpclust merge", "no shard directories given");
  std::vector<fs::path> in(inputs.begin(), inputs.end());
  auto done = merge_results(out, in, std::cout);
  return done.empty() ? 1 : 0;
}

// `release`: the release fields of a results.json and nothing else (store/release_view.hpp): the file to
// publish, without the exact statistics of the true data a results file carries for evaluation.
int cmd_release(int argc, char** argv) {
  po::options_description opts("release options");
  std::string input, out;
  opts.add_options()("results", po::value(&input)->required(), "a results.json (or its experiment directory)")(
      "out,o", po::value(&out), "file to write (default: standard output)");
  po::positional_options_description pos;
  pos.add("results", 1);
  po::variables_map vm;
  if (!parse(
          argc, argv,
          "usage: dpclust release RESULTS.json [--out FILE]\n"
          "Writes the release and configuration fields of a results file (results.json \"field_roles\"): per trial "
          "its\n"
          "release, ledger and flags, never the metrics, evaluation, diagnostics, timings, data summary or checksums;\n"
          "a ledger with a data-derived input (or on a domain derived from the data) without its steps' sensitivities\n"
          "and notes.",
          opts, &pos, vm))
    return 0;
  fs::path file(input);
  std::error_code ec;
  if (fs::is_directory(file, ec)) file /= "results.json";
  if (!fs::is_regular_file(file, ec))
    throw InputError(file.string(), "no results file here",
                     "give a results.json written by `dpclust run` or `dpclust merge`");
  nlohmann::json results;
  try {
    results = nlohmann::json::parse(read_text_file(file));
  } catch (const nlohmann::json::exception&) {
    throw InputError(file.string(), "not JSON", "give a results.json written by `dpclust run` or `dpclust merge`");
  }
  if (!results.is_object() || results.value("schema", std::string()) != "dpclust.results/1")
    throw InputError(file.string(), "not a dpclust results file (schema dpclust.results/1)",
                     "give a results.json written by `dpclust run`");
  const std::string text = release_only(results).dump(1) + "\n";
  if (out.empty()) std::cout << text;
  else write_file_atomic(out, text);
  return 0;
}

// `classify`: labels new points with the spans a DP-DBSCAN trial released (Sec. 3: "check which span
// the given point falls into"). It reads the release only (engine/dpdbscan/release_classifier.hpp), so
// it is post-processing: no privacy cost, no ledger entry.
int cmd_classify(int argc, char** argv) {
  po::options_description opts("classify options");
  std::string results_dir, experiment, cell, dataset, series, points, out, columns, delimiter;
  std::vector<std::string> params;
  std::size_t trial = 0;
  opts.add_options()("results", po::value(&results_dir)->default_value("results"),
                     "results directory (the --out of `dpclust run`)")(
      "experiment", po::value(&experiment)->required(), "experiment name (a folder of the results directory)")(
      "cell", po::value(&cell), "cell id (16 hex digits, from results.json or `run --dry-run`)")(
      "dataset", po::value(&dataset), "select the cell by dataset ...")("series", po::value(&series), "... and series")(
      "param", po::value(&params)->multitoken(), "... and parameter values name=value (repeatable)")(
      "trial", po::value(&trial)->default_value(0), "which trial's release (0-based)")(
      "points", po::value(&points)->required(), "CSV/TSV (optionally .gz) of points in the release's coordinates")(
      "columns", po::value(&columns),
      "coordinate columns of --points, comma-separated names or 0-based indices (default: all)")(
      "delimiter", po::value(&delimiter), "field separator of --points (default: tab for .tsv, comma otherwise)")(
      "out,o", po::value(&out), "label file to write (one label a line, -1 = noise; default: standard output)");
  po::variables_map vm;
  if (!parse(
          argc, argv,
          "usage: dpclust classify --experiment E (--cell ID | --dataset D [--series S] [--param name=value ...]) "
          "--points FILE\n"
          "                        [--results DIR] [--trial T] [--columns C1,C2] [--out FILE]\n"
          "Labels each point with the span of the trial's DP-DBSCAN release whose cell contains it (-1: noise). The\n"
          "points must be in the coordinates of the release (the dataset's final coordinates in results.json: after\n"
          "any projection or scaling). Post-processing of the release: no new privacy cost.",
          opts, nullptr, vm))
    return 0;
  SpanReleaseQuery q{results_dir, experiment, cell, dataset, series, {}, trial};
  for (const std::string& p : params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--param", "'" + p + "' is not name=value", "write e.g. --param alpha=0.05");
    q.params.emplace_back(p.substr(0, eq), p.substr(eq + 1));
  }
  const SpanRelease sel = find_span_release(q);
  const dpdbscan::ReleasedSpans spans = dpdbscan::spans_from_release(sel.release, sel.where);
  CsvOptions o;
  if (!delimiter.empty()) o.delimiter = delimiter == "tab" || delimiter == "\\t" ? '\t' : delimiter[0];
  for (std::size_t a = 0; !columns.empty() && a <= columns.size();) {
    const std::size_t b = std::min(columns.find(',', a), columns.size());
    o.columns.push_back(columns.substr(a, b - a));
    a = b + 1;
  }
  const Dataset pts = load_csv(points, o);
  if (pts.d != spans.grid.d)
    throw InputError(points,
                     "the points have " + std::to_string(pts.d) + " coordinates but the release is " +
                         std::to_string(spans.grid.d) + "-dimensional" +
                         (sel.columns.empty() ? std::string() : " (columns " + text::join(sel.columns) + ")"),
                     "select the coordinate columns with --columns");
  const Labels labels = dpdbscan::classify_with_release(spans, pts.coords.data(), pts.n);
  std::string lines;
  std::size_t in_spans = 0;
  for (Label l : labels) {
    lines += std::to_string(l) + "\n";
    in_spans += l != kNoise;
  }
  if (out.empty()) std::cout << lines;
  else write_file_atomic(out, lines);
  std::cerr << "classified " << pts.n << " points with " << spans.spans.n_spans << " spans of " << sel.where << " ("
            << sel.key << "): " << in_spans << " in spans, " << pts.n - in_spans << " noise\n";
  return 0;
}

int cmd_audit(int argc, char** argv) {
  po::options_description opts("audit options");
  std::vector<std::string> configs;
  std::string out = "results";
  int threads = 0;
  opts.add_options()("config", po::value(&configs)->multitoken(),
                     "experiment configs whose private methods to audit (configs/audit/)")(
      "out,o", po::value(&out)->default_value("results"), "output directory: OUT/<experiment>/audit.json")(
      "threads,t", po::value(&threads)->default_value(0), "worker threads (0 = all cores)")(
      "runs", po::value<std::string>(), "runs per side of every pair (overrides audit.runs; at least 200)")(
      "pilot-runs", po::value<std::string>(), "pilot runs per side (overrides audit.pilot_runs; at least 20)")(
      "data-root", po::value<std::string>(), "directory of the papers' datasets")(
      "fail-on-violation", "exit with code 1 when any cell's eps_lower exceeds its claimed epsilon")(
      "no-progress", "no progress output on stderr");
  po::positional_options_description pos;
  pos.add("config", -1);
  po::variables_map vm;
  if (!parse(argc, argv, "usage: dpclust audit CONFIG... [options]", opts, &pos, vm)) return 0;
  if (configs.empty()) throw InputError("dpclust audit", "no config given", "dpclust audit configs/audit/<name>.yaml");
  if (threads < 0) throw InputError("--threads", "must be >= 0");
  const fs::path root = data_root_from(vm);
  audit::AuditOptions ao;
  ao.out_dir = out;
  ao.threads = threads;
  ao.progress = !vm.count("no-progress");
  std::size_t violations = 0;
  for (const auto& c : configs) {
    ExperimentConfig cfg = load_config(c, root);
    if (vm.count("runs")) {
      const auto r = parse_count(vm["runs"].as<std::string>(), "--runs");
      if (r < 200 || r > 1e8) throw InputError("--runs", "must be in [200, 100000000]");
      cfg.audit.runs = static_cast<std::uint64_t>(r);
    }
    if (vm.count("pilot-runs")) {
      const auto r = parse_count(vm["pilot-runs"].as<std::string>(), "--pilot-runs");
      if (r < 20 || r > 1e6) throw InputError("--pilot-runs", "must be in [20, 1000000]");
      cfg.audit.pilot_runs = static_cast<std::uint64_t>(r);
    }
    const audit::AuditReport rep = audit::run_audit(cfg, ao);
    std::cout << cfg.name << ": " << rep.cells.size() << " private cells audited in " << short_number(rep.wall_seconds)
              << " s, " << rep.violations << " violation" << (rep.violations == 1 ? "" : "s") << "\n";
    for (const auto& cell : rep.cells) {
      std::cout << "  " << cell.series << " on " << cell.dataset << ": eps " << short_number(cell.epsilon)
                << ", eps_lower " << short_number(cell.eps_lower) << " -> "
                << (cell.violation ? "VIOLATION" : "consistent");
      // What results.json's privacy accounting counts for the same cell (per trial).
      const auto& acct = cell.accounting;
      if (acct.value("unbounded", false)) {
        std::cout << "; accounting: unbounded, no epsilon claimed";
        for (const auto& r : acct.value("unbounded_reasons", nlohmann::json::array()))
          std::cout << " (" << r.get<std::string>() << ")";
      } else if (acct.contains("epsilon") && acct["epsilon"].is_number()) {
        std::cout << "; accounting: eps " << short_number(acct["epsilon"].get<double>())
                  << (cell.measure == "local" ? " per unit distance" : "")
                  << (acct.value("includes_declared_excess", false) ? " (declared excess included)" : "") << " -> "
                  << acct.value("verdict", std::string("?"));
      }
      std::cout << "\n";
    }
    std::cout << "  results: " << rep.file.string() << "\n";
    violations += rep.violations;
  }
  return violations > 0 && vm.count("fail-on-violation") ? 1 : 0;
}

int cmd_report(int argc, char** argv) {
  po::options_description opts("report options");
  std::string results_dir, published, figures, out, min_trials;
  const std::string source = build_info().source_dir;
  opts.add_options()("results", po::value(&results_dir)->required(), "results directory (the --out of `dpclust run`)")(
      "published", po::value(&published)->default_value(source + "/reference/published.yaml"),
      "published numbers and claims (YAML)")("figures", po::value(&figures)->default_value(source + "/plots/out"),
                                             "directory of PNG figures to show as thumbnails")(
      "out,o", po::value(&out), "report file (default: RESULTS_DIR/REPORT.md)")(
      "min-trials-for-variance", po::value(&min_trials)->value_name("N"),
      "fewest trials of a cell for a seed-variance verdict (integer >= 2; overrides the reference file's "
      "verdicts.min_trials_for_variance; never below 2k for a k-seed protocol)");
  po::positional_options_description pos;
  pos.add("results", 1);
  po::variables_map vm;
  if (!parse(argc, argv,
             "usage: dpclust report RESULTS_DIR [--published FILE] [--figures DIR] [--out FILE] "
             "[--min-trials-for-variance N]",
             opts, &pos, vm))
    return 0;
  report::ReportOptions ropts{figures, out, std::nullopt, {}};
  if (vm.count("min-trials-for-variance"))
    ropts.min_trials_for_variance = report::parse_min_trials_for_variance(min_trials);
  if (out.empty()) out = (fs::path(results_dir) / "REPORT.md").string();
  ropts.report_path = out;
  ropts.tables_dir = fs::path(out).parent_path() / "tables";
  const report::Reference ref = report::load_reference(published);
  const report::Results results(results_dir);
  report::ReportSummary sum;  // the report's own verdicts (judging them again would double the time)
  const std::string md = report::write_markdown(ref, results, ropts, &sum);
  write_file_atomic(out, md);
  // The comparison's tables for a paper (CSV and LaTeX), beside the report, from the results alone.
  const std::vector<fs::path> tables = report::write_comparison_tables(results, ropts.tables_dir);
  if (!tables.empty())
    std::cout << ropts.tables_dir.string() << ": " << tables.size() / 2 << " comparison table"
              << (tables.size() == 2 ? "" : "s") << " as CSV and LaTeX (booktabs)\n";
  if (sum.not_run == sum.values && sum.values > 0 && sum.claims_not_run == sum.claims) {
    // A directory of one's own sweeps: no paper experiment in it (the report opens with the comparison; markdown.cpp's
    // rule).
    std::cout << out << ": the comparison of " << results.experiments().size() << " experiment"
              << (results.experiments().size() == 1 ? "" : "s")
              << " (no experiment of the papers in these results: their published values are not judged here)\n";
    return 0;
  }
  std::cout << out << ": " << sum.values << " published values (" << sum.holds << " hold";
  if (sum.holds_outside_band) std::cout << " (" << sum.holds_outside_band << " of them outside our k-seed band)";
  std::cout << ", " << sum.within << " within seed variance, " << sum.differs << " differ, " << sum.not_run
            << " not run), " << sum.claims << " claims (" << sum.claims - sum.claims_not_run << " judged)";
  if (sum.authors) std::cout << ", " << sum.authors << " against the authors' code (" << sum.authors_exact << " exact)";
  std::cout << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" || std::string(argv[1]) == "help") {
    std::cout << kUsage;
    return argc < 2 ? kExitInputError : 0;
  }
  const std::string cmd = argv[1];
  if (cmd == "--version" || cmd == "version") {
    const auto& b = build_info();
    std::cout << "dpclust " << b.version << " (git " << b.git_commit << ", " << b.build_type << ", " << b.compiler
              << ")\n";
    return 0;
  }
  try {
    if (cmd == "run") return cmd_run(argc - 1, argv + 1);
    if (cmd == "validate") return cmd_validate(argc - 1, argv + 1);
    if (cmd == "list") return cmd_list(argc - 1, argv + 1);
    if (cmd == "score") return cmd_score(argc - 1, argv + 1);
    if (cmd == "merge") return cmd_merge(argc - 1, argv + 1);
    if (cmd == "release") return cmd_release(argc - 1, argv + 1);
    if (cmd == "submit") return cmd_submit(argc - 1, argv + 1);
    if (cmd == "status") return cmd_status(argc - 1, argv + 1);
    if (cmd == "classify") return cmd_classify(argc - 1, argv + 1);
    if (cmd == "report") return cmd_report(argc - 1, argv + 1);
    if (cmd == "audit") return cmd_audit(argc - 1, argv + 1);
    if (cmd == "data") return dpclust::cli::cmd_data(argc - 1, argv + 1);
    const std::string s =
        closest_match(cmd, std::vector<std::string>{"run", "validate", "list", "score", "merge", "release", "report",
                                                    "data", "audit", "submit", "status", "classify"});
    std::cerr << "error: unknown command '" << cmd << "'" << (s.empty() ? "" : " (did you mean '" + s + "'?)") << "\n\n"
              << kUsage;
    return kExitInputError;
  } catch (const PythonMethodUnavailable& e) {
    return cli::hand_off_to_python(argc - 1, argv + 1, e);  // `method: python`: python_handoff.hpp
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  } catch (const po::error& e) {
    std::cerr << "error: " << e.what() << "\n  fix: see `dpclust " << cmd << " --help`\n";
    return kExitInputError;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
