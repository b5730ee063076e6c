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
#include <string>
#include <vector>

namespace dpclust {

struct ShardRunProblem {
  std::string shard;     // "3/8"
  std::string state;     // "failed" or "interrupted"
  std::string host, job, started, finished;
  std::string where, error;  // failed: the cell and trial, and the engine's message
};

struct ExperimentStatus {
  std::string name;
  std::filesystem::path dir;
  std::size_t total = 0, done = 0, running = 0, failed = 0, pending = 0;
  bool results_current = false;
  bool skipped = false;         // skipped.json: the data was missing (run --skip-missing-data)
  std::string skipped_reason;
  bool run_active = false;      // some run holds `.active` now
  std::size_t runs = 0;         // finished or running records in the manifest
  std::vector<ShardRunProblem> problems;  // latest failed/interrupted run of each shard not since succeeded
  std::vector<std::string> failed_cells;  // "17 (dataset=..|method=..)" of the failed runs, not yet done
  bool complete() const { return total > 0 && done == total; }
};

// Every experiment directory directly under `out` (a manifest.json or skipped.json), in name order.
// InputError when `out` is not a directory or holds none.
std::vector<ExperimentStatus> collect_status(const std::filesystem::path& out);
void print_status(const std::filesystem::path& out, const std::vector<ExperimentStatus>& status, std::ostream& os);
nlohmann::json status_to_json(const std::vector<ExperimentStatus>& status);

}  // namespace dpclust
