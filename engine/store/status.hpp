#pragma once
// `dpclust status OUT`: how far every experiment under a results directory is, across the shards and
// runs that wrote into it -- cells done, running now, failed and pending, and which shard runs failed or
// were interrupted (a task killed by the scheduler leaves its "running" record in the manifest with no
// process behind it). Reads only: it creates no file and takes no lock, so it works on a read-only copy
// and while runs are writing.
#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dpclust {

struct ShardRunProblem {
  std::string shard;  // "3/8"
  std::string state;  // "failed" or "interrupted"
  std::string host, job, started, finished;
  std::string where, error;  // failed: the cell and trial, and the engine's message
};

struct ExperimentStatus {
  std::string name;
  std::filesystem::path dir;
  std::size_t total = 0, done = 0, running = 0, failed = 0, pending = 0;
  bool results_current = false;
  bool skipped = false;  // skipped.json: the data was missing (run --skip-missing-data)
  std::string skipped_reason;
  bool run_active = false;                // some run holds `.active` now
  std::size_t runs = 0;                   // finished or running records in the manifest
  std::vector<ShardRunProblem> problems;  // latest failed/interrupted run of each shard not since succeeded
  std::vector<std::string> failed_cells;  // "17 (dataset=..|method=..)" of the failed runs, not yet done
  bool complete() const { return total > 0 && done == total; }
};

// An array submitted by `dpclust submit` (OUT/slurm/submit.json), and how far its tasks are, before and
// while they write results (status right after submit reads the plan, not "no experiment output here").
// A task has started when Slurm opened its log (slurm/logs/<job>_<task>.out), a run of its shard is in
// a manifest, or one of its cells is on disk; it has finished when every cell the plan gives it is on
// disk (the plan of submit.json: cell id -> shard), and failed when its latest run failed or was
// interrupted with cells still missing. Submissions without a plan count started tasks only.
struct SubmissionStatus {
  std::string array_job, merge_job, submitted, shard_plan;
  std::size_t tasks = 0;
  std::size_t started = 0, finished = 0, failed = 0;
  std::size_t cells = 0, cells_done = 0;  // of the plan (0 without one)
  bool has_plan = false;
};
// Empty when `out` has no slurm/submit.json; InputError naming the file when it is damaged.
std::optional<SubmissionStatus> collect_submission(const std::filesystem::path& out);
void print_submission(const SubmissionStatus& s, std::ostream& os);
nlohmann::json submission_to_json(const SubmissionStatus& s);

// Every experiment directory directly under `out` (a manifest.json or skipped.json), in name order.
// InputError when `out` is not a directory, or holds none and `allow_none` is false (set it when a
// submission was found: its tasks have not written anything yet).
std::vector<ExperimentStatus> collect_status(const std::filesystem::path& out, bool allow_none = false);
void print_status(const std::filesystem::path& out, const std::vector<ExperimentStatus>& status, std::ostream& os);
nlohmann::json status_to_json(const std::vector<ExperimentStatus>& status);

}  // namespace dpclust
