#pragma once
// One file over HTTP(S) with libcurl: resumable, verified, placed atomically.
//
// The body goes to `<destination>.part`; an interrupted transfer (a dropped connection, a kill, a full
// disk) leaves that file, and the next attempt asks the server for the rest with a Range request. Only a
// complete file whose SHA-256 (and size) match the registry is renamed to `destination`, so nothing
// half-written or unverified ever stands under a name the experiments read.
//
// A hostile or broken server is expected (issue 23, "a fetcher no mirror can fool"): every transfer is
// bounded in size (the registry's size, else DownloadOptions::max_unpinned_bytes), in time (a stall
// timeout and an overall deadline), follows at most a few redirects and only those redirect_policy()
// allows (below), refuses a close-delimited body when the size is unknown (a cut connection would look
// like the end of the file), never follows a symbolic link planted at the `.part` name, and restarts
// from zero when a server ignores the Range request of a resume.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>

namespace dpclust::datasources {

// Bytes moved across all the files of one fetch, drawn on stderr as a bar with rate and ETA on a
// terminal, as a plain line every few seconds otherwise (logs, CI), and not at all when disabled.
class TransferProgress {
 public:
  TransferProgress(std::string label, std::uint64_t total_bytes, bool enabled);
  void add(std::uint64_t bytes);   // bytes newly received
  void skip(std::uint64_t bytes);  // bytes already on disk (resumed or present): count toward done, not the rate
  void finish();

 private:
  void draw(bool final_line);
  std::string label_;
  std::uint64_t total_, done_ = 0, received_ = 0;
  bool enabled_, tty_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::mutex mu_;
};

struct DownloadRequest {
  std::string url;           // what is fetched (the upstream URL, or its mirror copy)
  std::string upstream_url;  // for messages: where the file really comes from
  std::filesystem::path destination;
  std::string sha256;        // expected digest of the bytes; empty = not pinned (computed and returned)
  std::uint64_t size = 0;    // expected size in bytes; 0 = unknown
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
// $DPCLUST_FETCH_MAX_BYTES (positive whole numbers; the size may end in K, M, G or T; anything else is
// an InputError naming the variable).
DownloadOptions download_options_from_environment();

struct DownloadResult {
  std::string sha256;
  std::string git_blob;            // computed only when the request pins one
  std::uint64_t bytes = 0;         // size of the placed file
  std::uint64_t resumed_from = 0;  // bytes of an earlier .part that were kept (0 = fresh)
  int attempts = 0;
  bool already_present = false;    // destination existed with the right checksum; nothing fetched
};

// Throws InputError (exit 2: the user can fix it: network, mirror, disk space, a changed upstream) with
// the URL, the destination and the fix; a checksum mismatch names the URL and both digests and removes
// the bad file.
DownloadResult download_file(const DownloadRequest& request, const DownloadOptions& options);

// The URL under a mirror that reproduces the upstream layout: MIRROR/<host>/<path>.
// "https://raw.githubusercontent.com/a/b/c.arff" + "http://127.0.0.1:8000" ->
// "http://127.0.0.1:8000/raw.githubusercontent.com/a/b/c.arff". An empty mirror returns the URL.
std::string mirrored_url(const std::string& upstream_url, const std::string& mirror);
// Host and path of an http(s) URL (curl's URL parser); throws InputError for anything else.
struct UrlParts {
  std::string scheme, host, path;
};
UrlParts parse_url(const std::string& url);

// Whether a download follows one redirect from `from` (the URL just asked) to `to` (libcurl's
// CURLINFO_REDIRECT_URL: a relative Location already resolved against `from`), issue 35 item 8. Each hop
// of a chain is judged against the hop before it, and download_file() bounds the chain's length.
struct RedirectDecision {
  enum class Rule {
    same_origin,     // followed: same scheme, host and port
    https_upgrade,   // followed: http://H[:80]/x -> https://H[:443]/y
    pinned,          // followed: another origin, but the file's checksum is pinned
    not_http,        // refused: the target's scheme is not http or https (pinned or not)
    not_a_url,       // refused: the target does not parse as a URL
    downgrade,       // refused: https -> http for a file without a pinned checksum
    other_origin,    // refused: another host, port or scheme for a file without a pinned checksum
  };
  Rule rule = Rule::not_a_url;
  // For a refusal: the InputError's problem (names both URLs, and the target's scheme when that is the
  // reason) and its fix. Credentials written into either URL (user:password@) are left out.
  std::string problem, fix;
  bool follow() const { return rule == Rule::same_origin || rule == Rule::https_upgrade || rule == Rule::pinned; }
};
RedirectDecision redirect_policy(const std::string& from, const std::string& to, bool pinned);

// A URL as messages show it: without user:password@, control characters escaped (%XX) and cut after
// 300 characters, since a Location header is whatever a server chose to send.
std::string url_for_messages(const std::string& url);

// "12.3 MB", "845 kB", "17 B".
std::string human_bytes(std::uint64_t bytes);

}  // namespace dpclust::datasources
