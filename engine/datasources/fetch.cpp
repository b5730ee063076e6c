#include "datasources/fetch.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <iostream>
#include <system_error>

#include "core/error.hpp"
#include "core/files.hpp"
#include "datasources/checksum_cache.hpp"
#include "datasources/dataset_state.hpp"
#include "datasources/fetch_kinds.hpp"
#include "datasources/fetch_lock.hpp"
#include "datasources/urls.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

fs::path temporary_for(const fs::path& target) {
  return fs::path(target.string() + ".tmp." + std::to_string(::getpid()));
}

void remove_stale_temporaries(const fs::path& target) {
  std::error_code ec;
  const fs::path dir = target.parent_path();
  if (!fs::is_directory(dir, ec)) return;
  const std::string prefix = target.filename().string() + ".tmp.";
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) fs::remove(e.path(), ec);
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Moves the file aside rather than deleting it: it may be the user's own copy.
fs::path set_aside(const fs::path& path) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  const fs::path aside = fs::path(path.string() + ".rejected-" + stamp);
  fs::rename(path, aside);
  return aside;
}

// Trust on first fetch: an unpinned file (Crash, a live export) has no checksum to verify, so its first
// fetch's checksum is kept in every later record (`first_fetch`). A later fetch that gives a different
// file is not taken silently: it is reported here, in the outcome (`data fetch` repeats it at the end) and
// in the record (`differs_from_first_fetch`), and the earlier file, if it was still there, was set aside
// (.rejected-<time>), never deleted. Results carry the data file's checksum, so results from the two files
// cannot be mixed up.
void note_first_fetch(const DatasetSource& s, const fs::path& root, FetchOutcome& outcome, nlohmann::json& record,
                      std::ostream& log) {
  const nlohmann::json previous = read_record(s, root);  // the record this fetch is about to replace
  nlohmann::json first = {{"sha256", outcome.sha256}, {"fetched_at", record["fetched_at"]}};
  if (previous.is_object() && previous.contains("first_fetch") && previous["first_fetch"].contains("sha256"))
    first = previous["first_fetch"];
  else if (previous.is_object() && previous.contains("sha256"))
    first = {{"sha256", previous["sha256"]}, {"fetched_at", previous.value("fetched_at", std::string())}};
  if (previous.is_object() && previous.contains("derivation") && !first.contains("rows"))
    first["rows"] = previous["derivation"].value("rows_written", std::uint64_t{0});
  record["first_fetch"] = first;
  if (first["sha256"] == outcome.sha256) return;
  record["differs_from_first_fetch"] = true;
  outcome.warning =
      s.name + ": this fetch gave a different file than the first fetch (" +
      first.value("fetched_at", std::string("?")) + ", SHA-256 " + first["sha256"].get<std::string>() +
      "); now SHA-256 " + outcome.sha256 +
      ". The source changed (a live data set, or rows corrected upstream): results computed before and after are not "
      "comparable; both checksums are in " +
      fetch_record_path(root, s.data_file).string();
  log << "  WARNING: " << outcome.warning << "\n";
}

// What every record of a fetch starts with: the dataset, when, by which build, from which of its sources.
nlohmann::json new_record(const DatasetSource& s, const FetchOptions& opt, const nlohmann::json& provenance) {
  nlohmann::json record = {{"dataset", s.name},
                           {"data_file", s.data_file},
                           {"kind", to_string(s.kind)},
                           {"citation", s.citation},
                           {"fetched_at", utc_now_iso8601()},
                           {"dpclust", build_info().version + " (git " + build_info().git_commit + ")"}};
  // Without any user:password@: the record is copied into results.json's provenance, which is shared.
  if (!opt.mirror.empty()) record["mirror"] = url_for_messages(opt.mirror);
  record.update(provenance);
  return record;
}

// One source of the dataset, by its kind; then the record of the placed file, written beside it.
FetchOutcome fetch_from_source(const DatasetSource& s, const FetchOptions& opt, const nlohmann::json& provenance,
                               std::chrono::steady_clock::time_point t0) {
  std::ostream& log = opt.log ? *opt.log : std::cout;
  FetchOutcome outcome;
  outcome.name = s.name;
  const fs::path root = opt.data_root;
  const fs::path target = root / s.data_file;
  nlohmann::json record = new_record(s, opt, provenance);
  fs::create_directories(target.parent_path());
  switch (s.kind) {
    case SourceKind::download: fetch_download(s, opt, target, outcome, record); break;
    case SourceKind::derived: fetch_derived(s, opt, target, outcome, record, log); break;
    case SourceKind::generated: fetch_generated(s, opt, target, outcome, log); break;
  }
  // The record keeps the data file's own checksum (of the uncompressed text for .gz, computed by the
  // download's check), the one `list` and `verify` compare with; the inputs above keep the checksums of
  // the downloaded bytes.
  record["sha256"] = outcome.sha256;
  remember_checksum(s, root, target, outcome.sha256);
  record["pinned"] = s.pinned();
  if (!s.pinned()) note_first_fetch(s, root, outcome, record, log);
  std::error_code ec;
  record["bytes"] = fs::file_size(target, ec);
  outcome.seconds = seconds_since(t0);
  record["seconds"] = outcome.seconds;
  write_file_atomic(fetch_record_path(root, s.data_file), record.dump(2) + "\n");
  outcome.record = record;
  outcome.fetched = true;
  return outcome;
}

// The file already there: true when it is usable as it is; a damaged or mismatched one is set aside when
// the user asked to replace it, else refused with the way to do so.
bool usable_or_set_aside(const DatasetSource& s, const FetchOptions& opt, const DatasetState& before,
                         std::ostream& log) {
  if (before.status == DataStatus::ok || before.status == DataStatus::recorded ||
      before.status == DataStatus::unverified)
    return true;
  if (before.status == DataStatus::mismatch || before.status == DataStatus::damaged) {
    if (!opt.replace_mismatched)
      throw InputError(before.path.string(),
                       before.status == DataStatus::damaged
                           ? before.problem
                           : "checksum mismatch: SHA-256 " + before.sha256 + ", the registry " +
                                 (s.pinned() ? "pins " : "recorded ") + before.expected,
                       "this is not the published file; `dpclust data fetch " + s.name +
                           " --replace` sets it aside (as .rejected-<time>) and fetches the real one");
    log << "  " << s.name << ": setting aside the " << (before.status == DataStatus::damaged ? "damaged" : "mismatched")
        << " file as " << set_aside(before.path).string() << "\n";
  }
  return false;
}

FetchOutcome fetch_dataset_locked(const DatasetSource& s, const FetchOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  std::ostream& log = opt.log ? *opt.log : std::cout;
  const fs::path root = opt.data_root;
  DataRootLock lock(root, &log);
  const fs::path target = root / s.data_file;
  remove_stale_temporaries(target);

  // Already there? (Possibly fetched by the process we just waited for.)
  const DatasetState before = dataset_state(s, root);
  if (usable_or_set_aside(s, opt, before, log)) {
    FetchOutcome outcome;
    outcome.name = s.name;
    outcome.sha256 = before.sha256;
    outcome.seconds = seconds_since(t0);
    return outcome;
  }

  // The sources in the registry's order (fetch_dataset in fetch.hpp).
  const auto candidates = s.all_sources();
  auto failures = nlohmann::json::array();
  std::string failure_text;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const DatasetSource& src = *candidates[i];
    const nlohmann::json provenance = {
        {"source", {{"index", i + 1}, {"of", candidates.size()}, {"origin", src.origin()}}},
        {"sources_failed", failures}};
    if (candidates.size() > 1)
      log << "  " << s.name << ": source " << i + 1 << " of " << candidates.size() << ": " << src.origin() << "\n"
          << std::flush;
    try {
      return fetch_from_source(src, opt, provenance, t0);
    } catch (const InputError& e) {
      if (candidates.size() == 1) throw;
      log << "  " << s.name << ": source " << i + 1 << " failed: " << e.what() << "\n" << std::flush;
      failures.push_back({{"index", i + 1}, {"origin", src.origin()}, {"error", e.what()}});
      failure_text += "\n    " + std::to_string(i + 1) + ". " + src.origin() + ": " + e.what();
      // Nothing of a failed source is carried to the next: a partial download of the data file would
      // otherwise be resumed from another server (inputs of derived sources live under their own URLs).
      std::error_code ec;
      fs::remove(fs::path(target.string() + ".part"), ec);
      remove_stale_temporaries(target);
    }
  }
  throw InputError(
      s.where,
      "none of the " + std::to_string(candidates.size()) + " sources of '" + s.name + "' gave the file:" + failure_text,
      "each source's own fix is above; a mirror (--mirror URL) must hold MIRROR/<host>/<path> for one of them");
}

}  // namespace

FetchOutcome fetch_dataset(const DatasetSource& s, const FetchOptions& opt) {
  auto tidy = [&] {
    // A failed fetch leaves no empty folder behind (remove() only removes an empty one).
    std::error_code ec;
    fs::remove((opt.data_root / s.data_file).parent_path(), ec);
  };
  try {
    return fetch_dataset_locked(s, opt);
  } catch (const fs::filesystem_error& e) {
    // A read-only data root, a file where a folder must be, a name the file system refuses: the user's
    // to fix, so exit 2 with the path and the fix, not an internal error.
    tidy();
    const std::string where = !e.path1().empty() ? e.path1().string() : opt.data_root.string();
    throw InputError(where, "cannot write the data root " + opt.data_root.string() + ": " + e.code().message(),
                     "make the data root writable, or choose another with --data-root DIR / DPCLUST_DATA_ROOT");
  } catch (...) {
    tidy();
    throw;
  }
}

std::vector<const DatasetSource*> select_sources(const std::vector<DatasetSource>& all,
                                                 const std::vector<std::string>& names) {
  std::vector<const DatasetSource*> out;
  if (names.empty()) {
    for (const auto& s : all) out.push_back(&s);
    return out;
  }
  std::vector<std::string> known;
  for (const auto& s : all) known.push_back(s.name);
  for (const auto& n : names) {
    const DatasetSource* hit = nullptr;
    for (const auto& s : all)
      if (s.name == n) hit = &s;
    if (!hit) {
      const std::string guess = closest_match(n, known);
      throw InputError("dataset '" + n + "'", "is not a registered dataset with a data file",
                       (guess.empty() ? std::string() : "did you mean '" + guess + "'? ") + "see `dpclust data list`");
    }
    out.push_back(hit);
  }
  return out;
}

}  // namespace dpclust::datasources
