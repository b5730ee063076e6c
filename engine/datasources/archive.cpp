#include "datasources/archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <set>

#include "core/error.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

namespace {

struct ArchiveCloser {
  void operator()(archive* a) const { archive_read_free(a); }
};

// libarchive's message, or a stand-in: archive_error_string() returns NULL when libarchive set no
// message (a zip cut short can end that way), and appending NULL to a std::string crashes.
std::string archive_error(archive* a) {
  const char* msg = archive_error_string(a);
  return msg ? msg : "unreadable or truncated data (no detail from libarchive)";
}

std::string base_name(const std::string& member) {
  const auto slash = member.find_last_of("/\\");
  return slash == std::string::npos ? member : member.substr(slash + 1);
}

// An archive opened for reading (every format and filter libarchive knows); InputError naming the file
// when it cannot be opened as one.
std::unique_ptr<archive, ArchiveCloser> open_archive(const fs::path& archive_path) {
  std::unique_ptr<archive, ArchiveCloser> a(archive_read_new());
  archive_read_support_filter_all(a.get());
  archive_read_support_format_all(a.get());
  if (archive_read_open_filename(a.get(), archive_path.c_str(), 1 << 16) != ARCHIVE_OK)
    throw InputError(archive_path.string(), std::string("cannot open as an archive: ") + archive_error(a.get()),
                     "the download is damaged or not an archive: delete it and run `dpclust data fetch` again");
  return a;
}

}  // namespace

std::vector<ExtractedMember> extract_members(const fs::path& archive_path, const fs::path& dest_dir,
                                             const std::vector<std::string>& wanted, std::uint64_t max_total_bytes) {
  const std::string where = archive_path.string();
  std::unique_ptr<archive, ArchiveCloser> a = open_archive(archive_path);
  // The folder is ours (beside the archive): a symbolic link planted at its name would send every member
  // outside the data root, so it is removed, never followed.
  std::error_code lec;
  if (fs::is_symlink(fs::symlink_status(dest_dir, lec))) fs::remove(dest_dir);
  fs::create_directories(dest_dir);
  const std::set<std::string> want(wanted.begin(), wanted.end());
  std::set<std::string> seen;
  std::vector<ExtractedMember> out;
  std::uint64_t total = 0;
  std::vector<char> buf(1 << 16);
  archive_entry* entry = nullptr;
  for (;;) {
    const int r = archive_read_next_header(a.get(), &entry);
    if (r == ARCHIVE_EOF) break;
    if (r < ARCHIVE_WARN)
      throw InputError(where, std::string("corrupt archive: ") + archive_error(a.get()),
                       "delete the file and run `dpclust data fetch` again");
    const char* raw_name = archive_entry_pathname(entry);
    const std::string name = raw_name ? raw_name : "";
    const std::string base = base_name(name);
    if (archive_entry_filetype(entry) != AE_IFREG || base.empty() || base == "." || base == ".." ||
        (!want.empty() && !want.count(base))) {
      archive_read_data_skip(a.get());
      continue;
    }
    if (!seen.insert(base).second)
      throw InputError(where, "two members are named '" + base + "'", "the archive is not the expected release");
    const fs::path target = dest_dir / base;
    const fs::path tmp = fs::path(target.string() + ".part");
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
      throw InputError(tmp.string(), std::string("cannot write: ") + std::strerror(errno),
                       "check the data root's permissions");
    std::uint64_t bytes = 0;
    for (;;) {
      const la_ssize_t got = archive_read_data(a.get(), buf.data(), buf.size());
      if (got == 0) break;
      if (got < 0) {
        ::close(fd);
        fs::remove(tmp);
        throw InputError(where + ": " + name, std::string("corrupt archive member: ") + archive_error(a.get()),
                         "delete the archive and run `dpclust data fetch` again");
      }
      total += static_cast<std::uint64_t>(got);
      bytes += static_cast<std::uint64_t>(got);
      if (total > max_total_bytes) {
        ::close(fd);
        fs::remove(tmp);
        throw InputError(where, "unpacks to more than " + std::to_string(max_total_bytes) + " bytes",
                         "the archive is not the expected release (or is a decompression bomb)");
      }
      std::size_t off = 0;
      while (off < static_cast<std::size_t>(got)) {
        const ssize_t w = ::write(fd, buf.data() + off, static_cast<std::size_t>(got) - off);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) {
          const int e = errno;
          ::close(fd);
          fs::remove(tmp);
          throw InputError(tmp.string(),
                           std::string(e == ENOSPC ? "no space left on device" : "write failed: ") +
                               (e == ENOSPC ? "" : std::strerror(e)),
                           "free space or choose another data root with --data-root");
        }
        off += static_cast<std::size_t>(w);
      }
    }
    ::close(fd);
    fs::rename(tmp, target);
    out.push_back({name, target, bytes});
  }
  for (const auto& w : want)
    if (!seen.count(w))
      throw InputError(where, "has no member named '" + w + "'",
                       "check the registry's member list against the archive's content");
  std::sort(out.begin(), out.end(), [](const ExtractedMember& x, const ExtractedMember& y) { return x.path < y.path; });
  return out;
}

void check_archive(const fs::path& archive_path, std::uint64_t max_total_bytes) {
  const std::string where = archive_path.string();
  std::unique_ptr<archive, ArchiveCloser> a = open_archive(archive_path);
  std::uint64_t total = 0;
  std::vector<char> buf(1 << 16);
  archive_entry* entry = nullptr;
  for (;;) {
    const int r = archive_read_next_header(a.get(), &entry);
    if (r == ARCHIVE_EOF) break;
    if (r < ARCHIVE_WARN)
      throw InputError(where, std::string("corrupt archive: ") + archive_error(a.get()),
                       "delete the file and run `dpclust data fetch` again");
    for (;;) {
      const la_ssize_t got = archive_read_data(a.get(), buf.data(), buf.size());
      if (got == 0) break;
      if (got < 0)
        throw InputError(where, std::string("corrupt archive member: ") + archive_error(a.get()),
                         "delete the archive and run `dpclust data fetch` again");
      total += static_cast<std::uint64_t>(got);
      if (total > max_total_bytes)
        throw InputError(where, "unpacks to more than " + std::to_string(max_total_bytes) + " bytes",
                         "the archive is not the expected release (or is a decompression bomb)");
    }
  }
}

}  // namespace dpclust::datasources
