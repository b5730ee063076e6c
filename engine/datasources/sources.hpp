#pragma once
// Where every registered dataset comes from: the `source:` block of its entry in
// datasets/registry.yaml, read into a typed description the fetcher acts on.
//
// Three kinds of source:
//   download   the data file is one upstream file, taken as it is (url, sha256, size);
//   derived    the data file is computed from downloaded inputs by a named derivation
//              (datasources/derivations.hpp, by name in run_derivation.hpp); inputs are listed one by one or as a
//              manifest (base_url + a TSV of name, size, sha256 under datasets/); archive members are extracted first
//              when `members` is given;
//   generated  the data file is written by the entry's built-in `fallback` generator (no download).
// A checksum is "pinned" when the registry states it: a SHA-256 (`sha256:`), a git blob id (`git_blob:`,
// what `git hash-object` prints, for a copy known only by a repository's history), or both. An unpinned
// source (no verified copy existed when the entry was written) is fetched, its checksum recorded beside
// the file, and reported as such.
//
// An entry gives one `source:` map, or `sources:`, a list of such maps tried in order: the
// official source first, then pinned copies (GitHub raw URLs at a commit). The data file is the same
// whichever source gives it, so a SHA-256 of the data file pinned by any of them pins the dataset, and a
// source that states no checksum of its own is checked against it.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dpclust::datasources {

struct SourceFile {
  std::string url;         // upstream URL (https://host/path), pinned to a commit for GitHub sources
  std::string sha256;      // expected SHA-256 of the bytes; empty = none
  std::string git_blob;    // expected git blob id of the bytes (40 hex); empty = none
  std::uint64_t size = 0;  // expected size; 0 = unknown
  // Files on this machine that may hold the same bytes (e.g. a copy a Debian package installs); one whose
  // checksum matches is used instead of downloading. Only for pinned inputs.
  std::vector<std::string> local_copies;
  // Where a downloaded input is kept under the data root: downloads/<host>/<path>, the mirror layout,
  // so a data root's downloads/ folder can itself serve as a mirror.
  std::filesystem::path download_path() const;
  bool pinned() const { return !sha256.empty() || !git_blob.empty(); }
};

enum class SourceKind { download, derived, generated };
const char* to_string(SourceKind kind);

struct DatasetSource {
  std::string name;       // registry key
  std::string where;      // registry file:line, for messages
  std::string data_file;  // relative to the data root
  SourceKind kind = SourceKind::download;
  std::vector<SourceFile> inputs;    // download: exactly one; derived: one or more; generated: none
  std::vector<std::string> members;  // archive members to extract before deriving (empty = not an archive)
  std::string derivation;            // derived: the derivation's name
  nlohmann::json options = nlohmann::json::object();  // derived: the derivation's options
  std::string sha256;       // of the data file (of its uncompressed text for .gz); empty = unpinned
  std::string git_blob;     // download: git blob id of the data file; empty = none
  std::uint64_t bytes = 0;  // size of the data file (uncompressed text for .gz); 0 = unknown
  std::uint64_t rows = 0;   // data rows, when stated
  std::uint64_t dims = 0;   // coordinates per point as the experiments read them, when stated
  std::string citation, licence, note;

  // The further sources of a `sources:` list, in order (this object describes the first); each is a
  // complete description with the same name and data_file. Empty for a single `source:`.
  std::vector<DatasetSource> alternatives;
  // This source followed by its alternatives: what `fetch` tries, in order.
  std::vector<const DatasetSource*> all_sources() const;
  // A short description of where this one source fetches from (its URL, or derivation <- first input).
  std::string origin() const;

  bool pinned() const { return !sha256.empty(); }
  bool compressed() const;               // data_file ends in .gz: its checksum is of the uncompressed text
  std::uint64_t download_bytes() const;  // sum of the inputs' sizes (0 when unknown)
};

// Every registry entry that has a data file, in registry order. An entry without a `source:` block is
// an error: the project must know where each dataset comes from.
std::vector<DatasetSource> load_sources(const std::filesystem::path& registry);
std::vector<DatasetSource> load_sources();  // the project's datasets/registry.yaml

// The registered datasets a config reads (by registry name), for `fetch --for CONFIG`.
std::vector<std::string> datasets_of_config(const std::filesystem::path& config,
                                            const std::filesystem::path& data_root);

}  // namespace dpclust::datasources
