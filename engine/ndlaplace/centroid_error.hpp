#pragma once
// Centroid relative error, the utility measure the thesis cites next to ARI/AMI (Sec. 2.2.2 "existing
// literature": "calculate the error between the two cluster algorithm's centroids [Huang et al. 2021;
// Xia et al. 2020] ... Relative Error (RE)"). The thesis prints no formula; dpclust's reading:
//   RE = (1/k) sum_{i=1..k} ||c_i - c_hat_{nn(i)}|| / ||c_i||,
// c_i the k centroids of the reference clustering (the same algorithm on the original data), c_hat the
// centroids of the clustering of the release (means of the released points per cluster, data units),
// nn(i) the estimated centroid nearest to c_i (no one-to-one constraint, so the number of clusters may
// differ, as with DBSCAN). Noise labels (< 0) belong to no cluster. Like every relative error it
// depends on the origin of the coordinates (a centroid at the origin gives infinity).
#include <cstddef>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust::ndlaplace {

// The means of the points of each cluster (labels >= 0, in increasing label order), k x d row-major.
std::vector<double> cluster_centroids(const double* coords, std::size_t n, std::size_t d, const Labels& labels,
                                      std::size_t* k);

// ref: k_ref x d, est: k_est x d. NaN when either is empty.
double centroid_relative_error(const std::vector<double>& ref, std::size_t k_ref, const std::vector<double>& est,
                               std::size_t k_est, std::size_t d);

}  // namespace dpclust::ndlaplace
