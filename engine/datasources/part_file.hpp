#pragma once
// The file a download writes into, `<destination>.part`: what is kept of it between attempts and fetches,
// and the file-system steps around it. Nothing under it is followed: a symbolic link, a FIFO or a folder
// planted at the name is removed, never written through.
#include <cstdint>
#include <filesystem>

namespace dpclust::datasources {

// Size of a regular file, without following a symbolic link (0 when absent or not a regular file).
std::uint64_t file_size_or_zero(const std::filesystem::path& path);
// Makes `part` fit to resume: anything at the name that is not a regular file is removed (an InputError
// when it cannot be), and so is a file longer than `limit` (the file cannot be that long). Returns the
// bytes kept.
std::uint64_t prepare_part(const std::filesystem::path& part, std::uint64_t limit);
// fsync of a file or a folder, best effort (a placed file's data, then the name in its folder).
void fsync_path(const std::filesystem::path& path, bool directory);
void remove_quietly(const std::filesystem::path& path);

}  // namespace dpclust::datasources
