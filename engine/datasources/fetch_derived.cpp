#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "datasources/archive.hpp"
#include "datasources/checksum_cache.hpp"
#include "datasources/dataset_state.hpp"
#include "datasources/download.hpp"
#include "datasources/fetch_kinds.hpp"
#include "datasources/run_derivation.hpp"
#include "datasources/sha256.hpp"
#include "datasources/transfer_progress.hpp"
#include "datasources/urls.hpp"
#include "io/byte_size.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

namespace {

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
    throw InputError(
        s.where, std::to_string(hits.size()) + " member files have exactly " + want_text + " records (" + counts + ")",
        "replace options.select_rows by an explicit members: list of the files to use");
  return hits[0];
}

// Where each input of a derived source is, and which of them must be downloaded.
struct DerivedInputs {
  std::vector<fs::path> paths;            // one per input, in the registry's order
  std::vector<const SourceFile*> needed;  // not present as the registry describes it: to download
};

// Each input under downloads/ in the mirror layout (shared by datasets derived from the same files), or a
// local copy with the same checksum.
DerivedInputs locate_inputs(const DatasetSource& s, const fs::path& root, std::ostream& log) {
  DerivedInputs in;
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
        log << "  " << s.name << ": " << p.string() << " is not a readable archive (" << e.problem()
            << "); fetching it again\n";
        std::error_code ec;
        fs::remove(p, ec);
      }
    }
    in.paths.push_back(p);
    if (!file_matches(f, p)) in.needed.push_back(&f);
  }
  return in;
}

// Downloads the missing inputs into downloads/, under one progress bar; returns what the record keeps of
// those whose checksum the registry does not pin (the checksum this download gave).
nlohmann::json download_inputs(const DatasetSource& s, const FetchOptions& opt,
                               const std::vector<const SourceFile*>& needed, FetchOutcome& outcome, std::ostream& log) {
  auto unpinned = nlohmann::json::array();
  if (needed.empty()) return unpinned;
  std::uint64_t total = 0;
  for (const auto* f : needed) total = f->size && total != UINT64_MAX ? total + f->size : UINT64_MAX;
  log << "  " << s.name << ": downloading " << needed.size() << " of " << s.inputs.size() << " input file(s)"
      << (total != UINT64_MAX ? " (" + format_bytes(total) + ")" : "") << "\n"
      << std::flush;
  TransferProgress progress("  " + s.name, total == UINT64_MAX ? 0 : total, opt.progress);
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
    const DownloadResult r = download_file(
        {mirrored_url(f->url, opt.mirror), f->url, opt.data_root / f->download_path(), f->sha256, f->size, f->git_blob},
        dopt);
    outcome.bytes_downloaded += r.bytes - r.resumed_from;
    if (f->sha256.empty()) {
      unpinned.push_back({{"url", f->url}, {"sha256", r.sha256}, {"bytes", r.bytes}});
      if (!r.git_blob.empty()) unpinned.back()["git_blob"] = r.git_blob;
    }
  }
  progress.finish();
  return unpinned;
}

// The record's "inputs": the unpinned ones' checksums as downloaded, then the pinned ones (past 8 files,
// a summary: a source of hundreds of pinned files would fill the record with what the registry says).
nlohmann::json input_records(const DatasetSource& s, nlohmann::json unpinned) {
  if (s.inputs.size() <= 8)
    for (const auto& f : s.inputs)
      if (!f.sha256.empty()) unpinned.push_back({{"url", f.url}, {"sha256", f.sha256}, {"bytes", f.size}});
  if (s.inputs.size() > 8)
    unpinned.push_back({{"files", s.inputs.size()}, {"all_pinned", true}, {"first_url", s.inputs.front().url}});
  return unpinned;
}

// The files the derivation reads: the archive's members when the source names them (extracted beside the
// archive, in the registry's order, which is the order the derivation writes them in), else the inputs;
// `options: {select_rows: N}` narrows them to one.
std::vector<fs::path> derivation_inputs(const DatasetSource& s, const std::vector<fs::path>& inputs) {
  std::vector<fs::path> from = inputs;
  if (!s.members.empty()) {
    if (inputs.size() != 1) throw InputError(s.where, "members can be extracted from exactly one archive input");
    const fs::path dir = fs::path(inputs[0].string() + ".d");
    // Unpacked members are bounded like an inflated gzip: 64 x the archive's size (a zip bomb ends here).
    std::error_code ec;
    const auto archive_bytes = fs::file_size(inputs[0], ec);
    extract_members(inputs[0], dir, s.members,
                    std::max<std::uint64_t>(ec ? 0 : archive_bytes, 1 << 20) * kMaxGzipExpansion);
    from.clear();
    for (const auto& m : s.members) from.push_back(dir / m);
  }
  // The participant files may come unpacked from an archive or one by one (HAR70+'s pinned copies).
  if (s.options.contains("select_rows")) from = {select_by_rows(s, from)};
  return from;
}

// Derives into a temporary, verifies its checksum against the pinned one, and renames it into place.
void derive_and_place(const DatasetSource& s, const std::vector<fs::path>& from, const fs::path& target,
                      FetchOutcome& outcome, nlohmann::json& record, std::ostream& log) {
  log << "  " << s.name << ": deriving " << s.data_file << " (" << s.derivation << ")\n" << std::flush;
  const fs::path tmp = temporary_for(target);
  DerivationReport rep;
  try {
    rep = run_derivation(s, from, tmp);
    outcome.sha256 = data_file_checksum(s, tmp);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
  record["derivation"] = {{"name", s.derivation},
                          {"rows_read", rep.rows_read},
                          {"rows_written", rep.rows_written},
                          {"details", rep.details}};
  if (s.pinned() && outcome.sha256 != s.sha256) {
    fs::remove(tmp);
    throw InputError(
        target.string(),
        "derivation '" + s.derivation + "' produced SHA-256 " + outcome.sha256 + " (" +
            std::to_string(rep.rows_written) + " rows), expected " + s.sha256 + "; nothing was written",
        "the inputs verified, so this is a bug in the derivation or a changed registry entry: please report it");
  }
  if (!rep.details.empty()) log << "  " << s.name << ": " << rep.details.dump() << "\n";
  fs::rename(tmp, target);
}

}  // namespace

void fetch_derived(const DatasetSource& s, const FetchOptions& opt, const fs::path& target, FetchOutcome& outcome,
                   nlohmann::json& record, std::ostream& log) {
  const DerivedInputs inputs = locate_inputs(s, opt.data_root, log);
  record["inputs"] = input_records(s, download_inputs(s, opt, inputs.needed, outcome, log));
  derive_and_place(s, derivation_inputs(s, inputs.paths), target, outcome, record, log);
}

}  // namespace dpclust::datasources
