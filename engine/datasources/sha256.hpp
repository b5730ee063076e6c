#pragma once
// SHA-256 (FIPS 180-4) through OpenSSL's libcrypto EVP interface: the checksum every registered
// dataset is pinned to. Incremental, so a download is hashed as it is written and a 250 MB file never
// has to be held in memory.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace dpclust::datasources {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(const void* data, std::size_t size);
  void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
  // Lower-case hex digest; the object is finished afterwards.
  std::string hex_digest();

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

std::string sha256_hex(std::string_view bytes);
// Of a file's bytes. Throws InputError naming the file when it cannot be read.
std::string sha256_file(const std::filesystem::path& path);
// Of a gzip file's uncompressed content (the checksum the registry pins for `.gz` data files, so that
// the compressor's settings do not change a dataset's identity). The whole stream must inflate: a
// stream cut short (zlib's "unexpected end of file", Z_BUF_ERROR) or a CRC error is an InputError, as
// is inflating to more than `max_bytes` (0 = no bound), so a gzip bomb ends early.
std::string sha256_gunzipped_file(const std::filesystem::path& path, std::uint64_t max_bytes = 0);
// Bytes read by sha256_file and inflated by sha256_gunzipped_file in this process: lets tests check that
// `dpclust data list` does not hash a file again when it has not changed.
std::uint64_t sha256_bytes_hashed();
// A well-formed SHA-256 hex string: 64 lower-case hex digits.
bool is_sha256_hex(std::string_view text);

// Git's blob id of some bytes: SHA-1 of "blob <size>\0" followed by the bytes, in lower-case hex; what
// `git hash-object FILE` prints and what a repository's history pins a file by. It lets a copy of a
// dataset that is known only by its blob id in some public repository be verified. SHA-1 is
// not collision-resistant against a chosen-prefix attacker; the registry pins a SHA-256 as well whenever
// one is known, and a git blob id alone only where nothing stronger exists.
std::string git_blob_hex(std::string_view bytes);
// Of a file's bytes (its size is read first, for the header). Throws InputError when it cannot be read.
std::string git_blob_file(const std::filesystem::path& path);
// A well-formed git blob id: 40 lower-case hex digits.
bool is_git_blob_hex(std::string_view text);
// The registry's spelling of a git blob checksum: "git-blob:<40 hex>".
constexpr std::string_view kGitBlobPrefix = "git-blob:";

}  // namespace dpclust::datasources
