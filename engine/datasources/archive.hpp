#pragma once
// Reading members out of a downloaded archive (zip, tar, tar.gz, ...) with libarchive, for sources that
// ship their data packed (UCI's HAR70+ zip). Hostile archives are expected: member names are never
// trusted as paths, only regular files are extracted, and the total unpacked size is bounded.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace dpclust::datasources {

struct ExtractedMember {
  std::string name;            // the member's name inside the archive
  std::filesystem::path path;  // where it was written
  std::uint64_t bytes = 0;
};

// Extracts the regular-file members whose base name matches one of `wanted` (exact names; empty = every
// regular file) into `dest_dir`, flat (each under its base name, so no member can climb out with
// "../" or an absolute path). Two wanted members with the same base name are an error. The total size
// is capped by `max_total_bytes` (a zip bomb ends with an error, not a full disk). Throws InputError
// naming the archive (and member) for a corrupt or truncated archive, or a wanted member that is
// missing.
std::vector<ExtractedMember> extract_members(const std::filesystem::path& archive,
                                             const std::filesystem::path& dest_dir,
                                             const std::vector<std::string>& wanted,
                                             std::uint64_t max_total_bytes = 16ULL << 30);

// Reads every member of the archive to its end without writing anything: a truncated or corrupt archive
// (or one unpacking to more than `max_total_bytes`) is an InputError naming it. A download is checked
// this way before it is placed under downloads/, and an archive found there before it is reused.
void check_archive(const std::filesystem::path& archive, std::uint64_t max_total_bytes = 16ULL << 30);

}  // namespace dpclust::datasources
