// `dpclust run` and `dpclust validate`: options to RunOptions and limits, then the engine's checks and runs
// (engine/config, loading, scaleout, run); this file parses, prints and decides the exit status.
#include "run_command.hpp"

#include <boost/program_options.hpp>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli_support.hpp"
#include "config/config.hpp"
#include "config/grid.hpp"
#include "config/python_method.hpp"
#include "config/yaml_reader.hpp"  // yaml::clip for user text in messages
#include "core/error.hpp"
#include "core/files.hpp"
#include "loading/cost_model.hpp"
#include "loading/dataset_loading.hpp"
#include "run/runner.hpp"
#include "scaleout/array_task.hpp"
#include "scaleout/shard_plan.hpp"

namespace dpclust::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

// --shard: K/N, or auto (auto/N) to take K (and N) from a job array's variables, said on stdout.
void set_shard(const std::string& shard, RunOptions& ro) {
  if (const auto task = resolve_auto_shard(
          shard, [](const char* v) { return std::getenv(v); }, kMaxShards)) {
    ro.shard = task->shard;
    ro.shard_count = task->count;
    ro.shard_source = task->source;
    std::cout << "shard " << task->shard << "/" << task->count << " from " << task->scheduler << " (" << task->source
              << ")\n";
    return;
  }
  unsigned k = 0, n = 0;
  if (!parse_shard(shard, k, n))
    throw InputError("--shard",
                     "expected K/N with 1 <= K <= N <= " + std::to_string(kMaxShards) +
                         " (digits only), auto or auto/N, got '" + yaml::clip(shard, 40) + "'",
                     "e.g. --shard 2/4, or --shard auto in a job-array script");
  ro.shard = k;
  ro.shard_count = n;
}

// --skip-missing-data: a dataset that could not be fetched is said where the report will look
// (OUT/<experiment>/skipped.json). An experiment with none of its data is skipped; one with some runs
// on the datasets it has (its results cover those; skipped.json lists the others and how to fetch
// them), so that one missing file does not hide the reproductions of the others. Returns the configs
// that run, each with the datasets it has.
std::vector<ExperimentConfig> without_missing_data(std::vector<ExperimentConfig> cfgs, const fs::path& out) {
  std::vector<ExperimentConfig> runnable;
  for (ExperimentConfig& cfg : cfgs) {
    std::vector<std::string> missing;
    std::string reason, fix;
    std::vector<DatasetSpec> present;
    for (const auto& d : cfg.datasets) {
      try {
        check_dataset_available(d);
        present.push_back(d);
      } catch (const InputError& e) {
        missing.push_back(d.name);
        if (!reason.empty()) reason += "; ";
        reason += e.problem();
        if (fix.empty()) fix = e.fix();
      }
    }
    const fs::path skipped = out / cfg.name / "skipped.json";
    if (missing.empty()) {
      std::error_code ec;
      fs::remove(skipped, ec);
      runnable.push_back(std::move(cfg));
      continue;
    }
    const bool partial = !present.empty();
    write_file_atomic(skipped, nlohmann::json{{"experiment", cfg.name},
                                              {"config", cfg.file},
                                              {"partial", partial},
                                              {"datasets", missing},
                                              {"reason", reason},
                                              {"fix", fix},
                                              {"when", utc_now_iso8601()}}
                                       .dump(2) +
                                   "\n");
    if (!partial) {
      std::cout << cfg.name << ": skipped (" << reason << ")\n";
      continue;
    }
    std::string names;
    for (const auto& m : missing) names += (names.empty() ? "" : ", ") + m;
    std::cout << cfg.name << ": running without dataset(s) " << names << " (missing; see " << skipped.string() << ")\n";
    cfg.datasets = std::move(present);
    runnable.push_back(std::move(cfg));
  }
  return runnable;
}

// One experiment's run on stdout: the cells run, reused and skipped, and where its results are, or what
// is left to do.
void print_run_report(const ExperimentConfig& cfg, const RunReport& r, const RunOptions& ro) {
  const std::string shard_name = std::to_string(ro.shard) + "/" + std::to_string(ro.shard_count);
  if (r.up_to_date) {
    // Nothing was written: every cell is on disk (and results.json current when the grid is complete).
    if (r.complete)
      std::cout << cfg.name << ": nothing to do, results up to date (" << r.cells_total
                << " cells on disk)\n  results: " << r.results_file.string() << "\n";
    else
      std::cout << cfg.name << ": nothing to do for shard " << shard_name << " (" << r.cells_in_shard
                << " cells on disk; " << r.cells_present << " of " << r.cells_total
                << " in the grid)\n  join shards with `dpclust merge`\n";
    return;
  }
  std::cout << cfg.name << ": " << r.cells_run << " cells run (" << r.trials_run << " trials), " << r.cells_reused
            << " reused";
  if (r.cells_skipped > 0)
    std::cout << ", " << r.cells_skipped << " skipped (reasons in " << (r.experiment_dir / "skipped").string()
              << " and the report)";
  if (r.cells_from_concurrent_runs > 0)
    std::cout << " (" << r.cells_from_concurrent_runs << " computed by a concurrent run)";
  std::cout << ", " << std::fixed << std::setprecision(2) << r.wall_seconds << " s\n";
  if (r.complete) std::cout << "  results: " << r.results_file.string() << "\n";
  else if (ro.shard_count > 1)
    std::cout << "  shard " << shard_name << " done: cells in " << (r.experiment_dir / "cells").string() << " ("
              << r.cells_present << " of " << r.cells_total << " in the grid); join shards with `dpclust merge`\n";
  else
    std::cout << "  incomplete: " << r.cells_present << " of " << r.cells_total << " cells on disk in "
              << r.experiment_dir.string() << "; rerun to finish\n";
}

}  // namespace

int cmd_run(int argc, char** argv) {
  po::options_description opts("run options");
  std::vector<std::string> configs;
  std::string out = "results", shard = "1/1", shard_by = "cost";
  int threads = 0;
  opts.add_options()("config", po::value(&configs)->multitoken(), "experiment config files (YAML)")(
      "out,o", po::value(&out)->default_value("results"), "output directory")(
      "threads,t", po::value(&threads)->default_value(0), "worker threads (0 = all cores)")(
      "resume", "reuse cells already on disk (default)")("force", "recompute every cell")(
      "shard", po::value(&shard)->default_value("1/1"),
      "run only shard K of N: K/N, or auto (or auto/N) to take K (and N) from a job array's variables "
      "(Slurm, SGE, LSF, PBS, Torque; docs/slurm.md)")(
      "shard-costs", po::value<std::string>(),
      "measured cell times for the by-cost plan (the costs.json of `dpclust submit --timings`)")(
      "shard-by", po::value(&shard_by)->default_value("cost"),
      "how cells are dealt to shards: cost (balanced by estimated running time) or index (cell i to shard i % N + 1)")(
      "dry-run", "print the expanded cells and trial counts, run nothing")(
      "trials", po::value<std::int64_t>(), "override every config's trial count (e.g. a quick smoke run)")(
      "data-root", po::value<std::string>(),
      "directory of the papers' datasets (default: $DPCLUST_DATA_ROOT, ../shared/datasets if present, else "
      "~/.cache/dpclust/datasets)")("no-progress", "no progress output on stderr")(
      "skip-missing-data",
      "skip (instead of failing) a config whose data files are missing; record why in OUT/<experiment>/skipped.json "
      "for the report")(
      "keep-going",
      "run every cell that can run: a cell that cannot (before or during the run) is recorded with its reason and fix "
      "(OUT/<experiment>/skipped/, results.json's skipped_cells, the report); exit status 3 when any was skipped");
  add_limit_options(opts);
  po::positional_options_description pos;
  pos.add("config", -1);
  po::variables_map vm;
  if (!parse(argc, argv, "usage: dpclust run CONFIG... [options]", opts, &pos, vm)) return 0;
  if (configs.empty()) throw InputError("dpclust run", "no config given", "dpclust run configs/<name>.yaml");
  if (vm.count("resume") && vm.count("force"))
    throw InputError("dpclust run", "--resume and --force exclude each other");
  RunOptions ro;
  ro.out_dir = out;
  ro.threads = threads;
  ro.resume = !vm.count("force");
  ro.progress = !vm.count("no-progress");
  ro.keep_going = vm.count("keep-going") > 0;
  set_shard(shard, ro);
  const ShardBy by = parse_shard_by(shard_by, "--shard-by");
  if (threads < 0) throw InputError("--threads", "must be >= 0");
  const RunLimits limits = limits_from(vm, threads);
  ro.max_memory = limits.max_memory;
  ro.max_trial_seconds = limits.max_trial_seconds;
  const fs::path root = data_root_from(vm);

  std::size_t skipped_cells = 0;  // --keep-going
  // Validate every config before running any, so a typo in the third file costs nothing.
  std::vector<ExperimentConfig> cfgs = load_run_configs(
      configs, root, vm.count("trials") ? std::optional<std::int64_t>(vm["trials"].as<std::int64_t>()) : std::nullopt,
      limits, ro.keep_going);
  if (vm.count("skip-missing-data") && !vm.count("dry-run")) cfgs = without_missing_data(std::move(cfgs), out);
  // The shard plan over every config of this invocation together (shard_plan.hpp): each task of an array
  // computes it from the same arguments and gets the same plan.
  ShardPlan plan;
  if (ro.shard_count > 1) {
    ShardCosts costs;
    if (vm.count("shard-costs")) costs = read_shard_costs(vm["shard-costs"].as<std::string>());
    plan = plan_shards(cfgs, ro.shard_count, by, vm.count("shard-costs") ? &costs : nullptr);
    ro.shard_by = to_string(by);
    ro.shard_plan = plan.fingerprint;
  }
  for (std::size_t ci = 0; ci < cfgs.size(); ++ci) {
    const ExperimentConfig& cfg = cfgs[ci];
    if (ro.shard_count > 1) ro.cell_shard = plan.shard_of[ci];
    if (vm.count("dry-run")) {
      print_plan(cfg, expand_grid(cfg), ro, std::cout);
      continue;
    }
    const RunReport r = run_experiment(cfg, ro);
    skipped_cells += r.cells_skipped;
    print_run_report(cfg, r, ro);
  }
  // --keep-going: 3 says that the results are complete except for the skipped cells (kExitSkippedCells).
  return skipped_cells > 0 ? kExitSkippedCells : 0;
}

int cmd_validate(int argc, char** argv) {
  po::options_description opts("validate options");
  std::vector<std::string> configs;
  opts.add_options()("config", po::value(&configs)->multitoken(), "experiment config files")(
      "data-root", po::value<std::string>(), "directory of the papers' datasets")(
      "no-load-data",
      "do not read the data files: check only what the config says of each dataset (fast; misses file problems)")(
      "load-data",
      "(the default) read the data files and check every cell against the loaded data, its metrics and its memory")(
      "threads,t", po::value<int>()->default_value(0),
      "worker threads the run will use (0 = all cores): parallel trials multiply the memory estimate");
  add_limit_options(opts);
  po::positional_options_description pos;
  pos.add("config", -1);
  po::variables_map vm;
  if (!parse(argc, argv, "usage: dpclust validate CONFIG... [options]", opts, &pos, vm)) return 0;
  if (configs.empty()) throw InputError("dpclust validate", "no config given");
  const fs::path root = data_root_from(vm);
  if (vm["threads"].as<int>() < 0) throw InputError("--threads", "must be >= 0");
  const RunLimits limits = limits_from(vm, vm["threads"].as<int>());
  const bool load = !vm.count("no-load-data");
  // Every problem of every config in one pass: the config itself, then each dataset loaded and each cell
  // checked against it.
  ProblemList problems;
  for (const auto& c : configs) {
    std::optional<ExperimentConfig> cfg;
    try {
      cfg = load_config(c, root, limits.max_cells);
    } catch (const PythonMethodUnavailable&) {
      throw;  // handed to the Python package, as run does
    } catch (const InputError&) {
      problems.collect([&] { throw; });  // rethrown inside the handler: collect files it (InputErrors: each problem)
      continue;
    }
    cfg->max_cells = limits.max_cells;
    RunCost cost;
    Validation v;
    const std::size_t before = problems.size();
    problems.collect([&] { cost = check_run_cost(*cfg, limits, /*cells_may_be_skipped=*/load); });
    problems.collect([&] { v = validate_experiment(*cfg, load, limits); });
    if (problems.size() > before) continue;
    for (const auto& note : v.notes) std::cout << c << ": note: " << note << "\n";
    // The loaded sizes are private to a private method's cells (cost_model.hpp): then the estimate shown is
    // the one from the sizes the config declares.
    const bool loaded_public = load && !v.cost.private_sizes;
    std::cout << c << ": ok (" << cost.cells << " cells x " << cfg->trials << " trials; "
              << describe_cost(loaded_public ? v.cost : cost)
              << (load && !loaded_public
                      ? "; from the sizes the config declares: the rows read are private to its private methods"
                      : "")
              << ")\n";
  }
  problems.throw_if_any();
  return 0;
}

}  // namespace dpclust::cli
