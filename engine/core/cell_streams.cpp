// Cell-addressed ChaCha20 streams; see cell_streams.hpp.
#include "core/cell_streams.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace dpclust {
namespace {

constexpr std::uint32_t kOverflowLane = 0x80000000u;

ChaChaNonce first_block_nonce(std::uint32_t lane, std::uint64_t cell) {
  return {lane, static_cast<std::uint32_t>(cell >> 32), 0};
}
ChaChaNonce overflow_nonce(std::uint32_t lane, std::uint64_t cell) {
  return {lane | kOverflowLane, static_cast<std::uint32_t>(cell >> 32), static_cast<std::uint32_t>(cell)};
}

}  // namespace

CellStreams::CellStreams(const ChaChaKey& key, std::uint32_t lane, Randomness mode)
    : key_(key), lane_(lane), mode_(mode) {
  if (lane >= kOverflowLane) throw std::logic_error("CellStreams: lane must be below 2^31");
}

CellStreams CellStreams::for_trial(Rng& trial_rng, std::uint32_t lane) {
  if (trial_rng.is_secure()) return CellStreams(os_chacha_key(), lane, Randomness::secure);
  return CellStreams(seeded_chacha_key(trial_rng.next_u64()), lane, Randomness::seeded);
}

CellCursor::CellCursor(const CellStreams& streams)
    : lane_(streams.lane()),
      bulk_(streams.key()),
      blocks_(kBulkCells * 8),
      rng_(Rng::over_stream(std::make_unique<ChaChaWordStream>(streams.key(), overflow_nonce(streams.lane(), 0)),
                            streams.mode())) {}

Rng& CellCursor::at(std::uint64_t cell) {
  if (cell < first_ || cell - first_ >= count_) {
    // Ascending visits (small gaps) fill the next 512 first blocks at once; a jump fills one. Blocks of one call share
    // hi32(cell), so the fill stops at the next multiple of 2^32.
    const std::uint64_t to_boundary = (std::uint64_t{1} << 32) - (cell & 0xffffffffu);
    const std::uint64_t want =
        cell > last_ && cell - last_ <= 8 ? kBulkCells : 1;  // last_ = ~0 at first: cell > last_ false
    count_ = std::min(want, to_boundary);
    first_ = cell;
    bulk_.blocks(first_block_nonce(lane_, cell), static_cast<std::uint32_t>(cell), blocks_.data(),
                 static_cast<std::size_t>(count_));
  }
  last_ = cell;
  rng_.chacha_stream()->preload(blocks_.data() + (cell - first_) * 8, 8, overflow_nonce(lane_, cell), 0);
  return rng_;
}

}  // namespace dpclust
