// k-means (Lloyd) with k-means++ seeding; semantics in kmeans.hpp.
#include "cluster/kmeans/kmeans.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "cluster/kmeans/hamerly.hpp"
#include "cluster/kmeans/plusplus_candidates.hpp"
#include "cluster/kmeans/squared_distance.hpp"

namespace dpclust {
namespace {

constexpr std::size_t kParallelWork = std::size_t{1} << 18;  // n * k below this: no OpenMP
constexpr std::size_t kPrunedSeedingMinDim = 16;             // measured: bench/bench_measures.cpp BM_KMeansRestart

inline double sqdist(const double* a, const double* b, std::size_t d) {
  return kmeans_detail::squared_distance(a, b, d);
}

// The first index whose running sum reaches `value` (numpy searchsorted(side="left")), clipped to n - 1.
std::size_t search_sorted(const std::vector<double>& cumsum, double value) {
  const auto it = std::lower_bound(cumsum.begin(), cumsum.end(), value);
  return std::min<std::size_t>(static_cast<std::size_t>(it - cumsum.begin()), cumsum.size() - 1);
}

// The largest distance of a point from the origin: S of the pruning margins (hamerly.hpp). Every centre
// k-means places is a data point or a (weighted) mean of data points, so no distance exceeds 2 S.
double radius_of(const double* X, std::size_t n, std::size_t d) {
  double r2 = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (std::size_t j = 0; j < d; ++j) s += X[i * d + j] * X[i * d + j];
    r2 = std::max(r2, s);
  }
  return std::sqrt(r2);
}

// k-means++ on (already centred) data X; centres written to C (k x d). W: the sample weights or nullptr
// (scikit-learn's _kmeans_plusplus with sample_weight: the first centre drawn proportional to w, the
// potential and the draws weighted by w).
//
// prune (KMeansOptions::triangle_pruning): the candidates' distances through PlusPlusCandidates (exact
// skips, plusplus_candidates.hpp): the candidates' potentials, the draws and the centres are the same
// doubles as without.
void plusplus(const double* X, std::size_t n, std::size_t d, std::size_t k, Rng& rng, double* C, const double* W,
              bool prune = false, double scale = 0.0) {
  const std::size_t trials = 2 + static_cast<std::size_t>(std::log(static_cast<double>(k)));
  std::vector<double> closest(n), cand(trials * n), cumsum(n), rand(trials);
  std::vector<std::size_t> ids(trials);
  // Below kPrunedSeedingMinDim coordinates a squared distance costs less than the skips' own tests.
  std::unique_ptr<PlusPlusCandidates> pruned;
  if (prune && d >= kPrunedSeedingMinDim) pruned = std::make_unique<PlusPlusCandidates>(X, n, d, scale);

  std::size_t first = 0;
  if (W == nullptr) {
    first = static_cast<std::size_t>(rng.below(n));
  } else {
    double run = 0.0;
    for (std::size_t i = 0; i < n; ++i) cumsum[i] = run += W[i];
    first = search_sorted(cumsum, rng.uniform() * run);
  }
  const auto w = [W](std::size_t i) { return W == nullptr ? 1.0 : W[i]; };
  std::copy_n(X + first * d, d, C);
  double pot = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    closest[i] = sqdist(X + i * d, C, d);
    pot += w(i) * closest[i];
  }
  if (pruned) pruned->start(first, closest);
  for (std::size_t c = 1; c < k; ++c) {
    double run = 0.0;
    for (std::size_t i = 0; i < n; ++i) cumsum[i] = run += w(i) * closest[i];
    for (std::size_t t = 0; t < trials; ++t) rand[t] = rng.uniform() * pot;
    for (std::size_t t = 0; t < trials; ++t) ids[t] = search_sorted(cumsum, rand[t]);
    std::size_t best = 0;
    double best_pot = std::numeric_limits<double>::infinity();
    if (pruned) pruned->evaluate(C, c, ids, closest, cand.data());
    for (std::size_t t = 0; t < trials; ++t) {
      const double* y = X + ids[t] * d;
      double* dist = &cand[t * n];
      double p = 0.0;
      if (pruned) {
        for (std::size_t i = 0; i < n; ++i) p += w(i) * dist[i];  // in index order, as below
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          dist[i] = std::min(closest[i], sqdist(X + i * d, y, d));
          p += w(i) * dist[i];
        }
      }
      if (p < best_pot) {
        best_pot = p;
        best = t;
      }
    }
    pot = best_pot;
    if (pruned) pruned->accept(c, &cand[best * n], closest);
    std::copy_n(&cand[best * n], n, closest.begin());
    std::copy_n(X + ids[best] * d, d, C + c * d);
  }
}

// Nearest centre of every point (ties: lowest index) and its squared distance.
void assign(const double* X, std::size_t n, std::size_t d, const double* C, std::size_t k, Label* labels,
            double* dist) {
  const auto np = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static) if (n * k >= kParallelWork)
  for (std::ptrdiff_t si = 0; si < np; ++si) {
    const auto i = static_cast<std::size_t>(si);
    const double* x = X + i * d;
    double best = sqdist(x, C, d);
    std::size_t arg = 0;
    for (std::size_t c = 1; c < k; ++c) {
      const double s = sqdist(x, C + c * d, d);
      if (s < best) {
        best = s;
        arg = c;
      }
    }
    labels[i] = static_cast<Label>(arg);
    dist[i] = best;
  }
}

struct Run {
  Labels labels;
  RowMatrix centers;
  double inertia = 0;
  std::int64_t n_iter = 0;
};

// One Lloyd run from the centres in `centers` (k x d, centred coordinates); W: weights or nullptr.
// prune: the assignment step through Hamerly's bounds (hamerly.hpp), same labels; the squared distances
// the empty-cluster relocation reads are then computed when a cluster is empty, by the same function.
Run lloyd(const double* X, std::size_t n, std::size_t d, std::size_t k, RowMatrix centers, std::int64_t max_iter,
          double tol, const double* W, bool prune = false, double scale = 0.0) {
  const auto w = [W](std::size_t i) { return W == nullptr ? 1.0 : W[i]; };
  RowMatrix next(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
  Labels labels(n), labels_old(n, kNoise);
  std::vector<double> dist(n), counts(k);
  std::vector<std::size_t> order;
  std::vector<std::size_t> empty;
  bool strict = false;
  std::unique_ptr<HamerlyAssignment> bounds;
  if (prune) bounds = std::make_unique<HamerlyAssignment>(X, n, d, k, scale);
  const auto assign_step = [&] {
    if (bounds) bounds->assign(centers.data(), labels.data());
    else assign(X, n, d, centers.data(), k, labels.data(), dist.data());
  };
  std::int64_t it = 0;
  for (; it < max_iter; ++it) {
    assign_step();
    // New centres: sums, then empty-cluster relocation, then means.
    next.setZero();
    std::fill(counts.begin(), counts.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto l = static_cast<std::size_t>(labels[i]);
      double* s = next.data() + l * d;
      const double* x = X + i * d;
      if (W == nullptr) {
        for (std::size_t j = 0; j < d; ++j) s[j] += x[j];
      } else {
        for (std::size_t j = 0; j < d; ++j) s[j] += x[j] * W[i];
      }
      counts[l] += w(i);
    }
    empty.clear();
    for (std::size_t c = 0; c < k; ++c)
      if (counts[c] == 0.0) empty.push_back(c);
    if (!empty.empty()) {
      if (bounds)
        for (std::size_t i = 0; i < n; ++i)
          dist[i] = sqdist(X + i * d, centers.data() + static_cast<std::size_t>(labels[i]) * d, d);
      order.resize(n);
      std::iota(order.begin(), order.end(), std::size_t{0});
      const auto m = static_cast<std::ptrdiff_t>(std::min(empty.size(), n));
      std::partial_sort(order.begin(), order.begin() + m, order.end(), [&](std::size_t a, std::size_t b) {
        return dist[a] > dist[b] || (dist[a] == dist[b] && a < b);
      });
      for (std::size_t e = 0; e < static_cast<std::size_t>(m); ++e) {
        const std::size_t far = order[e], to = empty[e];
        const auto from = static_cast<std::size_t>(labels[far]);
        const double* x = X + far * d;
        const double wf = w(far);
        for (std::size_t j = 0; j < d; ++j) {
          const double v = W == nullptr ? x[j] : x[j] * wf;
          next(static_cast<Eigen::Index>(from), static_cast<Eigen::Index>(j)) -= v;
          next(static_cast<Eigen::Index>(to), static_cast<Eigen::Index>(j)) = v;
        }
        counts[from] -= wf;
        counts[to] = wf;
      }
    }
    for (std::size_t c = 0; c < k; ++c)
      if (counts[c] > 0.0) next.row(static_cast<Eigen::Index>(c)) *= 1.0 / counts[c];  // else sklearn keeps the sum
    double shift = 0.0;
    for (std::size_t c = 0; c < k; ++c) shift += sqdist(next.data() + c * d, centers.data() + c * d, d);
    centers.swap(next);
    if (labels == labels_old) {
      strict = true;
      break;
    }
    if (shift <= tol) break;
    labels_old = labels;
  }
  Run r;
  r.n_iter = std::min(it + 1, max_iter);
  if (!strict) assign_step();
  double inertia = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    inertia += w(i) * sqdist(X + i * d, centers.data() + static_cast<std::size_t>(labels[i]) * d, d);
  r.labels = std::move(labels);
  r.centers = std::move(centers);
  r.inertia = inertia;
  return r;
}

void check(std::size_t n, std::size_t d, std::size_t k) {
  if (d == 0) throw std::invalid_argument("kmeans: points have no coordinates (d = 0)");
  if (k < 1 || k > n)
    throw std::invalid_argument("kmeans: k = " + std::to_string(k) + " must be between 1 and the number of points (" +
                                std::to_string(n) + ")");
}

}  // namespace

RowMatrix kmeans_plusplus(const double* coords, std::size_t n, std::size_t d, std::size_t k, Rng& rng) {
  check(n, d, k);
  RowMatrix C(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
  plusplus(coords, n, d, k, rng, C.data(), nullptr);
  return C;
}

namespace {

// What every run on the same data shares: the checked, centred data, the scaled tolerance, S.
struct Prepared {
  RowMatrix X;
  Eigen::RowVectorXd mean;
  double tol = 0;
  double scale = 0;
};

void check_inputs(const double* coords, std::size_t n, std::size_t d, std::size_t k, const KMeansOptions& options,
                  const double* weights) {
  check(n, d, k);
  if (options.n_init < 1) throw std::invalid_argument("kmeans: n_init must be >= 1");
  if (options.max_iter < 1) throw std::invalid_argument("kmeans: max_iter must be >= 1");
  if (!(options.tol >= 0)) throw std::invalid_argument("kmeans: tol must be >= 0");
  for (std::size_t i = 0; i < n * d; ++i)
    if (!std::isfinite(coords[i])) throw std::invalid_argument("kmeans: a coordinate is not a finite number");
  if (weights != nullptr) {
    double total = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!(weights[i] >= 0.0) || !std::isfinite(weights[i]))
        throw std::invalid_argument("kmeans: a sample weight is negative or not a finite number");
      total += weights[i];
    }
    if (!(total > 0.0)) throw std::invalid_argument("kmeans: every sample weight is 0");
  }
}

Prepared prepare(const double* coords, std::size_t n, std::size_t d, std::size_t k, const KMeansOptions& options,
                 const double* weights) {
  check_inputs(coords, n, d, k, options, weights);
  Prepared p;
  const auto ni = static_cast<Eigen::Index>(n), di = static_cast<Eigen::Index>(d);
  Eigen::Map<const RowMatrix> Xm(coords, ni, di);
  if (weights == nullptr) {
    p.mean = Xm.colwise().mean();
  } else {  // sklearn: np.average(X, axis=0, weights=sample_weight)
    Eigen::Map<const Eigen::VectorXd> Wm(weights, ni);
    p.mean = (Wm.transpose() * Xm) / Wm.sum();
  }
  p.X = Xm.rowwise() - p.mean;
  // sklearn: tol * np.mean(np.var(X, axis=0)), population variances, unweighted even with sample weights.
  if (weights == nullptr) {
    p.tol = options.tol * (p.X.colwise().squaredNorm() / static_cast<double>(n)).mean();
  } else {
    const Eigen::RowVectorXd unweighted_mean = Xm.colwise().mean();
    p.tol = options.tol * ((Xm.rowwise() - unweighted_mean).colwise().squaredNorm() / static_cast<double>(n)).mean();
  }
  p.scale = options.triangle_pruning ? radius_of(p.X.data(), n, d) : 0.0;
  return p;
}

// One k-means++ seeding and its Lloyd run.
Run one_run(const Prepared& p, std::size_t n, std::size_t d, std::size_t k, const KMeansOptions& options, Rng& rng,
            const double* weights) {
  RowMatrix C(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
  plusplus(p.X.data(), n, d, k, rng, C.data(), weights, options.triangle_pruning, p.scale);
  return lloyd(p.X.data(), n, d, k, std::move(C), options.max_iter, p.tol, weights, options.triangle_pruning, p.scale);
}

KMeansResult result_of(Run run, const Prepared& p) {
  KMeansResult res;
  res.labels = std::move(run.labels);
  res.centers = run.centers.rowwise() + p.mean;
  res.inertia = run.inertia;
  res.n_iter = run.n_iter;
  return res;
}

}  // namespace

void kmeans_skip_draws(const double* coords, std::size_t n, std::size_t d, std::size_t k, const KMeansOptions& options,
                       Rng& rng, const double* weights) {
  check_inputs(coords, n, d, k, options, weights);
  // plusplus: the first centre (below(n), or one uniform with weights), then `trials` uniforms per further
  // centre; lloyd draws nothing.
  const std::size_t trials = 2 + static_cast<std::size_t>(std::log(static_cast<double>(k)));
  for (std::int64_t r = 0; r < options.n_init; ++r) {
    if (weights == nullptr) (void)rng.below(n);
    else (void)rng.uniform();
    rng.discard(static_cast<std::uint64_t>((k - 1) * trials));
  }
}

KMeansResult kmeans(const double* coords, std::size_t n, std::size_t d, std::size_t k, const KMeansOptions& options,
                    Rng& rng, const double* weights) {
  const Prepared p = prepare(coords, n, d, k, options, weights);
  Run best;
  bool have = false;
  for (std::int64_t r = 0; r < options.n_init; ++r) {
    Run run = one_run(p, n, d, k, options, rng, weights);
    if (!have || run.inertia < best.inertia) {
      best = std::move(run);
      have = true;
    }
  }
  return result_of(std::move(best), p);
}

std::vector<KMeansResult> kmeans_runs(const double* coords, std::size_t n, std::size_t d, std::size_t k,
                                      const KMeansOptions& options, std::vector<Rng>& rngs, const double* weights) {
  const Prepared p = prepare(coords, n, d, k, options, weights);
  std::vector<KMeansResult> out;
  for (Rng& rng : rngs) out.push_back(result_of(one_run(p, n, d, k, options, rng, weights), p));
  return out;
}

}  // namespace dpclust
