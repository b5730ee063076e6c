#pragma once
// Span release reuse (Sec. 3: "the spans ... can be used to classify new points: check which span the
// given point falls into"). Rebuilds the grid and the span set of a DP-DBSCAN trial from its release
// alone (release.grid: lo, hi, cell_width, cells_per_dim; release.spans[].cells: the integer cell
// coordinates of every core cell), so classifying new points is post-processing of the release: it
// reads nothing else of the trial and costs no privacy budget.
//
// A point gets the id of the span whose core cell contains it, kNoise otherwise or outside the grid's
// domain, exactly as the trial's own SpanClassifier labelled the data (spans.hpp).
#include <nlohmann/json.hpp>

#include "core/dataset.hpp"
#include "dpdbscan/grid.hpp"
#include "dpdbscan/spans.hpp"

namespace dpclust::dpdbscan {

struct ReleasedSpans {
  CellGrid grid;
  SpanSet spans;
};

// Parses a dp_dbscan release. Throws InputError naming `where` and the key for anything malformed (a
// missing key, a cell outside the grid, a span id out of range, a grid above 2^62 cells).
ReleasedSpans spans_from_release(const nlohmann::json& release, const std::string& where);

// Labels of n points (d = the release's dimension, row-major): span id or kNoise.
Labels classify_with_release(const ReleasedSpans& released, const double* coords, std::size_t n);

}  // namespace dpclust::dpdbscan
