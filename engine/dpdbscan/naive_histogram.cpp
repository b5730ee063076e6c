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

NoisyHistogram naive_histogram(const CellCounts& counts, const privacy::CountMechanism& mechanism,
                               NumpyRandomState& numpy) {
  NoisyHistogram h = dense_histogram(counts);
  // One stream, in code order: the authors' noise vector (see the header); no blocks, no threads.
  for (std::uint64_t i = 0; i < counts.universe; ++i)
    h.dense_values[i] = mechanism.noisy(numpy, static_cast<double>(counts.dense_counts[i]));
  return h;
}

NoisyHistogram naive_histogram(const CellCounts& counts, const privacy::CountMechanism& mechanism,
                               const CellStreams& noise) {
  NoisyHistogram h = dense_histogram(counts);
  const std::uint64_t X = counts.universe;
  // Thm 2.8: x~_i = x_i + Z_i for all i in X, Z_i from cell i's stream (see the header).
  const std::uint64_t chunks = (X + kNoiseChunk - 1) / kNoiseChunk;
  const std::int64_t nc = static_cast<std::int64_t>(chunks);
#pragma omp parallel for schedule(dynamic, 1) if (chunks > 1)
  for (std::int64_t b = 0; b < nc; ++b) {
    CellCursor cursor(noise);
    const std::uint64_t lo = static_cast<std::uint64_t>(b) * kNoiseChunk, hi = std::min(X, lo + kNoiseChunk);
    for (std::uint64_t i = lo; i < hi; ++i)
      h.dense_values[i] = mechanism.noisy(cursor.at(i), static_cast<double>(counts.dense_counts[i]));
  }
  return h;
}

}  // namespace dpclust::dpdbscan
