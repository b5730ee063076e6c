#pragma once
// One file over HTTP(S) with libcurl: resumable, verified, placed atomically.
//
// The body goes to `<destination>.part`; an interrupted transfer (a dropped connection, a kill, a full
// disk) leaves that file, and the next attempt asks the server for the rest with a Range request. Only a
// complete file whose SHA-256 (and size) match the registry is renamed to `destination`, so nothing
// half-written or unverified ever stands under a name the experiments read.
//
// A hostile or broken server is expected, and no mirror may fool the fetcher: every transfer is
// bounded in size (the registry's size, else DownloadOptions::max_unpinned_bytes), in time (a stall
// timeout and an overall deadline), follows at most a few redirects and only those redirect_policy()
// allows (redirect_policy.hpp), refuses a close-delimited body when the size is unknown (a cut
// connection would look like the end of the file), never follows a symbolic link planted at the `.part`
// name, and restarts from zero when a server ignores the Range request of a resume.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace dpclust::datasources {

class TransferProgress;  // transfer_progress.hpp

struct DownloadRequest {
  std::string url;           // what is fetched (the upstream URL, or its mirror copy)
  std::string upstream_url;  // for messages: where the file really comes from
  std::filesystem::path destination;
  std::string sha256;         // expected digest of the bytes; empty = not pinned (computed and returned)
  std::uint64_t size = 0;     // expected size in bytes; 0 = unknown
  std::string git_blob = {};  // expected git blob id (sha256.hpp); empty = none. Checked as well as sha256.
  // The registry states a checksum (SourceFile::pinned()): the bytes are verified after the transfer, so
  // where they came from cannot change what is accepted, and a redirect may lead anywhere http(s).
  bool pinned() const { return !sha256.empty() || !git_blob.empty(); }
};

struct DownloadOptions {
  TransferProgress* progress = nullptr;
  long connect_timeout_seconds = 20;
  // A transfer slower than 1 byte/s for this long is abandoned (its .part kept for resuming).
  long stall_timeout_seconds = 60;
  // The whole download (every attempt and redirect) ends after this long, so a trickling server cannot
  // hold the data root's lock for ever. 0 = automatic: one hour plus one second per 50 kB expected, or
  // four hours when the size is unknown.
  long deadline_seconds = 0;
  // The bound on a file whose size the registry does not state (an unpinned source): an endless body
  // ends here, and its .part is removed. Pinned files are bounded by their exact size.
  std::uint64_t max_unpinned_bytes = kDefaultMaxUnpinnedBytes;
  // Redirects followed in one download, whatever redirect_policy() allows (a loop ends here).
  int max_redirects = 5;
  // Further attempts after a transient failure (connection dropped, truncated body, 5xx), each resuming.
  int retries = 3;
  // Run on the complete `.part` after the size and checksum held and before it gets its real name (a
  // gzip must inflate without error, an archive must read to its end); throws InputError to reject it,
  // and the `.part` is then removed.
  std::function<void(const std::filesystem::path&)> check;

  static constexpr std::uint64_t kDefaultMaxUnpinnedBytes = 4ULL << 30;  // 4 GiB
};

// The defaults, overridden by $DPCLUST_FETCH_STALL_SECONDS, $DPCLUST_FETCH_DEADLINE_SECONDS and
// $DPCLUST_FETCH_MAX_BYTES (positive whole numbers of seconds; the size by the rule of io/byte_size.hpp,
// e.g. 8G; anything else is an InputError naming the variable).
DownloadOptions download_options_from_environment();

struct DownloadResult {
  std::string sha256;
  std::string git_blob;            // computed only when the request pins one
  std::uint64_t bytes = 0;         // size of the placed file
  std::uint64_t resumed_from = 0;  // bytes of an earlier .part that were kept (0 = fresh)
  int attempts = 0;
  bool already_present = false;  // destination existed with the right checksum; nothing fetched
};

// Throws InputError (exit 2: the user can fix it: network, mirror, disk space, a changed upstream) with
// the URL, the destination and the fix; a checksum mismatch names the URL and both digests and removes
// the bad file.
DownloadResult download_file(const DownloadRequest& request, const DownloadOptions& options);

}  // namespace dpclust::datasources
