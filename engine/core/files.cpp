#include "core/files.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <zlib.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"

namespace dpclust {
namespace fs = std::filesystem;

namespace {

// DPCLUST_TEST_FAIL_WRITES_AFTER=N (see files.hpp): true for every write_file_atomic call after the N-th.
bool simulated_disk_full() {
  static const long limit = [] {
    const char* v = std::getenv("DPCLUST_TEST_FAIL_WRITES_AFTER");
    if (!v || !*v) return -1L;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    return (*end != '\0' || n < 0) ? -1L : n;
  }();
  if (limit < 0) return false;
  static std::atomic<long> calls{0};
  return calls.fetch_add(1) >= limit;
}

// Removes the temporary file and throws the error the user should see for `err` (an errno value).
[[noreturn]] void fail_write(const fs::path& target, const fs::path& tmp, int fd, int err, const char* step) {
  if (fd >= 0) ::close(fd);
  if (!tmp.empty()) ::unlink(tmp.c_str());  // never leave a partial file behind (ENOSPC, EIO, ...)
  const std::string why = std::strerror(err);
  if (err == ENOSPC || err == EDQUOT)
    throw InputError(target.string(),
                     std::string(err == ENOSPC ? "no space left on device" : "disk quota exceeded") + " (" + step +
                         "); this file was not written, files written before it are intact",
                     "free space on that file system (or write somewhere else) and rerun: completed work is kept");
  if (err == EACCES || err == EPERM || err == EROFS)
    throw InputError(target.string(), "cannot write (" + why + ")",
                     "make its directory writable, or write somewhere else (e.g. another --out)");
  throw std::runtime_error("cannot write " + target.string() + " (" + step + "): " + why);
}

}  // namespace

void write_file_atomic(const fs::path& path, const std::string& content) {
  if (path.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) fail_write(path, {}, -1, ec.value(), "creating its directory");
  }
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail_write(path, {}, -1, errno, "creating a temporary file");
  const char* p = content.data();
  std::size_t left = content.size();
  const bool disk_full = simulated_disk_full();
  if (disk_full) left /= 2;  // the test seam writes half, then reports the disk full
  while (left > 0) {
    ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      fail_write(path, tmp, fd, errno, "writing");
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  if (disk_full) fail_write(path, tmp, fd, ENOSPC, "writing");
  // fsync and close report delayed allocation failures (ENOSPC on NFS, EIO): a file whose data never
  // reached the disk must not be renamed over a good one.
  if (::fsync(fd) != 0) fail_write(path, tmp, fd, errno, "fsync");
  const int closed = ::close(fd);
  if (closed != 0 && errno != EINTR) fail_write(path, tmp, -1, errno, "close");
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail_write(path, tmp, -1, errno, "rename");
  // Make the rename itself durable; a directory that cannot be opened or synced is not an error here
  // (the data is written, only its name could be lost in a crash).
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

std::size_t remove_stale_temp_files(const fs::path& dir, bool all) {
  std::size_t removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const auto at = name.rfind(".tmp.");
    if (at == std::string::npos || at == 0) continue;
    const std::string digits = name.substr(at + 5);
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::stol(digits);
    const bool writer_gone = pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH);
    if (!all && !writer_gone) continue;
    std::error_code rm;
    if (fs::remove(it->path(), rm)) ++removed;
  }
  return removed;
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
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  const auto buf = std::make_unique_for_overwrite<unsigned char[]>(kChunk);  // no zero-fill of what fread overwrites
  uLong crc = crc32(0L, Z_NULL, 0);
  std::size_t got;
  while ((got = std::fread(buf.get(), 1, kChunk, f)) > 0) crc = crc32_z(crc, buf.get(), got);
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

std::filesystem::path fetch_record_path(const std::filesystem::path& data_root, const std::string& data_file) {
  return data_root / ".dpclust" / "records" / (data_file + ".json");
}

}  // namespace dpclust
