#include "test_support.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>

#include "core/files.hpp"

namespace dpclust::testing {
namespace fs = std::filesystem;

fs::path data_root() { return resolve_data_root(); }

namespace {
// Every temp_dir of one test process lives under /tmp/dpclust_test_<pid>/, removed after the last test
// (a global gtest environment's TearDown, while gtest still knows the results) unless a test failed:
// then it is kept for inspection and its path printed.
class TempRoot : public ::testing::Environment {
 public:
  const fs::path& path() {
    if (path_.empty()) path_ = fs::temp_directory_path() / ("dpclust_test_" + std::to_string(::getpid()));
    return path_;
  }
  void TearDown() override {
    if (path_.empty() || !fs::exists(path_)) return;
    if (::testing::UnitTest::GetInstance()->Failed()) {
      std::fprintf(stderr, "test files kept for inspection: %s\n", path_.c_str());
      return;
    }
    std::error_code ec;
    // Permission tests may leave read-only files or folders; make everything writable first.
    for (auto it = fs::recursive_directory_iterator(path_, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }

 private:
  fs::path path_;
};
// gtest owns (and deletes) registered environments.
TempRoot* const temp_root = static_cast<TempRoot*>(::testing::AddGlobalTestEnvironment(new TempRoot));
}  // namespace

fs::path temp_dir(const std::string& tag) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = tag;
  if (info) name += std::string("_") + info->test_suite_name() + "_" + info->name();
  for (char& c : name)
    if (c == '/') c = '_';
  fs::path dir = temp_root->path() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

fs::path write_file(const fs::path& path, const std::string& text) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  return path;
}

std::string pattern_bytes(std::size_t n, unsigned seed) {
  std::string s(n, '\0');
  std::uint32_t x = 2463534242u ^ seed;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    s[i] = static_cast<char>('a' + x % 26);
  }
  return s;
}

CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), p)) r.output += buf.data();
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace dpclust::testing
