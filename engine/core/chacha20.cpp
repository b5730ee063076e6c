// ChaCha20 through OpenSSL's EVP interface; see chacha20.hpp.
#include "core/chacha20.hpp"

#include <openssl/evp.h>
#include <sys/random.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/rng.hpp"

namespace dpclust {

struct ChaCha20::Context {
  EVP_CIPHER_CTX* ctx = nullptr;
  ~Context() { EVP_CIPHER_CTX_free(ctx); }
};

namespace {

[[noreturn]] void openssl_failed(const char* what) {
  throw std::runtime_error(std::string("OpenSSL ChaCha20: ") + what +
                           " failed (no random words; nothing was released)");
}

// The 16-byte IV of OpenSSL's EVP_chacha20: the 32-bit block counter then the 96-bit nonce, little-endian.
void make_iv(const ChaChaNonce& nonce, std::uint32_t counter, unsigned char* iv) {
  const std::uint32_t words[4] = {counter, nonce[0], nonce[1], nonce[2]};
  for (int w = 0; w < 4; ++w)
    for (int b = 0; b < 4; ++b) iv[4 * w + b] = static_cast<unsigned char>(words[w] >> (8 * b));
}

const unsigned char kZeros[4096] = {};

}  // namespace

ChaCha20::ChaCha20(const ChaChaKey& key) : ctx_(std::make_unique<Context>()) {
  ctx_->ctx = EVP_CIPHER_CTX_new();
  if (!ctx_->ctx) openssl_failed("EVP_CIPHER_CTX_new");
  unsigned char iv[16] = {};
  if (EVP_EncryptInit_ex(ctx_->ctx, EVP_chacha20(), nullptr, key.data(), iv) != 1) openssl_failed("EVP_EncryptInit_ex");
}

ChaCha20::~ChaCha20() = default;
ChaCha20::ChaCha20(ChaCha20&&) noexcept = default;
ChaCha20& ChaCha20::operator=(ChaCha20&&) noexcept = default;

void ChaCha20::blocks(const ChaChaNonce& nonce, std::uint32_t counter, std::uint64_t* out, std::size_t blocks) {
  if (blocks == 0) return;
  if (static_cast<std::uint64_t>(counter) + blocks > (std::uint64_t{1} << 32))
    throw std::logic_error("ChaCha20::blocks: the 32-bit block counter would wrap");
  unsigned char iv[16];
  make_iv(nonce, counter, iv);
  // The key stays; only the IV (counter and nonce) is set anew.
  if (EVP_EncryptInit_ex(ctx_->ctx, nullptr, nullptr, nullptr, iv) != 1) openssl_failed("EVP_EncryptInit_ex (IV)");
  auto* dst = reinterpret_cast<unsigned char*>(out);
  std::size_t left = blocks * 64;
  while (left > 0) {
    const std::size_t chunk = left < sizeof kZeros ? left : sizeof kZeros;
    int len = 0;
    if (EVP_EncryptUpdate(ctx_->ctx, dst, &len, kZeros, static_cast<int>(chunk)) != 1 ||
        static_cast<std::size_t>(len) != chunk)
      openssl_failed("EVP_EncryptUpdate");
    dst += chunk;
    left -= chunk;
  }
  // The bytes are little-endian words on every platform this builds on (x86-64, arm64); on a big-endian
  // host swap them so that the words, and every seeded number, stay the same.
  if constexpr (std::endian::native == std::endian::big)
    for (std::size_t i = 0; i < blocks * 8; ++i) out[i] = __builtin_bswap64(out[i]);
}

ChaChaKey os_chacha_key() {
  ChaChaKey k{};
  std::size_t got_total = 0;
  while (got_total < k.size()) {
    const ssize_t got = ::getrandom(k.data() + got_total, k.size() - got_total, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno) +
                               " (no secure randomness; nothing was released)");
    }
    got_total += static_cast<std::size_t>(got);
  }
  return k;
}

ChaChaKey seeded_chacha_key(std::uint64_t seed) {
  ChaChaKey k{};
  std::uint64_t x = seed;
  for (int w = 0; w < 4; ++w) {
    x = splitmix64(x);
    for (int b = 0; b < 8; ++b) k[static_cast<std::size_t>(8 * w + b)] = static_cast<std::uint8_t>(x >> (8 * b));
  }
  return k;
}

ChaChaWordStream::ChaChaWordStream(const ChaChaKey& key, const ChaChaNonce& nonce) : cipher_(key), nonce_(nonce) {}

void ChaChaWordStream::seek(const ChaChaNonce& nonce, std::uint32_t counter) {
  nonce_ = nonce;
  counter_ = counter;
  pos_ = len_ = 0;
}

void ChaChaWordStream::preload(const std::uint64_t* words, std::size_t n, const ChaChaNonce& then_nonce,
                               std::uint32_t then_counter) {
  if (n > buf_.size()) throw std::logic_error("ChaChaWordStream::preload: too many words");
  std::memcpy(buf_.data(), words, n * sizeof(std::uint64_t));
  pos_ = 0;
  len_ = n;
  nonce_ = then_nonce;
  counter_ = then_counter;
}

void ChaChaWordStream::refill() {
  if (counter_ >= (std::uint64_t{1} << 32)) {
    // 256 GiB drawn from one nonce: continue on the next one (the nonce's last word counts them).
    ++nonce_[2];
    counter_ = 0;
  }
  const std::uint64_t room = (std::uint64_t{1} << 32) - counter_;
  const std::size_t nb = room < kBlocksPerRefill ? static_cast<std::size_t>(room) : kBlocksPerRefill;
  cipher_.blocks(nonce_, static_cast<std::uint32_t>(counter_), buf_.data(), nb);
  counter_ += nb;
  pos_ = 0;
  len_ = nb * 8;
}

}  // namespace dpclust
