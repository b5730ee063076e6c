#pragma once
// Reading YAML with errors that name the file, the line and the key path ("methods[1].params.k"),
// and that suggest the closest valid key for a typo. Everything user-facing in a config goes through
// these helpers so that no malformed value reaches a mechanism.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace dpclust::yaml {

// A node with where it came from.
struct Located {
  Located() = default;
  Located(YAML::Node n, std::string f, std::string p) : node(std::move(n)), file(std::move(f)), path(std::move(p)) {}

  YAML::Node node;
  std::string file;  // config file path (as given)
  std::string path;  // key path, e.g. "datasets[0].bounds"
  // For an absent key (Undefined node): where its parent mapping is, so the error still has a line.
  YAML::Mark parent_mark = YAML::Mark::null_mark();
  // A registry entry merged with a config's overrides: keys present in `overrides` are reported at
  // their place in the config (overrides_file, overrides_path), the others in the registry.
  YAML::Node overrides;
  std::string overrides_file, overrides_path;

  std::string where() const;                    // "file:line:col path"
  Located child(const std::string& key) const;  // map child (may be undefined)
  Located item(std::size_t i) const;            // sequence element
  bool has(const std::string& key) const { return node.IsMap() && node[key]; }
};

// Both reject what yaml-cpp would silently accept or blow up on: a second document, duplicate keys,
// null or non-scalar keys, and documents that expand (through aliases) to more than kMaxNodes nodes.
// CR-only line endings (old Mac) are read as line breaks.
YAML::Node load_file(const std::string& file);  // parse errors -> InputError with line/col
YAML::Node load_string(const std::string& text, const std::string& file_label);

// A config or registry larger than this is not read (a config is a few kilobytes).
inline constexpr std::uintmax_t kMaxFileBytes = 16u << 20;
// Throws InputError when `file` is a regular file larger than kMaxFileBytes.
void check_file_size(const std::string& file);

// Node visits allowed while checking a document; an alias bomb ("billion laughs") stops here.
inline constexpr std::size_t kMaxNodes = 1'000'000;
// Nesting allowed with aliases expanded; an anchored value that contains an alias of itself stops here.
inline constexpr std::size_t kMaxDepth = 256;
// Walks `root` (aliases expanded) once with the kMaxNodes budget, checking keys as above.
void check_document(const YAML::Node& root, const std::string& file_label);

// User text fit for a message: at most `max` characters (then "..."), control characters and NUL
// escaped as \xNN.
std::string clip(const std::string& user_text, std::size_t max = 200);

[[noreturn]] void fail(const Located& at, const std::string& what, const std::string& fix = "");

void expect_map(const Located& at);
void expect_sequence(const Located& at);
// Rejects keys not in `allowed`, suggesting the closest one.
void check_keys(const Located& at, const std::vector<std::string>& allowed);

std::string as_string(const Located& at);
std::int64_t as_int(const Located& at);
std::uint64_t as_uint(const Located& at);
double as_double(const Located& at);  // finite only
bool as_bool(const Located& at);
std::vector<std::string> as_string_list(const Located& at);  // scalar or list of scalars

}  // namespace dpclust::yaml
