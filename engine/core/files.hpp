#pragma once
// File-system helpers shared by loaders and the results writer.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace dpclust {

// Writes `content` to `path` atomically: a temporary file `<path>.tmp.<pid>` in the same directory,
// written, fsync'd and closed (every return value checked), then rename(2). A reader (or a rerun after
// a kill) sees either the old file or the complete new one. On any failure the temporary file is
// removed and `path` is left as it was. A full disk (ENOSPC, EDQUOT) and a directory that cannot be
// written (EACCES, EPERM, EROFS) throw InputError naming the file, because the user can fix both;
// anything else throws std::runtime_error with the errno text.
//
// Test seam: with DPCLUST_TEST_FAIL_WRITES_AFTER=N in the environment, every call after the first N in
// this process fails with ENOSPC halfway through its content, as a disk that has just filled up would
// (a real small tmpfs needs root). Unset in normal use.
void write_file_atomic(const std::filesystem::path& path, const std::string& content);

// Removes the temporary files (`*.tmp.<pid>`) that write_file_atomic leaves when its process is killed
// before the rename. With `all` every such file in `dir` (not recursive) goes: the caller knows no other
// writer is active. Otherwise only those whose process no longer exists (kill(pid, 0) == ESRCH).
// Returns how many were removed.
std::size_t remove_stale_temp_files(const std::filesystem::path& dir, bool all);
std::string read_text_file(const std::filesystem::path& path);

// CRC-32 (zlib) of a file's bytes, as 8 hex digits; and {path, bytes, crc32} for provenance.
std::string file_crc32(const std::filesystem::path& path);
std::string crc32_hex(const std::string& bytes);
nlohmann::json file_fingerprint(const std::filesystem::path& path);

// Current UTC time as ISO-8601 "2026-11-21T08:02:31Z".
std::string utc_now_iso8601();

// Build provenance: version, git commit, compiler, build type, host name.
struct BuildInfo {
  std::string version, git_commit, compiler, build_type, host, source_dir;
};
const BuildInfo& build_info();

// Where `dpclust data fetch` keeps what it knows of a data file under a data root (its source, checksums,
// when it was fetched): <root>/.dpclust/records/<data_file>.json. Written by datasources/fetch, read
// there and by the dataset loader, which copies the source into each result's dataset provenance.
std::filesystem::path fetch_record_path(const std::filesystem::path& data_root, const std::string& data_file);

// The data root: explicit setting > $DPCLUST_DATA_ROOT > <source dir>/../shared/datasets if it
// exists > the per-user cache (user_cache_data_root). Never empty; the folder may not exist yet
// (`dpclust data fetch` creates it).
std::filesystem::path resolve_data_root(const std::string& explicit_root = "");
// $XDG_CACHE_HOME/dpclust/datasets, else ~/.cache/dpclust/datasets.
std::filesystem::path user_cache_data_root();

}  // namespace dpclust
