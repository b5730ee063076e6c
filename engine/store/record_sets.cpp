// The sets of records cells read, and which of them are one set; see record_sets.hpp.
#include "store/record_sets.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "core/rng.hpp"  // fnv1a64

namespace dpclust {
using json = nlohmann::json;

namespace {

std::string record_key_hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

const json* find_transform(const json& data, const char* name) {
  if (!data.is_object() || !data.contains("provenance") || !data["provenance"].is_object()) return nullptr;
  const json& p = data["provenance"];
  if (!p.contains("transforms") || !p["transforms"].is_array()) return nullptr;
  for (const auto& t : p["transforms"])
    if (t.is_object() && t.value("name", std::string()) == name) return &t;
  return nullptr;
}

// Union-find over the record sets: sets sharing a member are one.
struct UnionFind {
  std::vector<std::size_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) {
    for (std::size_t i = 0; i < n; ++i) parent[i] = i;
  }
  std::size_t find(std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void join(std::size_t a, std::size_t b) {
    a = find(a), b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

}  // namespace

// Why a dataset's ranges come from the data itself (no epsilon can price that), or "" when they do not.
std::string data_derived_range(const json& data) {
  if (!data.is_object()) return "";
  const std::string bounds = data.value("bounds_source", std::string());
  if (bounds == "data") return "domain bounds derived from the data (bounds: data)";
  if (bounds == "data (as the paper)") return "domain bounds are the data's exact bounding box (as the paper)";
  if (data.contains("non_private") && data["non_private"].is_array())
    for (const auto& n : data["non_private"])
      if (n.is_string() && n.get<std::string>().find("standard scaling uses") != std::string::npos)
        return "standard scaling by the data's own mean and standard deviation";
  return "";
}

json record_set_of(const json& data, const std::string& dataset) {
  std::string identity;
  json records;
  const json prov = data.is_object() && data.contains("provenance") && data["provenance"].is_object()
                        ? data["provenance"]
                        : json::object();
  json file_keys = json::array();
  if (prov.contains("files") && prov["files"].is_array() && !prov["files"].empty()) {
    // The content, not the path: a copy of a file holds the same people. Each file has its own key, so that
    // sets sharing a file are merged by privacy_accounting (a file read alone and inside a list of files).
    json files = json::array();
    for (const auto& f : prov["files"]) {
      json c{{"bytes", f.value("bytes", json(nullptr))}, {"crc32", f.value("crc32", json(nullptr))}};
      const std::string one = "file " + c["bytes"].dump() + " " + c["crc32"].dump() + ";";
      identity += one;
      c["key"] = record_key_hex(fnv1a64(one));
      file_keys.push_back(c["key"]);
      files.push_back(std::move(c));
    }
    records["files"] = std::move(files);
    if (prov.contains("rows")) records["rows_read"] = prov["rows"];
  } else if (prov.contains("generator")) {
    identity = "generator " + prov["generator"].dump();
    records["generator"] = prov["generator"];
  } else {
    identity = "dataset " + dataset;  // nothing recorded of its origin: the name is all there is
    records["dataset"] = dataset;
  }
  json selection{{"dataset", dataset}};
  for (const char* key : {"columns", "label"})
    if (prov.contains(key)) selection[key] = prov[key];
  json transforms = json::array();
  if (prov.contains("transforms") && prov["transforms"].is_array())
    for (const auto& t : prov["transforms"])
      transforms.push_back(t.is_object() ? t.value("name", std::string("?")) : std::string("?"));
  selection["transforms"] = std::move(transforms);
  if (!file_keys.empty()) selection["files"] = file_keys;
  json out{
      {"key", record_key_hex(fnv1a64(identity))}, {"records", std::move(records)}, {"selection", std::move(selection)}};
  // What the set is made of, for merging: its files' keys, or its own key (a generator, a name).
  out["members"] = file_keys.empty() ? json::array({out["key"]}) : file_keys;
  if (const json* s = find_transform(data, "subsample"); s && s->value("scheme", std::string()) == "poisson")
    out["subsample"] = {
        {"scheme", "poisson"}, {"rate", s->value("rate", 1.0)}, {"sample_id", s->value("sample_id", std::string())}};
  if (const json* m = find_transform(data, "max_rows")) out["max_rows"] = m->value("max_rows", json(nullptr));
  if (const std::string why = data_derived_range(data); !why.empty()) out["data_derived_range"] = why;
  return out;
}

std::vector<std::string> merged_record_set_keys(const std::vector<json>& record_sets) {
  UnionFind sets(record_sets.size());
  std::map<std::string, std::size_t> first_reader;  // member -> the first record set naming it
  for (std::size_t i = 0; i < record_sets.size(); ++i) {
    const json& rs = record_sets[i];
    const json members = rs.contains("members") ? rs["members"] : json::array({rs.at("key")});
    for (const auto& m : members) {
      const auto [it, fresh] = first_reader.emplace(m.get<std::string>(), i);
      if (!fresh) sets.join(i, it->second);
    }
  }
  std::map<std::size_t, std::set<std::string>> members_of;  // root -> its members
  for (const auto& [member, i] : first_reader) members_of[sets.find(i)].insert(member);
  std::map<std::size_t, std::string> key_of;
  for (const auto& [root, members] : members_of) {
    std::string joined;
    for (const auto& m : members) joined += m + ";";
    key_of[root] = members.size() == 1 ? *members.begin() : record_key_hex(fnv1a64("set " + joined));
  }
  std::vector<std::string> out(record_sets.size());
  for (std::size_t i = 0; i < record_sets.size(); ++i) out[i] = key_of.at(sets.find(i));
  return out;
}

}  // namespace dpclust
