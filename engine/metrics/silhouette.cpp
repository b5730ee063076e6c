// The silhouette coefficient with scikit-learn's semantics; see silhouette.hpp.
#include "metrics/silhouette.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include <Eigen/Core>

#include "core/numpy_random.hpp"
#include "metrics/contingency.hpp"
#include "core/cross_products.hpp"

namespace dpclust {
namespace {

constexpr std::size_t kSilhouetteBlock = 128;  // rows of a panel of distances

// The sample's points, contiguous and grouped by label (stably: a sample's order within a label is kept),
// their labels as dense ids (ascending label value: scikit-learn's LabelEncoder), and what the pairs need.
// Grouping makes every cluster a contiguous run of columns and of rows, so the per-cluster sums are sums
// over runs (no scattered additions); the score is a mean over the points, whose order does not matter.
struct SilhouetteInput {
  std::size_t m = 0, d = 0, L = 0;
  std::vector<double> points;       // m x d
  std::vector<double> transposed;   // d x m
  std::vector<double> norm;         // ||x||^2
  std::vector<std::int32_t> id;     // dense label id of each point (non-decreasing)
  std::vector<std::int64_t> count;  // points per id
  std::vector<std::size_t> run;     // L + 1 entries: the points of id l are [run[l], run[l + 1])
};

SilhouetteInput gather(const double* X, std::size_t d, const Labels& labels, const std::vector<std::size_t>& rows) {
  SilhouetteInput in;
  in.m = rows.size();
  in.d = d;
  Labels sample(in.m);
  for (std::size_t r = 0; r < in.m; ++r) sample[r] = labels[rows[r]];
  DenseLabeling dense = relabel_dense(sample);
  in.count = std::move(dense.counts);
  in.L = in.count.size();
  in.run.assign(in.L + 1, 0);
  for (std::size_t l = 0; l < in.L; ++l) in.run[l + 1] = in.run[l] + static_cast<std::size_t>(in.count[l]);
  std::vector<std::size_t> next(in.run.begin(), in.run.end() - (in.L > 0 ? 1 : 0));
  in.points.resize(in.m * d);
  in.transposed.resize(in.m * d);
  in.norm.assign(in.m, 0.0);
  in.id.resize(in.m);
  for (std::size_t r = 0; r < in.m; ++r) {
    const auto l = static_cast<std::size_t>(dense.ids[r]);
    const std::size_t at = next[l]++;
    const double* x = X + rows[r] * d;
    std::copy_n(x, d, in.points.data() + at * d);
    for (std::size_t j = 0; j < d; ++j) {
      in.transposed[j * in.m + at] = x[j];
      in.norm[at] += x[j] * x[j];
    }
    in.id[at] = static_cast<std::int32_t>(l);
  }
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
    const double* norm_col = in.norm.data() + c0 + first;
    for (std::size_t r = 0; r < rows; ++r) {
      double* v = panel.data() + r * width + first;
      const double norm_row = in.norm[r0 + r];
      // euclidean_distances: sqrt(max(0, ||x||^2 - 2 x.y + ||y||^2)); the diagonal is set to 0 below. Eigen's
      // packet sqrt is the correctly rounded sqrtpd, the same double as std::sqrt, without its errno branch.
      Eigen::Map<Eigen::ArrayXd> dist(v, static_cast<Eigen::Index>(cols));
      const Eigen::Map<const Eigen::ArrayXd> norms(norm_col, static_cast<Eigen::Index>(cols));
      dist = ((norm_row - 2.0 * dist) + norms).max(0.0).sqrt();
    }
  }
  for (std::size_t r = 0; r < rows; ++r)
    if (r0 + r >= c0 && r0 + r < in.m) panel[r * width + (r0 + r - c0)] = 0.0;  // a point's distance to itself
}

// Sum of v[0, len), four running sums (a fixed order).
double run_sum(const double* v, std::size_t len) {
  double a = 0, b = 0, c = 0, e = 0;
  std::size_t j = 0;
  for (; j + 4 <= len; j += 4) {
    a += v[j];
    b += v[j + 1];
    c += v[j + 2];
    e += v[j + 3];
  }
  for (; j < len; ++j) a += v[j];
  return (a + b) + (c + e);
}

// Adds to sums (rows x L, one row per panel row) each panel row's distances to the columns [c0, m), per
// cluster of the column.
void add_row_sums(const SilhouetteInput& in, const std::vector<double>& panel, std::size_t rows, std::size_t c0, double* sums) {
  const std::size_t width = in.m - c0;
  for (std::size_t r = 0; r < rows; ++r) {
    const double* row = panel.data() + r * width;
    double* s = sums + r * in.L;
    for (std::size_t l = 0; l < in.L; ++l) {
      const std::size_t lo = std::max(in.run[l], c0), hi = in.run[l + 1];
      if (lo < hi) s[l] += run_sum(row + (lo - c0), hi - lo);
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
    // Each pair once: the panel of a row block against the columns from the block's first row on, the pairs
    // at or below the diagonal zeroed; every distance goes to both points' sums: per row, over the runs of
    // columns of each cluster; per column, over the runs of rows of each cluster in the block.
    std::vector<double> sums(m * L, 0.0), column(m);
    for (std::size_t r0 = 0; r0 < m; r0 += kSilhouetteBlock) {
      const std::size_t rows = std::min(kSilhouetteBlock, m - r0), width = m - r0;
      distance_panel(in, r0, rows, r0, panel);
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c <= r; ++c) panel[r * width + c] = 0.0;
      add_row_sums(in, panel, rows, r0, sums.data() + r0 * L);
      for (std::size_t a = 0; a < rows;) {
        const auto l = static_cast<std::size_t>(in.id[r0 + a]);
        const std::size_t b = std::min(rows, in.run[l + 1] - r0);
        std::fill_n(column.begin(), width, 0.0);
        for (std::size_t r = a; r < b; ++r) {
          const double* row = panel.data() + r * width;
          for (std::size_t c = 0; c < width; ++c) column[c] += row[c];
        }
        for (std::size_t c = 0; c < width; ++c) sums[(r0 + c) * L + l] += column[c];
        a = b;
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
      add_row_sums(in, panel, rows, 0, sums.data());
      for (std::size_t r = 0; r < rows; ++r) total += silhouette_of(in, r0 + r, sums.data() + r * L);
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
