#include "core/files.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace dpclust {
namespace fs = std::filesystem;

void write_file_atomic(const fs::path& path, const std::string& content) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + tmp.string());
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      ::close(fd);
      throw std::runtime_error("write failed on " + tmp.string());
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  ::fsync(fd);
  ::close(fd);
  fs::rename(tmp, path);
}

std::string read_text_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

static std::string hex8(unsigned long v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%08lx", v & 0xffffffffUL);
  return buf;
}

std::string crc32_hex(const std::string& bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32_z(crc, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size());
  return hex8(crc);
}

std::string file_crc32(const fs::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot read " + path.string());
  std::vector<unsigned char> buf(1 << 20);
  uLong crc = crc32(0L, Z_NULL, 0);
  std::size_t got;
  while ((got = std::fread(buf.data(), 1, buf.size(), f)) > 0) crc = crc32_z(crc, buf.data(), got);
  std::fclose(f);
  return hex8(crc);
}

nlohmann::json file_fingerprint(const fs::path& path) {
  return {{"path", fs::absolute(path).lexically_normal().string()},
          {"bytes", static_cast<std::uint64_t>(fs::file_size(path))},
          {"crc32", file_crc32(path)}};
}

std::string utc_now_iso8601() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

const BuildInfo& build_info() {
  static const BuildInfo info = [] {
    BuildInfo b;
    b.version = DPCLUST_VERSION;
    b.git_commit = DPCLUST_GIT_COMMIT;
#if defined(__clang__)
    b.compiler = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
    b.compiler = std::string("gcc ") + __VERSION__;
#else
    b.compiler = "unknown";
#endif
    b.build_type = DPCLUST_BUILD_TYPE;
    std::array<char, 256> host{};
    if (::gethostname(host.data(), host.size() - 1) == 0) b.host = host.data();
    b.source_dir = DPCLUST_SOURCE_DIR;
    return b;
  }();
  return info;
}

fs::path resolve_data_root(const std::string& explicit_root) {
  if (!explicit_root.empty()) return fs::path(explicit_root);
  if (const char* env = std::getenv("DPCLUST_DATA_ROOT"); env && *env) return fs::path(env);
  fs::path beside = fs::path(DPCLUST_SOURCE_DIR) / ".." / "shared" / "datasets";
  std::error_code ec;
  if (fs::is_directory(beside, ec)) return beside.lexically_normal();
  return user_cache_data_root();
}

fs::path user_cache_data_root() {
  // XDG Base Directory Specification: $XDG_CACHE_HOME, else ~/.cache. Where `dpclust data fetch`
  // puts the papers' datasets when no other data root is given.
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg && fs::path(xdg).is_absolute())
    return fs::path(xdg) / "dpclust" / "datasets";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "dpclust" / "datasets";
  return fs::temp_directory_path() / "dpclust-cache" / "datasets";
}

}  // namespace dpclust
