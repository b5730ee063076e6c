#pragma once
// ChaCha20 keystream blocks (RFC 8439) from OpenSSL's libcrypto, as 64-bit words: the one cryptographic
// generator of the engine.
//
// Why ChaCha20: it is a counter-based generator. Block b of the stream with key K and nonce N is a
// function of (K, N, b) alone, so
//   - secure mode draws every word from ChaCha20 keyed with 256 bits from the OS CSPRNG (getrandom(2)),
//     the construction the Linux kernel itself uses behind getrandom, without a system call per block;
//   - a cell's noise can be addressed by the cell (CellStreams below): DP-DBSCAN draws the noise of cell
//     i from the stream addressed by i, never stores noise it does not need, and gets the same histogram
//     on any number of threads and in any visiting order.
// Why OpenSSL: a maintained, audited implementation (vectorised on x86-64) that Debian ships and the
// project already links for SHA-256; nothing cryptographic is written by hand here.
//
// Word layout: the keystream bytes in order, read as little-endian 64-bit words (block b gives words
// 8b .. 8b+7). A test pins the RFC 8439 section 2.4.2 test vector.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace dpclust {

using ChaChaKey = std::array<std::uint8_t, 32>;
// The 96-bit nonce as three little-endian 32-bit words (RFC 8439: state words 13-15).
using ChaChaNonce = std::array<std::uint32_t, 3>;

class ChaCha20 {
 public:
  explicit ChaCha20(const ChaChaKey& key);
  ~ChaCha20();
  ChaCha20(ChaCha20&&) noexcept;
  ChaCha20& operator=(ChaCha20&&) noexcept;
  ChaCha20(const ChaCha20&) = delete;
  ChaCha20& operator=(const ChaCha20&) = delete;

  // Keystream blocks counter .. counter + blocks - 1 of `nonce` into out (8 words a block). The 32-bit
  // block counter must not wrap: counter + blocks <= 2^32 (std::logic_error otherwise).
  void blocks(const ChaChaNonce& nonce, std::uint32_t counter, std::uint64_t* out, std::size_t blocks);

 private:
  struct Context;
  std::unique_ptr<Context> ctx_;
};

// A key of 32 bytes from the OS CSPRNG (getrandom(2)).
ChaChaKey os_chacha_key();
// A key derived from a 64-bit seed (seeded, reproducible runs): four SplitMix64 outputs of the seed.
// Reproducible and therefore NOT secret: a seeded run is never a secure release (rng.hpp).
ChaChaKey seeded_chacha_key(std::uint64_t seed);

// One unbounded keystream (nonce fixed, counter 0, 1, 2, ...), buffered: the word source of a secure
// Rng. 64 blocks (4 KiB) per refill; a stream that reaches 2^32 blocks (256 GiB) moves to the next nonce.
class ChaChaWordStream {
 public:
  ChaChaWordStream(const ChaChaKey& key, const ChaChaNonce& nonce);
  std::uint64_t next() {
    if (pos_ == len_) refill();
    return buf_[pos_++];
  }
  // Re-points the stream at (nonce, counter) without a new cipher context; the buffer is dropped.
  void seek(const ChaChaNonce& nonce, std::uint32_t counter);
  // Loads `words` (a prefix of the stream at the current position) as the next words to hand out; the
  // stream continues at (nonce, counter) afterwards. Used by CellCursor to hand a cell its first block
  // from a bulk call.
  void preload(const std::uint64_t* words, std::size_t n, const ChaChaNonce& then_nonce, std::uint32_t then_counter);

 private:
  void refill();
  static constexpr std::size_t kBlocksPerRefill = 64;
  ChaCha20 cipher_;
  ChaChaNonce nonce_;
  std::uint64_t counter_ = 0;  // next block to generate (< 2^32)
  std::array<std::uint64_t, kBlocksPerRefill * 8> buf_{};
  std::size_t pos_ = 0, len_ = 0;
};

}  // namespace dpclust
