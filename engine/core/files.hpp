#pragma once
// File-system helpers shared by loaders and the results writer.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace dpclust {

// Writes `content` to `path` atomically: a temporary file in the same directory, flushed and fsync'd,
// then rename(2). A reader (or a rerun after a kill) sees either the old file or the complete new one.
void write_file_atomic(const std::filesystem::path& path, const std::string& content);
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

// The data root: explicit setting > $DPCLUST_DATA_ROOT > <source dir>/../shared/datasets if it
// exists > the per-user cache (user_cache_data_root). Never empty; the folder may not exist yet
// (`dpclust data fetch` creates it).
std::filesystem::path resolve_data_root(const std::string& explicit_root = "");
// $XDG_CACHE_HOME/dpclust/datasets, else ~/.cache/dpclust/datasets.
std::filesystem::path user_cache_data_root();

}  // namespace dpclust
