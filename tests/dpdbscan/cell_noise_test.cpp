// DP-DBSCAN's histograms draw each cell's noise from the ChaCha20 stream addressed by the cell
// (core/cell_streams.hpp): in secure mode every noise word comes from ChaCha20 keyed by the OS, the naive histogram
// does not depend on the thread count, and the linear-time histogram gives an occupied cell exactly the noise the naive
// one gives it (Theorem 6.1, cell by cell).
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/cell_streams.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "dpdbscan/dp_dbscan.hpp"
#include "dpdbscan/linear_histogram.hpp"
#include "dpdbscan/naive_histogram.hpp"

namespace dpclust::dpdbscan {
namespace {

std::vector<double> blob_points(std::size_t n) {
  Rng r(4);
  std::vector<double> p(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    p[2 * i] = std::clamp(r.normal(3.0, 0.4) + 4.0 * static_cast<double>(i % 2), 0.0, 10.0);
    p[2 * i + 1] = std::clamp(r.normal(5.0, 0.4), 0.0, 10.0);
  }
  return p;
}

TEST(CellNoise, SecureNaiveHistogramBuildsNoSeededGenerator) {
  const std::vector<double> pts = blob_points(2000);
  DpDbscanOptions o;
  o.alpha = 0.2;
  o.min_pts = 10;
  o.epsilon = 1.0;
  o.histogram = HistogramChoice::naive;
  Rng rng = Rng::secure();
  BudgetLedger ledger(1.0);
  const std::uint64_t before = seeded_generators_built();
  const DpDbscanResult r = dp_dbscan(pts.data(), 2000, Bounds{{0, 0}, {10, 10}}, o, rng, ledger);
  // Every word of the histogram's noise came from ChaCha20 keyed by the OS (the trial's generator and the
  // cell streams keyed from getrandom); the old code seeded one Mersenne Twister per 65,536 cells.
  EXPECT_EQ(seeded_generators_built(), before);
  EXPECT_FALSE(r.linear);
  EXPECT_EQ(r.released, r.grid.universe);
  EXPECT_GE(r.spans.n_spans, 1u);
}

TEST(CellNoise, NaiveHistogramIsTheSameOnOneAndTwoThreads) {
  const std::vector<double> pts = blob_points(3000);
  const CellGrid g = make_grid(Bounds{{0, 0}, {10, 10}}, 0.01, 4.0);  // 2000^2 cells: several chunks
  ASSERT_GT(g.universe, 3 * kNoiseChunk);
  const CellCounts c = count_cells(g, pts.data(), 3000, true);
  BudgetLedger ledger(1.0);
  const privacy::CountMechanism m =
      histogram_mechanism(ledger, NoiseKind::laplace, privacy::Sampler::secure, 1.0, 0.0, false, "h", "");
  const CellStreams streams(seeded_chacha_key(21), kHistogramNoiseLane, Randomness::seeded);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const NoisyHistogram one = naive_histogram(c, m, streams);
  omp_set_num_threads(2);
  const NoisyHistogram two = naive_histogram(c, m, streams);
  omp_set_num_threads(threads);
  EXPECT_EQ(one.dense_values, two.dense_values);
}

TEST(CellNoise, LinearHistogramGivesOccupiedCellsTheNaiveNoise) {
  const std::vector<double> pts = blob_points(3000);
  const CellGrid g = make_grid(Bounds{{0, 0}, {10, 10}}, 0.05, 4.0);
  BudgetLedger ledger(1.0);
  const privacy::CountMechanism m =
      histogram_mechanism(ledger, NoiseKind::laplace, privacy::Sampler::secure, 1.0, 0.0, false, "h", "");
  const CellStreams streams(seeded_chacha_key(8), kHistogramNoiseLane, Randomness::seeded);
  const CellCounts dense = count_cells(g, pts.data(), 3000, true), sparse = count_cells(g, pts.data(), 3000, false);
  const NoisyHistogram naive = naive_histogram(dense, m, streams);
  const double theta = 2.5;
  Rng r(3);
  const NoisyHistogram linear = linear_histogram(sparse, m, theta, streams, r);
  std::size_t checked = 0, k = 0;
  for (std::size_t i = 0; i < sparse.codes.size(); ++i) {
    const std::uint64_t code = sparse.codes[i];
    const double v = naive.dense_values[code];
    while (k < linear.codes.size() && linear.codes[k] < code) ++k;
    const bool released = k < linear.codes.size() && linear.codes[k] == code;
    // Released exactly when the naive value is >= theta, and then with the naive value.
    EXPECT_EQ(released, v >= theta) << "cell " << code;
    if (released) {
      EXPECT_EQ(linear.values[k], v);
    }
    ++checked;
  }
  EXPECT_GT(checked, 500u);
}

}  // namespace
}  // namespace dpclust::dpdbscan
