#pragma once
// Noise addressed by cell: one ChaCha20 key per trial (and use), one stream per cell address.
//
// A histogram mechanism that noises cell i draws its noise from the stream of i, so the noise of a cell
// is a function of (trial key, i) alone: it can be drawn when the cell is first touched and drawn again
// when it is touched later, without storing it; the histogram is the same on any number of threads and
// in any order of visiting the cells; and Theorem 6.1 of Qiu & Yi (the linear-time histogram releases
// what the naive one truncated below theta releases) holds cell by cell for the occupied cells, which
// both histograms noise from the same stream.
//
// Layout (core/chacha20.hpp): the stream of cell a (a < 2^62) begins with keystream block lo32(a) of nonce
// (lane, hi32(a), 0) -- so consecutive cells are consecutive blocks, generated in bulk -- and continues,
// once its 8 words are used, in the stream of nonce (lane | 2^31, hi32(a), lo32(a)) from block 0, which
// no other cell reads. `lane` (< 2^31) separates the uses of one key.
//
// Keys: seeded trials derive the key from one word of the trial's generator (reproducible: the seed is
// published, so this is not a secure release, rng.hpp); secure trials take 256 bits from the OS.
#include <cstdint>
#include <vector>

#include "core/chacha20.hpp"
#include "core/rng.hpp"

namespace dpclust {

class CellStreams {
 public:
  // The streams of one trial: keyed from trial_rng (one word drawn when seeded; the OS when secure).
  static CellStreams for_trial(Rng& trial_rng, std::uint32_t lane);
  // Fixed key (tests).
  CellStreams(const ChaChaKey& key, std::uint32_t lane, Randomness mode);

  const ChaChaKey& key() const { return key_; }
  std::uint32_t lane() const { return lane_; }
  Randomness mode() const { return mode_; }

 private:
  ChaChaKey key_;
  std::uint32_t lane_;
  Randomness mode_;
};

// Hands out the generator of a cell. Not thread-safe: one cursor per thread. Visiting cells in
// ascending order generates their first blocks 512 at a time; any other order one block at a time.
class CellCursor {
 public:
  explicit CellCursor(const CellStreams& streams);
  // The generator of `cell`, positioned at the start of its stream; valid until the next call.
  Rng& at(std::uint64_t cell);

 private:
  static constexpr std::size_t kBulkCells = 512;
  std::uint32_t lane_;
  ChaCha20 bulk_;
  std::vector<std::uint64_t> blocks_;  // first blocks of cells first_ .. first_ + count_ - 1
  std::uint64_t first_ = 0, count_ = 0, last_ = ~std::uint64_t{0};
  Rng rng_;
};

}  // namespace dpclust
