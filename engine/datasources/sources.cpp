#include "datasources/sources.hpp"

#include <fstream>
#include <set>

#include "core/error.hpp"
#include "core/files.hpp"
#include "datasources/download.hpp"
#include "datasources/sha256.hpp"
#include "config/config.hpp"
#include "config/yaml_reader.hpp"
#include "io/text.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;
using yaml::Located;

const char* to_string(SourceKind kind) {
  switch (kind) {
    case SourceKind::download: return "download";
    case SourceKind::derived: return "derived";
    case SourceKind::generated: return "generated";
  }
  return "?";
}

fs::path SourceFile::download_path() const {
  const UrlParts u = parse_url(url);
  fs::path p = fs::path("downloads") / u.host;
  // Each path segment is appended on its own and checked, so a registry URL with "/../" cannot place a
  // download outside downloads/.
  std::size_t start = 0;
  while (start <= u.path.size()) {
    const auto slash = u.path.find('/', start);
    const std::string seg = u.path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (seg == "..") throw InputError(url, "the URL's path climbs with '..'", "give the file's canonical URL");
    if (!seg.empty() && seg != ".") p /= seg;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return p;
}

bool DatasetSource::compressed() const {
  return data_file.size() > 3 && data_file.compare(data_file.size() - 3, 3, ".gz") == 0;
}

std::uint64_t DatasetSource::download_bytes() const {
  std::uint64_t total = 0;
  for (const auto& f : inputs) {
    if (!f.size) return 0;
    total += f.size;
  }
  return total;
}

const std::vector<std::string>& derivation_names() {
  static const std::vector<std::string> names = {"cabs_positions", "cabs_pickups_dropoffs", "nyc_crash", "har70",
                                                 "sklearn_iris"};
  return names;
}

namespace {

const std::vector<std::string> kSourceKeys = {"url",      "sha256",  "size",     "bytes",    "rows",   "dims",   "inputs", "members",
                                              "derive",   "options", "generate", "citation", "licence", "note"};

// "unpinned" (or an absent key) leaves the checksum empty; anything else must be a SHA-256 digest.
std::string read_sha256(const Located& at, bool required_key) {
  if (!at.node || !at.node.IsDefined()) {
    if (required_key) yaml::fail(at, "missing sha256", "give the SHA-256 of the file, or `sha256: unpinned` with a note saying why");
    return "";
  }
  const std::string s = yaml::as_string(at);
  if (s == "unpinned") return "";
  if (!is_sha256_hex(s)) yaml::fail(at, "'" + s.substr(0, 80) + "' is not a SHA-256 digest", "64 lower-case hex digits, or `unpinned`");
  return s;
}

SourceFile read_file_entry(const Located& at) {
  yaml::check_keys(at, {"url", "sha256", "size", "local_copies"});
  if (!at.has("url")) yaml::fail(at, "an input needs a url");
  SourceFile f;
  f.url = yaml::as_string(at.child("url"));
  try {
    parse_url(f.url);
  } catch (const InputError& e) {
    yaml::fail(at.child("url"), e.problem(), e.fix());
  }
  f.sha256 = read_sha256(at.child("sha256"), true);
  if (at.has("size")) f.size = yaml::as_uint(at.child("size"));
  if (at.has("local_copies")) {
    if (f.sha256.empty()) yaml::fail(at.child("local_copies"), "local copies are only trusted for a pinned input (give its sha256)");
    f.local_copies = yaml::as_string_list(at.child("local_copies"));
  }
  return f;
}

// A manifest: `base_url` plus a TSV under datasets/ with one line per file: name, size, sha256.
void read_manifest(const Located& at, const fs::path& registry_dir, std::vector<SourceFile>& out) {
  yaml::check_keys(at, {"base_url", "manifest"});
  if (!at.has("base_url") || !at.has("manifest")) yaml::fail(at, "a manifest input needs base_url and manifest");
  std::string base = yaml::as_string(at.child("base_url"));
  if (base.empty() || base.back() != '/') base += '/';
  const fs::path file = registry_dir / yaml::as_string(at.child("manifest"));
  std::ifstream in(file);
  if (!in) yaml::fail(at.child("manifest"), "cannot read the manifest " + file.string());
  std::string line;
  std::size_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    const auto t1 = line.find('\t'), t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
    const std::string where = file.string() + ":" + std::to_string(lineno);
    if (t2 == std::string::npos) throw InputError(where, "expected name<TAB>size<TAB>sha256");
    SourceFile f;
    const std::string name = line.substr(0, t1);
    if (name.find('/') != std::string::npos || name == ".." || name == ".")
      throw InputError(where, "a manifest name must be a plain file name, got '" + name + "'");
    f.url = base + name;
    try {
      f.size = std::stoull(line.substr(t1 + 1, t2 - t1 - 1));
    } catch (const std::exception&) {
      throw InputError(where, "bad size");
    }
    f.sha256 = line.substr(t2 + 1);
    if (!is_sha256_hex(f.sha256)) throw InputError(where, "bad SHA-256 '" + f.sha256 + "'");
    out.push_back(std::move(f));
  }
  if (out.empty()) yaml::fail(at.child("manifest"), "the manifest " + file.string() + " lists no file");
}

DatasetSource read_source(const std::string& name, const Located& entry, const fs::path& registry_dir) {
  DatasetSource s;
  s.name = name;
  s.data_file = yaml::as_string(entry.child("data_file"));
  // The data file is written under the data root: a path that is absolute or climbs with ".." would let
  // a registry entry write anywhere the user can.
  {
    const fs::path p(s.data_file);
    bool climbs = false;
    for (const auto& part : p) climbs = climbs || part == "..";
    if (s.data_file.empty() || p.is_absolute() || climbs || p.filename().empty() || p.filename() == ".")
      yaml::fail(entry.child("data_file"), "data_file '" + s.data_file + "' is not a relative path inside the data root",
                 "give a path such as benchmark/name.arff, without a leading / and without '..'");
  }
  const Located at = entry.child("source");
  s.where = at.where();
  yaml::expect_map(at);
  yaml::check_keys(at, kSourceKeys);
  if (at.has("citation")) s.citation = yaml::as_string(at.child("citation"));
  if (at.has("licence")) s.licence = yaml::as_string(at.child("licence"));
  if (at.has("note")) s.note = yaml::as_string(at.child("note"));
  if (at.has("rows")) s.rows = yaml::as_uint(at.child("rows"));
  if (at.has("dims")) s.dims = yaml::as_uint(at.child("dims"));
  if (at.has("bytes")) s.bytes = yaml::as_uint(at.child("bytes"));
  const int kinds = int(at.has("url")) + int(at.has("inputs")) + int(at.has("generate"));
  if (kinds != 1) yaml::fail(at, "a source needs exactly one of url (a file as it is), inputs (derived) or generate", "see the docs/datasets.md");
  if (at.has("url")) {
    s.kind = SourceKind::download;
    SourceFile f;
    f.url = yaml::as_string(at.child("url"));
    f.sha256 = read_sha256(at.child("sha256"), true);
    if (at.has("size")) f.size = yaml::as_uint(at.child("size"));
    try {
      parse_url(f.url);
    } catch (const InputError& e) {
      yaml::fail(at.child("url"), e.problem(), e.fix());
    }
    s.sha256 = f.sha256;
    s.bytes = f.size;
    s.inputs.push_back(f);
    if (s.compressed() && !s.sha256.empty())
      yaml::fail(at, "a .gz data file taken as it is must be derived, since its checksum is of the uncompressed text");
  } else if (at.has("generate")) {
    s.kind = SourceKind::generated;
    if (yaml::as_string(at.child("generate")) != "fallback")
      yaml::fail(at.child("generate"), "generate must be `fallback` (the entry's built-in generator)");
    if (!entry.has("fallback")) yaml::fail(at.child("generate"), "the entry has no fallback generator to generate with");
    s.sha256 = read_sha256(at.child("sha256"), true);
  } else {
    s.kind = SourceKind::derived;
    const Located inputs = at.child("inputs");
    yaml::expect_sequence(inputs);
    for (std::size_t i = 0; i < inputs.node.size(); ++i) {
      const Located item = inputs.item(i);
      if (item.has("manifest")) read_manifest(item, registry_dir, s.inputs);
      else s.inputs.push_back(read_file_entry(item));
    }
    if (!at.has("derive")) yaml::fail(at, "a source with inputs needs `derive: <derivation>`", "one of: " + text::join(derivation_names()));
    s.derivation = yaml::as_string(at.child("derive"));
    bool known = false;
    for (const auto& d : derivation_names()) known = known || d == s.derivation;
    if (!known) yaml::fail(at.child("derive"), "unknown derivation '" + s.derivation + "'", "one of: " + text::join(derivation_names()));
    if (at.has("members")) s.members = yaml::as_string_list(at.child("members"));
    if (at.has("options")) {
      yaml::expect_map(at.child("options"));
      for (auto it = at.child("options").node.begin(); it != at.child("options").node.end(); ++it) {
        const std::string key = it->first.as<std::string>();
        if (it->second.IsSequence()) {
          auto arr = nlohmann::json::array();
          for (const auto& v : it->second) arr.push_back(v.as<std::string>());
          s.options[key] = arr;
        } else {
          s.options[key] = it->second.as<std::string>();
        }
      }
    }
    s.sha256 = read_sha256(at.child("sha256"), true);
  }
  if (s.citation.empty()) yaml::fail(at, "missing citation", "say whom to cite for this dataset");
  if (!s.pinned() && s.note.empty()) yaml::fail(at, "an unpinned source needs a note saying why no checksum is pinned");
  return s;
}

}  // namespace

std::vector<DatasetSource> load_sources(const fs::path& registry) {
  const YAML::Node root = yaml::load_file(registry.string());
  std::vector<DatasetSource> out;
  std::set<std::string> files;
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string name = it->first.as<std::string>();
    const Located entry(it->second, registry.string(), name);
    if (!entry.has("data_file")) continue;  // inline generators and files outside the data root
    if (!entry.has("source"))
      yaml::fail(entry, "registered dataset '" + name + "' does not say where its data comes from",
                 "add a source: block (url and sha256, inputs and derive, or generate)");
    out.push_back(read_source(name, entry, registry.parent_path()));
    if (!files.insert(out.back().data_file).second)
      yaml::fail(entry.child("data_file"), "two registered datasets write the same data file '" + out.back().data_file + "'");
  }
  return out;
}

std::vector<DatasetSource> load_sources() { return load_sources(registry_path()); }

std::vector<std::string> datasets_of_config(const fs::path& config, const fs::path& data_root) {
  const ExperimentConfig cfg = load_config(config, data_root);
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const auto& d : cfg.datasets) {
    if (!d.definition.contains("registry")) continue;
    const std::string reg = d.definition["registry"].get<std::string>();
    if (seen.insert(reg).second) names.push_back(reg);
  }
  return names;
}

}  // namespace dpclust::datasources
