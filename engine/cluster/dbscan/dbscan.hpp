#pragma once
// Exact DBSCAN (Ester, Kriegel, Sander, Xu, KDD 1996) with scikit-learn's semantics, label for label.
//
//   * distance: Euclidean; "within alpha" means sum_j (x_j - y_j)^2 <= alpha * alpha, the squared
//     differences added in dimension order (what sklearn's KD-tree radius query computes; the query is
//     inclusive);
//   * a point is core when its alpha-neighbourhood, the point itself included, holds >= min_pts points
//     (sklearn's min_samples);
//   * clusters are the connected components of the core points (two cores are linked when within
//     alpha), numbered in the order sklearn discovers them: sklearn scans the points by index and starts
//     a new cluster at every unlabelled core point, so cluster 0 holds the lowest-index core point,
//     cluster 1 the lowest-index core point not in cluster 0, and so on;
//   * a non-core point with a core point within alpha is a border point; sklearn expands one cluster
//     completely before it starts the next, so the border point takes the smallest cluster id among the
//     clusters having a core point within alpha of it;
//   * everything else is noise (-1).
//
// Border rule (BorderRule, the parameter `border`): `assign` gives border points a cluster as above
// (scikit-learn, Ester et al.); `noise` leaves them noise, so a cluster is its core points only -- the
// definition of "Approximate DBSCAN under Differential Privacy" (Qiu & Yi), Sec. 2 ("an
// (alpha, MinPts)-cluster C is a nonempty maximal subset of the core points ... the noise points do
// not belong to any cluster"), which is also what the authors' evaluation code labels. Cluster ids are
// the same under both rules (they come from the core points alone). The neighbourhood stays the
// closed ball of scikit-learn under both (the paper writes dist < alpha; the two differ only on exact
// ties).
//
// The result depends only on the input (never on the thread count or on internal visiting orders).
// Checked label for label against scikit-learn 1.2 DBSCAN with algorithm kd_tree and ball_tree (what
// algorithm="auto" picks for up to 15 dimensions), including lattices whose distances equal alpha up to
// an ulp. sklearn's algorithm="brute" (auto's choice above 15 dimensions) computes distances as
// ||x||^2 - 2 x.y + ||y||^2, whose rounding can flip a pair at distance ~alpha; such ties can differ.
//
// Index (see dbscan.cpp for the details and the floating-point margins that keep it exact):
//   d <= 3   grid of cells with side alpha/sqrt(d) (slightly shrunk), so any two points of one cell are
//            within alpha: a cell holding >= min_pts points is all core without a distance computation,
//            the core points of one cell form one connected piece, and the neighbour cells are those
//            whose minimum distance to the cell is <= alpha (24 in 2D, 124 in 3D), precomputed once;
//   4..8     the fine cells' neighbour set explodes (hundreds to millions of offsets), so cells of side
//            alpha (slightly enlarged) with the 3^d - 1 surrounding cells as neighbours;
//   d > 8    (or a coordinate range above 2^40 cells) brute force, O(n^2) distance computations.
// Occupied cells are found through a dense cell array when the bounding box holds at most
// max(4n, 2^22) cells, otherwise through an open-addressing hash table keyed by the integer cell
// coordinates (no packed code, hence no 64-bit overflow). Points are bucketed by a counting sort into
// contiguous arrays. The core-count and border passes use OpenMP for n >= 20000 (each point's result
// is computed independently, so the output does not depend on the thread count).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/dataset.hpp"
#include "core/method.hpp"
#include "core/params.hpp"

namespace dpclust {

// How a non-core point within alpha of a core point is labelled (see the top of this file).
enum class BorderRule { assign, noise };
const char* to_string(BorderRule b);
// The choice parameter `border` (default assign, scikit-learn's), declared once for every method that
// runs exact DBSCAN on its output (dbscan, dp_dbscan_pairwise), and its typed value (an unknown name
// is an InputError naming params.border, never a silent default).
ParamSpec border_param();
BorderRule border_rule_of(const ParamSet& params);

struct DbscanStats {
  std::size_t core_points = 0;
  std::size_t clusters = 0;
  std::size_t noise_points = 0;
  std::size_t cells = 0;  // occupied cells of the index (1 for brute force)
  std::string index;      // "grid-fine-dense", "grid-fine-hash", "grid-coarse-dense", "grid-coarse-hash", "brute"
};

// Labels of the n points (row-major n x d coordinates). Throws std::invalid_argument when alpha is not
// a finite number > 0, min_pts < 1, d == 0 while n > 0, or a coordinate is not finite.
Labels dbscan(const double* coords, std::size_t n, std::size_t d, double alpha, std::int64_t min_pts,
              DbscanStats* stats = nullptr, BorderRule border = BorderRule::assign);
inline Labels dbscan(const Dataset& data, double alpha, std::int64_t min_pts, DbscanStats* stats = nullptr,
                     BorderRule border = BorderRule::assign) {
  return dbscan(data.coords.data(), data.n, data.d, alpha, min_pts, stats, border);
}

}  // namespace dpclust
