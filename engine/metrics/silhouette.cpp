// The silhouette coefficient with scikit-learn's semantics; see silhouette.hpp.
#include "metrics/silhouette.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "core/numpy_random.hpp"
#include "metrics/contingency.hpp"
#include "metrics/distance_blocks.hpp"

namespace dpclust {
namespace {

constexpr std::size_t kSilhouetteBlock = 128;  // rows of a panel of distances

// The sample's points, contiguous, their labels as dense ids (ascending label value: scikit-learn's
// LabelEncoder) and what the pairs need.
struct SilhouetteInput {
  std::size_t m = 0, d = 0, L = 0;
  std::vector<double> points;      // m x d
  std::vector<double> transposed;  // d x m
  std::vector<double> norm;        // ||x||^2
  std::vector<std::int32_t> id;    // dense label id of each point
  std::vector<std::int64_t> count; // points per id
};

SilhouetteInput gather(const double* X, std::size_t d, const Labels& labels, const std::vector<std::size_t>& rows) {
  SilhouetteInput in;
  in.m = rows.size();
  in.d = d;
  in.points.resize(in.m * d);
  in.transposed.resize(in.m * d);
  in.norm.assign(in.m, 0.0);
  Labels sample(in.m);
  for (std::size_t r = 0; r < in.m; ++r) {
    const double* x = X + rows[r] * d;
    std::copy_n(x, d, in.points.data() + r * d);
    for (std::size_t j = 0; j < d; ++j) {
      in.transposed[j * in.m + r] = x[j];
      in.norm[r] += x[j] * x[j];
    }
    sample[r] = labels[rows[r]];
  }
  DenseLabeling dense = relabel_dense(sample);
  in.id = std::move(dense.ids);
  in.count = std::move(dense.counts);
  in.L = in.count.size();
  return in;
}

// Distances of the rows [r0, r0 + rows) to the columns [c0, m), written to panel (rows x (m - c0)); the
// inner products in parallel over column chunks (each entry computed whole by one thread).
void distance_panel(const SilhouetteInput& in, std::size_t r0, std::size_t rows, std::size_t c0, std::vector<double>& panel) {
  const std::size_t width = in.m - c0;
  panel.resize(rows * width);
  constexpr std::size_t kChunk = 512;
  const auto chunks = static_cast<std::ptrdiff_t>((width + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(static) if (rows * width * in.d >= (std::size_t{1} << 21))
  for (std::ptrdiff_t ch = 0; ch < chunks; ++ch) {
    const std::size_t first = static_cast<std::size_t>(ch) * kChunk, cols = std::min(kChunk, width - first);
    cross_products(in.points.data() + r0 * in.d, rows, in.d, in.transposed.data() + c0 + first, in.m, cols, panel.data() + first, width);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        double& v = panel[r * width + first + c];
        const std::size_t i = r0 + r, j = c0 + first + c;
        // euclidean_distances: max(0, ||x||^2 - 2 x.y + ||y||^2), 0 on the diagonal, then the root
        v = i == j ? 0.0 : std::sqrt(std::max(0.0, in.norm[i] - 2.0 * v + in.norm[j]));
      }
  }
}

// s(i) from its summed distances to every cluster (sklearn's _silhouette_reduce and silhouette_samples).
double silhouette_of(const SilhouetteInput& in, std::size_t i, const double* sums) {
  const auto own = static_cast<std::size_t>(in.id[i]);
  if (in.count[own] <= 1) return 0.0;  // nan_to_num of 0 / 0
  const double a = sums[own] / static_cast<double>(in.count[own] - 1);
  double b = std::numeric_limits<double>::infinity();
  for (std::size_t l = 0; l < in.L; ++l)
    if (l != own) b = std::min(b, sums[l] / static_cast<double>(in.count[l]));
  const double denominator = std::max(a, b);
  return denominator > 0.0 ? (b - a) / denominator : 0.0;  // 0 / 0 -> 0 (nan_to_num)
}

double score(const SilhouetteInput& in) {
  if (in.L < 2 || in.L > in.m - 1) return std::numeric_limits<double>::quiet_NaN();  // sklearn: ValueError
  const std::size_t m = in.m, L = in.L;
  std::vector<double> panel;
  double total = 0.0;
  if (m * L <= kSilhouetteSymmetricCells) {
    // Each pair once: the panel of row block I against the columns from I's first row on; every distance
    // goes to both points' sums. Serial accumulation in (row, column) order.
    std::vector<double> sums(m * L, 0.0);
    for (std::size_t r0 = 0; r0 < m; r0 += kSilhouetteBlock) {
      const std::size_t rows = std::min(kSilhouetteBlock, m - r0), width = m - r0;
      distance_panel(in, r0, rows, r0, panel);
      for (std::size_t r = 0; r < rows; ++r) {
        const std::size_t i = r0 + r;
        double* si = sums.data() + i * L;
        const auto li = static_cast<std::size_t>(in.id[i]);
        const double* row = panel.data() + r * width;
        for (std::size_t j = i + 1; j < m; ++j) {
          const double v = row[j - r0];
          si[static_cast<std::size_t>(in.id[j])] += v;
          sums[j * L + li] += v;
        }
      }
    }
    for (std::size_t i = 0; i < m; ++i) total += silhouette_of(in, i, sums.data() + i * L);
  } else {
    // Many labels: every pair formed from both ends, one row block at a time, in block x L memory.
    std::vector<double> sums(kSilhouetteBlock * L);
    for (std::size_t r0 = 0; r0 < m; r0 += kSilhouetteBlock) {
      const std::size_t rows = std::min(kSilhouetteBlock, m - r0);
      distance_panel(in, r0, rows, 0, panel);
      std::fill(sums.begin(), sums.end(), 0.0);
      for (std::size_t r = 0; r < rows; ++r) {
        double* si = sums.data() + r * L;
        const double* row = panel.data() + r * m;
        for (std::size_t j = 0; j < m; ++j) si[static_cast<std::size_t>(in.id[j])] += row[j];
        total += silhouette_of(in, r0 + r, si);
      }
    }
  }
  return total / static_cast<double>(m);
}

void check_labels(std::size_t n, const Labels& labels) {
  if (labels.size() != n)
    throw std::invalid_argument("silhouette: " + std::to_string(labels.size()) + " labels for " + std::to_string(n) + " points");
}

}  // namespace

double silhouette_score(const double* X, std::size_t n, std::size_t d, const Labels& labels) {
  check_labels(n, labels);
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  return score(gather(X, d, labels, all));
}

double silhouette_score(const double* X, std::size_t n, std::size_t d, const Labels& labels, const std::vector<std::size_t>& rows) {
  check_labels(n, labels);
  for (std::size_t r : rows)
    if (r >= n) throw std::invalid_argument("silhouette: a sampled index is out of range");
  return score(gather(X, d, labels, rows));
}

std::vector<std::size_t> silhouette_sample(std::size_t n, std::size_t size, std::uint32_t seed) {
  std::vector<std::size_t> rows;
  if (size >= n) {
    rows.resize(n);
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    return rows;
  }
  NumpyRandomState state(seed);
  const std::vector<std::int64_t> perm = state.permutation(n);
  rows.assign(perm.begin(), perm.begin() + static_cast<std::ptrdiff_t>(size));
  return rows;
}

}  // namespace dpclust
