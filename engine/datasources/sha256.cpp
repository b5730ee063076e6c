#include "datasources/sha256.hpp"

#include <openssl/evp.h>
#include <zlib.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/error.hpp"

namespace dpclust::datasources {

namespace {
std::atomic<std::uint64_t> g_bytes_hashed{0};
}  // namespace

std::uint64_t sha256_bytes_hashed() { return g_bytes_hashed.load(); }

struct Sha256::Context {
  EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : context_(std::make_unique<Context>()) {
  context_->ctx = EVP_MD_CTX_new();
  if (!context_->ctx || EVP_DigestInit_ex(context_->ctx, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL: cannot initialise SHA-256");
}

Sha256::~Sha256() {
  if (context_ && context_->ctx) EVP_MD_CTX_free(context_->ctx);
}

void Sha256::update(const void* data, std::size_t size) {
  if (size && EVP_DigestUpdate(context_->ctx, data, size) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 update failed");
}

namespace {
// Lower-case hex of a digest.
std::string to_hex(const unsigned char* md, unsigned len) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * len);
  for (unsigned i = 0; i < len; ++i) {
    out.push_back(kHex[md[i] >> 4]);
    out.push_back(kHex[md[i] & 15]);
  }
  return out;
}
}  // namespace

std::string Sha256::hex_digest() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(context_->ctx, md.data(), &len) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 final failed");
  return to_hex(md.data(), len);
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 h;
  h.update(bytes);
  return h.hex_digest();
}

std::string sha256_file(const std::filesystem::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f)
    throw InputError(path.string(), std::string("cannot read: ") + std::strerror(errno),
                     "check the path and its permissions");
  Sha256 h;
  std::vector<char> buf(1 << 20);
  std::size_t got = 0;
  while ((got = std::fread(buf.data(), 1, buf.size(), f)) > 0) {
    h.update(buf.data(), got);
    g_bytes_hashed += got;
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed)
    throw InputError(path.string(), "read error while computing its SHA-256",
                     "check the disk; then run `dpclust data verify`");
  return h.hex_digest();
}

std::string sha256_gunzipped_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) throw InputError(path.string(), "cannot open as gzip", "check the path and its permissions");
  gzbuffer(f, 1 << 18);
  Sha256 h;
  std::vector<char> buf(1 << 20);
  std::uint64_t total = 0;
  int got = 0;
  while ((got = gzread(f, buf.data(), static_cast<unsigned>(buf.size()))) > 0) {
    h.update(buf.data(), static_cast<std::size_t>(got));
    total += static_cast<std::uint64_t>(got);
    g_bytes_hashed += static_cast<std::uint64_t>(got);
    if (max_bytes && total > max_bytes) {
      gzclose(f);
      throw InputError(path.string(),
                       "inflates to more than " + std::to_string(max_bytes) + " bytes, the bound for this file",
                       "this is not the expected file (or is a decompression bomb): delete it and fetch it again "
                       "(dpclust data fetch)");
    }
  }
  // gzread ends with 0, not -1, on a stream cut short: zlib reports it only through gzerror, as
  // Z_BUF_ERROR "unexpected end of file". A half file must not pass for a whole one.
  int err = Z_OK;
  const char* msg = gzerror(f, &err);
  const std::string what = msg ? msg : "";
  gzclose(f);
  if (got < 0 || err != Z_OK)
    throw InputError(
        path.string(),
        "corrupt gzip data (" + (what.empty() ? std::string("zlib error ") + std::to_string(err) : what) + ")",
        "delete the file and fetch it again: dpclust data fetch");
  return h.hex_digest();
}

namespace {

// SHA-1 through EVP, for git blob ids only.
class Sha1 {
 public:
  Sha1() : ctx_(EVP_MD_CTX_new()) {
    if (!ctx_ || EVP_DigestInit_ex(ctx_, EVP_sha1(), nullptr) != 1)
      throw std::runtime_error("OpenSSL: cannot initialise SHA-1");
  }
  ~Sha1() { EVP_MD_CTX_free(ctx_); }
  Sha1(const Sha1&) = delete;
  Sha1& operator=(const Sha1&) = delete;
  void update(const void* data, std::size_t size) {
    if (size && EVP_DigestUpdate(ctx_, data, size) != 1) throw std::runtime_error("OpenSSL: SHA-1 update failed");
  }
  std::string hex_digest() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(ctx_, md.data(), &len) != 1) throw std::runtime_error("OpenSSL: SHA-1 final failed");
    return to_hex(md.data(), len);
  }

 private:
  EVP_MD_CTX* ctx_;
};

void git_blob_header(Sha1& h, std::uint64_t size) {
  const std::string header = "blob " + std::to_string(size);
  h.update(header.data(), header.size() + 1);  // with the terminating NUL
}
}  // namespace

std::string git_blob_hex(std::string_view bytes) {
  Sha1 h;
  git_blob_header(h, bytes.size());
  h.update(bytes.data(), bytes.size());
  return h.hex_digest();
}

std::string git_blob_file(const std::filesystem::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f)
    throw InputError(path.string(), std::string("cannot read: ") + std::strerror(errno),
                     "check the path and its permissions");
  // The size in the header is the one of the bytes actually read: the file is read once into the hash
  // after its size is taken from the open descriptor, and a file that changes meanwhile fails below.
  struct Closer {
    std::FILE* f;
    ~Closer() { std::fclose(f); }
  } closer{f};
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(path, ec);
  if (ec)
    throw InputError(path.string(), "cannot read its size: " + ec.message(), "check the path and its permissions");
  Sha1 h;
  git_blob_header(h, size);
  std::vector<char> buf(1 << 20);
  std::size_t got = 0;
  std::uint64_t total = 0;
  while ((got = std::fread(buf.data(), 1, buf.size(), f)) > 0) {
    h.update(buf.data(), got);
    total += got;
    g_bytes_hashed += got;
  }
  if (std::ferror(f) || total != size)
    throw InputError(path.string(), "read error (or the file changed) while computing its git blob id",
                     "check the disk; then fetch again");
  return h.hex_digest();
}

bool is_git_blob_hex(std::string_view text) {
  if (text.size() != 40) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool is_sha256_hex(std::string_view text) {
  if (text.size() != 64) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace dpclust::datasources
