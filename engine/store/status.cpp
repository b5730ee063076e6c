#include "store/status.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iomanip>
#include <map>
#include <ostream>

#include "core/error.hpp"
#include "store/results_store.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace dpclust {

namespace {

// Is `file` flock'ed by some process now? Opened read-only and never created, so that status changes
// nothing (a lock file that does not exist is held by nobody).
bool locked_by_someone(const fs::path& file) {
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool held = false;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) held = errno == EWOULDBLOCK;
  else ::flock(fd, LOCK_UN);
  ::close(fd);
  return held;
}

std::string str(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

ExperimentStatus status_of(const fs::path& dir) {
  ExperimentStatus st;
  st.name = dir.filename().string();
  st.dir = dir;
  if (fs::exists(dir / "skipped.json") && !fs::exists(dir / "manifest.json")) {
    st.skipped = true;
    try {
      std::ifstream in(dir / "skipped.json");
      st.skipped_reason = str(json::parse(in), "reason");
    } catch (const std::exception&) {
      st.skipped_reason = "(skipped.json is not readable JSON)";
    }
    return st;
  }
  const auto manifest = read_manifest(dir);  // InputError naming the file when damaged
  if (!manifest) return st;
  const json& m = *manifest;
  st.run_active = locked_by_someone(ExperimentLocks::active_file(dir));

  // Runs, in the order recorded: for each shard the latest record decides whether it still needs
  // attention (a later success of the same shard, or of the whole grid, clears an earlier failure).
  std::map<std::string, const json*> latest_by_shard;
  for (const auto& r : m["runs"]) {
    if (!r.is_object()) continue;
    ++st.runs;
    latest_by_shard[str(r, "shard")] = &r;
  }
  std::map<std::string, std::string> failed_ids;  // cell id -> "index (key)"
  for (const auto& [shard, r] : latest_by_shard) {
    std::string state = str(*r, "state");
    if (state.empty()) state = r->value("succeeded", true) ? "succeeded" : "failed";  // records before states
    if (state == "running") {
      // No process holds `.active`: whoever wrote this record is gone without finishing.
      if (st.run_active) continue;
      state = "interrupted";
    }
    if (state != "failed" && state != "interrupted") continue;
    ShardRunProblem p{shard, state, str(*r, "host"), str(*r, "scheduler_job"), str(*r, "started"), str(*r, "finished"),
                      "",    ""};
    if (const auto f = r->find("failed_cell"); f != r->end() && f->is_object()) {
      p.where = str(*f, "where");
      p.error = str(*f, "error");
      if (!str(*f, "id").empty()) failed_ids[str(*f, "id")] = p.where;
    }
    st.problems.push_back(std::move(p));
  }

  for (const auto& e : m["grid"]) {
    ++st.total;
    const std::string id = e["id"];
    if (check_cell(dir, id, e["fingerprint"]).state == CellCheck::State::valid) {
      ++st.done;
    } else if (locked_by_someone(ExperimentLocks::claim_file(dir, id))) {
      ++st.running;
    } else if (failed_ids.count(id)) {
      ++st.failed;
      st.failed_cells.push_back(failed_ids[id]);
    } else {
      ++st.pending;
    }
  }
  // A complete grid needs no attention, whatever happened on the way.
  if (st.complete()) st.problems.clear();
  st.results_current = st.complete() && results_current(dir);
  return st;
}

}  // namespace

std::vector<ExperimentStatus> collect_status(const fs::path& out, bool allow_none) {
  std::error_code ec;
  if (!fs::is_directory(out, ec))
    throw InputError(out.string(), "not a directory", "pass the --out directory of `dpclust run` (default: results)");
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(out, ec))
    if (entry.is_directory() &&
        (fs::exists(entry.path() / "manifest.json") || fs::exists(entry.path() / "skipped.json")))
      dirs.push_back(entry.path());
  if (ec) throw InputError(out.string(), "cannot list this directory (" + ec.message() + ")");
  if (dirs.empty() && !allow_none)
    throw InputError(out.string(), "no experiment output here (no <experiment>/manifest.json)",
                     "pass the --out directory of `dpclust run` (default: results)");
  std::sort(dirs.begin(), dirs.end());
  std::vector<ExperimentStatus> all;
  for (const auto& d : dirs) all.push_back(status_of(d));
  return all;
}

std::optional<SubmissionStatus> collect_submission(const fs::path& out) {
  const fs::path slurm = out / "slurm", file = slurm / "submit.json";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  json rec;
  try {
    std::ifstream in(file);
    rec = json::parse(in);
  } catch (const std::exception&) {
    throw InputError(file.string(), "not readable JSON",
                     "it is written by `dpclust submit`; submit again, or remove the file");
  }
  SubmissionStatus s;
  s.array_job = str(rec, "array_job");
  s.merge_job = str(rec, "merge_job");
  s.submitted = str(rec, "submitted");
  s.shard_plan = str(rec, "shard_plan");
  if (const auto t = rec.find("tasks"); t != rec.end() && t->is_number_unsigned()) s.tasks = t->get<std::size_t>();
  if (s.tasks == 0 || s.tasks > 100000)
    throw InputError(file.string() + " tasks", "missing or not a task count", "submit again");
  const std::string of_n = "/" + std::to_string(s.tasks);
  std::vector<bool> started(s.tasks + 1, false), failed(s.tasks + 1, false);
  std::vector<std::size_t> cells(s.tasks + 1, 0), done(s.tasks + 1, 0);
  // Slurm opens a task's log when the task starts: <array job>_<task>.out (a resubmission has its own job id).
  for (const auto& e : fs::directory_iterator(slurm / "logs", ec)) {
    const std::string f = e.path().filename().string();
    const auto us = f.find('_');
    if (us == std::string::npos || f.size() < 5 || f.compare(f.size() - 4, 4, ".out") != 0) continue;
    const std::string task = f.substr(us + 1, f.size() - 4 - us - 1);
    if (task.empty() || task.find_first_not_of("0123456789") != std::string::npos || task.size() > 6) continue;
    const std::size_t k = std::stoul(task);
    if (k >= 1 && k <= s.tasks) started[k] = true;
  }
  const auto plan = rec.find("plan");
  s.has_plan = plan != rec.end() && plan->is_array();
  for (const json& exp : s.has_plan ? *plan : json::array()) {
    if (!exp.is_object() || !exp.contains("cells") || !exp["cells"].is_object()) continue;
    const std::string name = str(exp, "experiment");
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") continue;
    const fs::path dir = out / name;
    std::optional<json> manifest;
    try {
      manifest = read_manifest(dir);
    } catch (const InputError&) {
      manifest.reset();  // a damaged manifest is reported by the experiment's own status
    }
    std::map<std::string, std::string> fingerprint;  // cell id -> fingerprint, of the grid on disk
    if (manifest) {
      for (const auto& e : (*manifest)["grid"])
        if (e.is_object() && e.contains("id") && e.contains("fingerprint") && e["id"].is_string() &&
            e["fingerprint"].is_string())
          fingerprint[e["id"].get<std::string>()] = e["fingerprint"].get<std::string>();
      // The latest record of each of this submission's shards: a run of it started; failed or interrupted.
      std::map<std::string, std::string> latest;
      for (const auto& r : (*manifest)["runs"])
        if (r.is_object()) latest[str(r, "shard")] = str(r, "state");
      const bool active = locked_by_someone(ExperimentLocks::active_file(dir));
      for (std::size_t k = 1; k <= s.tasks; ++k) {
        const auto it = latest.find(std::to_string(k) + of_n);
        if (it == latest.end()) continue;
        started[k] = true;
        failed[k] = failed[k] || it->second == "failed" || (it->second == "running" && !active);
      }
    }
    for (const auto& [id, shard] : exp["cells"].items()) {
      if (!shard.is_number_unsigned()) continue;
      const auto k = shard.get<std::size_t>();
      if (k < 1 || k > s.tasks) continue;
      ++cells[k];
      ++s.cells;
      const auto f = fingerprint.find(id);
      if (f != fingerprint.end() && check_cell(dir, id, f->second).state == CellCheck::State::valid) {
        ++done[k];
        ++s.cells_done;
        started[k] = true;
      }
    }
  }
  for (std::size_t k = 1; k <= s.tasks; ++k) {
    s.started += started[k];
    const bool finished = s.has_plan && cells[k] > 0 && done[k] == cells[k];
    s.finished += finished;
    s.failed += !finished && failed[k];
  }
  return s;
}

void print_submission(const SubmissionStatus& s, std::ostream& os) {
  os << "submitted: array job " << s.array_job << " (" << s.tasks << " task" << (s.tasks == 1 ? "" : "s") << ")";
  if (!s.submitted.empty()) os << " at " << s.submitted;
  if (!s.merge_job.empty()) os << ", merge job " << s.merge_job << " after every task succeeded";
  os << "\n  tasks: " << s.started << " of " << s.tasks << " started";
  if (s.has_plan) {
    const std::size_t running = s.started - std::min(s.started, s.finished + s.failed);
    os << ", " << s.finished << " finished, " << running << " running, " << s.failed
       << " failed; cells of the plan: " << s.cells_done << " of " << s.cells << " on disk";
  }
  os << "\n";
  if (s.started == 0)
    os << "  no task has started yet (queued: `squeue -j " << s.array_job
       << "` shows them); results appear here as tasks run\n";
}

json submission_to_json(const SubmissionStatus& s) {
  return {{"array_job", s.array_job},   {"merge_job", s.merge_job}, {"submitted", s.submitted},
          {"shard_plan", s.shard_plan}, {"tasks", s.tasks},         {"started", s.started},
          {"finished", s.finished},     {"failed", s.failed},       {"cells", s.cells},
          {"cells_done", s.cells_done}, {"has_plan", s.has_plan}};
}

void print_status(const fs::path& out, const std::vector<ExperimentStatus>& status, std::ostream& os) {
  std::size_t width = 10;
  for (const auto& s : status) width = std::max(width, s.name.size());
  std::size_t complete = 0, total = 0, done = 0, running = 0, failed = 0, pending = 0;
  os << std::left << std::setw(static_cast<int>(width)) << "experiment" << std::right << std::setw(8) << "cells"
     << std::setw(8) << "done" << std::setw(9) << "running" << std::setw(8) << "failed" << std::setw(9) << "pending"
     << "  state\n";
  for (const auto& s : status) {
    os << std::left << std::setw(static_cast<int>(width)) << s.name << std::right;
    if (s.skipped) {
      os << std::setw(8) << "-" << std::setw(8) << "-" << std::setw(9) << "-" << std::setw(8) << "-" << std::setw(9)
         << "-"
         << "  skipped: " << s.skipped_reason << "\n";
      continue;
    }
    total += s.total;
    done += s.done;
    running += s.running;
    failed += s.failed;
    pending += s.pending;
    complete += s.complete();
    os << std::setw(8) << s.total << std::setw(8) << s.done << std::setw(9) << s.running << std::setw(8) << s.failed
       << std::setw(9) << s.pending << "  "
       << (s.complete() ? (s.results_current ? "complete (results.json current)"
                                             : "complete; results.json not assembled: dpclust merge")
                        : (s.run_active ? "running" : "incomplete"))
       << "\n";
    for (const auto& p : s.problems) {
      os << "    shard " << p.shard << " " << p.state;
      if (!p.host.empty()) os << " on " << p.host;
      if (!p.job.empty()) os << " (job " << p.job << ")";
      if (!p.started.empty()) os << ", started " << p.started;
      if (p.state == "failed") os << ": " << p.where << ": " << p.error;
      else os << ": no run is active, but this one never finished (killed: time limit, memory, node failure?)";
      os << "\n";
    }
  }
  const std::size_t skipped = static_cast<std::size_t>(
      std::count_if(status.begin(), status.end(), [](const ExperimentStatus& s) { return s.skipped; }));
  os << "\n"
     << complete << " of " << status.size() - skipped << " experiments complete"
     << (skipped ? " (" + std::to_string(skipped) + " skipped for missing data)" : std::string()) << "; cells: " << done
     << " of " << total << " done, " << running << " running, " << failed << " failed, " << pending << " pending\n";
  if (failed + pending > 0 && running == 0)
    os << "Rerun what is missing (completed cells are kept): the same `dpclust run CONFIG... --out " << out.string()
       << "` (with the same --shard for one shard).\n";
}

json status_to_json(const std::vector<ExperimentStatus>& status) {
  json arr = json::array();
  for (const auto& s : status) {
    json problems = json::array();
    for (const auto& p : s.problems)
      problems.push_back({{"shard", p.shard},
                          {"state", p.state},
                          {"host", p.host},
                          {"job", p.job},
                          {"started", p.started},
                          {"where", p.where},
                          {"error", p.error}});
    arr.push_back({{"experiment", s.name},
                   {"skipped", s.skipped},
                   {"skipped_reason", s.skipped_reason},
                   {"cells", s.total},
                   {"done", s.done},
                   {"running", s.running},
                   {"failed", s.failed},
                   {"pending", s.pending},
                   {"complete", s.complete()},
                   {"results_current", s.results_current},
                   {"run_active", s.run_active},
                   {"problems", problems},
                   {"failed_cells", s.failed_cells}});
  }
  return {{"schema", "dpclust.status/1"}, {"experiments", arr}};
}

}  // namespace dpclust
