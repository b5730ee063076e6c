// A run's record in the experiment directory; see run_session.hpp.
#include "run/run_session.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "core/error.hpp"
#include "core/files.hpp"
#include "store/results_store.hpp"

namespace dpclust {
namespace fs = std::filesystem;
using json = nlohmann::json;

RunSession::RunSession(const ExperimentConfig& cfg, const RunOptions& opts, const fs::path& exp_dir,
                       const json& planned, std::size_t pending_cells, const std::string& started)
    : opts_(opts), exp_dir_(exp_dir), started_(started), planned_(planned) {
  const std::string config_path = fs::weakly_canonical(fs::absolute(cfg.file)).string();
  const std::string work_needed =
      pending_cells == 0 ? "results.json needs assembling" : std::to_string(pending_cells) + " cells need computing";
  std::error_code ec;
  fs::create_directories(exp_dir / "cells", ec);
  if (ec)
    throw InputError(exp_dir.string(), "cannot create the results directory (" + ec.message() + "); " + work_needed,
                     "make it writable, or write the results somewhere else with --out");
  // A read-only directory (its lock files may already exist and open fine): say so before any work,
  // rather than after computing cells that cannot be written.
  for (const fs::path& d : {exp_dir, exp_dir / "cells"})
    if (::access(d.c_str(), W_OK) != 0 && (errno == EACCES || errno == EROFS || errno == EPERM))
      throw InputError(
          d.string(),
          std::string("cannot write to this results directory (") + std::strerror(errno) + "); " + work_needed,
          "make it writable (chmod -R u+w " + exp_dir.string() + "), or write the results somewhere else with --out");
  // The identity of this run in the manifest's `runs` (record()).
  run_id_ = build_info().host + ":" + std::to_string(::getpid()) + ":" + started;
  {
    FileLock lock;
    try {
      lock = FileLock::acquire(ExperimentLocks::lock_file(exp_dir), /*exclusive=*/true, /*wait=*/true);
    } catch (const InputError& e) {
      throw InputError(e.where(), e.problem() + "; " + work_needed, e.fix());
    }
    const bool others_active = ExperimentLocks::other_run_active(exp_dir);
    const auto old = read_manifest(exp_dir);
    if (old && !same_work(*old, planned)) {
      // Two different config files with the same experiment name would overwrite each other's results.
      if ((*old)["config_crc32"] != planned["config_crc32"] && old->contains("config_path") &&
          (*old)["config_path"] != config_path)
        throw InputError(cfg.file.string(),
                         "experiment '" + cfg.name + "' in " + exp_dir.string() +
                             " holds the results of another config (" + (*old)["config_path"].get<std::string>() +
                             (others_active ? ", running now" : "") + "), not of " + config_path,
                         "give this experiment another name (experiment: in " + cfg.file.string() +
                             "), or use another --out directory");
      // The same file edited (or another --trials) is a legitimate rerun, but not while a run of the
      // old version is still writing cells here.
      if (others_active)
        throw InputError(cfg.file.string(),
                         "a run of another version of this config (" +
                             old->value("config_path", (*old)["config_file"].get<std::string>()) + ", crc32 " +
                             (*old)["config_crc32"].get<std::string>() + ") is writing experiment '" + cfg.name +
                             "' in " + exp_dir.string() + " now",
                         "wait for it to finish, or use another --out directory");
    }
    if (old && same_work(*old, planned)) {
      manifest_ = *old;  // a resume, or a concurrent run of the same config: keep its records
    } else {
      manifest_ = planned;
      manifest_["config_path"] = config_path;
      // Keep the run history of the same config text (resumes, shards in the same directory).
      if (old && (*old)["config_crc32"] == planned["config_crc32"]) manifest_["runs"] = (*old)["runs"];
    }
    // This run's record, "running" until it finishes (then replaced below): a task killed by the
    // scheduler (time limit, memory, node failure) leaves it, so `dpclust status` can name the shard
    // that did not finish instead of showing only missing cells.
    manifest_["runs"].push_back(record("running"));
    write_file_atomic(exp_dir / "manifest.json", manifest_.dump(1) + "\n");
    // Temp files of killed writers. With no other run active every one is stale; otherwise only those
    // whose process is gone (a live run's temp file is a cell being written).
    remove_stale_temp_files(exp_dir, !others_active);
    remove_stale_temp_files(exp_dir / "cells", !others_active);
    active_ = FileLock::acquire(ExperimentLocks::active_file(exp_dir), /*exclusive=*/false, /*wait=*/true);
  }
}

json RunSession::record(const std::string& state) const {
  const RunOptions& opts = opts_;
  {
    json r{{"run_id", run_id_},
           {"state", state},
           {"started", started_},
           {"shard", std::to_string(opts.shard) + "/" + std::to_string(opts.shard_count)},
           {"shard_by", opts.shard_by},
           {"host", build_info().host},
           {"git_commit", build_info().git_commit},
           {"build_type", build_info().build_type},
           {"compiler", build_info().compiler}};
    if (!opts.shard_plan.empty()) r["shard_plan"] = opts.shard_plan;
    if (!opts.shard_source.empty()) r["shard_source"] = opts.shard_source;
    // Slurm's name for an array task, 1234_3 (what squeue, sacct and scancel take), else the job id.
    const char* array_job = std::getenv("SLURM_ARRAY_JOB_ID");
    const char* array_task = std::getenv("SLURM_ARRAY_TASK_ID");
    if (array_job && array_task) r["scheduler_job"] = (std::string(array_job) + "_" + array_task).substr(0, 40);
    else if (const char* job = std::getenv("SLURM_JOB_ID")) r["scheduler_job"] = std::string(job).substr(0, 40);
    return r;
  }
}

bool RunSession::close(const json& final_record, bool assemble, std::exception_ptr& finish_error) {
  const fs::path& exp_dir = exp_dir_;
  const json& planned = planned_;
  bool complete = false;
  try {
    FileLock lock = FileLock::acquire(ExperimentLocks::lock_file(exp_dir), /*exclusive=*/true, /*wait=*/true);
    try {
      auto on_disk = read_manifest(exp_dir);
      if (!on_disk || same_work(*on_disk, planned)) {
        json m = on_disk ? std::move(*on_disk) : manifest_;
        // Replace this run's "running" record by the final one.
        json runs = json::array();
        for (auto& r : m["runs"])
          if (!(r.is_object() && r.value("run_id", "") == run_id_)) runs.push_back(std::move(r));
        runs.push_back(final_record);
        m["runs"] = std::move(runs);
        write_file_atomic(exp_dir / "manifest.json", m.dump(1) + "\n");
        if (assemble) complete = assemble_results(exp_dir);
      } else {
        std::cerr << "warning: " << (exp_dir / "manifest.json").string()
                  << " was replaced during this run by another config's; this run's record is not added\n";
      }
    } catch (...) {
      finish_error = std::current_exception();  // e.g. the disk is full: still clean up below
    }
    // The last run out removes the claim files; nobody else can be using them (starting takes `.lock`).
    active_.release();
    if (!ExperimentLocks::other_run_active(exp_dir)) {
      std::error_code ec;
      fs::remove_all(exp_dir / ".claims", ec);
    }
  } catch (...) {
    if (!finish_error) finish_error = std::current_exception();
  }
  return complete;
}

}  // namespace dpclust
