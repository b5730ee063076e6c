#pragma once
// Baseline's adaptive grid as the DP WaveCluster authors' code builds it (option `ag_variant:
// flat_origin` of wc_baseline; the default `paper` is synopsis.hpp). Source: the authors' public
// repository lchen10/DiffPrivWaveCluster (commit 37839e9b), AdaptiveGridGenerationBeingCalledByJava/
// flat_origin.py (main, Flat_origin.construct_from_ndarray / anonymize, Node.add_noise / partition),
// called with the whole epsilon by BaselineWaveCluster/src/PythonExecutor.java (ExecuteAdaptiveGrid),
// whose leaf counts BaselineWaveCluster/src/AdaptiveGridDataGenerator.java turns into synthetic points.
//
// Where it departs from the paper's reading (arXiv Sec. 4.1 Baseline, Sec. 7 "adaptive grids [Qardaji
// et al.]"; synopsis.hpp):
//   first level   m1 = 10 cells per dimension, fixed (num_partitions=10), instead of
//                 max(10, ceil(sqrt(N eps / c) / 4)): no record count is needed, so no noisy N is drawn
//                 and the whole epsilon goes to the two levels (alpha eps, (1 - alpha) eps)
//   split rule    a first-level cell is split only when its noisy count v >= 4 c2 = 20
//                 (Node.partition: `noisy_count < partition_par * 4` keeps it whole); a cell kept
//                 whole gets a second noisy count with (1 - alpha) eps, combined with the first as
//                 (alpha^2 v + (1-alpha)^2 v2) / (alpha^2 + (1-alpha)^2), i.e. constrained inference
//                 with one leaf
//   m2            ceil(sqrt(v (1 - alpha) eps / c2)) = ceil(sqrt(v eps / 2 / 5)) for the split cells
//                 (the paper's formula; here without the max(1, .), v >= 20 > 0); d-th root for d != 2
//   leaf counts   written with Python's "%d" (truncation toward zero) and drawn only when > 0
//                 (AdaptiveGridDataGenerator: `if (count > 0)`): negatives skipped, 2.9 gives 2 points
//                 (the paper's reading rounds to the nearest integer: 3)
//   bounds        the grid spans the data's own bounding box widened by 1e-6 on each side
//                 (construct_from_ndarray: min - 0.000001, max + 0.000001), not the public domain: the
//                 result is flagged non-private (kFlatOriginBoundsNote)
// Kept as the paper: alpha 0.5 (ag_alpha), c2 = c / 2 = 5 (ag_c 10), constrained inference of the
// split cells (flat_origin's weights (1/alpha)^2 and (m2/(1-alpha))^2 are the paper's up to a common
// factor), synthetic points uniform in each leaf, then quantized into WaveCluster's g-grid.
// Not reproduced: the leaf boxes written with "%d" (integer-truncated corners) and the lattice of
// their UniformRandom (delta = 1): shifts of at most one coordinate unit on data spanning ~1e6.
//
// Budget (ledger): two CountMechanism entries, alpha eps on the first level and (1 - alpha) eps on the
// second (sub-cell counts of the split cells and the second count of the others: disjoint cells,
// parallel composition). Noise is drawn in flat_origin.py's order: every first-level cell, then cell
// after cell its one second count or its m2^d sub-cells (row-major, the first dimension slowest).
#include <cstdint>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "wavecluster/grid.hpp"
#include "wavecluster/synopsis.hpp"

namespace dpclust::wavecluster {

inline constexpr std::size_t kFlatOriginM1 = 10;       // construct_from_ndarray(num_partitions=10)
inline constexpr double kFlatOriginSplitFactor = 4.0;  // Node.partition: split when v >= partition_par * 4
inline constexpr double kFlatOriginWiden = 0.000001;   // construct_from_ndarray: min - 1e-6, max + 1e-6

extern const char* const kFlatOriginBoundsNote;

// Synthetic points of a leaf with noisy count v: trunc(v) when positive, else 0 ("%d", then count > 0).
std::uint64_t flat_origin_leaf_points(double v);

// The authors' adaptive grid and its synthetic points, quantized into q's grid. Spends `eps` in
// `ledger` (two entries). info: type, variant, m1, split_cells, m2_min, m2_max (over the split cells;
// 0 when none), leaves, synthetic_points. Throws InputError for d with 10^d above kSynopsisMaxCells or
// an m2 above kSynopsisMaxPerDim.
SyntheticCounts flat_origin_counts(const Dataset& data, const Quantizer& q, double eps, const SynopsisOptions& opt,
                                   Rng& rng, BudgetLedger& ledger);

}  // namespace dpclust::wavecluster
