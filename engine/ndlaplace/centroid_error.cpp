// Centroid relative error (thesis Sec. 2.2.2); the reading is in centroid_error.hpp.
#include "ndlaplace/centroid_error.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace dpclust::ndlaplace {

std::vector<double> cluster_centroids(const double* coords, std::size_t n, std::size_t d, const Labels& labels,
                                      std::size_t* k) {
  if (labels.size() != n) throw std::invalid_argument("cluster_centroids: one label per point");
  std::map<Label, std::size_t> index;
  for (Label l : labels)
    if (l >= 0) index.emplace(l, 0);
  std::size_t next = 0;
  for (auto& [l, i] : index) i = next++;
  std::vector<double> c(index.size() * d, 0.0);
  std::vector<std::size_t> count(index.size(), 0);
  for (std::size_t p = 0; p < n; ++p) {
    if (labels[p] < 0) continue;
    const std::size_t i = index[labels[p]];
    ++count[i];
    for (std::size_t j = 0; j < d; ++j) c[i * d + j] += coords[p * d + j];
  }
  for (std::size_t i = 0; i < count.size(); ++i)
    for (std::size_t j = 0; j < d; ++j) c[i * d + j] /= static_cast<double>(count[i]);
  if (k) *k = index.size();
  return c;
}

double centroid_relative_error(const std::vector<double>& ref, std::size_t k_ref, const std::vector<double>& est,
                               std::size_t k_est, std::size_t d) {
  if (k_ref == 0 || k_est == 0) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0.0;
  for (std::size_t i = 0; i < k_ref; ++i) {
    double best = std::numeric_limits<double>::infinity(), norm2 = 0.0;
    for (std::size_t j = 0; j < d; ++j) norm2 += ref[i * d + j] * ref[i * d + j];
    for (std::size_t e = 0; e < k_est; ++e) {
      double s = 0.0;
      for (std::size_t j = 0; j < d; ++j) s += (ref[i * d + j] - est[e * d + j]) * (ref[i * d + j] - est[e * d + j]);
      best = std::min(best, std::sqrt(s));
    }
    sum += best / std::sqrt(norm2);
  }
  return sum / static_cast<double>(k_ref);
}

}  // namespace dpclust::ndlaplace
