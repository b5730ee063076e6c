#pragma once
// A run's record in its experiment directory (the store's layout: store/results_store.hpp). Opening it
// is the moment the run first touches the output: under `.lock` it creates and checks the directory,
// refuses another config's experiment of the same name or a concurrent run of another version, writes
// the manifest with this run's "running" record (a task the scheduler kills leaves it, so `dpclust
// status` names the shard that did not finish), removes stale temp files and joins the active runs.
// Closing replaces the record by the final one and assembles results.json when the grid is complete;
// the last run out removes the claim files.
#include <cstddef>
#include <exception>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "config/config.hpp"
#include "run/runner.hpp"
#include "store/results_store.hpp"

namespace dpclust {

class RunSession {
 public:
  // `planned`: the manifest this run's cells need (build_manifest); `pending_cells`: how many it will
  // compute (for messages); `started`: its start time, part of its id. Throws InputError (nothing
  // written) when the directory cannot be written or belongs to another config.
  RunSession(const ExperimentConfig& cfg, const RunOptions& opts, const std::filesystem::path& exp_dir,
             const nlohmann::json& planned, std::size_t pending_cells, const std::string& started);

  // This run's entry in the manifest's `runs` at `state` (running, succeeded, failed).
  nlohmann::json record(const std::string& state) const;

  // Records `final_record` in place of the "running" one and, when `assemble`, assembles results.json.
  // Returns whether results.json is complete. An error here (a full disk) is stored in finish_error, not
  // thrown, so that the caller can report the cells' own error first; the locks are released either way.
  bool close(const nlohmann::json& final_record, bool assemble, std::exception_ptr& finish_error);

 private:
  const RunOptions& opts_;
  std::filesystem::path exp_dir_;
  std::string started_, run_id_;
  nlohmann::json planned_, manifest_;
  FileLock active_;  // shared lock on `.active` for the whole run: tells other runs this one is working
};

}  // namespace dpclust
