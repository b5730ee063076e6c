// The silhouette coefficient with scikit-learn's semantics; see silhouette.hpp.
#include "metrics/silhouette.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include <Eigen/Core>

#include "core/cross_products.hpp"
#include "core/numpy_random.hpp"
#include "metrics/contingency.hpp"

namespace dpclust {
namespace {

constexpr std::size_t kSilhouetteBlock = 128;  // rows of a panel of distances

// The sample's points, contiguous and grouped by label (stably: a sample's order within a label is kept),
// their labels as dense ids (ascending label value: scikit-learn's LabelEncoder), and what the pairs need.
// Grouping makes every cluster a contiguous run of columns and of rows, so the per-cluster sums are sums
// over runs (no scattered additions); the score is a mean over the points, whose order does not matter.
struct SilhouetteInput {
  std::size_t m = 0, d = 0, L = 0;
  std::vector<double> points;                      // m x d
  std::vector<double> transposed;                  // d x m
  std::vector<double> norm;                        // ||x||^2
  std::vector<std::int32_t> id;                    // dense label id of each point (non-decreasing)
  std::vector<std::int64_t> count;                 // points per id
  std::vector<std::size_t> run;                    // L + 1 entries: the points of id l are [run[l], run[l + 1])
  std::vector<std::size_t> origin;                 // the row of X each point came from
  const SilhouetteDistances* distances = nullptr;  // when set: the pairs' distances are read from it
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
  in.origin.resize(in.m);
  for (std::size_t r = 0; r < in.m; ++r) {
    const auto l = static_cast<std::size_t>(dense.ids[r]);
    const std::size_t at = next[l]++;
    in.origin[at] = rows[r];
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
void distance_panel(const SilhouetteInput& in, std::size_t r0, std::size_t rows, std::size_t c0,
                    std::vector<double>& panel) {
  const std::size_t width = in.m - c0;
  panel.resize(rows * width);
  if (in.distances) {
    // The same doubles, computed once for the dataset (silhouette_distances: this function on the points in their
    // own order); the diagonal is 0 there too.
    const std::size_t n = in.distances->n;
    for (std::size_t r = 0; r < rows; ++r) {
      const double* from = in.distances->values.data() + in.origin[r0 + r] * n;
      double* to = panel.data() + r * width;
      for (std::size_t c = 0; c < width; ++c) to[c] = from[in.origin[c0 + c]];
    }
    return;
  }
  constexpr std::size_t kChunk = 512;
  const auto chunks = static_cast<std::ptrdiff_t>((width + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(static) if (rows * width * in.d >= (std::size_t{1} << 21))
  for (std::ptrdiff_t ch = 0; ch < chunks; ++ch) {
    const std::size_t first = static_cast<std::size_t>(ch) * kChunk, cols = std::min(kChunk, width - first);
    cross_products(in.points.data() + r0 * in.d, rows, in.d, in.transposed.data() + c0 + first, in.m, cols,
                   panel.data() + first, width);
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

// Adds to sums (rows x runs, one row per panel row) each panel row's distances to the columns [c0, m), per run of
// columns: `bounds` holds runs + 1 boundaries, run k being [bounds[k], bounds[k + 1]) (the clusters, or the
// jackknife's chunks).
void add_row_sums(const std::vector<std::size_t>& bounds, std::size_t m, const std::vector<double>& panel,
                  std::size_t rows, std::size_t c0, double* sums) {
  const std::size_t width = m - c0, runs = bounds.size() - 1;
  for (std::size_t r = 0; r < rows; ++r) {
    const double* row = panel.data() + r * width;
    double* s = sums + r * runs;
    for (std::size_t k = 0; k < runs; ++k) {
      const std::size_t lo = std::max(bounds[k], c0), hi = bounds[k + 1];
      if (lo < hi) s[k] += run_sum(row + (lo - c0), hi - lo);
    }
  }
}

// Adds to sums ((m - r0) x runs) the distances of each column c >= r0 to the block's rows, per run of rows
// (`run_of[i]`: the run of point i; `bounds` as above): the other end of each pair of the symmetric pass.
void add_column_sums(const std::vector<std::size_t>& bounds, const std::vector<std::size_t>& run_of,
                     const std::vector<double>& panel, std::size_t r0, std::size_t rows, std::size_t width,
                     std::vector<double>& column, double* sums) {
  const std::size_t runs = bounds.size() - 1;
  for (std::size_t a = 0; a < rows;) {
    const std::size_t k = run_of[r0 + a], b = std::min(rows, bounds[k + 1] - r0);
    std::fill_n(column.begin(), width, 0.0);
    for (std::size_t r = a; r < b; ++r) {
      const double* row = panel.data() + r * width;
      for (std::size_t c = 0; c < width; ++c) column[c] += row[c];
    }
    for (std::size_t c = 0; c < width; ++c) sums[c * runs + k] += column[c];
    a = b;
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

// The grouped jackknife of a sampled score (silhouette.hpp): each sampled cluster's run of points (in the sample's
// order, which is random) cut into G contiguous chunks, group g the union of the clusters' chunks g, so each group
// is a random part of the sample holding the same share of every sampled cluster; a cluster the sample holds whole
// (stratified sampling's small clusters) has one more chunk, G, in no group: it is never left out. The score
// without group g is computed from each point's distance sums to every chunk, in the same pass as the score.
// Memory: (points in memory) x L x (G + 1) sums, at most kSilhouetteSymmetricCells: G = 16, fewer where that
// would exceed it (at least 2; else no standard error: NaN).
constexpr std::size_t kJackknifeGroups = 16;

// How the sample was drawn: a subset (the sample's own shares of the clusters; weight empty) or stratified (each
// cluster weighted by its share of all n points; `complete` the clusters the sample holds whole).
struct Design {
  std::vector<double> weight;
  std::vector<char> complete;
  double sampled_fraction = 0.0;  // the sampled points of the clusters not held whole, over all their points
};

struct Jackknife {
  std::size_t G = 0;                  // groups; 0: not computed
  std::vector<std::size_t> bounds;    // L (G + 1) + 1: chunk l (G + 1) + g is cluster l's part of group g
  std::vector<std::size_t> chunk_of;  // each point's chunk
  std::vector<double> totals;         // G x L: the sum of s(i) without group g over cluster l's points outside it
  std::size_t chunks() const { return G + 1; }
  std::int64_t size(std::size_t l, std::size_t g) const {
    return static_cast<std::int64_t>(bounds[l * chunks() + g + 1] - bounds[l * chunks() + g]);
  }
};

Jackknife plan_jackknife(const SilhouetteInput& in, const Design& design, std::size_t rows_in_memory) {
  Jackknife jk;
  const std::size_t cap = kSilhouetteSymmetricCells / std::max<std::size_t>(1, rows_in_memory * in.L);
  jk.G = std::min({kJackknifeGroups, cap > 0 ? cap - 1 : 0, in.m});
  if (jk.G < 2) {
    jk.G = 0;
    return jk;
  }
  const std::size_t G = jk.G, C = jk.chunks();
  jk.bounds.resize(in.L * C + 1);
  jk.chunk_of.resize(in.m);
  for (std::size_t l = 0; l < in.L; ++l) {
    const auto size = static_cast<std::size_t>(in.count[l]);
    const bool whole = !design.complete.empty() && design.complete[l];
    for (std::size_t g = 0; g < C; ++g) jk.bounds[l * C + g] = in.run[l] + (whole ? 0 : size * g / G);
  }
  jk.bounds[in.L * C] = in.m;
  for (std::size_t k = 0; k < in.L * C; ++k)
    for (std::size_t i = jk.bounds[k]; i < jk.bounds[k + 1]; ++i) jk.chunk_of[i] = k;
  jk.totals.assign(G * in.L, 0.0);
  return jk;
}

// Adds s(i) of the sample without group g, for every group g but i's own, to the jackknife's totals: from i's
// sums to each cluster and to each chunk.
void add_without_groups(const SilhouetteInput& in, Jackknife& jk, std::size_t i, const double* sums,
                        const double* chunk_sums) {
  const std::size_t G = jk.G, C = jk.chunks(), own = static_cast<std::size_t>(in.id[i]), mine = jk.chunk_of[i] % C;
  for (std::size_t g = 0; g < G; ++g) {
    if (g == mine) continue;
    const std::int64_t own_count = in.count[own] - jk.size(own, g);
    if (own_count <= 1) continue;  // alone in its cluster: s = 0
    const double a = (sums[own] - chunk_sums[own * C + g]) / static_cast<double>(own_count - 1);
    double b = std::numeric_limits<double>::infinity();
    for (std::size_t l = 0; l < in.L; ++l) {
      const std::int64_t count = in.count[l] - jk.size(l, g);
      if (l != own && count > 0) b = std::min(b, (sums[l] - chunk_sums[l * C + g]) / static_cast<double>(count));
    }
    const double denominator = std::max(a, b);
    if (std::isfinite(b) && denominator > 0.0) jk.totals[g * in.L + own] += (b - a) / denominator;
  }
}

// The mean of each cluster's s(i).
std::vector<double> cluster_means(const SilhouetteInput& in, const std::vector<double>& s) {
  std::vector<double> mean(in.L, 0.0);
  for (std::size_t i = 0; i < in.m; ++i) mean[static_cast<std::size_t>(in.id[i])] += s[i];
  for (std::size_t l = 0; l < in.L; ++l) mean[l] /= static_cast<double>(in.count[l]);
  return mean;
}

// The standard error for a sample of m of n points; NaN where a score without a group is undefined.
//   SE^2 = (1 - f) ((G - 1) / G sum_g (score_-g - mean of the score_-g)^2 [+ shares / m for a subset])
// A subset's score_-g is the mean of the s(i) left; f = m / n. Its groups hold the same share of every cluster,
// so the jackknife measures the error given the clusters' sizes in the sample; those vary from subset to subset
// too, and that part is added: shares = sum_l p_l (score_l - score)^2, p_l the share of cluster l in the subset
// and score_l the mean of its points' s(i) (a mean of cluster means weighted by multinomial shares).
// Stratified: score_-g = sum_l w_l (mean of cluster l's s(i) left), the shares fixed by design; f the sampled
// fraction of the clusters not held whole.
double jackknife_standard_error(const SilhouetteInput& in, const Jackknife& jk, const Design& design,
                                const std::vector<double>& s, std::size_t n) {
  const std::size_t G = jk.G;
  if (G == 0) return std::numeric_limits<double>::quiet_NaN();
  const bool stratified = !design.weight.empty();
  const std::vector<double> means = cluster_means(in, s);
  std::vector<double> without(G);
  for (std::size_t g = 0; g < G; ++g) {
    std::int64_t left = 0;
    std::int64_t labels = 0;
    double total = 0.0;
    for (std::size_t l = 0; l < in.L; ++l) {
      const std::int64_t kept = in.count[l] - jk.size(l, g);
      left += kept;
      labels += kept > 0;
      if (stratified)
        total += design.weight[l] * (kept > 0 ? jk.totals[g * in.L + l] / static_cast<double>(kept) : means[l]);
      else total += jk.totals[g * in.L + l];
    }
    if (labels < 2 || labels > left - 1) return std::numeric_limits<double>::quiet_NaN();
    without[g] = stratified ? total : total / static_cast<double>(left);
  }
  double mean = 0.0, squares = 0.0;
  for (double v : without) mean += v;
  mean /= static_cast<double>(G);
  for (double v : without) squares += (v - mean) * (v - mean);
  double variance = (static_cast<double>(G) - 1.0) / static_cast<double>(G) * squares;
  const auto m = static_cast<double>(in.m);
  double unsampled = 1.0 - m / static_cast<double>(n);
  if (stratified) {
    unsampled = 1.0 - design.sampled_fraction;
  } else {
    double score = 0.0, shares = 0.0;
    for (double v : s) score += v;
    score /= m;
    for (std::size_t l = 0; l < in.L; ++l)
      shares += static_cast<double>(in.count[l]) / m * (means[l] - score) * (means[l] - score);
    variance += shares / m;
  }
  return std::sqrt(unsampled * variance);
}

// Every sampled point's s(i), in the order of in.id (empty when the score is undefined), and, for a sample of
// fewer than n points, the standard error of the estimate by the grouped jackknife.
struct PointScores {
  std::vector<double> s;
  double standard_error = 0.0;
};

PointScores point_scores(const SilhouetteInput& in, std::size_t n, const Design& design = {}) {
  PointScores out;
  if (in.L < 2 || in.L > in.m - 1) return out;  // sklearn: ValueError
  const std::size_t m = in.m, L = in.L;
  const bool sampled = m < n;
  std::vector<double> panel;
  out.s.resize(m);
  std::vector<std::size_t> cluster_of(m);
  for (std::size_t i = 0; i < m; ++i) cluster_of[i] = static_cast<std::size_t>(in.id[i]);
  if (m * L <= kSilhouetteSymmetricCells) {
    // Each pair once: the panel of a row block against the columns from the block's first row on, the pairs
    // at or below the diagonal zeroed; every distance goes to both points' sums: per row, over the runs of
    // columns of each cluster; per column, over the runs of rows of each cluster in the block. A point's sums
    // are complete once its own block is done (its row reaches every later point, earlier blocks' columns reached
    // it). The jackknife's chunk sums alike, beside them (the score's own sums are added in the same order).
    Jackknife jk = sampled ? plan_jackknife(in, design, m) : Jackknife{};
    const std::size_t chunks = jk.G > 0 ? L * jk.chunks() : 0;
    std::vector<double> sums(m * L, 0.0), chunk_sums(m * chunks, 0.0), column(m);
    for (std::size_t r0 = 0; r0 < m; r0 += kSilhouetteBlock) {
      const std::size_t rows = std::min(kSilhouetteBlock, m - r0), width = m - r0;
      distance_panel(in, r0, rows, r0, panel);
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c <= r; ++c) panel[r * width + c] = 0.0;
      add_row_sums(in.run, m, panel, rows, r0, sums.data() + r0 * L);
      add_column_sums(in.run, cluster_of, panel, r0, rows, width, column, sums.data() + r0 * L);
      if (jk.G > 0) {
        add_row_sums(jk.bounds, m, panel, rows, r0, chunk_sums.data() + r0 * chunks);
        add_column_sums(jk.bounds, jk.chunk_of, panel, r0, rows, width, column, chunk_sums.data() + r0 * chunks);
        for (std::size_t i = r0; i < r0 + rows; ++i)
          add_without_groups(in, jk, i, sums.data() + i * L, chunk_sums.data() + i * chunks);
      }
    }
    for (std::size_t i = 0; i < m; ++i) out.s[i] = silhouette_of(in, i, sums.data() + i * L);
    if (sampled) out.standard_error = jackknife_standard_error(in, jk, design, out.s, n);
  } else {
    // Many labels: every pair formed from both ends, one row block at a time, in block x L memory.
    Jackknife jk = sampled ? plan_jackknife(in, design, kSilhouetteBlock) : Jackknife{};
    const std::size_t chunks = jk.G > 0 ? L * jk.chunks() : 0;
    std::vector<double> sums(kSilhouetteBlock * L), chunk_sums(kSilhouetteBlock * chunks);
    for (std::size_t r0 = 0; r0 < m; r0 += kSilhouetteBlock) {
      const std::size_t rows = std::min(kSilhouetteBlock, m - r0);
      distance_panel(in, r0, rows, 0, panel);
      std::fill(sums.begin(), sums.end(), 0.0);
      add_row_sums(in.run, m, panel, rows, 0, sums.data());
      for (std::size_t r = 0; r < rows; ++r) out.s[r0 + r] = silhouette_of(in, r0 + r, sums.data() + r * L);
      if (jk.G > 0) {
        std::fill(chunk_sums.begin(), chunk_sums.end(), 0.0);
        add_row_sums(jk.bounds, m, panel, rows, 0, chunk_sums.data());
        for (std::size_t r = 0; r < rows; ++r)
          add_without_groups(in, jk, r0 + r, sums.data() + r * L, chunk_sums.data() + r * chunks);
      }
    }
    if (sampled) out.standard_error = jackknife_standard_error(in, jk, design, out.s, n);
  }
  return out;
}

// The mean of the s(i), added in point order: the score of the points (a subset's).
SilhouetteEstimate estimate(const PointScores& p) {
  if (p.s.empty()) return {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
  double total = 0.0;
  for (double v : p.s) total += v;
  return {total / static_cast<double>(p.s.size()), p.standard_error};
}

// Stratified sampling (silhouette.hpp): each cluster's first r_l points in `order`, r_l = min(n_l, max(floor,
// ceil(size n_l / n))), floor = max(2, min(kStratumFloor, size / L)); the estimate sum_l (n_l / n) (mean of the
// sampled s(i) of cluster l), every s(i) computed among the sampled points. Every point when that takes them all.
constexpr std::size_t kStratumFloor = 50;

SilhouetteEstimate stratified(const double* X, std::size_t n, std::size_t d, const Labels& labels,
                              const std::vector<std::size_t>& order, std::size_t size, std::size_t* points) {
  const double undefined = std::numeric_limits<double>::quiet_NaN();
  const DenseLabeling all = relabel_dense(labels);
  const std::size_t L = all.size();
  if (L < 2 || L > n - 1) return {undefined, undefined};  // sklearn: ValueError, on every point
  const std::size_t floor = std::max<std::size_t>(2, std::min(kStratumFloor, size / L));
  std::vector<std::size_t> want(L), taken(L, 0);
  std::size_t total = 0;
  for (std::size_t l = 0; l < L; ++l) {
    const auto n_l = static_cast<std::size_t>(all.counts[l]);
    want[l] = std::min(n_l, std::max(floor, (size * n_l + n - 1) / n));
    total += want[l];
  }
  if (points) *points = total;
  if (total >= n) return {silhouette_score(X, n, d, labels), 0.0};
  std::vector<std::size_t> rows;
  rows.reserve(total);
  for (std::size_t r : order) {
    const auto l = static_cast<std::size_t>(all.ids[r]);
    if (taken[l] < want[l]) {
      ++taken[l];
      rows.push_back(r);
    }
  }
  Design design;
  design.weight.resize(L);
  design.complete.resize(L);
  std::size_t sampled = 0, of = 0;
  for (std::size_t l = 0; l < L; ++l) {
    const auto n_l = static_cast<std::size_t>(all.counts[l]);
    design.weight[l] = static_cast<double>(n_l) / static_cast<double>(n);
    design.complete[l] = want[l] == n_l;
    if (!design.complete[l]) sampled += want[l], of += n_l;
  }
  design.sampled_fraction = of > 0 ? static_cast<double>(sampled) / static_cast<double>(of) : 1.0;
  // Every label is in the sample (r_l >= 1), so the sample's dense ids are the population's.
  const SilhouetteInput in = gather(X, d, labels, rows);
  const PointScores p = point_scores(in, n, design);
  if (p.s.empty()) return {undefined, undefined};
  const std::vector<double> means = cluster_means(in, p.s);
  double score = 0.0;
  for (std::size_t l = 0; l < L; ++l) score += design.weight[l] * means[l];
  return {score, p.standard_error};
}

void check_labels(std::size_t n, const Labels& labels) {
  if (labels.size() != n)
    throw std::invalid_argument("silhouette: " + std::to_string(labels.size()) + " labels for " + std::to_string(n) +
                                " points");
}

}  // namespace

double silhouette_score(const double* X, std::size_t n, std::size_t d, const Labels& labels) {
  check_labels(n, labels);
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  return estimate(point_scores(gather(X, d, labels, all), n)).score;
}

SilhouetteDistances silhouette_distances(const double* X, std::size_t n, std::size_t d) {
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  // One label for every point: gather keeps the points in their order, and distance_panel computes each entry as
  // the silhouette's pass does, whichever order a trial's labels put the points in.
  const SilhouetteInput in = gather(X, d, Labels(n, 0), all);
  SilhouetteDistances out;
  out.n = n;
  distance_panel(in, 0, n, 0, out.values);
  return out;
}

double silhouette_score(const SilhouetteDistances& distances, const Labels& labels) {
  check_labels(distances.n, labels);
  std::vector<std::size_t> all(distances.n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  // The points' coordinates are not read: gather's copies are left empty (d = 0) and the distances come from the
  // matrix.
  SilhouetteInput in = gather(nullptr, 0, labels, all);
  in.distances = &distances;
  return estimate(point_scores(in, distances.n)).score;
}

SilhouetteEstimate silhouette_estimate(const double* X, std::size_t n, std::size_t d, const Labels& labels,
                                       const std::vector<std::size_t>& rows) {
  check_labels(n, labels);
  for (std::size_t r : rows)
    if (r >= n) throw std::invalid_argument("silhouette: a sampled index is out of range");
  return estimate(point_scores(gather(X, d, labels, rows), n));
}

SilhouetteEstimate silhouette_stratified(const double* X, std::size_t n, std::size_t d, const Labels& labels,
                                         const std::vector<std::size_t>& order, std::size_t size, std::size_t* points) {
  check_labels(n, labels);
  if (order.size() != n) throw std::invalid_argument("silhouette: the order must list every point once");
  for (std::size_t r : order)
    if (r >= n) throw std::invalid_argument("silhouette: an index of the order is out of range");
  return stratified(X, n, d, labels, order, size, points);
}

double silhouette_score(const double* X, std::size_t n, std::size_t d, const Labels& labels,
                        const std::vector<std::size_t>& rows) {
  return silhouette_estimate(X, n, d, labels, rows).score;
}

std::vector<std::size_t> silhouette_order(std::size_t n, std::uint32_t seed) {
  NumpyRandomState state(seed);
  const std::vector<std::int64_t> perm = state.permutation(n);
  return std::vector<std::size_t>(perm.begin(), perm.end());
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
