#include "datasources/fetch_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <ostream>

#include "core/error.hpp"

namespace dpclust::datasources {

DataRootLock::DataRootLock(const std::filesystem::path& root, std::ostream* log) {
  std::filesystem::create_directories(root / ".dpclust");
  path_ = root / ".dpclust" / "fetch.lock";
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError(path_.string(), "cannot create the fetch lock", "check that the data root is writable");
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (log)
      *log << "  waiting for another `dpclust data fetch` using " << root.string() << " to finish ...\n" << std::flush;
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {}
  }
}

DataRootLock::~DataRootLock() {
  if (fd_ >= 0) {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }
}

}  // namespace dpclust::datasources
