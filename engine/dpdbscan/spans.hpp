#pragma once
// Alg. 1 lines 6-7: the superset of core cells and their merge into spans; the span classifier.
//
// Line 6 (Sec. 5.2, eq. 2): the noisy neighbourhood sum of a cell X is S(X) = sum of the released
// values x~_i over X_i in NB(X), cells outside the grid contributing nothing and, for the linear-time
// histogram, unreleased cells counting 0 (they were released as "below theta"; Theorem 7.1 charges
// kappa * theta for exactly this). The cell is core when S(X) >= threshold, where the threshold is
// MinPts + Gamma (Sec. 7.2: UB~ = S + Gamma >= MinPts' = MinPts + tau, tau = 2 Gamma) or, with
// core_rule lemma_5_1, MinPts - Gamma (UB~ >= MinPts, Alg. 1 as written).
//
// Line 7 (Sec. 5.3): two core cells are merged when their minimum distance is below alpha, i.e. one
// is in the other's NB; union-find over the core cells. Span ids are numbered by the lowest cell code
// of each span, so they do not depend on any visiting order.
//
// The classifier (Sec. 3, "check which span the given point falls into"): a point belongs to the span
// whose core cell contains it, otherwise it is noise (-1); points outside the domain are noise.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"
#include "dpdbscan/flat_map.hpp"
#include "dpdbscan/grid.hpp"
#include "dpdbscan/histogram.hpp"

namespace dpclust::dpdbscan {

struct CoreCells {
  std::vector<std::uint64_t> codes;  // ascending
  std::vector<double> sums;          // S(X) of each core cell
  std::uint64_t evaluated = 0;       // cells whose sum was formed
};

// Throws std::invalid_argument for a linear histogram with threshold <= 0 (every unreleased region
// would be core).
CoreCells find_core_cells(const CellGrid& grid, const Neighbourhood& nb, const NoisyHistogram& hist, double threshold);

struct SpanSet {
  std::vector<std::uint64_t> codes;  // core cells, ascending
  std::vector<Label> span;           // span id of each core cell, 0..n_spans-1
  std::size_t n_spans = 0;
};

// `dense` selects a |X|-long lookup table instead of a hash map for the neighbour look-ups.
SpanSet merge_core_cells(const CellGrid& grid, const Neighbourhood& nb, std::vector<std::uint64_t> core_codes,
                         bool dense);

class SpanClassifier {
 public:
  SpanClassifier(const CellGrid& grid, const SpanSet& spans, bool dense);
  // Span id of the point, or kNoise.
  Label classify(const double* p) const;
  Labels classify_all(const double* coords, std::size_t n) const;
  const CellGrid& grid() const { return grid_; }

 private:
  CellGrid grid_;
  bool dense_;
  std::vector<Label> table_;  // dense: span per cell code (kNoise elsewhere)
  FlatMap<Label> map_;        // sparse
};

}  // namespace dpclust::dpdbscan
