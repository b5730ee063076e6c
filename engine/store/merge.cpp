#include "store/merge.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "core/error.hpp"
#include "core/files.hpp"
#include "store/results_store.hpp"

namespace dpclust {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

struct Shard {
  fs::path dir;
  json manifest;
};

// One experiment being merged: the manifest it will get (the first shard's, with every shard's runs)
// and the shards contributing cells.
struct Merged {
  json manifest;
  std::vector<Shard> shards;
};

// The experiment directories of one input: the input itself, or the experiments of an --out directory.
std::vector<fs::path> experiment_dirs(const fs::path& in) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  if (fs::exists(in / "manifest.json", ec)) {
    dirs.push_back(in);
  } else if (fs::is_directory(in, ec)) {
    for (const auto& e : fs::directory_iterator(in))
      if (fs::exists(e.path() / "manifest.json", ec)) dirs.push_back(e.path());
  }
  if (dirs.empty())
    throw InputError(in.string(), "no experiment output here (no manifest.json)",
                     "pass the --out directory of a shard run");
  return dirs;
}

}  // namespace

std::vector<fs::path> merge_results(const fs::path& out_dir, const std::vector<fs::path>& inputs, std::ostream& log) {
  // 1. Read and check every input before writing anything.
  std::map<std::string, Merged> experiments;
  for (const auto& in : inputs) {
    for (const auto& dir : experiment_dirs(in)) {
      json m = *read_manifest(dir);  // InputError naming the file when malformed or naming unsafe paths
      const std::string name = m["experiment"];
      Merged& merged = experiments[name];
      if (merged.manifest.is_null()) {
        merged.manifest = m;
      } else if (!same_work(merged.manifest, m)) {
        throw InputError(dir.string(),
                         "shard of '" + name + "' was run with a different config (crc32 " +
                             m["config_crc32"].get<std::string>() + " vs " +
                             merged.manifest["config_crc32"].get<std::string>() + ", or another trial count)",
                         "merge only shards of the same config");
      } else {
        for (const auto& r : m["runs"]) merged.manifest["runs"].push_back(r);
      }
      merged.shards.push_back({dir, std::move(m)});
    }
  }
  for (const auto& [name, merged] : experiments) {
    const fs::path target = out_dir / name;
    // read_manifest checked the name; a single safe component is what keeps `target` inside out_dir.
    if (!is_safe_name(name)) throw std::logic_error("unchecked experiment name reached merge: " + name);
    if (auto existing = read_manifest(target); existing && !same_work(*existing, merged.manifest))
      throw InputError((target / "manifest.json").string(),
                       "holds the results of another config (crc32 " + (*existing)["config_crc32"].get<std::string>() +
                           ", merging " + merged.manifest["config_crc32"].get<std::string>() + ")",
                       "merge into another --out directory, or remove " + target.string() + " first");
  }

  // 2. Copy the valid cells, write each manifest, assemble.
  std::vector<fs::path> written;
  for (auto& [name, merged] : experiments) {
    const fs::path target = out_dir / name;
    std::error_code ec;
    fs::create_directories(target / "cells", ec);
    if (ec)
      throw InputError(target.string(), "cannot create the merged experiment directory (" + ec.message() + ")",
                       "choose another --out");
    // A run or another merge may be writing this directory: one at a time.
    FileLock lock = FileLock::acquire(ExperimentLocks::lock_file(target), /*exclusive=*/true, /*wait=*/true);
    remove_stale_temp_files(target, /*all=*/false);
    remove_stale_temp_files(target / "cells", /*all=*/false);
    for (const auto& shard : merged.shards) {
      if (fs::equivalent(shard.dir, target, ec)) continue;  // merging into one of the shards
      std::size_t copied = 0;
      for (const auto& entry : shard.manifest["grid"]) {
        const std::string id = entry["id"];
        const CellCheck check = check_cell(shard.dir, id, entry["fingerprint"]);
        if (check.state == CellCheck::State::valid) {
          write_file_atomic(cell_path(target, id), read_text_file(check.file));
          ++copied;
        } else if (check.state != CellCheck::State::absent) {
          log << "merge: warning: " << check.file.string() << ": " << check.reason
              << "; not copied (rerun that shard to recompute it)\n";
        }
      }
      log << "merge: " << shard.dir.string() << ": " << copied << " cells of '" << name << "'\n";
    }
    write_file_atomic(target / "manifest.json", merged.manifest.dump(1) + "\n");
    std::size_t present = 0;
    for (const auto& entry : merged.manifest["grid"])
      present += check_cell(target, entry["id"], entry["fingerprint"]).state == CellCheck::State::valid;
    if (assemble_results(target)) {
      log << "merge: " << (target / "results.json").string() << " complete (" << present << " cells)\n";
      written.push_back(target);
    } else {
      log << "merge: '" << name << "' incomplete: " << present << " of " << merged.manifest["grid"].size()
          << " cells present\n";
    }
  }
  return written;
}

}  // namespace dpclust
