#pragma once
// A small HTTP/1.1 file server on 127.0.0.1 for tests of the dataset downloader. It exists because the
// downloader's resume logic needs a real server that honours Range requests and can misbehave on
// demand (short bodies, error statuses, delays, corrupt bytes); Python's http.server cannot do Range.
//
// POSIX sockets and the C++ standard library only: one accept thread plus one thread per connection,
// every response ends with `Connection: close`, files are streamed in chunks (never loaded whole).
//
// URL paths used by the fault-injection and inspection methods are the request path as the client
// sent it, percent-decoded and without any query string, e.g. "/host/dir/file.txt".
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace dpclust::testing {

class HttpTestServer {
 public:
  // Serves files under `root` at http://127.0.0.1:<port>/<relative path>. Binds 127.0.0.1 only, never
  // another address. `port` 0 (the default, and what tests should use) takes an ephemeral port.
  // Throws std::runtime_error when the socket cannot be set up.
  explicit HttpTestServer(std::filesystem::path root, std::uint16_t port = 0);
  ~HttpTestServer();  // stop(): never hangs
  HttpTestServer(const HttpTestServer&) = delete;
  HttpTestServer& operator=(const HttpTestServer&) = delete;

  std::uint16_t port() const { return port_; }
  std::string url() const;  // "http://127.0.0.1:PORT"

  // Fault injection, per URL path.
  // The next GET of the path sends the full Content-Length header but closes the connection after
  // `after_bytes` body bytes (one-shot: the GET after that is served normally).
  void truncate_once(const std::string& url_path, std::uint64_t after_bytes);
  // Answer every request of the path with this status (and a short text body); 200 or 0 clears it.
  void set_status(const std::string& url_path, int status);
  // Wait this long before answering each request of the path (timeout tests); 0 clears it.
  void set_delay_ms(const std::string& url_path, int ms);
  // Serve the file with the byte at `offset` flipped (XOR 0xFF), in full and ranged responses alike.
  // Several offsets may be set for one path; the file on disk is left untouched.
  void corrupt_byte(const std::string& url_path, std::uint64_t offset);
  // Hostile-server faults.
  // Answer every request of the path with `status` (301, 302, 307...) and `Location: location`.
  void set_redirect(const std::string& url_path, const std::string& location, int status = 302);
  // Ignore Range requests for the path: always 200 with the whole file, no Accept-Ranges.
  void ignore_range(const std::string& url_path);
  // Send the body without Content-Length (ended by closing the connection) and only its first
  // `after_bytes` bytes: a cut connection that looks like a complete response.
  void close_delimited(const std::string& url_path, std::uint64_t after_bytes);
  // Send the body `bytes` at a time with `interval_ms` between sends (a trickling server).
  void trickle(const std::string& url_path, std::size_t bytes, int interval_ms);

  // What was asked.
  // Number of requests (any method, whatever the answer) for the path.
  std::size_t request_count(const std::string& url_path) const;
  // The Range header of each GET of the path, in arrival order ("" when there was none).
  std::vector<std::string> range_headers(const std::string& url_path) const;

  // Stops accepting, wakes and joins every thread. Idempotent; called by the destructor.
  void stop();

 private:
  struct Connection {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  struct Faults {
    int status = 0;
    int delay_ms = 0;
    bool truncate = false;
    std::uint64_t truncate_after = 0;
    std::set<std::uint64_t> corrupt_offsets;
    std::string redirect_to;
    bool ignore_range = false;
    bool close_delimited = false;
    std::uint64_t close_after = 0;
    std::size_t trickle_bytes = 0;
    int trickle_interval_ms = 0;
  };

  void close_wake_pipe();
  void accept_loop();
  void reap_finished_connections(bool all);
  void handle_connection(int fd);
  Faults faults_for(const std::string& url_path, bool is_get);  // consumes a pending truncate_once

  std::filesystem::path root_;
  std::uint16_t port_ = 0;
  int listen_fd_ = -1;
  int wake_pipe_[2] = {-1, -1};  // stop() writes to [1]; every poll() also watches [0]
  std::atomic<bool> stopping_{false};
  std::mutex stop_mutex_;  // stop() may be called by a test and then by the destructor
  std::thread accept_thread_;

  std::mutex connections_mutex_;
  std::vector<Connection> connections_;

  mutable std::mutex state_mutex_;
  std::map<std::string, Faults> faults_;
  std::map<std::string, std::size_t> request_counts_;
  std::map<std::string, std::vector<std::string>> range_headers_;
};

}  // namespace dpclust::testing
