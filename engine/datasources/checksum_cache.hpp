#pragma once
// The checksum of a data file as `list`, `verify` and the fetch records give it, and its cache under
// .dpclust/checked/<data_file>.json: hashing a 400 MB file on every `dpclust data list` would take seconds.
// A cached checksum is used only for the same version of the file: the same size, mtime, ctime, inode and
// device. ctime is among them because no user call can set it back (touch -d can set mtime), so rewriting
// a file in place always changes it.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "datasources/sources.hpp"

namespace dpclust::datasources {

// SHA-256 of the file, of its uncompressed text for a .gz data file (inflated within gunzip_bound);
// InputError when a .gz does not inflate.
std::string data_file_checksum(const DatasetSource& source, const std::filesystem::path& path);
// What identifies one version of a file on disk without reading it (null when it cannot be read).
nlohmann::json file_identity(const std::filesystem::path& path);
// The checksum computed earlier for exactly this version of the file ("" when none).
std::string cached_checksum(const DatasetSource& source, const std::filesystem::path& data_root,
                            const nlohmann::json& identity);
// Best effort: a read-only data root (or a full disk) only loses the cache.
void remember_checksum(const DatasetSource& source, const std::filesystem::path& data_root,
                       const std::filesystem::path& path, const std::string& sha256);

}  // namespace dpclust::datasources
