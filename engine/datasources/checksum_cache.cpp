#include "datasources/checksum_cache.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <system_error>

#include "core/files.hpp"
#include "datasources/dataset_state.hpp"
#include "datasources/sha256.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

namespace {

fs::path checked_path(const DatasetSource& s, const fs::path& root) {
  return root / ".dpclust" / "checked" / (s.data_file + ".json");
}

}  // namespace

std::string data_file_checksum(const DatasetSource& s, const fs::path& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return s.compressed() ? sha256_gunzipped_file(path, gunzip_bound(s, ec ? 0 : size)) : sha256_file(path);
}

nlohmann::json file_identity(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return nullptr;
  auto ns = [](const timespec& t) { return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec; };
  return {{"size", static_cast<std::uint64_t>(st.st_size)},
          {"mtime_ns", ns(st.st_mtim)},
          {"ctime_ns", ns(st.st_ctim)},
          {"inode", static_cast<std::uint64_t>(st.st_ino)},
          {"device", static_cast<std::uint64_t>(st.st_dev)}};
}

std::string cached_checksum(const DatasetSource& s, const fs::path& root, const nlohmann::json& identity) {
  std::error_code ec;
  const fs::path p = checked_path(s, root);
  if (identity.is_null() || !fs::is_regular_file(p, ec)) return "";
  try {
    const auto j = nlohmann::json::parse(read_text_file(p));
    if (j.value("identity", nlohmann::json()) != identity) return "";
    const std::string sha = j.value("sha256", std::string());
    return is_sha256_hex(sha) ? sha : "";
  } catch (const std::exception&) {
    return "";  // a damaged cache only costs a hash
  }
}

void remember_checksum(const DatasetSource& s, const fs::path& root, const fs::path& path, const std::string& sha256) {
  try {
    const nlohmann::json id = file_identity(path);
    if (id.is_null() || !is_sha256_hex(sha256)) return;
    const fs::path p = checked_path(s, root);
    fs::create_directories(p.parent_path());
    write_file_atomic(p, nlohmann::json{{"identity", id}, {"sha256", sha256}}.dump(2) + "\n");
  } catch (const std::exception&) {}
}

}  // namespace dpclust::datasources
