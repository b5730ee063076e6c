#include "datasources/dataset_state.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "core/error.hpp"
#include "core/files.hpp"
#include "datasources/checksum_cache.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

const char* to_string(DataStatus status) {
  switch (status) {
    case DataStatus::ok: return "ok";
    case DataStatus::recorded: return "ok (unpinned; matches its fetch record)";
    case DataStatus::unverified: return "present (unpinned; no fetch record)";
    case DataStatus::missing: return "missing";
    case DataStatus::mismatch: return "checksum mismatch";
    case DataStatus::damaged: return "damaged";
  }
  return "?";
}

std::uint64_t gunzip_bound(const DatasetSource& s, std::uint64_t compressed_bytes) {
  // A download's `size` is of the compressed file; a derived .gz states the size of its text in `bytes`.
  if (s.kind != SourceKind::download && s.bytes) return s.bytes + s.bytes / 16 + (1 << 20);
  return std::max<std::uint64_t>(compressed_bytes, 1 << 20) * kMaxGzipExpansion;
}

DatasetState dataset_state(const DatasetSource& s, const fs::path& root, bool use_cache) {
  DatasetState st;
  st.source = &s;
  st.path = root / s.data_file;
  struct stat info {};
  if (::stat(st.path.c_str(), &info) != 0) {
    if (errno != ENOENT && errno != ENOTDIR) {
      st.status = DataStatus::damaged;
      st.problem = std::string("cannot be read: ") + std::strerror(errno);
    }
    return st;
  }
  if (!S_ISREG(info.st_mode)) {
    st.status = DataStatus::damaged;
    st.problem =
        S_ISDIR(info.st_mode) ? "is a folder, not a data file" : "is not a regular file (a FIFO, device or socket)";
    return st;
  }
  st.bytes_on_disk = static_cast<std::uint64_t>(info.st_size);
  if (st.bytes_on_disk == 0) {
    st.status = DataStatus::damaged;
    st.problem = "is empty (0 bytes)";
    return st;
  }
  const nlohmann::json identity = file_identity(st.path);
  if (use_cache) st.sha256 = cached_checksum(s, root, identity);
  if (st.sha256.empty()) {
    try {
      st.sha256 = data_file_checksum(s, st.path);
    } catch (const InputError& e) {
      st.status = DataStatus::damaged;
      st.problem = e.problem();
      return st;
    }
    if (file_identity(st.path) == identity) remember_checksum(s, root, st.path, st.sha256);
  }
  if (s.pinned()) {
    st.expected = s.sha256;
    st.status = st.sha256 == s.sha256 ? DataStatus::ok : DataStatus::mismatch;
    return st;
  }
  const nlohmann::json rec = read_record(s, root);
  if (rec.is_object() && rec.contains("sha256")) {
    st.expected = rec["sha256"].get<std::string>();
    st.status = st.sha256 == st.expected ? DataStatus::recorded : DataStatus::mismatch;
  } else {
    st.status = DataStatus::unverified;
  }
  return st;
}

nlohmann::json read_record(const DatasetSource& s, const fs::path& root) {
  std::error_code ec;
  const fs::path p = fetch_record_path(root, s.data_file);
  if (!fs::is_regular_file(p, ec)) return nullptr;
  try {
    return nlohmann::json::parse(read_text_file(p));
  } catch (const std::exception&) {
    return nullptr;  // a damaged record only loses the comparison for unpinned sources
  }
}

}  // namespace dpclust::datasources
