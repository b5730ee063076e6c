#include "datasources/download.hpp"

#include <curl/curl.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>

#include "core/error.hpp"
#include "datasources/curl_support.hpp"
#include "datasources/http_attempt.hpp"
#include "datasources/part_file.hpp"
#include "datasources/redirect_policy.hpp"
#include "datasources/sha256.hpp"
#include "datasources/transfer_progress.hpp"
#include "datasources/urls.hpp"
#include "io/byte_size.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

namespace {

long env_long(const char* name, long fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(v, &end, 10);
  if (errno || *end || x <= 0)
    throw InputError(std::string("$") + name, std::string("'") + v + "' is not a positive whole number",
                     "unset it or give e.g. 60");
  return static_cast<long>(x);
}

}  // namespace

DownloadOptions download_options_from_environment() {
  DownloadOptions o;
  o.stall_timeout_seconds = env_long("DPCLUST_FETCH_STALL_SECONDS", o.stall_timeout_seconds);
  o.deadline_seconds = env_long("DPCLUST_FETCH_DEADLINE_SECONDS", o.deadline_seconds);
  if (const char* v = std::getenv("DPCLUST_FETCH_MAX_BYTES"); v && *v)
    o.max_unpinned_bytes = byte_size_or_throw(v, "$DPCLUST_FETCH_MAX_BYTES");
  return o;
}

namespace {

// Failures worth another attempt (which resumes the .part): a connection dropped or stalled, a body cut
// short, a server error or "too many requests".
bool transient(const AttemptResult& a) {
  switch (a.rc) {
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return true;
    case CURLE_HTTP_RETURNED_ERROR: return a.http >= 500 || a.http == 408 || a.http == 429;
    default: return false;
  }
}

// One download_file() call: the attempts, each resuming the .part, the redirects between them, and the
// checks before the file gets its name.
class Download {
 public:
  Download(const DownloadRequest& req, const DownloadOptions& opt)
      : req_(req),
        opt_(opt),
        part_(req.destination.string() + ".part"),
        // Messages name the URL without any user:password@ a mirror URL may carry.
        from_(req.url == req.upstream_url || req.upstream_url.empty()
                  ? url_for_messages(req.url)
                  : url_for_messages(req.url) + " (mirror of " + url_for_messages(req.upstream_url) + ")"),
        limit_(req.size ? req.size : opt.max_unpinned_bytes),
        deadline_seconds_(opt.deadline_seconds > 0 ? opt.deadline_seconds
                          : req.size               ? 3600 + static_cast<long>(req.size / 50000)
                                                   : 4 * 3600),
        deadline_(std::chrono::steady_clock::now() + std::chrono::seconds(deadline_seconds_)),
        url_(req.url) {}

  DownloadResult run() {
    fs::create_directories(req_.destination.parent_path());
    result_.resumed_from = prepare_part(part_, limit_);
    if (opt_.progress && result_.resumed_from) opt_.progress->skip(result_.resumed_from);
    transfer();
    verify_and_place();
    return result_;
  }

 private:
  enum class Next { complete, retry, same_attempt };  // same_attempt: a redirect, or a restart from zero

  // Attempts until the .part holds the whole file; throws when it cannot.
  void transfer() {
    std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
    if (!curl) throw std::runtime_error("libcurl: cannot create a transfer handle");
    for (int attempt = 0;; ++attempt) {
      result_.attempts = attempt + 1;
      if (req_.size && file_size_or_zero(part_) == req_.size) return;  // complete already: verified next
      const auto left_ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now()).count();
      if (left_ms <= 0) past_deadline();
      const AttemptResult a =
          http_attempt(curl.get(), {url_, part_, limit_, static_cast<long>(left_ms), opt_.connect_timeout_seconds,
                                    opt_.stall_timeout_seconds, opt_.progress});
      switch (after(a, attempt)) {
        case Next::complete: return;
        case Next::same_attempt: --attempt; break;
        case Next::retry: std::this_thread::sleep_for(std::chrono::milliseconds(200 * (1 << attempt))); break;
      }
    }
  }

  // What one attempt's outcome means for the download; throws for a failure no further attempt mends.
  Next after(const AttemptResult& a, int attempt) {
    check_written(a);
    if (a.too_large || a.rc == CURLE_FILESIZE_EXCEEDED) too_large();
    if (a.redirected()) {
      follow_redirect(a);
      return Next::same_attempt;  // a redirect is not a failed attempt
    }
    if (a.rc == CURLE_OK && a.http1 && !req_.size && !a.has_content_length && !a.chunked && a.http == 200) {
      remove_quietly(part_);
      throw InputError(
          from_,
          "the server sent no Content-Length and no chunked encoding, so a cut connection cannot be told from "
          "the end of the file, and the registry states no size for it; the download was removed",
          "use a server or mirror that sends Content-Length (any static file server does)");
    }
    if (a.rc == CURLE_OK) return Next::complete;
    // "Range not satisfiable": the .part already holds the whole file (size unknown to us); the checksum decides.
    if (a.rc == CURLE_HTTP_RETURNED_ERROR && a.http == 416 && a.offset > 0) return Next::complete;
    if (a.rc == CURLE_RANGE_ERROR && a.offset > 0 && !restarted_without_range_) {
      // The server ignores Range (libcurl: "Cannot resume"): the .part is useless here, start from zero
      // once rather than fail on every later fetch.
      remove_quietly(part_);
      result_.resumed_from = 0;
      restarted_without_range_ = true;
      return Next::same_attempt;
    }
    if (a.rc == CURLE_OPERATION_TIMEDOUT && std::chrono::steady_clock::now() >= deadline_) past_deadline();
    if (transient(a) && attempt < opt_.retries) return Next::retry;
    fail(a, attempt);
  }

  // A write to the .part failed: a full disk keeps a bounded file for resuming, anything else is the data root's
  // problem.
  void check_written(const AttemptResult& a) {
    const int werr = a.write_errno;
    if (werr == ENOSPC || werr == EDQUOT) {
      // A bounded (pinned) file is worth resuming; an unbounded one may be what filled the disk.
      if (!req_.size) remove_quietly(part_);
      throw InputError(
          part_.string(),
          "no space left on device while downloading " + from_ + " (" + format_bytes(a.offset + a.received) +
              " written" + (req_.size ? " of " + format_bytes(req_.size) : "") + ")",
          req_.size ? "free space on that file system (the partial file is kept and the next `dpclust data fetch` "
                      "resumes it), "
                      "or choose another data root with --data-root / DPCLUST_DATA_ROOT"
                    : "free space on that file system (the partial file was removed), or choose another data root with "
                      "--data-root / DPCLUST_DATA_ROOT");
    }
    if (werr)
      throw InputError(part_.string(), std::string("write failed: ") + std::strerror(werr),
                       "check the data root's file system and permissions");
  }

  [[noreturn]] void too_large() {
    remove_quietly(part_);
    throw InputError(from_,
                     req_.size ? "the server sent more than the expected " + std::to_string(req_.size) + " bytes"
                               : "the server sent more than " + std::to_string(limit_) +
                                     " bytes, the bound for a file whose size the registry does not state",
                     req_.size
                         ? "the source or mirror serves a different file; check the URL (the partial file was removed)"
                         : "the partial file was removed; if the file really is that large, raise the bound with "
                           "$DPCLUST_FETCH_MAX_BYTES");
  }

  // Follows one redirect when redirect_policy() allows it and the chain is not too long; throws otherwise.
  void follow_redirect(const AttemptResult& a) {
    const std::string& next = a.redirect_to;
    if (next.empty())
      throw InputError(from_, "HTTP " + std::to_string(a.http) + " without a Location",
                       "use another mirror (--mirror URL)");
    // The bound holds whatever the policy allows, so a loop (or an endless chain) ends here.
    if (++redirects_ > opt_.max_redirects)
      throw InputError(
          from_,
          "more than " + std::to_string(opt_.max_redirects) + " redirects (last to " + url_for_messages(next) + ")",
          "the server redirects in a loop; use another mirror (--mirror URL)");
    // libcurl resolves a relative Location against `url_`, so `next` is absolute; judged hop by hop.
    const RedirectDecision decision = redirect_policy(url_, next, req_.pinned());
    if (!decision.follow()) {
      // Nothing was received: leave no empty .part behind (a non-empty one is kept for resuming).
      if (file_size_or_zero(part_) == 0) remove_quietly(part_);
      throw InputError(from_, decision.problem, decision.fix);
    }
    url_ = next;
  }

  [[noreturn]] void past_deadline() {
    throw InputError(
        from_,
        "the download did not finish within " + std::to_string(deadline_seconds_) + " s (" +
            format_bytes(file_size_or_zero(part_)) + " received)",
        "the server is too slow or trickles on purpose; try again later or use another mirror (--mirror URL); "
        "$DPCLUST_FETCH_DEADLINE_SECONDS sets the deadline");
  }

  // The last attempt failed for good: the error by its cause, with what the user can do.
  [[noreturn]] void fail(const AttemptResult& a, int attempt) {
    if (a.rc == CURLE_HTTP_RETURNED_ERROR) {
      remove_quietly(part_);
      throw InputError(from_, "HTTP " + std::to_string(a.http) + (a.http == 404 ? " (not found)" : ""),
                       a.http == 404
                           ? "the file is not at that address: check --mirror / DPCLUST_MIRROR (a mirror must hold "
                             "MIRROR/<host>/<path>), or the source may have moved"
                           : "try again later, or use a mirror with --mirror URL");
    }
    if (a.rc == CURLE_COULDNT_RESOLVE_HOST || a.rc == CURLE_COULDNT_CONNECT || a.rc == CURLE_COULDNT_RESOLVE_PROXY)
      throw InputError(from_, "cannot reach the host (" + a.error_text + ")",
                       "check the network (or proxy settings), or fetch from a reachable mirror with --mirror URL");
    if (a.rc == CURLE_OPERATION_TIMEDOUT)
      throw InputError(from_,
                       "no data for " + std::to_string(opt_.stall_timeout_seconds) + " s, " +
                           std::to_string(attempt + 1) + " time(s) (" + a.error_text + ")",
                       "the server stalls; run the same `dpclust data fetch` again later (it resumes from the " +
                           format_bytes(file_size_or_zero(part_)) + " received), or use another mirror (--mirror URL)");
    throw InputError(from_, "download failed after " + std::to_string(attempt + 1) + " attempt(s): " + a.error_text,
                     "run the same `dpclust data fetch` again: it resumes from the " +
                         format_bytes(file_size_or_zero(part_)) + " already received");
  }

  // The size, the checksums and the caller's check, before the file gets its real name; a file that fails
  // one is removed.
  void verify_and_place() {
    const std::uint64_t got = file_size_or_zero(part_);
    if (req_.size && got != req_.size) {
      remove_quietly(part_);
      throw InputError(
          from_, "received " + std::to_string(got) + " bytes, expected " + std::to_string(req_.size),
          "the source or mirror serves a different file; the partial file was removed, run the fetch again");
    }
    result_.sha256 = sha256_file(part_);
    if (!req_.sha256.empty() && result_.sha256 != req_.sha256) {
      remove_quietly(part_);
      throw InputError(from_,
                       "checksum mismatch: expected SHA-256 " + req_.sha256 + ", got " + result_.sha256 + " (" +
                           std::to_string(got) + " bytes); the file was rejected and removed",
                       "the mirror or source serves different bytes than the pinned release; use another mirror, "
                       "or report it if the upstream file changed");
    }
    if (!req_.git_blob.empty()) {
      result_.git_blob = git_blob_file(part_);
      if (result_.git_blob != req_.git_blob) {
        remove_quietly(part_);
        throw InputError(from_,
                         "checksum mismatch: expected git blob " + req_.git_blob + ", got " + result_.git_blob + " (" +
                             std::to_string(got) + " bytes); the file was rejected and removed",
                         "the mirror or source serves different bytes than the pinned copy; use another mirror, "
                         "or report it if the pinned copy changed");
      }
    }
    if (opt_.check) {
      try {
        opt_.check(part_);
      } catch (const InputError& e) {
        remove_quietly(part_);
        throw InputError(
            from_, e.problem() + " (in " + e.where() + "); the download was rejected and removed",
            "the source or mirror serves a damaged file; run the fetch again, or use another mirror (--mirror URL)");
      }
    }
    fsync_path(part_, false);
    fs::rename(part_, req_.destination);
    fsync_path(req_.destination.parent_path(), true);
    result_.bytes = got;
  }

  const DownloadRequest& req_;
  const DownloadOptions& opt_;
  const fs::path part_;
  const std::string from_;
  const std::uint64_t limit_;
  const long deadline_seconds_;
  const std::chrono::steady_clock::time_point deadline_;
  std::string url_;  // the URL asked next: the request's, then each followed redirect's
  int redirects_ = 0;
  bool restarted_without_range_ = false;
  DownloadResult result_;
};

}  // namespace

DownloadResult download_file(const DownloadRequest& request, const DownloadOptions& options) {
  curl_global();
  return Download(request, options).run();
}

}  // namespace dpclust::datasources
