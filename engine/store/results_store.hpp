#pragma once
// The results store: what lives in OUT/<experiment>/ and the rules for trusting it.
//
//   manifest.json     config text and hash, the expanded grid (id, key, fingerprint per cell), one record
//                     per run
//   cells/<id>.json   one completed cell, with a content checksum
//   results.json      every cell in grid order, assembled when the grid is complete
//   .lock             flock(2)ed exclusively for short critical sections (manifest updates, the guard
//                     against another config, assembling results.json, cleaning up)
//   .active           flock(2)ed shared by every run for its whole duration, so a run can tell whether
//                     another one is active (flock locks die with their process, even on SIGKILL)
//   .claims/<id>      flock(2)ed exclusively by the run computing that cell, so two runs of the same
//                     config share the work instead of doing it twice; removed by the last run out
//
// Everything read back from these files is untrusted input: names become paths only after
// is_safe_name / is_cell_id, cells are reused only after their shape and checksum are verified.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/grid.hpp"

namespace dpclust {

// A name read from a file that will name a folder: letters, digits, '_', '.', '-', at most 200
// characters, not "." or ".." (the rules of a config's experiment name, plus the two dot names).
bool is_safe_name(const std::string& name);
// A cell id as the grid makes it: 16 lowercase hex digits.
bool is_cell_id(const std::string& id);

// What makes a stored cell reusable: same key, trials, seed, data definition, metrics and output
// settings, and the tool version (not the git commit: each cell records its own).
std::string cell_fingerprint(const ExperimentConfig& cfg, const Cell& cell);
std::filesystem::path cell_path(const std::filesystem::path& experiment_dir, const std::string& id);

// The checksum stored in a cell file under "checksum": "fnv1a64:<16 hex digits>" of the compact dump of
// the cell without that field (nlohmann's dump is canonical: keys sorted, shortest round-trip numbers).
//
// Why FNV-1a and not SHA-256: OpenSSL is linked only into dpclust_datasources, which itself depends on
// this module, so SHA-256 here would mean a second implementation or a new link dependency. The checksum
// guards against corruption and hand edits, not against an adversary (whoever edits a file can recompute
// any unkeyed digest, SHA-256 included), and FNV-1a detects every single-byte change for certain (each
// step is a bijection of the state) and other changes with probability 1 - 2^-64.
std::string cell_checksum(const nlohmann::json& cell);
// Writes a cell file atomically with its checksum added.
void write_cell(const std::filesystem::path& experiment_dir, nlohmann::json cell);

// A cell file on disk, checked against the grid entry it should be.
struct CellCheck {
  enum class State { absent, valid, stale, damaged } state = State::absent;
  std::string reason;  // for damaged (not JSON, wrong shape, checksum mismatch) and stale
  std::filesystem::path file;
};
// Reads and checks cells/<id>.json: valid when it parses, has the cell schema's keys and types, its
// checksum matches, and its id, fingerprint and `complete` are as expected. `stale` is a well-formed
// cell of another fingerprint (the config changed); `damaged` deserves a warning.
CellCheck check_cell(const std::filesystem::path& experiment_dir, const std::string& id, const std::string& fingerprint,
                     nlohmann::json* cell_out = nullptr);
// The first problem with a parsed cell's shape ("key 'trials' is missing", ...), or "" when it has
// every key assemble_results and the report read, with the right types.
std::string cell_shape_problem(const nlohmann::json& cell);

// The manifest a run of `cfg` writes (without run records): schema, config text and hash, the grid.
nlohmann::json build_manifest(const ExperimentConfig& cfg, const std::vector<Cell>& cells);
// Two manifests describe the same work (same config text and the same grid of fingerprints), so runs
// of them may share a directory at the same time.
bool same_work(const nlohmann::json& a, const nlohmann::json& b);
// Reads OUT/<experiment>/manifest.json: nullopt when absent; InputError naming the file (and key) when
// it is not JSON, lacks a key, has a key of the wrong type, or names an unsafe experiment or cell id.
std::optional<nlohmann::json> read_manifest(const std::filesystem::path& experiment_dir);

// results.json as it would be assembled now from the manifest and the cell files; nullopt when a cell
// is absent or not valid.
std::optional<nlohmann::json> assemble_results_json(const std::filesystem::path& experiment_dir);
// The record `run --keep-going` left for a cell that could not run (OUT/<experiment>/skipped/<id>.json:
// dataset, method, series, params, phase, reason, fix), when its fingerprint is the grid's; nullopt otherwise.
std::optional<nlohmann::json> read_skipped_cell(const std::filesystem::path& experiment_dir, const std::string& id,
                                                const std::string& fingerprint);
// Writes results.json from manifest + cell files when every cell is present; returns whether it did.
bool assemble_results(const std::filesystem::path& experiment_dir);
// results.json exists and equals what assemble_results would write now (apart from when and by whom
// it was assembled).
bool results_current(const std::filesystem::path& experiment_dir);

// The fields that legitimately differ between two runs of the same config (timings, hosts, dates).
// Strip them and two results.json files of the same config and seed must be identical.
nlohmann::json strip_nondeterministic(nlohmann::json j);

// An open file descriptor holding a flock(2); released when destroyed (and by the kernel when the
// process dies, which is why flock and not a pid file).
class FileLock {
 public:
  FileLock() = default;
  FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  FileLock& operator=(FileLock&& o) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock() { release(); }
  // Opens (creating) `file` and locks it: exclusive or shared, waiting or not. Returns an unlocked
  // FileLock when `wait` is false and someone else holds a conflicting lock. InputError when the file
  // cannot be created (a read-only results directory).
  static FileLock acquire(const std::filesystem::path& file, bool exclusive, bool wait);
  bool held() const { return fd_ >= 0; }
  void release();

 private:
  int fd_ = -1;
};

// The lock files of one experiment directory (see the top of this file).
struct ExperimentLocks {
  static std::filesystem::path lock_file(const std::filesystem::path& experiment_dir) {
    return experiment_dir / ".lock";
  }
  static std::filesystem::path active_file(const std::filesystem::path& experiment_dir) {
    return experiment_dir / ".active";
  }
  static std::filesystem::path claim_file(const std::filesystem::path& experiment_dir, const std::string& id) {
    return experiment_dir / ".claims" / id;
  }
  // True when some process holds `.active` (a run is active). Call it without holding `.active`
  // yourself, under `.lock` so that nobody starts meanwhile.
  static bool other_run_active(const std::filesystem::path& experiment_dir);
};

}  // namespace dpclust
