#pragma once
// `dpclust data`: the state of every registered dataset under a data root, and fetching what is missing
// (download, extract, derive or generate, verify, place atomically, record where it came from).
//
// Layout of a data root:
//   <data_file>                        the files the experiments read (registry `data_file`)
//   downloads/<host>/<path>            inputs of derived datasets, in the mirror layout
//   .dpclust/records/<data_file>.json  what each fetch did: sources, checksums, derivation counts
//   .dpclust/fetch.lock                held by the fetch in progress (concurrent fetches wait)
//   .dpclust/checked/<data_file>.json  the checksum last computed for the file on disk, with its size,
//                                      mtime, ctime, inode and device: `list` and `verify` hash a file
//                                      again only when one of these changed
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "datasources/sources.hpp"

namespace dpclust::datasources {

// The default data root: --data-root, else $DPCLUST_DATA_ROOT, else a `datasets` folder beside the
// project's checkout when it exists, else the per-user cache ($XDG_CACHE_HOME/dpclust/datasets, or
// ~/.cache/dpclust/datasets). Never empty.
std::filesystem::path default_data_root(const std::string& explicit_root = "");
// The mirror: --mirror, else $DPCLUST_MIRROR, else none (the upstream URLs).
std::string default_mirror(const std::string& explicit_mirror = "");

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

struct FetchOptions {
  std::filesystem::path data_root;
  std::string mirror;
  bool progress = true;
  // Replace a present file whose checksum differs (it is kept beside as <file>.rejected-<time>).
  bool replace_mismatched = false;
  std::ostream* log = nullptr;  // progress messages (stdout in the CLI)
};

struct FetchOutcome {
  std::string name;
  bool fetched = false;      // false: it was already present and verified
  std::string sha256;
  std::uint64_t bytes_downloaded = 0;
  double seconds = 0;
  nlohmann::json record;     // what was written to .dpclust/records/
  // Unpinned sources: set when this fetch's file differs from the first fetch's (record: first_fetch).
  std::string warning;
};

// Fetches one dataset (waits for another fetch holding the data root's lock). Throws InputError with the
// URL or file, what went wrong and the fix; leaves nothing under the data file's name unless verified.
FetchOutcome fetch_dataset(const DatasetSource& source, const FetchOptions& options);

// The sources to act on: all, or the named ones (unknown names are an InputError with a suggestion).
std::vector<const DatasetSource*> select_sources(const std::vector<DatasetSource>& all, const std::vector<std::string>& names);

// The record a fetch wrote for this dataset (null when none).
nlohmann::json read_record(const DatasetSource& source, const std::filesystem::path& data_root);

}  // namespace dpclust::datasources
