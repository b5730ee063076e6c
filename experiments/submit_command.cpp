// `dpclust submit` and `dpclust status`: a sweep as a Slurm job array merged automatically, and how far
// it is. The rules live in engine/scaleout (shard_plan, array_task, sbatch_script) and engine/store (status); this file
// parses options, prints, and runs sbatch.
#include "submit_command.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "cli_support.hpp"
#include "config/grid.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/rng.hpp"
#include "loading/dataset_loading.hpp"
#include "scaleout/sbatch_script.hpp"
#include "scaleout/shard_plan.hpp"
#include "store/status.hpp"

namespace dpclust::cli {
namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Captured {
  int exit_code = -1;
  std::string out, err;
};

// Runs a program (no shell: arguments are passed as they are) and captures its output.
Captured run_program(const std::vector<std::string>& args) {
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "cannot run %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  Captured c;
  // Read both pipes to the end (sbatch writes little; reading stdout first cannot block on a full stderr).
  auto drain = [](int fd, std::string& into) {
    char buf[4096];
    ssize_t got;
    while ((got = ::read(fd, buf, sizeof buf)) > 0 || (got < 0 && errno == EINTR))
      if (got > 0) into.append(buf, static_cast<std::size_t>(got));
    ::close(fd);
  };
  drain(out_pipe[0], c.out);
  drain(err_pipe[0], c.err);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  c.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return c;
}

// sbatch --parsable prints "jobid" or "jobid;cluster".
std::string submit_script(const std::string& sbatch, const std::vector<std::string>& extra, const fs::path& script) {
  std::vector<std::string> args{sbatch, "--parsable"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(script.string());
  const Captured c = run_program(args);
  std::string id = c.out.substr(0, c.out.find_first_of(";\n"));
  const bool numeric = !id.empty() && id.find_first_not_of("0123456789") == std::string::npos;
  if (c.exit_code != 0 || !numeric)
    throw InputError(
        script.string(),
        "sbatch failed (exit " + std::to_string(c.exit_code) + "): " + (c.err.empty() ? c.out : c.err).substr(0, 600),
        "check the options (--partition, --account, --time) with your cluster's documentation, or pass --dry-run and "
        "submit the script yourself");
  return id;
}

std::string seconds_text(double s) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(s < 10 ? 2 : s < 100 ? 1 : 0) << s << " s";
  return o.str();
}

std::string ratio_text(double r) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(2) << r << "x";
  return o.str();
}

std::vector<double> flatten(const std::vector<std::vector<double>>& v) {
  std::vector<double> all;
  for (const auto& x : v) all.insert(all.end(), x.begin(), x.end());
  return all;
}
std::vector<std::uint32_t> flatten(const std::vector<std::vector<std::uint32_t>>& v) {
  std::vector<std::uint32_t> all;
  for (const auto& x : v) all.insert(all.end(), x.begin(), x.end());
  return all;
}

// The options of `dpclust submit` as given.
struct SubmitArgs {
  std::vector<std::string> configs, sbatch_options;
  std::string scheduler, out = "results", time, merge_time = "00:30:00", partition, account, mem, job_name,
                         shard_by = "cost", sbatch = "sbatch", timings;
  std::size_t tasks = 0;
  int cpus = 1;
};

void add_submit_options(po::options_description& opts, SubmitArgs& s) {
  opts.add_options()("config", po::value(&s.configs)->multitoken(), "experiment config files (YAML)")(
      "scheduler", po::value(&s.scheduler)->required(), "the batch system: slurm")(
      "tasks,n", po::value(&s.tasks),
      "array tasks = shards (default: the most, up to 32, that keep the estimated slowest shard within 1.5x the mean)")(
      "out,o", po::value(&s.out)->default_value("results"), "output directory, on a filesystem every node sees")(
      "time", po::value(&s.time), "each task's time limit (Slurm format: minutes, HH:MM:SS, D-HH:MM:SS)")(
      "merge-time", po::value(&s.merge_time)->default_value("00:30:00"), "the merge job's time limit")(
      "partition", po::value(&s.partition), "Slurm partition")("account", po::value(&s.account), "Slurm account")(
      "mem", po::value(&s.mem), "memory per task (Slurm format, e.g. 8G)")(
      "cpus-per-task", po::value(&s.cpus)->default_value(1),
      "cores per task; the task runs that many trials in parallel")("job-name", po::value(&s.job_name),
                                                                    "job name (default: dpclust-<first experiment>)")(
      "sbatch-option", po::value(&s.sbatch_options)->multitoken(),
      "a further #SBATCH line, e.g. --sbatch-option=--qos=long (repeatable)")(
      "shard-by", po::value(&s.shard_by)->default_value("cost"), "cost (balanced by estimated running time) or index")(
      "trials", po::value<std::int64_t>(), "override every config's trial count")(
      "data-root", po::value<std::string>(), "directory of the papers' datasets, as the nodes see it")(
      "skip-missing-data", "tasks skip (and record) configs whose data files are missing instead of failing")(
      "timings", po::value(&s.timings),
      "plan by the cell times measured in this earlier results directory (snapshot in OUT/slurm/costs.json)")(
      "sbatch", po::value(&s.sbatch)->default_value("sbatch"), "the sbatch program")(
      "dry-run", "print the plan and the scripts; write and submit nothing");
  add_limit_options(opts);
}

void check_submit_args(const SubmitArgs& s, const po::variables_map& vm) {
  if (s.configs.empty())
    throw InputError("dpclust submit", "no config given", "dpclust submit configs/<name>.yaml --scheduler slurm");
  if (s.scheduler != "slurm")
    throw InputError(
        "--scheduler", "'" + s.scheduler.substr(0, 40) + "' is not supported (only slurm writes and submits scripts)",
        "for SGE, LSF, PBS or Torque, write an array job that runs `dpclust run CONFIG... --out DIR --shard auto/N` "
        "(docs/slurm.md), then `dpclust merge DIR --out DIR`");
  if (vm.count("tasks") && (s.tasks < 1 || s.tasks > kMaxShards))
    throw InputError("--tasks", "must be between 1 and " + std::to_string(kMaxShards));
  if (s.cpus < 1 || s.cpus > 4096) throw InputError("--cpus-per-task", "must be between 1 and 4096");
}

// Every dataset of every config must be present before a script is written or sent (the check `run`
// makes, loading/dataset_loading.hpp): otherwise each task fails on its node after its wait in the
// queue. All missing datasets at once, each with its fix (the fetch command of a registered one).
void require_datasets(const std::vector<ExperimentConfig>& cfgs) {
  std::vector<std::string> missing;
  std::set<std::string> configs_missing;
  for (const ExperimentConfig& cfg : cfgs)
    for (const DatasetSpec& d : cfg.datasets) {
      try {
        check_dataset_available(d);
      } catch (const InputError& e) {
        missing.push_back(e.where() + ": " + e.problem() + (e.fix().empty() ? "" : "\n      fix: " + e.fix()));
        configs_missing.insert(cfg.file.string());
      }
    }
  if (missing.empty()) return;
  std::string list, files;
  for (const auto& m : missing) list += "\n  - " + m;
  for (const auto& f : configs_missing) files += " " + f;
  throw InputError(
      "dpclust submit",
      std::to_string(missing.size()) + " dataset" + (missing.size() == 1 ? " is" : "s are") +
          " missing, so the array tasks would fail on their nodes; nothing was written or submitted:" + list,
      "fetch them (`dpclust data fetch --for" + files +
          "` gets every registered one), or pass --skip-missing-data to "
          "let the tasks skip (and record) the experiments whose data is missing");
}

// Cell times measured by an earlier run (--timings), which the plan follows, and how many cells they cover.
struct MeasuredTimes {
  ShardCosts costs;
  std::size_t cells = 0;
};

std::optional<MeasuredTimes> measured_times(const std::string& timings, const std::vector<ExperimentConfig>& cfgs) {
  if (timings.empty()) return std::nullopt;
  if (!fs::is_directory(timings))
    throw InputError("--timings", "'" + timings + "' is not a directory", "pass the --out directory of an earlier run");
  MeasuredTimes m;
  m.costs = measure_shard_costs(timings, cfgs);
  for (const auto& [exp, cells] : m.costs) m.cells += cells.size();
  return m;
}

// The plan on stdout: its cells and shards, its estimated balance beside dealing by index (and by the cost
// model alone, under measured times), its largest cell, and a note when that cell alone unbalances it.
void print_plan_balance(const std::vector<ExperimentConfig>& cfgs, const ShardPlan& plan, std::size_t tasks, ShardBy by,
                        const std::vector<double>& seconds, const std::optional<MeasuredTimes>& measured,
                        const std::string& timings) {
  const ShardCosts* costs = measured ? &measured->costs : nullptr;
  const ShardBalance chosen = shard_balance(seconds, flatten(plan.shard_of), tasks);
  const ShardBalance index = shard_balance(seconds, flatten(plan_shards(cfgs, tasks, ShardBy::index).shard_of), tasks);
  const ShardBalance model = shard_balance(seconds, flatten(plan_shards(cfgs, tasks, ShardBy::cost).shard_of), tasks);
  std::cout << "plan: " << seconds.size() << " cells of " << cfgs.size() << " experiment"
            << (cfgs.size() == 1 ? "" : "s") << " in " << tasks << " shard" << (tasks == 1 ? "" : "s") << " (by "
            << to_string(by) << (costs ? ", measured times" : "") << ", plan " << plan.fingerprint << ")\n";
  if (costs)
    std::cout << "  cell times: " << measured->cells << " of " << seconds.size() << " measured in " << timings
              << " (the rest estimated); under them, slowest shard / mean:\n"
              << "    this plan " << seconds_text(chosen.slowest) << " / " << seconds_text(chosen.mean) << " = "
              << ratio_text(chosen.ratio()) << "; by the cost model alone " << ratio_text(model.ratio())
              << "; by index " << ratio_text(index.ratio()) << "\n";
  else
    std::cout << "  estimated: slowest shard " << seconds_text(chosen.slowest) << ", mean " << seconds_text(chosen.mean)
              << " (" << ratio_text(chosen.ratio()) << "); by index " << ratio_text(index.ratio()) << "\n";
  std::cout << "  largest cell " << seconds_text(chosen.largest_cell) << "\n";
  if (tasks > 1 && chosen.largest_cell > 1.5 * chosen.mean)
    std::cout << "  note: the largest cell alone is " << ratio_text(chosen.largest_cell / chosen.mean)
              << " the mean shard (a cell is never split); " << suggest_task_count(seconds, tasks, 1.5)
              << " tasks would keep the slowest within 1.5x\n";
}

// What the two scripts say: this binary and folder, the configs, the shards, the Slurm options, and the
// `dpclust run` arguments every task repeats (trials, data root, limits, measured costs).
SbatchOptions sbatch_options(const SubmitArgs& s, const po::variables_map& vm,
                             const std::vector<ExperimentConfig>& cfgs, std::size_t tasks, ShardBy by,
                             const fs::path& root, const std::optional<std::int64_t>& trials, bool measured) {
  SbatchOptions so;
  so.dpclust = fs::canonical("/proc/self/exe").string();
  so.workdir = fs::current_path().string();
  so.configs = s.configs;
  so.out = fs::absolute(s.out).lexically_normal().string();
  while (so.out.size() > 1 && so.out.back() == '/') so.out.pop_back();
  so.tasks = tasks;
  so.shard_by = to_string(by);
  so.cpus_per_task = s.cpus;
  so.time = s.time;
  so.merge_time = s.merge_time;
  so.partition = s.partition;
  so.account = s.account;
  so.mem = s.mem;
  so.job_name = s.job_name.empty() ? "dpclust-" + cfgs.front().name : s.job_name;
  so.extra_sbatch = s.sbatch_options;
  so.version = "dpclust " + build_info().version + ", git " + build_info().git_commit.substr(0, 12);
  if (trials) so.run_args.insert(so.run_args.end(), {"--trials", std::to_string(*trials)});
  if (vm.count("data-root")) so.run_args.insert(so.run_args.end(), {"--data-root", fs::absolute(root).string()});
  if (vm.count("skip-missing-data")) so.run_args.push_back("--skip-missing-data");
  for (const char* limit : {"max-cells", "max-memory", "max-work"})
    if (vm.count(limit))
      so.run_args.insert(so.run_args.end(), {std::string("--") + limit, vm[limit].as<std::string>()});
  if (measured)
    so.run_args.insert(so.run_args.end(), {"--shard-costs", (fs::path(slurm_dir(so.out)) / "costs.json").string()});
  return so;
}

// The record of a submission (OUT/slurm/submit.json) as `dpclust status` reads it: the jobs, and which
// shard (array task) computes each cell, so that status can say how many tasks have started and finished
// before any of them has written a result.
json submit_record(const SubmitArgs& s, const SbatchOptions& so, const std::vector<ExperimentConfig>& cfgs,
                   const ShardPlan& plan, const std::string& array_job, const std::string& merge_job) {
  json planned = json::array();
  for (std::size_t ci = 0; ci < cfgs.size(); ++ci) {
    const std::vector<Cell> cells = expand_grid(cfgs[ci]);
    json shard_of = json::object();
    for (std::size_t i = 0; i < cells.size() && i < plan.shard_of[ci].size(); ++i)
      shard_of[cells[i].id] = plan.shard_of[ci][i];
    planned.push_back({{"experiment", cfgs[ci].name}, {"cells", std::move(shard_of)}});
  }
  return json{{"schema", "dpclust.submit/1"},   {"scheduler", "slurm"},  {"array_job", array_job},
              {"merge_job", merge_job},         {"tasks", so.tasks},     {"shard_by", so.shard_by},
              {"shard_plan", plan.fingerprint}, {"configs", s.configs},  {"workdir", so.workdir},
              {"submitted", utc_now_iso8601()}, {"dpclust", so.version}, {"plan", std::move(planned)}};
}

}  // namespace

int cmd_submit(int argc, char** argv) {
  po::options_description opts("submit options");
  SubmitArgs s;
  add_submit_options(opts, s);
  po::positional_options_description pos;
  pos.add("config", -1);
  po::variables_map vm;
  if (!parse(argc, argv,
             "usage: dpclust submit CONFIG... --scheduler slurm [--tasks N] [--time T] [--partition P] [--account A] "
             "[--dry-run]",
             opts, &pos, vm))
    return 0;
  check_submit_args(s, vm);
  const ShardBy by = parse_shard_by(s.shard_by, "--shard-by");
  const fs::path root = data_root_from(vm);
  const std::optional<std::int64_t> trials =
      vm.count("trials") ? std::optional<std::int64_t>(vm["trials"].as<std::int64_t>()) : std::nullopt;
  const std::vector<ExperimentConfig> cfgs = load_run_configs(s.configs, root, trials, limits_from(vm, s.cpus));
  // --skip-missing-data lets the tasks skip (and record) the missing datasets instead.
  if (!vm.count("skip-missing-data")) require_datasets(cfgs);

  // The plan the tasks will compute (by measured times when given), and the default task count.
  const std::optional<MeasuredTimes> measured = measured_times(s.timings, cfgs);
  const ShardCosts* costs = measured ? &measured->costs : nullptr;
  const std::vector<double> seconds = flatten(plan_shards(cfgs, 1, by, costs).seconds);
  std::size_t tasks = vm.count("tasks") ? s.tasks : suggest_task_count(seconds, 32, 1.5);
  tasks = std::min(tasks, std::max<std::size_t>(seconds.size(), 1));
  const ShardPlan plan = plan_shards(cfgs, tasks, by, costs);
  print_plan_balance(cfgs, plan, tasks, by, seconds, measured, s.timings);

  const SbatchOptions so = sbatch_options(s, vm, cfgs, tasks, by, root, trials, measured.has_value());
  const fs::path dir = slurm_dir(so.out);
  const std::string array_text = array_script(so), merge_text = merge_script(so);
  std::cout << "\n== " << (dir / "array.sbatch").string() << "\n"
            << array_text << "\n== " << (dir / "merge.sbatch").string() << "\n"
            << merge_text;
  if (vm.count("dry-run")) {
    std::cout << "\n(dry run: nothing written or submitted)\n";
    return 0;
  }

  std::error_code ec;
  fs::create_directories(dir / "logs", ec);
  if (ec)
    throw InputError(dir.string(), "cannot create the directory for the job scripts (" + ec.message() + ")",
                     "choose another --out");
  if (measured) write_file_atomic(dir / "costs.json", shard_costs_json(measured->costs));
  write_file_atomic(dir / "array.sbatch", array_text);
  write_file_atomic(dir / "merge.sbatch", merge_text);
  for (const char* f : {"array.sbatch", "merge.sbatch"}) ::chmod((dir / f).c_str(), 0755);
  const std::string array_job = submit_script(s.sbatch, {}, dir / "array.sbatch");
  const std::string merge_job =
      submit_script(s.sbatch, {"--dependency=afterok:" + array_job, "--kill-on-invalid-dep=yes"}, dir / "merge.sbatch");
  write_file_atomic(dir / "submit.json", submit_record(s, so, cfgs, plan, array_job, merge_job).dump(2) + "\n");
  std::cout << "\nsubmitted: array job " << array_job << " (" << tasks << " tasks), merge job " << merge_job
            << " (after every task succeeded)\n"
            << "  logs: " << (dir / "logs").string() << "\n  progress: dpclust status " << so.out << "\n";
  return 0;
}

int cmd_status(int argc, char** argv) {
  po::options_description opts("status options");
  std::string out;
  opts.add_options()("out", po::value(&out), "results directory (the --out of `dpclust run` / `submit`)")(
      "json", "machine-readable output (schema dpclust.status/1)")(
      "fail-if-incomplete", "exit 1 when some experiment that was not skipped is incomplete (for a merge job)");
  po::positional_options_description pos;
  pos.add("out", 1);
  po::variables_map vm;
  if (!parse(argc, argv, "usage: dpclust status OUT_DIR [--json] [--fail-if-incomplete]", opts, &pos, vm)) return 0;
  if (out.empty()) throw InputError("dpclust status", "no results directory given", "dpclust status results");
  // A directory `dpclust submit` wrote into: its array's tasks, even before any has written a result.
  const std::optional<SubmissionStatus> submission = fs::is_directory(out) ? collect_submission(out) : std::nullopt;
  const std::vector<ExperimentStatus> status = collect_status(out, submission.has_value());
  bool incomplete = submission && status.empty();
  std::set<std::string> shards_to_rerun;
  std::size_t shard_count = 0;
  for (const auto& s : status) {
    incomplete |= !s.skipped && !s.complete();
    for (const auto& p : s.problems) {
      const auto slash = p.shard.find('/');
      if (slash == std::string::npos) continue;
      shards_to_rerun.insert(p.shard.substr(0, slash));
      shard_count = std::strtoull(p.shard.c_str() + slash + 1, nullptr, 10);
    }
  }
  if (vm.count("json")) {
    json j = status_to_json(status);
    if (submission) j["submission"] = submission_to_json(*submission);
    std::cout << j.dump(2) << "\n";
  } else {
    if (submission) {
      print_submission(*submission, std::cout);
      if (!status.empty()) std::cout << "\n";
    }
    if (!status.empty()) print_status(out, status, std::cout);
    // Submitted with `dpclust submit`: the command that reruns exactly the failed or interrupted tasks.
    const fs::path slurm = fs::path(slurm_dir(fs::absolute(out).lexically_normal().string()));
    if (!shards_to_rerun.empty() && fs::exists(slurm / "array.sbatch")) {
      std::string list;
      for (const auto& k : shards_to_rerun) list += (list.empty() ? "" : ",") + k;
      std::cout << "Resubmit the " << shards_to_rerun.size() << " failed or interrupted task"
                << (shards_to_rerun.size() == 1 ? "" : "s") << " of " << shard_count << " (shard"
                << (shards_to_rerun.size() == 1 ? " " : "s ") << list << ") and the merge after them:\n"
                << "  j=$(sbatch --parsable --array=" << list << " " << (slurm / "array.sbatch").string()
                << ") && sbatch --dependency=afterok:$j --kill-on-invalid-dep=yes " << (slurm / "merge.sbatch").string()
                << "\n";
    }
  }
  return vm.count("fail-if-incomplete") && incomplete ? 1 : 0;
}

}  // namespace dpclust::cli
