#pragma once
// One attempt of a download: a single HTTP(S) GET whose body is appended to the `.part` file, resuming
// from its current size with a Range request. Bounded in size (the body stops at the limit) and in time
// (a stall timeout and what is left of the download's deadline); a redirect is not followed here but
// returned, so that download_file() can judge each hop (redirect_policy.hpp).
#include <curl/curl.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace dpclust::datasources {

class TransferProgress;

struct AttemptRequest {
  std::string url;
  std::filesystem::path part;
  std::uint64_t limit = 0;  // bound on the whole file's size
  long time_left_ms = 0;    // of the download's deadline
  long connect_timeout_seconds = 0, stall_timeout_seconds = 0;
  TransferProgress* progress = nullptr;
};

struct AttemptResult {
  CURLcode rc = CURLE_OK;
  long http = 0;               // the response's status (0: none)
  std::uint64_t offset = 0;    // bytes in the .part before this attempt (0 when a server ignored the Range)
  std::uint64_t received = 0;  // bytes written in this attempt
  int write_errno = 0;         // a failed write, fsync or close of the .part
  bool too_large = false;      // the body went past the limit (and was cut there)
  // What the response said about its length: neither means the body ends when the connection closes,
  // which a cut connection imitates exactly. HTTP/2 and 3 frame their ends whatever the headers say.
  bool has_content_length = false, chunked = false, http1 = false;
  std::string redirect_to;  // a 3xx's Location, resolved against the URL (empty otherwise)
  std::string error_text;   // libcurl's description of a failure
  bool redirected() const { return rc == CURLE_OK && http >= 300 && http < 400; }
};

// Runs one attempt with `curl` (reset first; the handle keeps its connections between attempts). Throws
// InputError when the .part cannot be opened for writing.
AttemptResult http_attempt(CURL* curl, const AttemptRequest& request);

}  // namespace dpclust::datasources
