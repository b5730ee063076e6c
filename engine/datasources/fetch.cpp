#include "datasources/fetch.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>

#include <zlib.h>

#include "core/error.hpp"
#include "core/files.hpp"
#include "data/points_csv.hpp"
#include "datasources/archive.hpp"
#include "datasources/derivations.hpp"
#include "datasources/download.hpp"
#include "datasources/sha256.hpp"
#include "config/config.hpp"
#include "loading/dataset_loading.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

fs::path default_data_root(const std::string& explicit_root) { return resolve_data_root(explicit_root); }

std::string default_mirror(const std::string& explicit_mirror) {
  if (!explicit_mirror.empty()) return explicit_mirror;
  if (const char* env = std::getenv("DPCLUST_MIRROR"); env && *env) return env;
  return "";
}

const char* to_string(DataStatus status) {
  switch (status) {
    case DataStatus::ok: return "ok";
    case DataStatus::recorded: return "ok (unpinned; matches its fetch record)";
    case DataStatus::unverified: return "present (unpinned; no fetch record)";
    case DataStatus::missing: return "missing";
    case DataStatus::mismatch: return "checksum mismatch";
    case DataStatus::damaged: return "damaged";
  }
  return "?";
}

namespace {

fs::path record_path(const DatasetSource& s, const fs::path& root) {
  return fetch_record_path(root, s.data_file);
}

std::string file_checksum(const DatasetSource& s, const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return s.compressed() ? sha256_gunzipped_file(path, gunzip_bound(s, ec ? 0 : size)) : sha256_file(path);
}

// What identifies one version of a file on disk without reading it. ctime is in it because no user
// call can set it back (touch -d can set mtime), so rewriting a file in place always changes it.
nlohmann::json file_identity(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return nullptr;
  auto ns = [](const timespec& t) { return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec; };
  return {{"size", static_cast<std::uint64_t>(st.st_size)}, {"mtime_ns", ns(st.st_mtim)}, {"ctime_ns", ns(st.st_ctim)},
          {"inode", static_cast<std::uint64_t>(st.st_ino)}, {"device", static_cast<std::uint64_t>(st.st_dev)}};
}

fs::path checked_path(const DatasetSource& s, const fs::path& root) {
  return root / ".dpclust" / "checked" / (s.data_file + ".json");
}

// The checksum computed earlier for exactly this version of the file ("" when none).
std::string cached_checksum(const DatasetSource& s, const fs::path& root, const nlohmann::json& identity) {
  std::error_code ec;
  const fs::path p = checked_path(s, root);
  if (identity.is_null() || !fs::is_regular_file(p, ec)) return "";
  try {
    const auto j = nlohmann::json::parse(read_text_file(p));
    if (j.value("identity", nlohmann::json()) != identity) return "";
    const std::string sha = j.value("sha256", std::string());
    return is_sha256_hex(sha) ? sha : "";
  } catch (const std::exception&) {
    return "";  // a damaged cache only costs a hash
  }
}

// Best effort: a read-only data root (or a full disk) only loses the cache.
void remember_checksum(const DatasetSource& s, const fs::path& root, const fs::path& path, const std::string& sha256) {
  try {
    const nlohmann::json id = file_identity(path);
    if (id.is_null() || !is_sha256_hex(sha256)) return;
    const fs::path p = checked_path(s, root);
    fs::create_directories(p.parent_path());
    write_file_atomic(p, nlohmann::json{{"identity", id}, {"sha256", sha256}}.dump(2) + "\n");
  } catch (const std::exception&) {
  }
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One fetch at a time per data root: a second `dpclust data fetch` (or a second dataset needing the
// same downloads) waits for the first and then finds its files in place, instead of both writing the
// same .part files.
class DataRootLock {
 public:
  DataRootLock(const fs::path& root, std::ostream* log) {
    fs::create_directories(root / ".dpclust");
    path_ = root / ".dpclust" / "fetch.lock";
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw InputError(path_.string(), "cannot create the fetch lock", "check that the data root is writable");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      if (log) *log << "  waiting for another `dpclust data fetch` using " << root.string() << " to finish ...\n" << std::flush;
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  ~DataRootLock() {
    if (fd_ >= 0) {
      ::flock(fd_, LOCK_UN);
      ::close(fd_);
    }
  }
  DataRootLock(const DataRootLock&) = delete;
  DataRootLock& operator=(const DataRootLock&) = delete;

 private:
  fs::path path_;
  int fd_ = -1;
};

// Temporary files of earlier fetches that were killed: only this process writes under the lock, so any
// "<file>.tmp.*" beside the target is stale.
void remove_stale_temporaries(const fs::path& target) {
  std::error_code ec;
  const fs::path dir = target.parent_path();
  if (!fs::is_directory(dir, ec)) return;
  const std::string prefix = target.filename().string() + ".tmp.";
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) fs::remove(e.path(), ec);
}

fs::path temporary_for(const fs::path& target) { return fs::path(target.string() + ".tmp." + std::to_string(::getpid())); }

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

bool file_matches(const SourceFile& f, const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  if (f.size && fs::file_size(path, ec) != f.size) return false;
  if (!f.git_blob.empty() && git_blob_file(path) != f.git_blob) return false;
  return f.sha256.empty() || sha256_file(path) == f.sha256;
}

// Data lines of a CSV file with a header (line count minus one; a missing final newline still counts).
std::uint64_t csv_records(const fs::path& p) {
  std::FILE* f = std::fopen(p.c_str(), "rb");
  if (!f) throw InputError(p.string(), "cannot read");
  std::vector<char> buf(1 << 20);
  std::uint64_t lines = 0;
  std::size_t got = 0;
  char last = '\n';
  while ((got = std::fread(buf.data(), 1, buf.size(), f)) > 0) {
    for (std::size_t i = 0; i < got; ++i) lines += buf[i] == '\n';
    last = buf[got - 1];
  }
  std::fclose(f);
  if (last != '\n') ++lines;
  return lines ? lines - 1 : 0;
}

// `options: {select_rows: N}`: the one member file with exactly N records, so that a registry can name
// a dataset by the size the paper states when it does not say which file that is.
fs::path select_by_rows(const DatasetSource& s, const std::vector<fs::path>& members) {
  const std::string want_text = s.options["select_rows"].is_string() ? s.options["select_rows"].get<std::string>() : "";
  std::uint64_t want = 0;
  try {
    want = std::stoull(want_text);
  } catch (const std::exception&) {
    throw InputError(s.where, "options.select_rows must be a record count, got '" + want_text + "'");
  }
  std::vector<fs::path> hits;
  std::string counts;
  for (const auto& m : members) {
    const std::uint64_t n = csv_records(m);
    counts += (counts.empty() ? "" : ", ") + m.filename().string() + " " + std::to_string(n);
    if (n == want) hits.push_back(m);
  }
  if (hits.size() != 1)
    throw InputError(s.where, std::to_string(hits.size()) + " member files have exactly " + want_text + " records (" + counts + ")",
                     "replace options.select_rows by an explicit members: list of the files to use");
  return hits[0];
}

// A copy published gzip-compressed (connect.dat.gz in a public repository): its text, inflated within
// the entry's stated size (plus 1/16), else 64 x the compressed size, so a bomb ends early; a stream
// cut short or corrupt is an InputError (the same checks as sha256_gunzipped_file).
DerivationReport derive_gunzip(const DatasetSource& s, const fs::path& in, const fs::path& out) {
  std::error_code ec;
  const auto compressed = fs::file_size(in, ec);
  const std::uint64_t bound = s.bytes ? s.bytes + s.bytes / 16 + (1 << 20) : std::max<std::uint64_t>(ec ? 0 : compressed, 1 << 20) * kMaxGzipExpansion;
  gzFile g = gzopen(in.c_str(), "rb");
  if (!g) throw InputError(in.string(), "cannot open as gzip");
  std::FILE* f = std::fopen(out.c_str(), "wb");
  if (!f) {
    gzclose(g);
    throw InputError(out.string(), std::string("cannot write: ") + std::strerror(errno), "check that the data root is writable");
  }
  std::vector<char> buf(1 << 20);
  std::uint64_t total = 0, lines = 0;
  int got = 0;
  bool too_big = false, write_failed = false;
  while ((got = gzread(g, buf.data(), static_cast<unsigned>(buf.size()))) > 0) {
    total += static_cast<std::uint64_t>(got);
    if (total > bound) {
      too_big = true;
      break;
    }
    for (int i = 0; i < got; ++i) lines += buf[static_cast<std::size_t>(i)] == '\n';
    write_failed = write_failed || std::fwrite(buf.data(), 1, static_cast<std::size_t>(got), f) != static_cast<std::size_t>(got);
  }
  int err = Z_OK;
  const char* msg = gzerror(g, &err);
  const std::string what = msg ? msg : "";
  gzclose(g);
  write_failed = std::fclose(f) != 0 || write_failed;
  if (too_big) throw InputError(in.string(), "inflates to more than " + std::to_string(bound) + " bytes, the bound for this file", "this is not the expected file");
  if (got < 0 || err != Z_OK) throw InputError(in.string(), "corrupt gzip data (" + what + ")", "fetch it again, or from another source");
  if (write_failed) throw InputError(out.string(), "write failed", "check the data root's file system (space, permissions)");
  DerivationReport rep;
  rep.rows_read = lines;
  rep.rows_written = lines;
  return rep;
}

// Runs the named derivation of a source on its (downloaded, extracted) inputs.
DerivationReport run_derivation(const DatasetSource& s, const std::vector<fs::path>& inputs, const fs::path& out) {
  auto single = [&]() -> const fs::path& {
    if (inputs.size() != 1)
      throw InputError(s.where, "derivation '" + s.derivation + "' takes one input, got " + std::to_string(inputs.size()));
    return inputs[0];
  };
  if (s.derivation == "cabs_positions") return derive_cabs_positions(inputs, out);
  if (s.derivation == "cabs_pickups_dropoffs") return derive_cabs_pickups_dropoffs(inputs, out);
  if (s.derivation == "nyc_crash")
    return derive_nyc_crash(single(), out,
                            s.options.contains("last_crash_date")
                                ? parse_crash_cutoff(s.where, s.options["last_crash_date"].get<std::string>())
                                : 0);
  if (s.derivation == "har70") return derive_har70(inputs, out);
  if (s.derivation == "sklearn_iris") return derive_sklearn_iris(single(), out);
  if (s.derivation == "gunzip") return derive_gunzip(s, single(), out);
  if (s.derivation == "concat_csv") return derive_concat_csv(inputs, out);
  throw InputError(s.where, "unknown derivation '" + s.derivation + "'");
}

// The points of a generated dataset: the registry entry's built-in generator, exactly as `dpclust run`
// would use it when the file is absent.
std::string generated_text(const DatasetSource& s, const fs::path& root) {
  const ExperimentConfig cfg = parse_config("experiment: fetch\ndatasets: [{name: " + s.name + "}]\nmethods: [dbscan]\n",
                                            registry_path().string(), fs::current_path(), root);
  DatasetSpec spec = cfg.datasets.at(0);
  spec.resolved.clear();  // generate even when a file is present (e.g. to verify it)
  spec.file.clear();
  if (!spec.fallback_available) throw InputError(s.where, "the entry has no fallback generator");
  spec.bounds_mode = "none";  // the file holds the generator's output, not a domain-checked copy
  return points_csv_text(materialize_dataset(spec));
}

}  // namespace

static FetchOutcome fetch_dataset_locked(const DatasetSource& s, const FetchOptions& opt);

// Trust on first fetch (issue 23): an unpinned file (Crash, a live export) has no checksum to verify, so
// its first fetch's checksum is kept in every later record (`first_fetch`). A later fetch that gives a
// different file is not taken silently: it is reported here, in the outcome (`data fetch` repeats it at
// the end) and in the record (`differs_from_first_fetch`), and the earlier file, if it was still there,
// was set aside (.rejected-<time>), never deleted. Results carry the data file's checksum, so results
// from the two files cannot be mixed up.
static void note_first_fetch(const DatasetSource& s, const fs::path& root, FetchOutcome& outcome, nlohmann::json& record,
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
  outcome.warning = s.name + ": this fetch gave a different file than the first fetch (" + first.value("fetched_at", std::string("?")) +
                    ", SHA-256 " + first["sha256"].get<std::string>() + "); now SHA-256 " + outcome.sha256 +
                    ". The source changed (a live data set, or rows corrected upstream): results computed before and after are not "
                    "comparable; both checksums are in " + record_path(s, root).string();
  log << "  WARNING: " << outcome.warning << "\n";
}
static FetchOutcome fetch_from_source(const DatasetSource& s, const FetchOptions& opt, const nlohmann::json& provenance,
                                      std::chrono::steady_clock::time_point t0);

std::uint64_t gunzip_bound(const DatasetSource& s, std::uint64_t compressed_bytes) {
  // A download's `size` is of the compressed file; a derived .gz states the size of its text in `bytes`.
  if (s.kind != SourceKind::download && s.bytes) return s.bytes + s.bytes / 16 + (1 << 20);
  return std::max<std::uint64_t>(compressed_bytes, 1 << 20) * kMaxGzipExpansion;
}

DatasetState dataset_state(const DatasetSource& s, const fs::path& root, bool use_cache) {
  DatasetState st;
  st.source = &s;
  st.path = root / s.data_file;
  struct stat info {};
  if (::stat(st.path.c_str(), &info) != 0) {
    if (errno != ENOENT && errno != ENOTDIR) {
      st.status = DataStatus::damaged;
      st.problem = std::string("cannot be read: ") + std::strerror(errno);
    }
    return st;
  }
  if (!S_ISREG(info.st_mode)) {
    st.status = DataStatus::damaged;
    st.problem = S_ISDIR(info.st_mode) ? "is a folder, not a data file" : "is not a regular file (a FIFO, device or socket)";
    return st;
  }
  st.bytes_on_disk = static_cast<std::uint64_t>(info.st_size);
  if (st.bytes_on_disk == 0) {
    st.status = DataStatus::damaged;
    st.problem = "is empty (0 bytes)";
    return st;
  }
  const nlohmann::json identity = file_identity(st.path);
  if (use_cache) st.sha256 = cached_checksum(s, root, identity);
  if (st.sha256.empty()) {
    try {
      st.sha256 = file_checksum(s, st.path);
    } catch (const InputError& e) {
      st.status = DataStatus::damaged;
      st.problem = e.problem();
      return st;
    }
    if (file_identity(st.path) == identity) remember_checksum(s, root, st.path, st.sha256);
  }
  if (s.pinned()) {
    st.expected = s.sha256;
    st.status = st.sha256 == s.sha256 ? DataStatus::ok : DataStatus::mismatch;
    return st;
  }
  const nlohmann::json rec = read_record(s, root);
  if (rec.is_object() && rec.contains("sha256")) {
    st.expected = rec["sha256"].get<std::string>();
    st.status = st.sha256 == st.expected ? DataStatus::recorded : DataStatus::mismatch;
  } else {
    st.status = DataStatus::unverified;
  }
  return st;
}

nlohmann::json read_record(const DatasetSource& s, const fs::path& root) {
  std::error_code ec;
  const fs::path p = record_path(s, root);
  if (!fs::is_regular_file(p, ec)) return nullptr;
  try {
    return nlohmann::json::parse(read_text_file(p));
  } catch (const std::exception&) {
    return nullptr;  // a damaged record only loses the comparison for unpinned sources
  }
}

std::vector<const DatasetSource*> select_sources(const std::vector<DatasetSource>& all, const std::vector<std::string>& names) {
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

static FetchOutcome fetch_dataset_locked(const DatasetSource& s, const FetchOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  std::ostream& log = opt.log ? *opt.log : std::cout;
  FetchOutcome outcome;
  outcome.name = s.name;
  const fs::path root = opt.data_root;
  DataRootLock lock(root, &log);
  const fs::path target = root / s.data_file;
  remove_stale_temporaries(target);

  // Already there? (Possibly fetched by the process we just waited for.)
  const DatasetState before = dataset_state(s, root);
  if (before.status == DataStatus::ok || before.status == DataStatus::recorded || before.status == DataStatus::unverified) {
    outcome.sha256 = before.sha256;
    outcome.seconds = seconds_since(t0);
    return outcome;
  }
  if (before.status == DataStatus::mismatch || before.status == DataStatus::damaged) {
    if (!opt.replace_mismatched)
      throw InputError(target.string(),
                       before.status == DataStatus::damaged
                           ? before.problem
                           : "checksum mismatch: SHA-256 " + before.sha256 + ", the registry " + (s.pinned() ? "pins " : "recorded ") +
                                 before.expected,
                       "this is not the published file; `dpclust data fetch " + s.name +
                           " --replace` sets it aside (as .rejected-<time>) and fetches the real one");
    log << "  " << s.name << ": setting aside the " << (before.status == DataStatus::damaged ? "damaged" : "mismatched") << " file as "
        << set_aside(target).string() << "\n";
  }

  // The sources in the registry's order (issue 23): a failure of one (HTTP error, checksum mismatch, a
  // refusal of a hostile server's answer, a derivation that does not give the pinned file) is reported
  // and the next one is tried; the record says which one gave the file and why the earlier ones did not.
  const auto candidates = s.all_sources();
  auto failures = nlohmann::json::array();
  std::string failure_text;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const DatasetSource& src = *candidates[i];
    const nlohmann::json provenance = {
        {"source", {{"index", i + 1}, {"of", candidates.size()}, {"origin", src.origin()}}}, {"sources_failed", failures}};
    if (candidates.size() > 1) log << "  " << s.name << ": source " << i + 1 << " of " << candidates.size() << ": " << src.origin() << "\n" << std::flush;
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
  throw InputError(s.where, "none of the " + std::to_string(candidates.size()) + " sources of '" + s.name + "' gave the file:" + failure_text,
                   "each source's own fix is above; a mirror (--mirror URL) must hold MIRROR/<host>/<path> for one of them");
}

static FetchOutcome fetch_from_source(const DatasetSource& s, const FetchOptions& opt, const nlohmann::json& provenance,
                                      std::chrono::steady_clock::time_point t0) {
  std::ostream& log = opt.log ? *opt.log : std::cout;
  FetchOutcome outcome;
  outcome.name = s.name;
  const fs::path root = opt.data_root;
  const fs::path target = root / s.data_file;
  nlohmann::json record = {{"dataset", s.name},
                           {"data_file", s.data_file},
                           {"kind", to_string(s.kind)},
                           {"citation", s.citation},
                           {"fetched_at", utc_now_iso8601()},
                           {"dpclust", build_info().version + " (git " + build_info().git_commit + ")"}};
  // Without any user:password@: the record is copied into results.json's provenance, which is shared.
  if (!opt.mirror.empty()) record["mirror"] = url_for_messages(opt.mirror);
  record.update(provenance);
  fs::create_directories(target.parent_path());
  const bool show = opt.progress;

  if (s.kind == SourceKind::download) {
    const SourceFile& f = s.inputs.at(0);
    TransferProgress progress("  " + s.name, f.size, show);
    DownloadOptions dopt = download_options_from_environment();
    dopt.progress = &progress;
    // A .gz data file must inflate completely, within its bound, before it gets its name: a stream cut
    // in half, a corrupt one or a bomb is rejected here and never placed (the checksum is kept, so the
    // file is inflated once).
    std::string text_sha256;
    if (s.compressed()) dopt.check = [&](const fs::path& part) { text_sha256 = file_checksum(s, part); };
    const DownloadResult r = download_file({mirrored_url(f.url, opt.mirror), f.url, target, f.sha256, f.size, f.git_blob}, dopt);
    progress.finish();
    outcome.bytes_downloaded = r.bytes - r.resumed_from;
    outcome.sha256 = s.compressed() ? text_sha256 : r.sha256;
    record["inputs"] = nlohmann::json::array({{{"url", f.url}, {"sha256", r.sha256}, {"bytes", r.bytes}, {"resumed_from", r.resumed_from}}});
    if (!r.git_blob.empty()) record["inputs"][0]["git_blob"] = r.git_blob;
  } else if (s.kind == SourceKind::derived) {
    // 1. Inputs, kept under downloads/ in the mirror layout (shared by datasets derived from the same files).
    std::uint64_t present_bytes = 0;
    std::vector<const SourceFile*> needed;
    std::vector<fs::path> input_paths;
    for (const auto& f : s.inputs) {
      fs::path p = root / f.download_path();
      if (!file_matches(f, p))
        for (const auto& copy : f.local_copies)
          if (file_matches(f, copy)) {
            log << "  " << s.name << ": using the local copy " << copy << " (same SHA-256 as " << f.url << ")\n";
            p = copy;
            break;
          }
      // An unpinned archive under downloads/ is reused only when it reads to its end: a malformed one
      // (a broken server's, or a killed extraction's) is removed and fetched again.
      if (f.sha256.empty() && !s.members.empty() && file_matches(f, p)) {
        try {
          check_archive(p);
        } catch (const InputError& e) {
          log << "  " << s.name << ": " << p.string() << " is not a readable archive (" << e.problem() << "); fetching it again\n";
          std::error_code ec;
          fs::remove(p, ec);
        }
      }
      input_paths.push_back(p);
      if (file_matches(f, p)) present_bytes += f.size;
      else needed.push_back(&f);
    }
    auto inputs_json = nlohmann::json::array();
    if (!needed.empty()) {
      std::uint64_t total = 0;
      for (const auto* f : needed) total = f->size && total != UINT64_MAX ? total + f->size : UINT64_MAX;
      log << "  " << s.name << ": downloading " << needed.size() << " of " << s.inputs.size() << " input file(s)"
          << (total != UINT64_MAX ? " (" + human_bytes(total) + ")" : "") << "\n" << std::flush;
      TransferProgress progress("  " + s.name, total == UINT64_MAX ? 0 : total, show);
      DownloadOptions dopt = download_options_from_environment();
      dopt.progress = &progress;
      // An archive is read to its end before it is placed, so a malformed one never stands under downloads/.
      const bool archive = !s.members.empty();
      for (const auto* f : needed) {
        dopt.check = nullptr;
        if (archive && f->sha256.empty())
          dopt.check = [](const fs::path& part) {
            std::error_code ec;
            const auto bytes = fs::file_size(part, ec);
            check_archive(part, std::max<std::uint64_t>(ec ? 0 : bytes, 1 << 20) * kMaxGzipExpansion);
          };
        const DownloadResult r =
            download_file({mirrored_url(f->url, opt.mirror), f->url, root / f->download_path(), f->sha256, f->size, f->git_blob}, dopt);
        outcome.bytes_downloaded += r.bytes - r.resumed_from;
        if (f->sha256.empty()) {
          inputs_json.push_back({{"url", f->url}, {"sha256", r.sha256}, {"bytes", r.bytes}});
          if (!r.git_blob.empty()) inputs_json.back()["git_blob"] = r.git_blob;
        }
      }
      progress.finish();
    }
    if (s.inputs.size() <= 8)
      for (const auto& f : s.inputs)
        if (!f.sha256.empty()) inputs_json.push_back({{"url", f.url}, {"sha256", f.sha256}, {"bytes", f.size}});
    if (s.inputs.size() > 8) inputs_json.push_back({{"files", s.inputs.size()}, {"all_pinned", true}, {"first_url", s.inputs.front().url}});
    record["inputs"] = inputs_json;

    // 2. Archive members.
    std::vector<fs::path> derive_from = input_paths;
    if (!s.members.empty()) {
      if (input_paths.size() != 1) throw InputError(s.where, "members can be extracted from exactly one archive input");
      const fs::path dir = fs::path(input_paths[0].string() + ".d");
      // Unpacked members are bounded like an inflated gzip: 64 x the archive's size (a zip bomb ends here).
      std::error_code ec;
      const auto archive_bytes = fs::file_size(input_paths[0], ec);
      extract_members(input_paths[0], dir, s.members, std::max<std::uint64_t>(ec ? 0 : archive_bytes, 1 << 20) * kMaxGzipExpansion);
      // The registry's order of members (the derivation writes them in that order).
      derive_from.clear();
      for (const auto& m : s.members) derive_from.push_back(dir / m);
    }
    // The participant files may come unpacked from an archive or one by one (HAR70+'s pinned copies).
    if (s.options.contains("select_rows")) derive_from = {select_by_rows(s, derive_from)};

    // 3. Derive into a temporary, verify, place.
    log << "  " << s.name << ": deriving " << s.data_file << " (" << s.derivation << ")\n" << std::flush;
    const fs::path tmp = temporary_for(target);
    DerivationReport rep;
    try {
      rep = run_derivation(s, derive_from, tmp);
      outcome.sha256 = file_checksum(s, tmp);
    } catch (...) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw;
    }
    record["derivation"] = {{"name", s.derivation}, {"rows_read", rep.rows_read}, {"rows_written", rep.rows_written}, {"details", rep.details}};
    if (s.pinned() && outcome.sha256 != s.sha256) {
      fs::remove(tmp);
      throw InputError(target.string(), "derivation '" + s.derivation + "' produced SHA-256 " + outcome.sha256 + " (" +
                                            std::to_string(rep.rows_written) + " rows), expected " + s.sha256 + "; nothing was written",
                       "the inputs verified, so this is a bug in the derivation or a changed registry entry: please report it");
    }
    if (!rep.details.empty()) log << "  " << s.name << ": " << rep.details.dump() << "\n";
    fs::rename(tmp, target);
  } else {
    log << "  " << s.name << ": generating " << s.data_file << " (built-in generator, no download)\n" << std::flush;
    const std::string text = generated_text(s, root);
    outcome.sha256 = sha256_hex(text);
    if (s.pinned() && outcome.sha256 != s.sha256)
      throw InputError(s.where, "the generator produced SHA-256 " + outcome.sha256 + ", expected " + s.sha256 + "; nothing was written",
                       "this is a bug in the generator (it must follow numpy's RandomState stream exactly): please report it");
    write_file_atomic(target, text);
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
  write_file_atomic(record_path(s, root), record.dump(2) + "\n");
  outcome.record = record;
  outcome.fetched = true;
  return outcome;
}

}  // namespace dpclust::datasources
