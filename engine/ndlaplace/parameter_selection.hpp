#pragma once
// Parameter selection as the thesis describes it (Sec. 2.2.1, Tables 5.1 and 5.3), for K-Means' k and
// DBSCAN's radius: both read a "knee" off a curve by eye. dpclust makes the reading reproducible with
// one documented rule for both curves (our choice; the thesis gives none): the knee is the point of the
// curve farthest from the chord joining its first and last points, after scaling both axes to [0, 1]
// (the "Kneedle" normalisation of Satopaa et al. 2011). Ties go to the first such point.
//   elbow plot (Kodinariya & Makwana 2013): K-Means inertia (Eq. 5.1) for k = 1 .. k_max; the elbow k.
//   k-distance plot (Ester et al. 1996; Schubert et al. 2017): every point's distance to its min_pts-th
//   nearest neighbour, the point itself counted as the first (scikit-learn's
//   NearestNeighbors(n_neighbors = min_pts).kneighbors(X) recipe), sorted in decreasing order; DBSCAN's
//   radius is the distance at the knee. min_pts itself is 2 d (thesis Table 5.3).
// These are non-private diagnostics of the ORIGINAL data (the thesis tunes on it); evaluation only.
#include <cstddef>
#include <vector>

#include "core/rng.hpp"

namespace dpclust::ndlaplace {

// Index of the knee of a curve (size >= 1; 0 for curves of 1 or 2 points or a flat curve).
std::size_t knee_index(const std::vector<double>& y);

// K-Means (k-means++, n_init restarts) inertia for k = 1 .. min(k_max, n).
std::vector<double> inertia_curve(const double* coords, std::size_t n, std::size_t d, std::size_t k_max,
                                  std::int64_t n_init, Rng& rng);
// The elbow k of an inertia curve that starts at k = 1.
std::size_t elbow_k(const std::vector<double>& inertia);

// Distance of every point to its k-th nearest neighbour (the point itself is the first), sorted in
// decreasing order; k in [1, n].
std::vector<double> k_distance(const double* coords, std::size_t n, std::size_t d, std::size_t k);
// DBSCAN's radius read off a sorted k-distance curve.
double knee_radius(const std::vector<double>& k_dist);

}  // namespace dpclust::ndlaplace
