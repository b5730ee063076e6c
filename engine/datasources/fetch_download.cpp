#include "datasources/checksum_cache.hpp"
#include "datasources/download.hpp"
#include "datasources/fetch_kinds.hpp"
#include "datasources/transfer_progress.hpp"
#include "datasources/urls.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

void fetch_download(const DatasetSource& s, const FetchOptions& opt, const fs::path& target, FetchOutcome& outcome,
                    nlohmann::json& record) {
  const SourceFile& f = s.inputs.at(0);
  TransferProgress progress("  " + s.name, f.size, opt.progress);
  DownloadOptions dopt = download_options_from_environment();
  dopt.progress = &progress;
  // A .gz data file must inflate completely, within its bound, before it gets its name: a stream cut
  // in half, a corrupt one or a bomb is rejected here and never placed (the checksum is kept, so the
  // file is inflated once).
  std::string text_sha256;
  if (s.compressed()) dopt.check = [&](const fs::path& part) { text_sha256 = data_file_checksum(s, part); };
  const DownloadResult r =
      download_file({mirrored_url(f.url, opt.mirror), f.url, target, f.sha256, f.size, f.git_blob}, dopt);
  progress.finish();
  outcome.bytes_downloaded = r.bytes - r.resumed_from;
  outcome.sha256 = s.compressed() ? text_sha256 : r.sha256;
  record["inputs"] = nlohmann::json::array(
      {{{"url", f.url}, {"sha256", r.sha256}, {"bytes", r.bytes}, {"resumed_from", r.resumed_from}}});
  if (!r.git_blob.empty()) record["inputs"][0]["git_blob"] = r.git_blob;
}

}  // namespace dpclust::datasources
