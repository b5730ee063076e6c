#include "datasources/http_test_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iterator>
#include <new>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace dpclust::testing {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// Every wait is a poll() that also watches the stop pipe, so stop() wakes it at once; the slice length
// only bounds how long a missed wake-up could delay noticing stop().
constexpr int kPollSliceMs = 50;
// Give up on a client that sends no complete request head, or accepts no body bytes, for this long:
// keeps a stalled client from pinning a thread forever in the standalone serve_dir.
constexpr auto kStallTimeout = std::chrono::seconds(30);
// After the response, wait at most this long for the client to close (see linger_close).
constexpr auto kLingerTimeout = std::chrono::seconds(1);
constexpr std::size_t kMaxHeadBytes = 64 * 1024;
constexpr std::size_t kChunkBytes = 64 * 1024;

class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 206: return "Partial Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 416: return "Range Not Satisfiable";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Status";
  }
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

// Percent-decodes a request path; nullopt on a malformed escape (answered with 400).
std::optional<std::string> percent_decode(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(s[i + 2])))
      return std::nullopt;
    out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
    i += 2;
  }
  return out;
}

// What a connection needs to notice stop(): the flag, and the read end of a pipe that stop() writes to
// and nobody reads, so it stays readable and wakes every poll() that includes it.
struct StopSignal {
  const std::atomic<bool>& stopping;
  int wake_fd;
  bool stopped() const { return stopping.load(); }
  // Waits up to `ms` for `events` on `fd` (fd < 0: just for stop or the timeout).
  void wait(int fd, short events, int ms) const {
    pollfd p[2] = {{wake_fd, POLLIN, 0}, {fd, events, 0}};
    ::poll(p, fd < 0 ? 1 : 2, ms);
  }
};

// Sends all of [data, data + size) on a non-blocking socket. False when the client went away, stalled
// past kStallTimeout, or the server is stopping.
bool send_all(int fd, const char* data, std::size_t size, const StopSignal& stop) {
  auto last_progress = Clock::now();
  while (size > 0) {
    if (stop.stopped()) return false;
    // MSG_NOSIGNAL: a client that disconnects early must give EPIPE here, not kill the process.
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n > 0) {
      data += n;
      size -= static_cast<std::size_t>(n);
      last_progress = Clock::now();
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (Clock::now() - last_progress > kStallTimeout) return false;
      stop.wait(fd, POLLOUT, kPollSliceMs);
      continue;
    }
    return false;
  }
  return true;
}

bool send_all(int fd, const std::string& s, const StopSignal& stop) { return send_all(fd, s.data(), s.size(), stop); }

// Reads until the end of the request head ("\r\n\r\n"). nullopt when the client closed or stalled, or
// the server is stopping; `too_large` is set when the head exceeds kMaxHeadBytes.
std::optional<std::string> read_head(int fd, const StopSignal& stop, bool& too_large) {
  std::string buf;
  char chunk[4096];
  const auto deadline = Clock::now() + kStallTimeout;
  while (!stop.stopped() && Clock::now() < deadline) {
    const auto end = buf.find("\r\n\r\n");
    if (end != std::string::npos) return buf.substr(0, end);
    if (buf.size() > kMaxHeadBytes) {
      too_large = true;
      return std::nullopt;
    }
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n > 0) {
      buf.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) return std::nullopt;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return std::nullopt;
    stop.wait(fd, POLLIN, kPollSliceMs);
  }
  return std::nullopt;
}

// Closes gracefully: half-close, then read (and discard) until the client closes. Closing a socket
// with unread input makes the kernel send RST, and an RST can make the client drop response bytes it
// has not read yet; draining first avoids that.
void linger_close(int fd, const StopSignal& stop) {
  ::shutdown(fd, SHUT_WR);
  char sink[4096];
  const auto deadline = Clock::now() + kLingerTimeout;
  while (!stop.stopped() && Clock::now() < deadline) {
    const ssize_t n = ::recv(fd, sink, sizeof sink, 0);
    if (n == 0) return;
    if (n > 0) continue;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return;
    stop.wait(fd, POLLIN, kPollSliceMs);
  }
}

std::string simple_response(int status, const std::string& extra_headers, bool with_body) {
  const std::string body = std::to_string(status) + " " + reason_phrase(status) + "\n";
  std::string r = "HTTP/1.1 " + std::to_string(status) + " " + reason_phrase(status) + "\r\n";
  r += "Content-Type: text/plain\r\n";
  r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  r += extra_headers;
  r += "Connection: close\r\n\r\n";
  if (with_body) r += body;
  return r;
}

// Parses one byte range ("bytes=N-", "bytes=N-M", "bytes=-S") against a file of `size` bytes.
// Results: not a usable single range -> ignored (serve the whole file, as RFC 9110 allows);
// unsatisfiable -> 416; otherwise the inclusive [first, last].
struct RangeResult {
  enum Kind { kNone, kUnsatisfiable, kRange } kind = kNone;
  std::uint64_t first = 0;
  std::uint64_t last = 0;
};

std::optional<std::uint64_t> parse_u64(const std::string& s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return v;
}

RangeResult parse_range(const std::string& header, std::uint64_t size) {
  RangeResult r;
  const std::string h = trim(header);
  if (lower(h.substr(0, 6)) != "bytes=") return r;
  const std::string spec = trim(h.substr(6));
  if (spec.find(',') != std::string::npos) return r;  // multipart ranges: not supported, serve all
  const auto dash = spec.find('-');
  if (dash == std::string::npos) return r;
  const std::string a = trim(spec.substr(0, dash));
  const std::string b = trim(spec.substr(dash + 1));
  if (a.empty()) {  // suffix range: the last S bytes
    const auto suffix = parse_u64(b);
    if (!suffix) return r;
    if (*suffix == 0 || size == 0) {
      r.kind = RangeResult::kUnsatisfiable;
      return r;
    }
    r.kind = RangeResult::kRange;
    r.first = size - std::min(*suffix, size);
    r.last = size - 1;
    return r;
  }
  const auto first = parse_u64(a);
  if (!first) return r;
  std::uint64_t last = size == 0 ? 0 : size - 1;
  if (!b.empty()) {
    const auto l = parse_u64(b);
    if (!l || *l < *first) return r;  // syntactically invalid: ignored
    last = std::min(*l, last);
  }
  if (*first >= size) {
    r.kind = RangeResult::kUnsatisfiable;
    return r;
  }
  r.kind = RangeResult::kRange;
  r.first = *first;
  r.last = last;
  return r;
}

}  // namespace

HttpTestServer::HttpTestServer(fs::path root, std::uint16_t port) {
  // Canonical root so the containment check below compares like with like (symlinks resolved).
  root_ = fs::weakly_canonical(fs::absolute(root));
  if (::pipe(wake_pipe_) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  for (int fd : wake_pipe_) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) {
    const std::string err = std::strerror(errno);
    close_wake_pipe();
    throw std::runtime_error("socket: " + err);
  }
  const int one = 1;
  // Lets serve_dir rebind a fixed --port right after a previous run (TIME_WAIT).
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // 127.0.0.1 only: tests must never listen outside
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 128) != 0) {
    const std::string err = std::strerror(errno);
    ::close(listen_fd_);
    close_wake_pipe();
    throw std::runtime_error("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " + err);
  }
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  // Non-blocking: a client that connects and resets before accept() must not block the loop.
  ::fcntl(listen_fd_, F_SETFL, ::fcntl(listen_fd_, F_GETFL) | O_NONBLOCK);
  accept_thread_ = std::thread([this] { accept_loop(); });
}

HttpTestServer::~HttpTestServer() { stop(); }

std::string HttpTestServer::url() const { return "http://127.0.0.1:" + std::to_string(port_); }

void HttpTestServer::truncate_once(const std::string& url_path, std::uint64_t after_bytes) {
  std::lock_guard lock(state_mutex_);
  auto& f = faults_[url_path];
  f.truncate = true;
  f.truncate_after = after_bytes;
}

void HttpTestServer::set_status(const std::string& url_path, int status) {
  std::lock_guard lock(state_mutex_);
  faults_[url_path].status = status == 200 ? 0 : status;
}

void HttpTestServer::set_delay_ms(const std::string& url_path, int ms) {
  std::lock_guard lock(state_mutex_);
  faults_[url_path].delay_ms = std::max(ms, 0);
}

void HttpTestServer::corrupt_byte(const std::string& url_path, std::uint64_t offset) {
  std::lock_guard lock(state_mutex_);
  faults_[url_path].corrupt_offsets.insert(offset);
}

void HttpTestServer::set_redirect(const std::string& url_path, const std::string& location, int status) {
  std::lock_guard lock(state_mutex_);
  faults_[url_path].status = status;
  faults_[url_path].redirect_to = location;
}

void HttpTestServer::ignore_range(const std::string& url_path) {
  std::lock_guard lock(state_mutex_);
  faults_[url_path].ignore_range = true;
}

void HttpTestServer::close_delimited(const std::string& url_path, std::uint64_t after_bytes) {
  std::lock_guard lock(state_mutex_);
  auto& f = faults_[url_path];
  f.close_delimited = true;
  f.close_after = after_bytes;
}

void HttpTestServer::trickle(const std::string& url_path, std::size_t bytes, int interval_ms) {
  std::lock_guard lock(state_mutex_);
  auto& f = faults_[url_path];
  f.trickle_bytes = bytes;
  f.trickle_interval_ms = std::max(interval_ms, 0);
}

std::size_t HttpTestServer::request_count(const std::string& url_path) const {
  std::lock_guard lock(state_mutex_);
  const auto it = request_counts_.find(url_path);
  return it == request_counts_.end() ? 0 : it->second;
}

std::vector<std::string> HttpTestServer::range_headers(const std::string& url_path) const {
  std::lock_guard lock(state_mutex_);
  const auto it = range_headers_.find(url_path);
  return it == range_headers_.end() ? std::vector<std::string>{} : it->second;
}

void HttpTestServer::stop() {
  std::lock_guard lock(stop_mutex_);
  if (stopping_.exchange(true)) return;
  // Wakes the accept loop and every connection's poll(); the byte is never read, so it stays readable.
  const char byte = 1;
  [[maybe_unused]] const auto written = ::write(wake_pipe_[1], &byte, 1);
  if (accept_thread_.joinable()) accept_thread_.join();
  ::close(listen_fd_);
  listen_fd_ = -1;
  reap_finished_connections(/*all=*/true);
  close_wake_pipe();  // only after every thread that polls it has been joined
}

void HttpTestServer::close_wake_pipe() {
  for (int& fd : wake_pipe_) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
}

HttpTestServer::Faults HttpTestServer::faults_for(const std::string& url_path, bool is_get) {
  std::lock_guard lock(state_mutex_);
  const auto it = faults_.find(url_path);
  if (it == faults_.end()) return {};
  Faults f = it->second;
  if (is_get) it->second.truncate = false;  // one-shot: only the next GET is cut short
  else f.truncate = false;
  return f;
}

void HttpTestServer::reap_finished_connections(bool all) {
  std::vector<Connection> finished;
  {
    std::lock_guard lock(connections_mutex_);
    auto keep = std::partition(connections_.begin(), connections_.end(),
                               [all](const Connection& c) { return !all && !c.done->load(); });
    std::move(keep, connections_.end(), std::back_inserter(finished));
    connections_.erase(keep, connections_.end());
  }
  for (auto& c : finished)
    if (c.thread.joinable()) c.thread.join();
}

void HttpTestServer::accept_loop() {
  while (!stopping_.load()) {
    reap_finished_connections(/*all=*/false);
    pollfd p[2] = {{wake_pipe_[0], POLLIN, 0}, {listen_fd_, POLLIN, 0}};
    if (::poll(p, 2, kPollSliceMs) <= 0 || !(p[1].revents & POLLIN)) continue;
    const int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) {
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));  // e.g. EMFILE: do not spin
      continue;
    }
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    // Headers and body go out in separate sends; without TCP_NODELAY, Nagle's algorithm holds a small
    // body back until the client's delayed ACK (~40 ms per request).
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    // Non-blocking, so every wait in the connection goes through poll() and can notice stop().
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::lock_guard lock(connections_mutex_);
    // The slot first, so that nothing can fail (and destroy a joinable thread) once the thread runs.
    try {
      connections_.push_back(Connection{std::thread(), done});
    } catch (const std::bad_alloc&) {
      ::close(fd);
      continue;
    }
    try {
      connections_.back().thread = std::thread([this, fd, done] {
        try {
          handle_connection(fd);
        } catch (...) {
          // A test server must not take the test process down (std::terminate) on one bad request.
        }
        done->store(true);
      });
    } catch (const std::system_error&) {
      connections_.pop_back();
      ::close(fd);  // could not start a thread: drop this client
    }
  }
}

void HttpTestServer::handle_connection(int fd) {
  FdCloser closer(fd);
  const StopSignal stop{stopping_, wake_pipe_[0]};
  bool too_large = false;
  const auto head = read_head(fd, stop, too_large);
  if (!head) {
    if (too_large) {
      send_all(fd, simple_response(431, "", true), stop);
      linger_close(fd, stop);
    }
    return;
  }
  auto respond = [&](const std::string& response) {
    send_all(fd, response, stop);
    linger_close(fd, stop);
  };

  // Request line: METHOD SP TARGET SP VERSION.
  const auto line_end = head->find("\r\n");
  const std::string request_line = head->substr(0, line_end);
  const auto sp1 = request_line.find(' ');
  const auto sp2 = sp1 == std::string::npos ? std::string::npos : request_line.find(' ', sp1 + 1);
  if (sp2 == std::string::npos) return respond(simple_response(400, "", true));
  const std::string method = request_line.substr(0, sp1);
  std::string target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);

  std::string range;
  if (line_end != std::string::npos) {
    std::size_t pos = line_end + 2;
    while (pos < head->size()) {
      auto next = head->find("\r\n", pos);
      if (next == std::string::npos) next = head->size();
      const std::string line = head->substr(pos, next - pos);
      pos = next + 2;
      const auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      if (lower(trim(line.substr(0, colon))) == "range") range = trim(line.substr(colon + 1));
    }
  }

  // Absolute-form targets ("http://host/path") are legal in HTTP/1.1; reduce them to the path.
  if (target.rfind("http://", 0) == 0) {
    const auto slash = target.find('/', 7);
    target = slash == std::string::npos ? "/" : target.substr(slash);
  }
  target = target.substr(0, target.find_first_of("?#"));
  const auto decoded = percent_decode(target);
  if (!decoded) return respond(simple_response(400, "", method != "HEAD"));
  const std::string& url_path = *decoded;

  const bool is_get = method == "GET";
  const bool is_head = method == "HEAD";
  {
    std::lock_guard lock(state_mutex_);
    ++request_counts_[url_path];
    if (is_get) range_headers_[url_path].push_back(range);
  }
  const Faults faults = faults_for(url_path, is_get);

  if (faults.delay_ms > 0) {
    const auto until = Clock::now() + std::chrono::milliseconds(faults.delay_ms);
    for (auto now = Clock::now(); now < until; now = Clock::now()) {
      if (stop.stopped()) return;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - now).count();
      stop.wait(-1, 0, static_cast<int>(std::min<long long>(left + 1, kPollSliceMs)));
    }
  }

  if (!is_get && !is_head) return respond(simple_response(405, "Allow: GET, HEAD\r\n", true));
  if (faults.status != 0)
    return respond(simple_response(
        faults.status, faults.redirect_to.empty() ? "" : "Location: " + faults.redirect_to + "\r\n", is_get));

  // Never serve outside root: refuse any "..", then also check the resolved path (symlinks).
  if (url_path.empty() || url_path[0] != '/' || url_path.find("..") != std::string::npos ||
      url_path.find('\0') != std::string::npos)
    return respond(simple_response(404, "", is_get));
  const auto start = url_path.find_first_not_of('/');
  const fs::path relative = start == std::string::npos ? fs::path() : fs::path(url_path.substr(start));
  std::error_code ec;
  const fs::path file = fs::weakly_canonical(root_ / relative, ec);
  const auto [root_end, file_it] = std::mismatch(root_.begin(), root_.end(), file.begin(), file.end());
  if (ec || root_end != root_.end() || file == root_) return respond(simple_response(404, "", is_get));

  // O_NONBLOCK so that opening a FIFO cannot block; it has no effect on regular files.
  const int file_fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (file_fd < 0) return respond(simple_response(404, "", is_get));
  FdCloser file_closer(file_fd);
  struct stat st {};
  if (::fstat(file_fd, &st) != 0 || !S_ISREG(st.st_mode)) return respond(simple_response(404, "", is_get));
  const auto size = static_cast<std::uint64_t>(st.st_size);

  const RangeResult r = range.empty() || faults.ignore_range ? RangeResult{} : parse_range(range, size);
  if (r.kind == RangeResult::kUnsatisfiable) {
    // Empty body: a resuming client must not append an error page to its partial file.
    return respond("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */" + std::to_string(size) +
                   "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  }
  const std::uint64_t first = r.kind == RangeResult::kRange ? r.first : 0;
  const std::uint64_t length = r.kind == RangeResult::kRange ? r.last - r.first + 1 : size;

  std::string headers = r.kind == RangeResult::kRange ? "HTTP/1.1 206 Partial Content\r\n" : "HTTP/1.1 200 OK\r\n";
  headers += "Content-Type: application/octet-stream\r\n";
  if (!faults.close_delimited) headers += "Content-Length: " + std::to_string(length) + "\r\n";
  if (r.kind == RangeResult::kRange)
    headers += "Content-Range: bytes " + std::to_string(r.first) + "-" + std::to_string(r.last) + "/" +
               std::to_string(size) + "\r\n";
  if (!faults.ignore_range) headers += "Accept-Ranges: bytes\r\n";
  headers += "Connection: close\r\n\r\n";
  if (!send_all(fd, headers, stop)) return;
  if (is_head) return linger_close(fd, stop);

  // The body, streamed in chunks; a truncate_once fault still announced the full Content-Length above.
  std::uint64_t to_send = faults.truncate ? std::min(length, faults.truncate_after) : length;
  if (faults.close_delimited) to_send = std::min(to_send, faults.close_after);
  const std::size_t chunk_bytes = faults.trickle_bytes ? faults.trickle_bytes : kChunkBytes;
  std::vector<char> chunk(chunk_bytes);
  std::uint64_t sent = 0;
  while (sent < to_send) {
    const std::uint64_t offset = first + sent;
    if (faults.trickle_bytes && sent > 0) {
      const auto until = Clock::now() + std::chrono::milliseconds(faults.trickle_interval_ms);
      while (Clock::now() < until) {
        if (stop.stopped()) return;
        stop.wait(-1, 0, kPollSliceMs);
      }
    }
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(chunk_bytes, to_send - sent));
    const ssize_t n = ::pread(file_fd, chunk.data(), want, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // file shrank or read error: the client sees a short body
    const auto got = static_cast<std::uint64_t>(n);
    for (auto it = faults.corrupt_offsets.lower_bound(offset); it != faults.corrupt_offsets.end() && *it < offset + got;
         ++it)
      chunk[static_cast<std::size_t>(*it - offset)] ^= static_cast<char>(0xFF);
    if (!send_all(fd, chunk.data(), static_cast<std::size_t>(got), stop)) return;
    sent += got;
  }
  linger_close(fd, stop);
}

}  // namespace dpclust::testing
