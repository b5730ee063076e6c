#pragma once
// One fetch at a time per data root: a second `dpclust data fetch` (or a second dataset needing the
// same downloads) waits for the first and then finds its files in place, instead of both writing the
// same .part files. The lock is flock(2) on .dpclust/fetch.lock, so a killed fetch leaves no stale lock.
#include <filesystem>
#include <iosfwd>

namespace dpclust::datasources {

class DataRootLock {
 public:
  // Waits for the lock (saying so on `log` when it has to); InputError when the lock file cannot be made.
  DataRootLock(const std::filesystem::path& root, std::ostream* log);
  ~DataRootLock();
  DataRootLock(const DataRootLock&) = delete;
  DataRootLock& operator=(const DataRootLock&) = delete;

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace dpclust::datasources
