// Internal validity indices (validity_indices.hpp: definitions and their sources).
#include "metrics/validity_indices.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "metrics/contingency.hpp"

namespace dpclust {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kAllCloseAtol = 1e-8;  // numpy.allclose(x, 0): |x| <= atol

// The clusters of a labeling: dense ids in ascending label value (scikit-learn's LabelEncoder), their sizes and
// their means (each cluster's coordinates summed over its points in index order, then divided).
struct Clusters {
  std::vector<std::int32_t> id;
  std::vector<std::int64_t> size;
  std::vector<double> mean;  // L x d
  std::size_t count() const { return size.size(); }
};

void check_input(std::size_t n, const Labels& labels, const char* what) {
  if (n == 0) throw std::invalid_argument(std::string(what) + ": no points");
  if (labels.size() != n)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(labels.size()) + " labels for " +
                                std::to_string(n) + " points");
}

Clusters clusters_of(const double* X, std::size_t n, std::size_t d, const Labels& labels) {
  DenseLabeling dense = relabel_dense(labels);
  Clusters c;
  c.id = std::move(dense.ids);
  c.size = std::move(dense.counts);
  c.mean.assign(c.count() * d, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double* m = c.mean.data() + static_cast<std::size_t>(c.id[i]) * d;
    for (std::size_t j = 0; j < d; ++j) m[j] += X[i * d + j];
  }
  for (std::size_t l = 0; l < c.count(); ++l)
    for (std::size_t j = 0; j < d; ++j) c.mean[l * d + j] /= static_cast<double>(c.size[l]);
  return c;
}

double squared_distance(const double* a, const double* b, std::size_t d) {
  double s = 0.0;
  for (std::size_t j = 0; j < d; ++j) {
    const double t = a[j] - b[j];
    s += t * t;
  }
  return s;
}

// scikit-learn's check_number_of_labels: 2 <= labels <= n - 1.
bool defined_for(std::size_t labels, std::size_t n) { return labels >= 2 && labels + 1 <= n; }

std::vector<double> overall_mean(const double* X, std::size_t n, std::size_t d) {
  std::vector<double> m(d, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) m[j] += X[i * d + j];
  for (double& x : m) x /= static_cast<double>(n);
  return m;
}

}  // namespace

double davies_bouldin_score(const double* X, std::size_t n, std::size_t d, const Labels& labels) {
  check_input(n, labels, "davies_bouldin_score");
  const Clusters c = clusters_of(X, n, d, labels);
  const std::size_t L = c.count();
  if (!defined_for(L, n)) return kNaN;
  std::vector<double> intra(L, 0.0);  // mean distance of a cluster's points to its mean
  for (std::size_t i = 0; i < n; ++i) {
    const auto l = static_cast<std::size_t>(c.id[i]);
    intra[l] += std::sqrt(squared_distance(X + i * d, c.mean.data() + l * d, d));
  }
  for (std::size_t l = 0; l < L; ++l) intra[l] /= static_cast<double>(c.size[l]);
  std::vector<double> between(L * L, 0.0);
  bool between_all_zero = true;
  for (std::size_t a = 0; a < L; ++a)
    for (std::size_t b = 0; b < L; ++b) {
      const double t = a == b ? 0.0 : std::sqrt(squared_distance(c.mean.data() + a * d, c.mean.data() + b * d, d));
      between[a * L + b] = t;
      between_all_zero = between_all_zero && t <= kAllCloseAtol;
    }
  const bool intra_all_zero = std::all_of(intra.begin(), intra.end(), [](double s) { return s <= kAllCloseAtol; });
  if (intra_all_zero || between_all_zero) return 0.0;
  double total = 0.0;
  for (std::size_t a = 0; a < L; ++a) {
    double worst = 0.0;
    for (std::size_t b = 0; b < L; ++b) {
      const double dist = between[a * L + b];
      if (dist == 0.0) continue;  // scikit-learn sets a zero centroid distance to inf: the ratio is 0
      worst = std::max(worst, (intra[a] + intra[b]) / dist);
    }
    total += worst;
  }
  return total / static_cast<double>(L);
}

double calinski_harabasz_score(const double* X, std::size_t n, std::size_t d, const Labels& labels) {
  check_input(n, labels, "calinski_harabasz_score");
  const Clusters c = clusters_of(X, n, d, labels);
  const std::size_t L = c.count();
  if (!defined_for(L, n)) return kNaN;
  const std::vector<double> m = overall_mean(X, n, d);
  double extra = 0.0, intra = 0.0;
  for (std::size_t l = 0; l < L; ++l)
    extra += static_cast<double>(c.size[l]) * squared_distance(c.mean.data() + l * d, m.data(), d);
  for (std::size_t i = 0; i < n; ++i)
    intra += squared_distance(X + i * d, c.mean.data() + static_cast<std::size_t>(c.id[i]) * d, d);
  if (intra == 0.0) return 1.0;
  return extra * static_cast<double>(n - L) / (intra * static_cast<double>(L - 1));
}

double dunn_index(const double* X, std::size_t n, std::size_t d, const Labels& labels) {
  check_input(n, labels, "dunn_index");
  if (n > kDunnMaxPoints)
    throw std::invalid_argument("dunn_index: " + std::to_string(n) +
                                " points need n^2 / 2 = " + std::to_string(n / 2 * (n - 1)) + " distances; at most " +
                                std::to_string(kDunnMaxPoints) + " points (sample the dataset first)");
  const DenseLabeling dense = relabel_dense(labels);
  const std::vector<std::int32_t>& id = dense.ids;
  const std::size_t L = dense.size();
  if (!defined_for(L, n)) return kNaN;
  double closest = std::numeric_limits<double>::infinity(), widest = 0.0;  // squared distances
  const auto rows = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(dynamic, 64) reduction(min : closest) reduction(max : widest)
  for (std::ptrdiff_t r = 0; r < rows; ++r) {
    const auto i = static_cast<std::size_t>(r);
    const double* x = X + i * d;
    for (std::size_t k = i + 1; k < n; ++k) {
      const double s = squared_distance(x, X + k * d, d);
      if (id[k] == id[i]) widest = std::max(widest, s);
      else closest = std::min(closest, s);
    }
  }
  if (widest == 0.0 || !std::isfinite(closest)) return kNaN;
  return std::sqrt(closest) / std::sqrt(widest);
}

double between_cluster_ss(const double* X, std::size_t n, std::size_t d, const RowMatrix& centres,
                          const Labels& labels) {
  check_input(n, labels, "between_cluster_ss");
  const auto k = static_cast<std::size_t>(centres.rows());
  if (static_cast<std::size_t>(centres.cols()) != d)
    throw std::invalid_argument("between_cluster_ss: centres have " + std::to_string(centres.cols()) +
                                " coordinates, the points " + std::to_string(d));
  std::vector<std::int64_t> size(k, 0);
  for (Label l : labels) {
    if (l < 0 || static_cast<std::size_t>(l) >= k)
      throw std::invalid_argument("between_cluster_ss: a label is not the row of a centre (0.." + std::to_string(k) +
                                  ")");
    ++size[static_cast<std::size_t>(l)];
  }
  const std::vector<double> m = overall_mean(X, n, d);
  double total = 0.0;
  for (std::size_t j = 0; j < k; ++j)
    total += squared_distance(centres.data() + j * d, m.data(), d) * static_cast<double>(size[j]);
  return total;
}

}  // namespace dpclust
