#include "store/results_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

#include "catalog/catalog.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/rng.hpp"
#include "store/accounting.hpp"
#include "store/release_view.hpp"

namespace dpclust {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr const char* kSeedScheme =
    "seed(trial) = splitmix64(splitmix64(splitmix64(base_seed) ^ fnv1a64(cell.key)) ^ trial); "
    "cell.key = 'dataset=<name>|method=<series>|<param>=<json value>;...' (params sorted by name, defaults left out)";
constexpr const char* kCellSchema = "dpclust.cell/1";
constexpr const char* kManifestSchema = "dpclust.manifest/1";
constexpr std::size_t kMaxNameLength = 200;  // as a config's experiment name

std::string hex16(std::uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

std::string type_name(const json& v) {
  if (v.is_number_unsigned()) return "a non-negative integer";
  if (v.is_number_integer()) return "an integer";
  if (v.is_number()) return "a number";
  return std::string("a") + (v.is_object() || v.is_array() ? "n " : " ") + v.type_name();
}

// Checks one key of an object: present and of the wanted kind. Returns "" or the problem.
enum class Kind { string, boolean, unsigned_integer, integer, number, object, array };
const char* kind_name(Kind k) {
  switch (k) {
    case Kind::string: return "a string";
    case Kind::boolean: return "true or false";
    case Kind::unsigned_integer: return "a non-negative integer";
    case Kind::integer: return "an integer";
    case Kind::number: return "a number";
    case Kind::object: return "an object";
    case Kind::array: return "an array";
  }
  return "?";
}
bool is_kind(const json& v, Kind k) {
  switch (k) {
    case Kind::string: return v.is_string();
    case Kind::boolean: return v.is_boolean();
    case Kind::unsigned_integer: return v.is_number_unsigned();
    case Kind::integer: return v.is_number_integer();
    case Kind::number: return v.is_number();
    case Kind::object: return v.is_object();
    case Kind::array: return v.is_array();
  }
  return false;
}
std::string key_problem(const json& obj, const std::string& path, const char* key, Kind kind, bool required = true) {
  const std::string where = path.empty() ? std::string(key) : path + "." + key;
  auto it = obj.find(key);
  if (it == obj.end()) return required ? "key '" + where + "' is missing" : "";
  if (!is_kind(*it, kind)) return "'" + where + "' is " + type_name(*it) + ", expected " + kind_name(kind);
  return "";
}

}  // namespace

bool is_safe_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxNameLength || name == "." || name == "..") return false;
  for (unsigned char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
          c == '-'))
      return false;
  return true;
}

bool is_cell_id(const std::string& id) {
  if (id.size() != 16) return false;
  for (char c : id)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::string cell_fingerprint(const ExperimentConfig& cfg, const Cell& cell) {
  json j{{"key", cell.key},
         {"trials", cfg.trials},
         {"seed", cfg.seed},
         {"dataset", cfg.datasets[cell.dataset_index].definition},
         {"metrics", cfg.metrics.empty() ? json("auto") : json(cfg.metrics)},
         {"release", cfg.save_release},
         {"points", cfg.save_points},
         {"labels", cfg.save_labels},
         {"version", build_info().version}};
  // A method the config defines itself (`method: python`): its callable, declaration and source digest,
  // which the build's version does not cover. Absent for built-in methods, whose fingerprints are unchanged.
  if (const MethodInfo* info = find_method(cell.method); info && !info->definition.is_null())
    j["method_definition"] = info->definition;
  // randomness: secure (a non-default mode, so seeded fingerprints are unchanged): a cell computed in one
  // mode is never reused or merged as the other's.
  if (cfg.randomness != Randomness::seeded) j["randomness"] = to_string(cfg.randomness);
  // centres_outside_domain: keep (a non-default, so other fingerprints are unchanged): its centres, metrics and
  // labels differ from clamp's wherever a centre left the domain.
  const MethodSpec& entry = cfg.methods[cell.method_index];
  if (entry.centres_outside_domain.value_or(cfg.centres_outside_domain) == CentresOutsideDomain::keep)
    j["centres_outside_domain"] = "keep";
  return hex16(fnv1a64(j.dump()));
}

fs::path cell_path(const fs::path& exp_dir, const std::string& id) { return exp_dir / "cells" / (id + ".json"); }

std::string cell_checksum(const json& cell) {
  json body = cell;
  if (body.is_object()) body.erase("checksum");
  return "fnv1a64:" + hex16(fnv1a64(body.dump()));
}

void write_cell(const fs::path& exp_dir, json cell) {
  cell["checksum"] = cell_checksum(cell);
  write_file_atomic(cell_path(exp_dir, cell.at("id").get<std::string>()), cell.dump(1) + "\n");
}

std::string cell_shape_problem(const json& c) {
  if (!c.is_object()) return "it is " + type_name(c) + ", not a cell object";
  if (auto p = key_problem(c, "", "schema", Kind::string); !p.empty()) return p;
  if (c["schema"] != kCellSchema)
    return "schema is '" + c["schema"].get<std::string>() + "', expected '" + kCellSchema + "'";
  const std::pair<const char*, Kind> top[] = {
      {"index", Kind::unsigned_integer}, {"id", Kind::string},          {"key", Kind::string},
      {"fingerprint", Kind::string},     {"complete", Kind::boolean},   {"dataset", Kind::string},
      {"method", Kind::string},          {"series", Kind::string},      {"params", Kind::object},
      {"private", Kind::boolean},        {"non_private", Kind::array},  {"data", Kind::object},
      {"trials", Kind::array},           {"aggregates", Kind::object},  {"diagnostics_aggregates", Kind::object},
      {"timing", Kind::object},          {"computed_by", Kind::object}, {"checksum", Kind::string}};
  for (const auto& [key, kind] : top)
    if (auto p = key_problem(c, "", key, kind); !p.empty()) return p;
  if (auto p = key_problem(c, "", "evaluation_aggregates", Kind::object, false); !p.empty()) return p;
  if (auto p = key_problem(c["computed_by"], "computed_by", "git_commit", Kind::string, false); !p.empty()) return p;
  for (const auto& note : c["non_private"])
    if (!note.is_string()) return "'non_private' holds " + type_name(note) + ", expected strings";
  for (auto it = c["aggregates"].begin(); it != c["aggregates"].end(); ++it)
    if (!it->is_object()) return "'aggregates." + it.key() + "' is " + type_name(*it) + ", expected an object";
  // Release flags (run/release_flags.hpp): private_release and evaluation_only per cell and trial; a secure cell's
  // trials have no seed.
  if (auto p = key_problem(c, "", "private_release", Kind::boolean); !p.empty()) return p;
  if (auto p = key_problem(c, "", "evaluation_only", Kind::array); !p.empty()) return p;
  if (auto p = key_problem(c, "", "randomness", Kind::object); !p.empty()) return p;
  if (auto p = key_problem(c["randomness"], "randomness", "mode", Kind::string); !p.empty()) return p;
  const bool secure = c["randomness"]["mode"] == "secure";
  if (!secure && c["randomness"]["mode"] != "seeded") return "'randomness.mode' is not seeded or secure";
  for (std::size_t i = 0; i < c["trials"].size(); ++i) {
    const json& t = c["trials"][i];
    const std::string at = "trials[" + std::to_string(i) + "]";
    if (!t.is_object()) return "'" + at + "' is " + type_name(t) + ", expected an object";
    for (const auto& [key, kind] : {std::pair{"trial", Kind::integer}, std::pair{"private_release", Kind::boolean},
                                    std::pair{"metrics", Kind::object}, std::pair{"ledger", Kind::object}})
      if (auto p = key_problem(t, at, key, kind); !p.empty()) return p;
    if (secure && t.contains("seed")) return "'" + at + ".seed' is present in a cell computed with randomness: secure";
    if (auto p = key_problem(t, at, "seed", Kind::unsigned_integer, !secure); !p.empty()) return p;
    for (auto it = t["metrics"].begin(); it != t["metrics"].end(); ++it)
      if (!it->is_number() && !it->is_null())  // null: a NaN metric, as nlohmann writes it
        return "'" + at + ".metrics." + it.key() + "' is " + type_name(*it) + ", expected a number";
  }
  return "";
}

CellCheck check_cell(const fs::path& exp_dir, const std::string& id, const std::string& fingerprint, json* cell_out) {
  CellCheck r;
  r.file = cell_path(exp_dir, id);
  std::error_code ec;
  if (!fs::exists(r.file, ec)) return r;  // absent
  json c;
  try {
    c = json::parse(read_text_file(r.file));
  } catch (const std::exception& e) {
    r.state = CellCheck::State::damaged;
    r.reason = std::string("not readable JSON (") + e.what() + ")";
    return r;
  }
  if (std::string p = cell_shape_problem(c); !p.empty()) {
    r.state = CellCheck::State::damaged;
    r.reason = "not a dpclust cell: " + p;
    return r;
  }
  if (const std::string sum = cell_checksum(c); c["checksum"] != sum) {
    r.state = CellCheck::State::damaged;
    r.reason = "checksum mismatch (stored " + c["checksum"].get<std::string>() + ", content gives " + sum +
               "): the file was edited or corrupted after it was written";
    return r;
  }
  if (c["id"] != id) {
    r.state = CellCheck::State::damaged;
    r.reason = "it holds cell '" + c["id"].get<std::string>() + "', not '" + id + "'";
    return r;
  }
  if (c["fingerprint"] != fingerprint || !c["complete"].get<bool>()) {
    r.state = CellCheck::State::stale;
    r.reason = "computed for another version of the config (fingerprint " + c["fingerprint"].get<std::string>() + ")";
    return r;
  }
  r.state = CellCheck::State::valid;
  if (cell_out) *cell_out = std::move(c);
  return r;
}

json build_manifest(const ExperimentConfig& cfg, const std::vector<Cell>& cells) {
  json grid = json::array();
  for (const auto& c : cells)
    grid.push_back({{"index", c.index},
                    {"id", c.id},
                    {"key", c.key},
                    {"dataset", c.dataset},
                    {"method", c.method},
                    {"series", c.method_label},
                    {"fingerprint", cell_fingerprint(cfg, c)}});
  if (cfg.randomness == Randomness::secure)  // no seed and no seed scheme: there is none
    return json{{"schema", kManifestSchema},
                {"experiment", cfg.name},
                {"description", cfg.description},
                {"config_file", cfg.file.string()},
                {"config_text", cfg.text},
                {"config_crc32", crc32_hex(cfg.text)},
                {"randomness", "secure"},
                {"reproducible", false},
                {"trials", cfg.trials},
                {"data_root", cfg.data_root.string()},
                {"grid", grid},
                {"runs", json::array()}};
  return json{{"schema", kManifestSchema},
              {"randomness", "seeded"},
              {"experiment", cfg.name},
              {"description", cfg.description},
              {"config_file", cfg.file.string()},
              {"config_text", cfg.text},
              {"config_crc32", crc32_hex(cfg.text)},
              {"base_seed", cfg.seed},
              {"trials", cfg.trials},
              {"seed_scheme", kSeedScheme},
              {"data_root", cfg.data_root.string()},
              {"grid", grid},
              {"runs", json::array()}};
}

bool same_work(const json& a, const json& b) {
  return a.value("config_crc32", "") == b.value("config_crc32", "") && a.contains("grid") && b.contains("grid") &&
         a["grid"] == b["grid"];
}

std::optional<json> read_manifest(const fs::path& exp_dir) {
  const fs::path file = exp_dir / "manifest.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  const std::string fix =
      "restore it from the run that wrote it; or remove it to start this directory's run records afresh "
      "(cell files are kept and reused by fingerprint)";
  json m;
  try {
    m = json::parse(read_text_file(file));
  } catch (const std::exception& e) {
    throw InputError(file.string(), std::string("not readable JSON (") + e.what() + ")", fix);
  }
  auto fail = [&](const std::string& problem) {
    throw InputError(file.string(), "not a dpclust manifest: " + problem, fix);
  };
  if (!m.is_object()) fail("it is " + type_name(m) + ", not an object");
  const std::pair<const char*, Kind> keys[] = {{"schema", Kind::string},      {"experiment", Kind::string},
                                               {"description", Kind::string}, {"config_file", Kind::string},
                                               {"config_text", Kind::string}, {"config_crc32", Kind::string},
                                               {"trials", Kind::integer},     {"data_root", Kind::string},
                                               {"grid", Kind::array},         {"runs", Kind::array}};
  for (const auto& [key, kind] : keys)
    if (auto p = key_problem(m, "", key, kind); !p.empty()) fail(p);
  // randomness (absent in manifests written before it existed: seeded). A secure run has no seed.
  if (auto p = key_problem(m, "", "randomness", Kind::string, false); !p.empty()) fail(p);
  const std::string randomness = m.value("randomness", std::string("seeded"));
  if (randomness != "seeded" && randomness != "secure")
    fail("'randomness' is '" + randomness.substr(0, 60) + "', expected seeded or secure");
  for (const char* key : {"base_seed", "seed_scheme"}) {
    if (randomness == "secure" && m.contains(key))
      fail(std::string("'") + key + "' is present in a manifest of randomness: secure");
    if (auto p = key_problem(m, "", key, std::string(key) == "base_seed" ? Kind::unsigned_integer : Kind::string,
                             randomness == "seeded");
        !p.empty())
      fail(p);
  }
  if (auto p = key_problem(m, "", "config_path", Kind::string, false); !p.empty()) fail(p);
  if (m["schema"] != kManifestSchema)
    fail("schema is '" + m["schema"].get<std::string>() + "', expected '" + kManifestSchema + "'");
  // Names read from a file become paths (merge writes OUT/<experiment>/cells/<id>.json): untrusted.
  const std::string name = m["experiment"];
  if (!is_safe_name(name))
    throw InputError(file.string() + " experiment",
                     "experiment name '" + name.substr(0, 60) +
                         "' is not a safe folder name (letters, digits, _ . - only, not '.' or '..', "
                         "at most 200 characters)",
                     "this manifest was not written by dpclust or was edited: rerun the experiment from its config");
  for (std::size_t i = 0; i < m["grid"].size(); ++i) {
    const json& e = m["grid"][i];
    const std::string at = "grid[" + std::to_string(i) + "]";
    if (!e.is_object()) fail("'" + at + "' is " + type_name(e) + ", expected an object");
    for (const auto& [key, kind] : {std::pair{"index", Kind::unsigned_integer}, std::pair{"id", Kind::string},
                                    std::pair{"key", Kind::string}, std::pair{"fingerprint", Kind::string}})
      if (auto p = key_problem(e, at, key, kind); !p.empty()) fail(p);
    if (!is_cell_id(e["id"]))
      throw InputError(file.string() + " " + at + ".id",
                       "cell id '" + e["id"].get<std::string>().substr(0, 60) + "' is not 16 hex digits",
                       "this manifest was not written by dpclust or was edited: rerun the experiment from its config");
  }
  for (const auto& r : m["runs"])
    if (!r.is_object()) fail("'runs' holds " + type_name(r) + ", expected objects");
  return m;
}

std::optional<json> read_skipped_cell(const fs::path& exp_dir, const std::string& id, const std::string& fingerprint) {
  const fs::path file = exp_dir / "skipped" / (id + ".json");
  std::error_code ec;
  if (!is_cell_id(id) || !fs::is_regular_file(file, ec) || fs::file_size(file, ec) > (1u << 20)) return std::nullopt;
  try {
    json j = json::parse(read_text_file(file));
    if (!j.is_object() || j.value("fingerprint", std::string()) != fingerprint) return std::nullopt;
    j.erase("when");  // results.json is the same for every run of the same config
    j.erase("fingerprint");
    return j;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<json> assemble_results_json(const fs::path& exp_dir) {
  auto manifest = read_manifest(exp_dir);
  if (!manifest) return std::nullopt;
  json cells = json::array();
  json skipped = json::array();
  json datasets = json::object();
  std::set<std::string> commits;
  for (const auto& entry : (*manifest)["grid"]) {
    json cell;
    if (check_cell(exp_dir, entry["id"], entry["fingerprint"], &cell).state != CellCheck::State::valid) {
      // `run --keep-going` recorded this cell as one that cannot run (its reason and fix): the results are
      // complete without it and say so; any other missing cell means the grid is not finished.
      if (auto skip = read_skipped_cell(exp_dir, entry["id"], entry["fingerprint"])) {
        skipped.push_back(std::move(*skip));
        continue;
      }
      return std::nullopt;
    }
    const std::string ds = cell["dataset"];
    if (!datasets.contains(ds)) datasets[ds] = cell["data"];
    // The set of records the cell read (store/accounting.hpp): the files' content or the generator, its
    // selection, and the secure sample it drew (cells computed by other runs may have drawn another).
    cell["record_set"] = record_set_of(cell["data"], ds);
    cell.erase("data");
    // The checksum covers timings and hosts: it belongs to the cell file, not to results.json, whose
    // content must be identical for every run of the same config.
    cell.erase("checksum");
    // What the cell's trials spent together (store/accounting.hpp): derived from the stored ledgers
    // here, so a run and a merge of shards give the same numbers.
    cell["privacy_spent"] = cell_privacy_spent(cell);
    commits.insert(cell["computed_by"].value("git_commit", "unknown"));
    cells.push_back(std::move(cell));
  }
  const auto& b = build_info();
  const json& m = *manifest;
  json results{{"schema", "dpclust.results/1"}, {"experiment", m["experiment"]}, {"description", m["description"]},
               {"trials", m["trials"]},         {"datasets", datasets},          {"cells", cells}};
  // Seeds and randomness (docs/results.md): a seeded run records its base seed and scheme and is reproducible; a
  // secure one records neither (there is none) and says it cannot be reproduced.
  const std::string randomness = m.value("randomness", std::string("seeded"));
  results["randomness"] = randomness;
  results["reproducible"] = randomness == "seeded";
  if (randomness == "seeded") {
    results["base_seed"] = m["base_seed"];
    results["seed_scheme"] = m["seed_scheme"];
  }
  // Cells recorded by `run --keep-going` as unable to run, in grid order, with reason and fix.
  if (!skipped.empty()) results["skipped_cells"] = skipped;
  // Sequential composition of every trial of every cell, per dataset (store/accounting.hpp).
  results["privacy_accounting"] = privacy_accounting(cells);
  // Which fields are the release and which evaluate it on the true data (store/release_view.hpp).
  results["field_roles"] = field_roles();
  results["provenance"] = {{"config_file", m["config_file"]},
                           {"config_text", m["config_text"]},
                           {"config_crc32", m["config_crc32"]},
                           {"data_root", m["data_root"]},
                           {"runs", m["runs"]},
                           {"cell_git_commits", json(std::vector<std::string>(commits.begin(), commits.end()))},
                           {"assembled_by",
                            {{"version", b.version},
                             {"git_commit", b.git_commit},
                             {"compiler", b.compiler},
                             {"build_type", b.build_type},
                             {"host", b.host},
                             {"at", utc_now_iso8601()}}}};
  return results;
}

bool assemble_results(const fs::path& exp_dir) {
  auto results = assemble_results_json(exp_dir);
  if (!results) return false;
  write_file_atomic(exp_dir / "results.json", results->dump(1) + "\n");
  return true;
}

bool results_current(const fs::path& exp_dir) {
  const fs::path file = exp_dir / "results.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) return false;
  auto want = assemble_results_json(exp_dir);
  if (!want) return false;
  json have;
  try {
    have = json::parse(read_text_file(file));
  } catch (const std::exception&) {
    return false;
  }
  if (!have.is_object() || !have.contains("provenance") || !have["provenance"].is_object()) return false;
  have["provenance"].erase("assembled_by");
  (*want)["provenance"].erase("assembled_by");
  return have == *want;
}

json strip_nondeterministic(json j) {
  if (j.is_object()) {
    for (const char* k : {"timing", "provenance", "computed_by", "runs"}) j.erase(k);
    for (auto& [k, v] : j.items()) v = strip_nondeterministic(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = strip_nondeterministic(v);
  }
  return j;
}

FileLock& FileLock::operator=(FileLock&& o) noexcept {
  if (this != &o) {
    release();
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

FileLock FileLock::acquire(const fs::path& file, bool exclusive, bool wait) {
  FileLock lock;
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    if (err == EACCES || err == EPERM || err == EROFS)
      throw InputError(file.parent_path().string(),
                       std::string("cannot write to this results directory (") + std::strerror(err) + ")",
                       "make it writable (chmod -R u+w), or write the results somewhere else with --out");
    throw std::runtime_error("cannot open lock file " + file.string() + ": " + std::strerror(err));
  }
  const int op = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB);
  int rc;
  while ((rc = ::flock(fd, op)) != 0 && errno == EINTR) {}
  if (rc != 0) {
    const int err = errno;
    ::close(fd);
    if (!wait && err == EWOULDBLOCK) return lock;  // held by someone else
    throw std::runtime_error("cannot lock " + file.string() + ": " + std::strerror(err));
  }
  lock.fd_ = fd;
  return lock;
}

void FileLock::release() {
  if (fd_ >= 0) {
    ::close(fd_);  // closing the last descriptor of the open file releases the flock
    fd_ = -1;
  }
}

bool ExperimentLocks::other_run_active(const fs::path& exp_dir) {
  FileLock probe = FileLock::acquire(active_file(exp_dir), /*exclusive=*/true, /*wait=*/false);
  return !probe.held();
}

}  // namespace dpclust
