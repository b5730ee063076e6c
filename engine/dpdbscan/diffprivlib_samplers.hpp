#pragma once
// The floating-point samplers of IBM diffprivlib's models.KMeans, kept bit for bit so that the
// `variant: diffprivlib` of DP-k-means reproduces the DP-DBSCAN paper's baseline (Table 2, Fig. 10,
// Table 3). They draw on doubles (not floating-point safe, Mironov 2012), so a result using them is
// flagged; the corrected DPLloyd (dp_kmeans.hpp, variant dplloyd) uses engine/privacy instead. Their
// ledger entries are recorded with privacy::charge by dp_kmeans.cpp, next to the draw.
//
//   two_sided_geometric   Z = G1 - G2, G = floor(ln U / ln q), q = e^{-eps} (sensitivity 1): the
//                         geometric mechanism of diffprivlib's count, by inverse transform on doubles
//   bounded_laplace       the bounded-domain Laplace mechanism (Holohan, Antonatos, Braghin, Mac Aonghusa
//                         2018): Laplace centred at the (clamped) value, restricted to [lower, upper],
//                         with the scale b solving b = Delta / (eps - ln dC(b)),
//                         dC(b) = (2 - e^{-Delta/b} - e^{-(D - Delta)/b}) / (1 - e^{-D/b}), D = upper - lower,
//                         found by bisection (bounded_laplace_scale)
#include <cstdint>

#include "core/rng.hpp"

namespace dpclust::dpdbscan {

std::int64_t two_sided_geometric(Rng& rng, double epsilon);

double bounded_laplace_scale(double epsilon, double sensitivity, double width);
double bounded_laplace(Rng& rng, double value, double lower, double upper, double scale);

}  // namespace dpclust::dpdbscan
