#pragma once
// The state of a registered dataset under a data root (`dpclust data list` and `verify`): present, with
// the checksum it should have, or missing, or damaged; and the record its last fetch wrote.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "datasources/sources.hpp"

namespace dpclust::datasources {

enum class DataStatus {
  ok,          // present, checksum equals the pinned one
  recorded,    // present, unpinned source, checksum equals the one recorded when it was fetched
  unverified,  // present, unpinned source, no record to compare with
  missing,     // not present
  mismatch,    // present, checksum differs from the pinned (or recorded) one
  damaged,     // something is at the path that cannot be a data file: a folder, an empty file, a
               // gzip that does not inflate (DatasetState::problem says what)
};
const char* to_string(DataStatus status);

struct DatasetState {
  const DatasetSource* source = nullptr;
  std::filesystem::path path;
  DataStatus status = DataStatus::missing;
  std::uint64_t bytes_on_disk = 0;
  std::string sha256;    // computed now (empty when missing)
  std::string expected;  // pinned or recorded checksum (empty when neither)
  std::string problem;   // damaged: what is wrong with it
};

// The checksum of what is on disk (of the uncompressed text for .gz files), taken from
// .dpclust/checked/ when the file's size, mtime, ctime, inode and device are those it was computed for.
// Never throws for what is at the path (a folder, an empty or corrupt file is `damaged`). With
// `use_cache` false the file is hashed again whatever the cache says (`dpclust data verify --full`).
DatasetState dataset_state(const DatasetSource& source, const std::filesystem::path& data_root, bool use_cache = true);

// The bound on what a .gz data file may inflate to: the registry's stated size of its text (with 1/16
// margin) when known, else kMaxGzipExpansion times its compressed size (ordinary text compresses 3-10x;
// a gzip bomb 1000x).
constexpr std::uint64_t kMaxGzipExpansion = 64;
std::uint64_t gunzip_bound(const DatasetSource& source, std::uint64_t compressed_bytes);

// The record a fetch wrote for this dataset (null when none).
nlohmann::json read_record(const DatasetSource& source, const std::filesystem::path& data_root);

}  // namespace dpclust::datasources
