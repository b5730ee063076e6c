// Self-test of the HTTP test server, with a tiny POSIX-socket client (no libcurl), so that downloader
// test failures can be trusted to be the downloader's.
#include "datasources/http_test_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace dpclust::testing {
namespace {
namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;

struct Response {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  std::size_t content_length() const { return std::stoul(headers.at("content-length")); }
};

// Connects to 127.0.0.1:port with a receive timeout, so a misbehaving server fails the test instead of
// hanging it.
int connect_to(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  timeval tv{};
  tv.tv_sec = 5;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool send_text(int fd, const std::string& s) {
  return ::send(fd, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size());
}

// Reads the whole response (the server always closes) and splits head from body.
std::optional<Response> read_response(int fd) {
  std::string raw;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n > 0) {
      raw.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) break;
    return std::nullopt;  // timeout or reset
  }
  const auto end = raw.find("\r\n\r\n");
  if (end == std::string::npos || raw.rfind("HTTP/1.1 ", 0) != 0) return std::nullopt;
  Response r;
  r.status = std::stoi(raw.substr(9, 3));
  std::size_t pos = raw.find("\r\n") + 2;
  while (pos < end) {
    const auto next = raw.find("\r\n", pos);
    const std::string line = raw.substr(pos, next - pos);
    pos = next + 2;
    const auto colon = line.find(':');
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
  }
  r.body = raw.substr(end + 4);
  return r;
}

// One request on a fresh connection; `extra` holds whole header lines ("Range: bytes=3-\r\n").
std::optional<Response> request(std::uint16_t port, const std::string& method, const std::string& path,
                                const std::string& extra = "") {
  const int fd = connect_to(port);
  if (fd < 0) return std::nullopt;
  std::optional<Response> r;
  if (send_text(fd, method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra + "\r\n")) r = read_response(fd);
  ::close(fd);
  return r;
}

std::optional<Response> get(std::uint16_t port, const std::string& path, const std::string& range = "") {
  return request(port, "GET", path, range.empty() ? "" : "Range: " + range + "\r\n");
}

std::string pattern(std::size_t size) {
  std::string s(size, '\0');
  for (std::size_t i = 0; i < size; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 251) % 26);
  return s;
}

class HttpTestServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = temp_dir("http_server");
    root_ = dir_ / "root";
    write_file(root_ / "a" / "b.txt", "hello world");
  }
  void TearDown() override {
    fs::remove_all(dir_);
    std::error_code ec;
    fs::remove(dir_.parent_path(), ec);  // the per-process parent, once empty; fails harmlessly otherwise
  }
  fs::path dir_, root_;
};

TEST_F(HttpTestServerTest, ServesFileWith200AndContentLength) {
  HttpTestServer server(root_);
  EXPECT_EQ(server.url(), "http://127.0.0.1:" + std::to_string(server.port()));
  const auto r = get(server.port(), "/a/b.txt");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "hello world");
  EXPECT_EQ(r->content_length(), 11u);
  EXPECT_EQ(r->headers.at("content-type"), "application/octet-stream");
  EXPECT_EQ(r->headers.at("connection"), "close");
}

TEST_F(HttpTestServerTest, HeadSendsHeadersWithoutBody) {
  HttpTestServer server(root_);
  const auto r = request(server.port(), "HEAD", "/a/b.txt");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->content_length(), 11u);
  EXPECT_EQ(r->body, "");
}

TEST_F(HttpTestServerTest, StreamsALargeFileIntact) {
  const std::string big = pattern(1'500'000);  // several chunks
  write_file(root_ / "big.bin", big);
  HttpTestServer server(root_);
  const auto r = get(server.port(), "/big.bin");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->content_length(), big.size());
  EXPECT_TRUE(r->body == big);
}

TEST_F(HttpTestServerTest, RangeRequestsGive206WithContentRange) {
  HttpTestServer server(root_);
  auto r = get(server.port(), "/a/b.txt", "bytes=3-");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 206);
  EXPECT_EQ(r->body, "lo world");
  EXPECT_EQ(r->content_length(), 8u);
  EXPECT_EQ(r->headers.at("content-range"), "bytes 3-10/11");

  r = get(server.port(), "/a/b.txt", "bytes=0-4");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 206);
  EXPECT_EQ(r->body, "hello");
  EXPECT_EQ(r->headers.at("content-range"), "bytes 0-4/11");

  r = get(server.port(), "/a/b.txt", "bytes=6-100");  // end past the file: clamped
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 206);
  EXPECT_EQ(r->body, "world");
  EXPECT_EQ(r->headers.at("content-range"), "bytes 6-10/11");

  r = get(server.port(), "/a/b.txt", "bytes=-3");  // suffix
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 206);
  EXPECT_EQ(r->body, "rld");

  r = get(server.port(), "/a/b.txt", "bytes=5-2");  // invalid: ignored, whole file
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "hello world");
}

TEST_F(HttpTestServerTest, RangeAtOrPastTheEndGives416) {
  HttpTestServer server(root_);
  for (const std::string range : {"bytes=11-", "bytes=50-60"}) {
    const auto r = get(server.port(), "/a/b.txt", range);
    ASSERT_TRUE(r) << range;
    EXPECT_EQ(r->status, 416) << range;
    EXPECT_EQ(r->headers.at("content-range"), "bytes */11") << range;
    EXPECT_EQ(r->body, "") << range;
  }
}

TEST_F(HttpTestServerTest, MissingFilesDirectoriesAndDotDotGive404) {
  write_file(dir_ / "secret.txt", "outside the root");
  HttpTestServer server(root_);
  for (const std::string path : {"/nope.txt", "/a", "/a/", "/", "/../secret.txt", "/a/../../secret.txt",
                                 "/%2e%2e/secret.txt", "/a/../a/b.txt"}) {
    const auto r = get(server.port(), path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 404) << path;
    EXPECT_EQ(r->body.find("outside"), std::string::npos) << path;
  }
}

TEST_F(HttpTestServerTest, DecodesPercentEscapesAndIgnoresQueryStrings) {
  write_file(root_ / "d" / "a b.txt", "spaced");
  HttpTestServer server(root_);
  const auto r = get(server.port(), "/d/a%20b.txt?x=1");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "spaced");
  EXPECT_EQ(server.request_count("/d/a b.txt"), 1u);
}

TEST_F(HttpTestServerTest, OtherMethodsGive405) {
  HttpTestServer server(root_);
  const auto r = request(server.port(), "POST", "/a/b.txt", "Content-Length: 0\r\n");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 405);
}

TEST_F(HttpTestServerTest, TruncateOnceCutsOneBodyShortThenServesInFull) {
  const std::string data = pattern(1000);
  write_file(root_ / "t.bin", data);
  HttpTestServer server(root_);
  server.truncate_once("/t.bin", 100);

  // HEAD does not consume the fault.
  auto r = request(server.port(), "HEAD", "/t.bin");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->content_length(), 1000u);

  r = get(server.port(), "/t.bin");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->content_length(), 1000u);    // the full length is announced...
  EXPECT_EQ(r->body, data.substr(0, 100));  // ...but only 100 bytes arrive

  r = get(server.port(), "/t.bin", "bytes=100-");  // the resume is served in full
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 206);
  EXPECT_EQ(r->body, data.substr(100));

  r = get(server.port(), "/t.bin");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, data);
}

TEST_F(HttpTestServerTest, TruncateAppliesToRangedBodies) {
  const std::string data = pattern(1000);
  write_file(root_ / "t.bin", data);
  HttpTestServer server(root_);
  server.truncate_once("/t.bin", 50);
  const auto r = get(server.port(), "/t.bin", "bytes=200-");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 206);
  EXPECT_EQ(r->content_length(), 800u);
  EXPECT_EQ(r->body, data.substr(200, 50));
}

TEST_F(HttpTestServerTest, SetStatusOverridesTheAnswerUntilCleared) {
  HttpTestServer server(root_);
  for (int status : {500, 403, 404, 503}) {
    server.set_status("/a/b.txt", status);
    const auto r = get(server.port(), "/a/b.txt");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, status);
    EXPECT_EQ(r->body.find("hello"), std::string::npos);
  }
  EXPECT_EQ(get(server.port(), "/other.txt")->status, 404);  // other paths are unaffected
  server.set_status("/a/b.txt", 200);
  const auto r = get(server.port(), "/a/b.txt");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "hello world");
}

TEST_F(HttpTestServerTest, SetDelayWaitsBeforeAnswering) {
  HttpTestServer server(root_);
  server.set_delay_ms("/a/b.txt", 150);
  const auto start = SteadyClock::now();
  const auto r = get(server.port(), "/a/b.txt");
  const auto elapsed = SteadyClock::now() - start;
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "hello world");
  EXPECT_GE(elapsed, std::chrono::milliseconds(150));
}

TEST_F(HttpTestServerTest, CorruptByteFlipsOneByteInFullAndRangedBodies) {
  const std::string data = pattern(200'000);
  write_file(root_ / "c.bin", data);
  HttpTestServer server(root_);
  server.corrupt_byte("/c.bin", 70'000);  // in the second 64 KiB chunk
  std::string expected = data;
  expected[70'000] = static_cast<char>(expected[70'000] ^ 0xFF);

  auto r = get(server.port(), "/c.bin");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->body == expected);
  r = get(server.port(), "/c.bin", "bytes=69999-70001");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, expected.substr(69'999, 3));
  EXPECT_TRUE(fs::file_size(root_ / "c.bin") == data.size());
}

TEST_F(HttpTestServerTest, ServesConcurrentClients) {
  const std::string big = pattern(1'000'000);
  write_file(root_ / "big.bin", big);
  HttpTestServer server(root_);

  // A client that has sent only half a request holds its connection open; the server must still answer
  // another client meanwhile, i.e. it is not serving one connection at a time.
  const int idle = connect_to(server.port());
  ASSERT_GE(idle, 0);
  ASSERT_TRUE(send_text(idle, "GET /a/b.txt HTTP/1.1\r\n"));
  const auto other = get(server.port(), "/big.bin");
  ASSERT_TRUE(other);
  EXPECT_TRUE(other->body == big);
  ASSERT_TRUE(send_text(idle, "Host: 127.0.0.1\r\n\r\n"));
  const auto late = read_response(idle);
  ::close(idle);
  ASSERT_TRUE(late);
  EXPECT_EQ(late->body, "hello world");

  // Two threads downloading at once all get intact bodies.
  std::vector<int> ok(2, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 4; ++i) {
        const auto r = get(server.port(), "/big.bin", t == 0 ? "" : "bytes=1000-");
        if (r && r->body == (t == 0 ? big : big.substr(1000))) ++ok[static_cast<std::size_t>(t)];
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok[0], 4);
  EXPECT_EQ(ok[1], 4);
  EXPECT_EQ(server.request_count("/big.bin"), 9u);
}

TEST_F(HttpTestServerTest, RecordsRequestCountsAndRangeHeaders) {
  HttpTestServer server(root_);
  EXPECT_EQ(server.request_count("/a/b.txt"), 0u);
  EXPECT_TRUE(server.range_headers("/a/b.txt").empty());
  ASSERT_TRUE(get(server.port(), "/a/b.txt"));
  ASSERT_TRUE(get(server.port(), "/a/b.txt", "bytes=5-"));
  ASSERT_TRUE(request(server.port(), "HEAD", "/a/b.txt"));  // counted, but HEAD is not a GET
  ASSERT_TRUE(get(server.port(), "/missing.txt", "bytes=0-9"));
  EXPECT_EQ(server.request_count("/a/b.txt"), 3u);
  EXPECT_EQ(server.range_headers("/a/b.txt"), (std::vector<std::string>{"", "bytes=5-"}));
  EXPECT_EQ(server.request_count("/missing.txt"), 1u);
  EXPECT_EQ(server.range_headers("/missing.txt"), (std::vector<std::string>{"bytes=0-9"}));
}

TEST_F(HttpTestServerTest, SurvivesClientsThatDisconnectEarly) {
  const std::string big = pattern(4'000'000);
  write_file(root_ / "big.bin", big);
  HttpTestServer server(root_);
  for (int i = 0; i < 3; ++i) {
    const int fd = connect_to(server.port());
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(send_text(fd, "GET /big.bin HTTP/1.1\r\n\r\n"));
    char buf[1024];
    ASSERT_GT(::recv(fd, buf, sizeof buf, 0), 0);
    ::close(fd);  // mid-body: the server's next send gets EPIPE/ECONNRESET, not SIGPIPE
  }
  const auto r = get(server.port(), "/a/b.txt");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "hello world");
}

TEST_F(HttpTestServerTest, StopIsPromptWithStalledClientsAndIsIdempotent) {
  write_file(root_ / "big.bin", pattern(8'000'000));
  auto server = std::make_unique<HttpTestServer>(root_);
  server->set_delay_ms("/a/b.txt", 60'000);
  const int silent = connect_to(server->port());       // never sends a request
  const int not_reading = connect_to(server->port());  // asks for 8 MB and never reads
  const int waiting = connect_to(server->port());      // waits on a 60 s delay
  ASSERT_GE(silent, 0);
  ASSERT_GE(not_reading, 0);
  ASSERT_GE(waiting, 0);
  ASSERT_TRUE(send_text(not_reading, "GET /big.bin HTTP/1.1\r\n\r\n"));
  ASSERT_TRUE(send_text(waiting, "GET /a/b.txt HTTP/1.1\r\n\r\n"));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // let the server reach its waits

  const auto start = SteadyClock::now();
  server->stop();
  server->stop();
  server.reset();
  EXPECT_LT(SteadyClock::now() - start, std::chrono::seconds(1));
  ::close(silent);
  ::close(not_reading);
  ::close(waiting);
}

}  // namespace
}  // namespace dpclust::testing
