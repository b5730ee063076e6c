// The naive DP histogram (Thm 2.8); see naive_histogram.hpp.
#include "dpdbscan/naive_histogram.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace dpclust::dpdbscan {

namespace {

NoisyHistogram dense_histogram(const CellCounts& counts) {
  if (!counts.dense) throw std::logic_error("naive_histogram needs dense cell counts");
  NoisyHistogram h;
  h.dense = true;
  h.linear = false;
  h.universe = counts.universe;
  h.dense_values.resize(counts.universe);
  h.released = counts.universe;
  return h;
}

}  // namespace

NoisyHistogram naive_histogram(const CellCounts& counts, const privacy::CountMechanism& mechanism, NumpyRandomState& numpy) {
  NoisyHistogram h = dense_histogram(counts);
  // One stream, in code order: the authors' noise vector (see the header); no blocks, no threads.
  for (std::uint64_t i = 0; i < counts.universe; ++i)
    h.dense_values[i] = mechanism.noisy(numpy, static_cast<double>(counts.dense_counts[i]));
  return h;
}

NoisyHistogram naive_histogram(const CellCounts& counts, const privacy::CountMechanism& mechanism, Rng& rng) {
  NoisyHistogram h = dense_histogram(counts);
  const std::uint64_t X = counts.universe;
  // Thm 2.8: x~_i = x_i + Z_i for all i in X, block by block (see the header).
  const std::uint64_t blocks = (X + kNoiseBlock - 1) / kNoiseBlock;
  std::vector<std::uint64_t> seeds(blocks);
  for (auto& s : seeds) s = rng.next_u64();
  const std::int64_t nb = static_cast<std::int64_t>(blocks);
#pragma omp parallel for schedule(dynamic, 1) if (blocks > 1)
  for (std::int64_t b = 0; b < nb; ++b) {
    Rng block_rng(seeds[static_cast<std::size_t>(b)]);
    const std::uint64_t lo = static_cast<std::uint64_t>(b) * kNoiseBlock, hi = std::min(X, lo + kNoiseBlock);
    for (std::uint64_t i = lo; i < hi; ++i)
      h.dense_values[i] = mechanism.noisy(block_rng, static_cast<double>(counts.dense_counts[i]));
  }
  return h;
}

}  // namespace dpclust::dpdbscan
