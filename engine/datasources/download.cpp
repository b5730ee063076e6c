#include "datasources/download.hpp"

#include <curl/curl.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <mutex>
#include <system_error>
#include <thread>

#include "core/error.hpp"
#include "core/files.hpp"
#include "datasources/sha256.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

// --- progress --------------------------------------------------------------------------------------

std::string human_bytes(std::uint64_t bytes) {
  static const char* kUnits[] = {"B", "kB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1000.0 && u < 4) {
    v /= 1000.0;
    ++u;
  }
  char buf[32];
  if (u == 0) std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  else std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[u]);
  return buf;
}

TransferProgress::TransferProgress(std::string label, std::uint64_t total_bytes, bool enabled)
    : label_(std::move(label)), total_(total_bytes), enabled_(enabled), tty_(::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

void TransferProgress::add(std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  done_ += bytes;
  received_ += bytes;
  draw(false);
}

void TransferProgress::skip(std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  done_ += bytes;
}

void TransferProgress::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  draw(true);
}

void TransferProgress::draw(bool final_line) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  // A terminal is redrawn a few times a second; a log gets a line every 5 s, so a 20-minute download
  // writes a few hundred lines, not megabytes.
  const auto every = tty_ ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000);
  if (!final_line && now - last_draw_ < every) return;
  last_draw_ = now;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? static_cast<double>(received_) / secs : 0.0;
  std::string line = label_ + "  " + human_bytes(done_);
  if (total_) {
    char pct[16];
    std::snprintf(pct, sizeof pct, " (%3.0f%%)", 100.0 * static_cast<double>(std::min(done_, total_)) / static_cast<double>(total_));
    line += " / " + human_bytes(total_) + pct;
  }
  line += "  " + human_bytes(static_cast<std::uint64_t>(rate)) + "/s";
  if (total_ && rate > 0 && done_ < total_ && !final_line) {
    const auto eta = static_cast<long long>(static_cast<double>(total_ - done_) / rate);
    char buf[32];
    std::snprintf(buf, sizeof buf, "  ETA %lld:%02lld", eta / 60, eta % 60);
    line += buf;
  }
  if (final_line) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "  %.1f s", secs);
    line += buf;
  }
  if (tty_) std::cerr << "\r\033[K" << line << (final_line ? "\n" : "") << std::flush;
  else std::cerr << line << "\n" << std::flush;
}

// --- URLs ------------------------------------------------------------------------------------------

namespace {

void curl_global() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string url_part(CURLU* u, CURLUPart part, unsigned int flags = 0) {
  char* s = nullptr;
  if (curl_url_get(u, part, &s, flags) != CURLUE_OK || !s) return "";
  std::string out(s);
  curl_free(s);
  return out;
}

}  // namespace

UrlParts parse_url(const std::string& url) {
  curl_global();
  CURLU* u = curl_url();
  const CURLUcode rc = curl_url_set(u, CURLUPART_URL, url.c_str(), 0);
  UrlParts p;
  if (rc == CURLUE_OK) {
    p.scheme = url_part(u, CURLUPART_SCHEME);
    p.host = url_part(u, CURLUPART_HOST);
    p.path = url_part(u, CURLUPART_PATH);
    const std::string port = url_part(u, CURLUPART_PORT);
    if (!port.empty()) p.host += ":" + port;
  }
  curl_url_cleanup(u);
  if (rc != CURLUE_OK || (p.scheme != "http" && p.scheme != "https") || p.host.empty())
    throw InputError(url_for_messages(url), std::string("not an http(s) URL") + (rc != CURLUE_OK ? std::string(" (") + curl_url_strerror(rc) + ")" : ""),
                     "give a URL such as http://127.0.0.1:8000 or https://mirror.example.org/dpclust");
  return p;
}

std::string mirrored_url(const std::string& upstream_url, const std::string& mirror) {
  if (mirror.empty()) return upstream_url;
  const UrlParts up = parse_url(upstream_url);
  parse_url(mirror);  // validates the mirror
  std::string base = mirror;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/" + up.host + up.path;
}

namespace {

std::string lower_ascii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The scheme a URL text starts with (RFC 3986: a letter, then letters, digits, '+', '-' or '.', then
// ':'), lower case; "" when it has none. Read from the text itself so that a refusal can name the scheme
// of a Location no URL parser accepts ("javascript:...", "data:...").
std::string scheme_of(const std::string& url) {
  const std::size_t colon = url.find(':');
  if (colon == std::string::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(url[0]))) return "";
  for (std::size_t i = 1; i < colon; ++i) {
    const unsigned char c = static_cast<unsigned char>(url[i]);
    if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return "";
  }
  return lower_ascii(url.substr(0, colon));
}

// Scheme, host and port (the scheme's default when the URL names none), lower case, of an http(s) URL;
// `ok` false when libcurl's parser refuses it.
struct Origin {
  bool ok = false;
  std::string scheme, host, port;
  std::string text() const { return scheme + "://" + host + ":" + port; }
};

Origin origin_parts(const std::string& url) {
  curl_global();
  Origin o;
  CURLU* u = curl_url();
  if (curl_url_set(u, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK) {
    o.scheme = lower_ascii(url_part(u, CURLUPART_SCHEME));
    o.host = lower_ascii(url_part(u, CURLUPART_HOST));
    o.port = url_part(u, CURLUPART_PORT, CURLU_DEFAULT_PORT);
    o.ok = (o.scheme == "http" || o.scheme == "https") && !o.host.empty() && !o.port.empty();
  }
  curl_url_cleanup(u);
  return o;
}

}  // namespace

std::string url_for_messages(const std::string& url) {
  curl_global();
  std::string shown = url;
  // Credentials: through libcurl's parser when it takes the URL (any scheme), then by hand from
  // "scheme://" to the last '@' before the path, so that a URL no parser takes does not show its
  // password either.
  CURLU* u = curl_url();
  if (curl_url_set(u, CURLUPART_URL, url.c_str(), CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK) {
    curl_url_set(u, CURLUPART_USER, nullptr, 0);
    curl_url_set(u, CURLUPART_PASSWORD, nullptr, 0);
    curl_url_set(u, CURLUPART_OPTIONS, nullptr, 0);
    const std::string rebuilt = url_part(u, CURLUPART_URL);
    if (!rebuilt.empty()) shown = rebuilt;
  }
  curl_url_cleanup(u);
  const std::size_t authority = shown.find("://");
  if (authority != std::string::npos) {
    const std::size_t start = authority + 3;
    const std::size_t end = shown.find_first_of("/?#", start);
    const std::size_t at = shown.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
    if (at != std::string::npos && at >= start && (end == std::string::npos || at < end)) shown.erase(start, at + 1 - start);
  }
  // A server's text reaches the user's terminal: no escape sequences, and not 100 kB of it.
  std::string out;
  for (const char ch : shown) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  constexpr std::size_t kMaxShown = 300;
  if (out.size() > kMaxShown) out = out.substr(0, kMaxShown) + "...";
  return out;
}

RedirectDecision redirect_policy(const std::string& from, const std::string& to, bool pinned) {
  RedirectDecision d;
  const std::string shown = "redirect from " + url_for_messages(from) + " to " + url_for_messages(to) + " refused: ";
  // 1. Only http and https, even for a pinned file: another scheme is another protocol handler
  // (file: would read this machine's files, ftp:/gopher: speak to other services) and no checksum
  // makes that a dataset download. Named from the text, so "javascript:" is named too.
  const std::string scheme = scheme_of(to);
  if (scheme != "http" && scheme != "https") {
    d.rule = RedirectDecision::Rule::not_http;
    d.problem = shown + (scheme.empty() ? std::string("the address names no scheme")
                                        : "its scheme is '" + scheme + "'") +
                ", and a download follows only http and https";
    d.fix = "the server does not serve the file over http(s); use another mirror (--mirror URL), or download the file "
            "yourself and place it at its data_file path under the data root (`dpclust data verify` checks it)";
    return d;
  }
  const Origin a = origin_parts(from), b = origin_parts(to);
  if (!a.ok || !b.ok) {
    d.rule = RedirectDecision::Rule::not_a_url;
    d.problem = shown + "the address is not a valid http(s) URL";
    d.fix = "the server sends a broken Location header; use another mirror (--mirror URL)";
    return d;
  }
  // 2. The same origin (scheme, host and port): the server moved a file within itself.
  if (a.scheme == b.scheme && a.host == b.host && a.port == b.port) {
    d.rule = RedirectDecision::Rule::same_origin;
    return d;
  }
  // 3. http://H -> https://H on the standard ports: a site that serves everything over https (FIMI's own
  // server does) answers every plain-http request this way. The same host name, and a connection that
  // is now authenticated by its certificate, so nothing is lost. Other ports are other services.
  if (a.scheme == "http" && b.scheme == "https" && a.host == b.host && a.port == "80" && b.port == "443") {
    d.rule = RedirectDecision::Rule::https_upgrade;
    return d;
  }
  // 4. A pinned file may come from anywhere over http(s): its SHA-256 (or git blob id) is checked after
  // the transfer, which its size (else the unpinned bound) limits, so another host (a CDN, a moved
  // archive) or plain http cannot change what is accepted; a wrong file is removed with a checksum
  // mismatch. The cost: a mirror can make us send one GET to an http(s) address of its choosing.
  if (pinned) {
    d.rule = RedirectDecision::Rule::pinned;
    return d;
  }
  // 5. An unpinned file is trusted as its origin serves it (its first fetch's checksum is recorded), so
  // it must come from that origin: a mirror must not hand it on to an address of its choosing, and
  // https must not fall back to plain http, where anything on the path could change the bytes.
  if (a.scheme == "https" && b.scheme == "http") {
    d.rule = RedirectDecision::Rule::downgrade;
    d.problem = shown + "it leaves https for plain http, and the registry pins no checksum that would catch bytes changed on the way";
    d.fix = "use an https mirror that serves the file itself (--mirror URL); if you trust the plain-http server, give it as --mirror";
    return d;
  }
  d.rule = RedirectDecision::Rule::other_origin;
  d.problem = shown + "a file whose checksum the registry does not pin is only fetched from " + a.text() +
              " (or from https on the same host)";
  d.fix = "a mirror must serve the files itself; if you trust the server the redirect names, give it as --mirror";
  return d;
}

// --- the transfer ----------------------------------------------------------------------------------

namespace {

struct Transfer {
  CURL* curl = nullptr;
  int fd = -1;
  std::uint64_t offset = 0;     // bytes in the .part before this attempt
  std::uint64_t received = 0;   // bytes written in this attempt
  std::uint64_t limit = 0;      // bound on the total size (the expected size, or the unpinned bound)
  bool checked_status = false;
  bool discard = false;         // a redirect's body: not part of the file
  bool restarted = false;       // the server ignored the Range request: the .part was emptied
  int write_errno = 0;
  bool too_large = false;
  // What the response said about its length: neither means the body ends when the connection closes,
  // which a cut connection imitates exactly.
  bool has_content_length = false, chunked = false;
  TransferProgress* progress = nullptr;
};

std::size_t on_header(char* data, std::size_t, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::string line = lower_ascii(std::string(data, n));
  if (line.rfind("http/", 0) == 0) t->has_content_length = t->chunked = false;  // a new response's head
  if (line.rfind("content-length:", 0) == 0) t->has_content_length = true;
  if (line.rfind("transfer-encoding:", 0) == 0 && line.find("chunked") != std::string::npos) t->chunked = true;
  return n;
}

std::size_t on_body(char* data, std::size_t, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  if (!t->checked_status) {
    t->checked_status = true;
    long code = 0;
    curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &code);
    t->discard = code >= 300 && code < 400;
    // A server that ignores Range answers 200 with the whole file: start the .part over rather than
    // append the file to its own beginning.
    if (t->offset > 0 && code == 200) {
      if (::ftruncate(t->fd, 0) != 0 || ::lseek(t->fd, 0, SEEK_SET) != 0) {
        t->write_errno = errno;
        return 0;
      }
      t->offset = 0;
      t->restarted = true;
    }
  }
  if (t->discard) return n;
  if (t->limit && t->offset + t->received + n > t->limit) {
    t->too_large = true;  // a hostile or wrong server must not fill the disk
    return 0;
  }
  std::size_t done = 0;
  while (done < n) {
    const ssize_t w = ::write(t->fd, data + done, n - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      t->write_errno = errno;
      return 0;
    }
    done += static_cast<std::size_t>(w);
  }
  t->received += n;
  if (t->progress) t->progress->add(n);
  return n;
}

// Size of a regular file, without following a symbolic link (0 when absent or not a regular file).
std::uint64_t file_size_or_zero(const fs::path& p) {
  struct stat st {};
  if (::lstat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<std::uint64_t>(st.st_size);
}

void fsync_path(const fs::path& p, bool directory) {
  const int fd = ::open(p.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

void remove_quietly(const fs::path& p) {
  std::error_code ec;
  fs::remove(p, ec);
}

bool transient(CURLcode rc, long http) {
  switch (rc) {
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    case CURLE_HTTP_RETURNED_ERROR:
      return http >= 500 || http == 408 || http == 429;
    default:
      return false;
  }
}

long env_long(const char* name, long fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(v, &end, 10);
  if (errno || *end || x <= 0)
    throw InputError(std::string("$") + name, std::string("'") + v + "' is not a positive whole number", "unset it or give e.g. 60");
  return static_cast<long>(x);
}

// A byte count with an optional K, M, G or T suffix (powers of 1024), as DPCLUST_MAX_DATA_BYTES takes.
std::uint64_t env_bytes(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  errno = 0;
  const unsigned long long x = std::strtoull(v, &end, 10);
  int shift = 0;
  if (*end) {
    const char* units = "KMGT";
    const char* u = std::strchr(units, std::toupper(static_cast<unsigned char>(*end)));
    if (u && end[1] == 0) shift = 10 * static_cast<int>(u - units + 1);
    else shift = -1;
  }
  if (errno || end == v || shift < 0 || x == 0 || (shift && x > (~0ULL >> shift)))
    throw InputError(std::string("$") + name, std::string("'") + v + "' is not a size in bytes",
                     "write a positive number of bytes, optionally with a K, M, G or T suffix (e.g. 8G), or unset it");
  return static_cast<std::uint64_t>(x) << shift;
}

}  // namespace

DownloadOptions download_options_from_environment() {
  DownloadOptions o;
  o.stall_timeout_seconds = env_long("DPCLUST_FETCH_STALL_SECONDS", o.stall_timeout_seconds);
  o.deadline_seconds = env_long("DPCLUST_FETCH_DEADLINE_SECONDS", o.deadline_seconds);
  o.max_unpinned_bytes = env_bytes("DPCLUST_FETCH_MAX_BYTES", o.max_unpinned_bytes);
  return o;
}

DownloadResult download_file(const DownloadRequest& req, const DownloadOptions& opt) {
  curl_global();
  DownloadResult result;
  const fs::path part = fs::path(req.destination.string() + ".part");
  fs::create_directories(req.destination.parent_path());
  // Messages name the URL without any user:password@ a mirror URL may carry.
  const std::string from = req.url == req.upstream_url || req.upstream_url.empty()
                               ? url_for_messages(req.url)
                               : url_for_messages(req.url) + " (mirror of " + url_for_messages(req.upstream_url) + ")";
  const std::uint64_t limit = req.size ? req.size : opt.max_unpinned_bytes;
  const long deadline_s = opt.deadline_seconds > 0 ? opt.deadline_seconds
                         : req.size                ? 3600 + static_cast<long>(req.size / 50000)
                                                   : 4 * 3600;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(deadline_s);

  // Only a regular file of ours is resumed: anything else at the .part name (a symbolic link planted to
  // make us append outside the data root, a FIFO, a folder) is removed, never followed.
  {
    struct stat st {};
    if (::lstat(part.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
      std::error_code ec;
      if (S_ISDIR(st.st_mode)) fs::remove_all(part, ec);
      else fs::remove(part, ec);
      if (ec)
        throw InputError(part.string(), "is not a regular file and cannot be removed (" + ec.message() + ")",
                         "delete it by hand and run the fetch again");
    }
  }
  // A .part longer than the file can be is not resumed: start over.
  if (file_size_or_zero(part) > limit) remove_quietly(part);
  result.resumed_from = file_size_or_zero(part);
  if (opt.progress && result.resumed_from) opt.progress->skip(result.resumed_from);

  CURL* curl = curl_easy_init();
  if (!curl) throw std::runtime_error("libcurl: cannot create a transfer handle");
  struct Cleanup {
    CURL* c;
    ~Cleanup() { curl_easy_cleanup(c); }
  } cleanup{curl};
  char errbuf[CURL_ERROR_SIZE] = {0};
  std::string url = req.url;
  int redirects = 0;
  bool restarted_without_range = false;

  for (int attempt = 0;; ++attempt) {
    result.attempts = attempt + 1;
    Transfer t;
    t.curl = curl;
    t.offset = file_size_or_zero(part);
    t.limit = limit;
    t.progress = opt.progress;
    if (req.size && t.offset == req.size) break;  // complete already: verify below
    const auto left_ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left_ms <= 0) {
      throw InputError(from, "the download did not finish within " + std::to_string(deadline_s) + " s (" +
                                 human_bytes(file_size_or_zero(part)) + " received)",
                       "the server is too slow or trickles on purpose; try again later or use another mirror (--mirror URL); "
                       "$DPCLUST_FETCH_DEADLINE_SECONDS sets the deadline");
    }
    // O_NOFOLLOW: a link planted between the check above and here is refused, not followed.
    t.fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (t.fd < 0)
      throw InputError(part.string(), std::string("cannot write: ") + std::strerror(errno),
                       "check that the data root is writable, or choose another with --data-root");
    curl_easy_reset(curl);
    errbuf[0] = 0;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    // Redirects are followed below, one by one, so that redirect_policy() judges each hop.
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, ("dpclust/" + build_info().version + " (dataset fetch)").c_str());
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, opt.connect_timeout_seconds);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, opt.stall_timeout_seconds);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(left_ms));
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(limit));
    if (t.offset) curl_easy_setopt(curl, CURLOPT_RESUME_FROM_LARGE, static_cast<curl_off_t>(t.offset));
    const CURLcode rc = curl_easy_perform(curl);
    long http = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &http);
    const int close_errno = (::fsync(t.fd) != 0 && errno != EINVAL) ? errno : 0;
    ::close(t.fd);
    const int werr = t.write_errno ? t.write_errno : close_errno;

    if (werr == ENOSPC || werr == EDQUOT) {
      // A bounded (pinned) file is worth resuming; an unbounded one may be what filled the disk.
      if (!req.size) remove_quietly(part);
      throw InputError(part.string(), "no space left on device while downloading " + from + " (" + human_bytes(t.offset + t.received) +
                                          " written" + (req.size ? " of " + human_bytes(req.size) : "") + ")",
                       req.size ? "free space on that file system (the partial file is kept and the next `dpclust data fetch` resumes it), "
                                  "or choose another data root with --data-root / DPCLUST_DATA_ROOT"
                                : "free space on that file system (the partial file was removed), or choose another data root with "
                                  "--data-root / DPCLUST_DATA_ROOT");
    }
    if (werr)
      throw InputError(part.string(), std::string("write failed: ") + std::strerror(werr), "check the data root's file system and permissions");
    if (t.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
      remove_quietly(part);
      throw InputError(from, req.size ? "the server sent more than the expected " + std::to_string(req.size) + " bytes"
                                      : "the server sent more than " + std::to_string(limit) +
                                            " bytes, the bound for a file whose size the registry does not state",
                       req.size ? "the source or mirror serves a different file; check the URL (the partial file was removed)"
                                : "the partial file was removed; if the file really is that large, raise the bound with "
                                  "$DPCLUST_FETCH_MAX_BYTES");
    }
    if (rc == CURLE_OK && http >= 300 && http < 400) {
      char* location = nullptr;
      curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location);
      const std::string next = location ? location : "";
      if (next.empty()) throw InputError(from, "HTTP " + std::to_string(http) + " without a Location", "use another mirror (--mirror URL)");
      // The bound holds whatever the policy allows, so a loop (or an endless chain) ends here.
      if (++redirects > opt.max_redirects)
        throw InputError(from, "more than " + std::to_string(opt.max_redirects) + " redirects (last to " + url_for_messages(next) + ")",
                         "the server redirects in a loop; use another mirror (--mirror URL)");
      // libcurl resolves a relative Location against `url`, so `next` is absolute; judged hop by hop.
      const RedirectDecision decision = redirect_policy(url, next, req.pinned());
      if (!decision.follow()) {
        // Nothing was received: leave no empty .part behind (a non-empty one is kept for resuming).
        if (file_size_or_zero(part) == 0) remove_quietly(part);
        throw InputError(from, decision.problem, decision.fix);
      }
      url = next;
      --attempt;  // a redirect is not a failed attempt
      continue;
    }
    long version = 0;
    curl_easy_getinfo(curl, CURLINFO_HTTP_VERSION, &version);
    const bool http1 = version == CURL_HTTP_VERSION_1_0 || version == CURL_HTTP_VERSION_1_1;  // HTTP/2 and 3 frame their ends
    if (rc == CURLE_OK && http1 && !req.size && !t.has_content_length && !t.chunked && http == 200) {
      remove_quietly(part);
      throw InputError(from, "the server sent no Content-Length and no chunked encoding, so a cut connection cannot be told from "
                             "the end of the file, and the registry states no size for it; the download was removed",
                       "use a server or mirror that sends Content-Length (any static file server does)");
    }
    if (rc == CURLE_OK) break;
    if (rc == CURLE_HTTP_RETURNED_ERROR && http == 416 && t.offset > 0) {
      // "Range not satisfiable": the .part already holds the whole file (size unknown to us); the
      // checksum below decides.
      break;
    }
    if (rc == CURLE_RANGE_ERROR && t.offset > 0 && !restarted_without_range) {
      // The server ignores Range (libcurl: "Cannot resume"): the .part is useless here, start from zero
      // once rather than fail on every later fetch.
      remove_quietly(part);
      result.resumed_from = 0;
      restarted_without_range = true;
      --attempt;
      continue;
    }
    const bool past_deadline = std::chrono::steady_clock::now() >= deadline;
    if (rc == CURLE_OPERATION_TIMEDOUT && past_deadline)
      throw InputError(from, "the download did not finish within " + std::to_string(deadline_s) + " s (" +
                                 human_bytes(file_size_or_zero(part)) + " received)",
                       "the server is too slow or trickles on purpose; try again later or use another mirror (--mirror URL); "
                       "$DPCLUST_FETCH_DEADLINE_SECONDS sets the deadline");
    if (transient(rc, http) && attempt < opt.retries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200 * (1 << attempt)));
      continue;
    }
    const std::string detail = errbuf[0] ? std::string(errbuf) : std::string(curl_easy_strerror(rc));
    if (rc == CURLE_HTTP_RETURNED_ERROR) {
      remove_quietly(part);
      throw InputError(from, "HTTP " + std::to_string(http) + (http == 404 ? " (not found)" : ""),
                       http == 404 ? "the file is not at that address: check --mirror / DPCLUST_MIRROR (a mirror must hold "
                                     "MIRROR/<host>/<path>), or the source may have moved"
                                   : "try again later, or use a mirror with --mirror URL");
    }
    if (rc == CURLE_COULDNT_RESOLVE_HOST || rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_PROXY)
      throw InputError(from, "cannot reach the host (" + detail + ")",
                       "check the network (or proxy settings), or fetch from a reachable mirror with --mirror URL");
    if (rc == CURLE_OPERATION_TIMEDOUT)
      throw InputError(from, "no data for " + std::to_string(opt.stall_timeout_seconds) + " s, " + std::to_string(attempt + 1) +
                                 " time(s) (" + detail + ")",
                       "the server stalls; run the same `dpclust data fetch` again later (it resumes from the " +
                           human_bytes(file_size_or_zero(part)) + " received), or use another mirror (--mirror URL)");
    throw InputError(from, "download failed after " + std::to_string(attempt + 1) + " attempt(s): " + detail,
                     "run the same `dpclust data fetch` again: it resumes from the " + human_bytes(file_size_or_zero(part)) +
                         " already received");
  }

  // Verify before the file gets its real name.
  const std::uint64_t got = file_size_or_zero(part);
  if (req.size && got != req.size) {
    remove_quietly(part);
    throw InputError(from, "received " + std::to_string(got) + " bytes, expected " + std::to_string(req.size),
                     "the source or mirror serves a different file; the partial file was removed, run the fetch again");
  }
  result.sha256 = sha256_file(part);
  if (!req.sha256.empty() && result.sha256 != req.sha256) {
    remove_quietly(part);
    throw InputError(from, "checksum mismatch: expected SHA-256 " + req.sha256 + ", got " + result.sha256 + " (" + std::to_string(got) +
                               " bytes); the file was rejected and removed",
                     "the mirror or source serves different bytes than the pinned release; use another mirror, "
                     "or report it if the upstream file changed");
  }
  if (!req.git_blob.empty()) {
    result.git_blob = git_blob_file(part);
    if (result.git_blob != req.git_blob) {
      remove_quietly(part);
      throw InputError(from, "checksum mismatch: expected git blob " + req.git_blob + ", got " + result.git_blob + " (" +
                                 std::to_string(got) + " bytes); the file was rejected and removed",
                       "the mirror or source serves different bytes than the pinned copy; use another mirror, "
                       "or report it if the pinned copy changed");
    }
  }
  if (opt.check) {
    try {
      opt.check(part);
    } catch (const InputError& e) {
      remove_quietly(part);
      throw InputError(from, e.problem() + " (in " + e.where() + "); the download was rejected and removed",
                       "the source or mirror serves a damaged file; run the fetch again, or use another mirror (--mirror URL)");
    }
  }
  fsync_path(part, false);
  fs::rename(part, req.destination);
  fsync_path(req.destination.parent_path(), true);
  result.bytes = got;
  return result;
}

}  // namespace dpclust::datasources
