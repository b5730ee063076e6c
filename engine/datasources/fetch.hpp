#pragma once
// `dpclust data fetch`: getting a registered dataset that is missing under a data root (download,
// extract, derive or generate, verify, place atomically, record where it came from). The layout of a
// data root is in data_root.hpp; what is there already, in dataset_state.hpp.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "datasources/sources.hpp"

namespace dpclust::datasources {

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
  bool fetched = false;  // false: it was already present and verified
  std::string sha256;
  std::uint64_t bytes_downloaded = 0;
  double seconds = 0;
  nlohmann::json record;  // what was written to .dpclust/records/
  // Unpinned sources: set when this fetch's file differs from the first fetch's (record: first_fetch).
  std::string warning;
};

// Fetches one dataset (waits for another fetch holding the data root's lock). Throws InputError with the
// URL or file, what went wrong and the fix; leaves nothing under the data file's name unless verified.
// The sources of a `sources:` list are tried in order: a failure of one (HTTP error, checksum mismatch, a
// refusal of a hostile server's answer, a derivation that does not give the pinned file) is reported and
// the next one is tried; the record says which one gave the file and why the earlier ones did not.
FetchOutcome fetch_dataset(const DatasetSource& source, const FetchOptions& options);

// The sources to act on: all, or the named ones (unknown names are an InputError with a suggestion).
std::vector<const DatasetSource*> select_sources(const std::vector<DatasetSource>& all,
                                                 const std::vector<std::string>& names);

}  // namespace dpclust::datasources
