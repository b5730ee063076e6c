#include "datasources/http_attempt.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"
#include "core/files.hpp"
#include "datasources/part_file.hpp"
#include "datasources/transfer_progress.hpp"
#include "io/text.hpp"

namespace dpclust::datasources {

namespace {

// What the callbacks of one attempt share.
struct Transfer {
  CURL* curl = nullptr;
  int fd = -1;
  std::uint64_t offset = 0;    // bytes in the .part before this attempt
  std::uint64_t received = 0;  // bytes written in this attempt
  std::uint64_t limit = 0;     // bound on the total size (the expected size, or the unpinned bound)
  bool checked_status = false;
  bool discard = false;  // a redirect's body: not part of the file
  int write_errno = 0;
  bool too_large = false;
  bool has_content_length = false, chunked = false;
  TransferProgress* progress = nullptr;
};

std::size_t on_header(char* data, std::size_t, std::size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::string line = text::lower(std::string_view(data, n));
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

void set_options(CURL* curl, const AttemptRequest& req, Transfer& t, char* errbuf) {
  curl_easy_setopt(curl, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  // Redirects are followed by download_file(), one by one, so that redirect_policy() judges each hop.
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, ("dpclust/" + build_info().version + " (dataset fetch)").c_str());
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, req.connect_timeout_seconds);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, req.stall_timeout_seconds);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, req.time_left_ms);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(req.limit));
  if (t.offset) curl_easy_setopt(curl, CURLOPT_RESUME_FROM_LARGE, static_cast<curl_off_t>(t.offset));
}

}  // namespace

AttemptResult http_attempt(CURL* curl, const AttemptRequest& req) {
  Transfer t;
  t.curl = curl;
  t.offset = file_size_or_zero(req.part);
  t.limit = req.limit;
  t.progress = req.progress;
  // O_NOFOLLOW: a link planted since prepare_part() looked is refused, not followed.
  t.fd = ::open(req.part.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (t.fd < 0)
    throw InputError(req.part.string(), std::string("cannot write: ") + std::strerror(errno),
                     "check that the data root is writable, or choose another with --data-root");
  curl_easy_reset(curl);
  char errbuf[CURL_ERROR_SIZE] = {0};
  set_options(curl, req, t, errbuf);
  AttemptResult a;
  a.rc = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &a.http);
  const int close_errno = (::fsync(t.fd) != 0 && errno != EINVAL) ? errno : 0;
  ::close(t.fd);
  a.write_errno = t.write_errno ? t.write_errno : close_errno;
  a.offset = t.offset;
  a.received = t.received;
  a.too_large = t.too_large;
  a.has_content_length = t.has_content_length;
  a.chunked = t.chunked;
  long version = 0;
  curl_easy_getinfo(curl, CURLINFO_HTTP_VERSION, &version);
  a.http1 = version == CURL_HTTP_VERSION_1_0 || version == CURL_HTTP_VERSION_1_1;
  if (a.redirected()) {
    char* location = nullptr;
    curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location);
    a.redirect_to = location ? location : "";
  }
  a.error_text = errbuf[0] ? std::string(errbuf) : std::string(curl_easy_strerror(a.rc));
  return a;
}

}  // namespace dpclust::datasources
