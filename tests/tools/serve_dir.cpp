// serve_dir DIR [--port N]: serves DIR on http://127.0.0.1 with the tests' HTTP server (Range support),
// for manual end-to-end runs of the dataset downloader against a local mirror. Prints the base URL on
// the first stdout line, then serves until SIGTERM or SIGINT.
#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "datasources/http_test_server.hpp"

namespace {

int usage() {
  std::cerr << "usage: serve_dir DIR [--port N]\n"
               "  Serves DIR at http://127.0.0.1:PORT (port 0 or none: an ephemeral port), printing the\n"
               "  URL on the first stdout line; stops on SIGTERM or SIGINT.\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  long port = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--port" && i + 1 < argc) {
      char* end = nullptr;
      port = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || port < 0 || port > 65535) return usage();
    } else if (arg == "-h" || arg == "--help") {
      usage();
      return 0;
    } else if (dir.empty() && !arg.empty() && arg[0] != '-') {
      dir = arg;
    } else {
      return usage();
    }
  }
  if (dir.empty()) return usage();
  if (!std::filesystem::is_directory(dir)) {
    std::cerr << "serve_dir: not a directory: " << dir << "\n";
    return 2;
  }

  // Block the stop signals before any thread starts (threads inherit the mask), so that only the
  // sigwait below receives them and the server can be shut down cleanly.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  // Belt and braces: the server sends with MSG_NOSIGNAL, but a stray SIGPIPE must not kill a long run.
  signal(SIGPIPE, SIG_IGN);

  try {
    dpclust::testing::HttpTestServer server(dir, static_cast<std::uint16_t>(port));
    std::cout << server.url() << std::endl;  // flushed: a parent process reads this line to find us
    int received = 0;
    sigwait(&stop_signals, &received);
    server.stop();
  } catch (const std::exception& e) {
    std::cerr << "serve_dir: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
