#include "datasources/part_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <system_error>

#include "core/error.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

std::uint64_t file_size_or_zero(const fs::path& p) {
  struct stat st {};
  if (::lstat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<std::uint64_t>(st.st_size);
}

std::uint64_t prepare_part(const fs::path& part, std::uint64_t limit) {
  // Only a regular file of ours is resumed: anything else at the .part name (a symbolic link planted to
  // make us append outside the data root, a FIFO, a folder) is removed, never followed.
  struct stat st {};
  if (::lstat(part.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    std::error_code ec;
    if (S_ISDIR(st.st_mode)) fs::remove_all(part, ec);
    else fs::remove(part, ec);
    if (ec)
      throw InputError(part.string(), "is not a regular file and cannot be removed (" + ec.message() + ")",
                       "delete it by hand and run the fetch again");
  }
  // A .part longer than the file can be is not resumed: start over.
  if (file_size_or_zero(part) > limit) remove_quietly(part);
  return file_size_or_zero(part);
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

}  // namespace dpclust::datasources
