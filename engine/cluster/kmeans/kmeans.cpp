// k-means (Lloyd) with k-means++ seeding; semantics in kmeans.hpp.
#include "cluster/kmeans/kmeans.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace dpclust {
namespace {

constexpr std::size_t kParallelWork = std::size_t{1} << 18;  // n * k below this: no OpenMP

inline double sqdist(const double* a, const double* b, std::size_t d) {
  double s = 0.0;
  for (std::size_t j = 0; j < d; ++j) {
    const double t = a[j] - b[j];
    s += t * t;
  }
  return s;
}

// k-means++ on (already centred) data X; centres written to C (k x d).
void plusplus(const double* X, std::size_t n, std::size_t d, std::size_t k, Rng& rng, double* C) {
  const std::size_t trials = 2 + static_cast<std::size_t>(std::log(static_cast<double>(k)));
  std::vector<double> closest(n), cand(trials * n), cumsum(n), rand(trials);
  std::vector<std::size_t> ids(trials);

  const std::size_t first = static_cast<std::size_t>(rng.below(n));
  std::copy_n(X + first * d, d, C);
  double pot = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    closest[i] = sqdist(X + i * d, C, d);
    pot += closest[i];
  }
  for (std::size_t c = 1; c < k; ++c) {
    double run = 0.0;
    for (std::size_t i = 0; i < n; ++i) cumsum[i] = run += closest[i];
    for (std::size_t t = 0; t < trials; ++t) rand[t] = rng.uniform() * pot;
    for (std::size_t t = 0; t < trials; ++t) {
      // numpy searchsorted(side="left"): first index with cumsum >= value; clipped to n - 1.
      const auto it = std::lower_bound(cumsum.begin(), cumsum.end(), rand[t]);
      ids[t] = std::min<std::size_t>(static_cast<std::size_t>(it - cumsum.begin()), n - 1);
    }
    std::size_t best = 0;
    double best_pot = std::numeric_limits<double>::infinity();
    for (std::size_t t = 0; t < trials; ++t) {
      const double* y = X + ids[t] * d;
      double* dist = &cand[t * n];
      double p = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        dist[i] = std::min(closest[i], sqdist(X + i * d, y, d));
        p += dist[i];
      }
      if (p < best_pot) {
        best_pot = p;
        best = t;
      }
    }
    pot = best_pot;
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

// One Lloyd run from the centres in `centers` (k x d, centred coordinates).
Run lloyd(const double* X, std::size_t n, std::size_t d, std::size_t k, RowMatrix centers, std::int64_t max_iter,
          double tol) {
  RowMatrix next(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
  Labels labels(n), labels_old(n, kNoise);
  std::vector<double> dist(n), counts(k);
  std::vector<std::size_t> order;
  std::vector<std::size_t> empty;
  bool strict = false;
  std::int64_t it = 0;
  for (; it < max_iter; ++it) {
    assign(X, n, d, centers.data(), k, labels.data(), dist.data());
    // New centres: sums, then empty-cluster relocation, then means.
    next.setZero();
    std::fill(counts.begin(), counts.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto l = static_cast<std::size_t>(labels[i]);
      double* s = next.data() + l * d;
      const double* x = X + i * d;
      for (std::size_t j = 0; j < d; ++j) s[j] += x[j];
      counts[l] += 1.0;
    }
    empty.clear();
    for (std::size_t c = 0; c < k; ++c)
      if (counts[c] == 0.0) empty.push_back(c);
    if (!empty.empty()) {
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
        for (std::size_t j = 0; j < d; ++j) {
          next(static_cast<Eigen::Index>(from), static_cast<Eigen::Index>(j)) -= x[j];
          next(static_cast<Eigen::Index>(to), static_cast<Eigen::Index>(j)) = x[j];
        }
        counts[from] -= 1.0;
        counts[to] = 1.0;
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
  if (!strict) assign(X, n, d, centers.data(), k, labels.data(), dist.data());
  double inertia = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    inertia += sqdist(X + i * d, centers.data() + static_cast<std::size_t>(labels[i]) * d, d);
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
  plusplus(coords, n, d, k, rng, C.data());
  return C;
}

KMeansResult kmeans(const double* coords, std::size_t n, std::size_t d, std::size_t k, const KMeansOptions& options,
                    Rng& rng) {
  check(n, d, k);
  if (options.n_init < 1) throw std::invalid_argument("kmeans: n_init must be >= 1");
  if (options.max_iter < 1) throw std::invalid_argument("kmeans: max_iter must be >= 1");
  if (!(options.tol >= 0)) throw std::invalid_argument("kmeans: tol must be >= 0");
  for (std::size_t i = 0; i < n * d; ++i)
    if (!std::isfinite(coords[i])) throw std::invalid_argument("kmeans: a coordinate is not a finite number");

  const auto ni = static_cast<Eigen::Index>(n), di = static_cast<Eigen::Index>(d);
  Eigen::Map<const RowMatrix> Xm(coords, ni, di);
  const Eigen::RowVectorXd mean = Xm.colwise().mean();
  const RowMatrix X = Xm.rowwise() - mean;
  // sklearn: tol * np.mean(np.var(X, axis=0)), population variances.
  const double tol = options.tol * (X.colwise().squaredNorm() / static_cast<double>(n)).mean();

  Run best;
  bool have = false;
  for (std::int64_t r = 0; r < options.n_init; ++r) {
    RowMatrix C(static_cast<Eigen::Index>(k), di);
    plusplus(X.data(), n, d, k, rng, C.data());
    Run run = lloyd(X.data(), n, d, k, std::move(C), options.max_iter, tol);
    if (!have || run.inertia < best.inertia) {
      best = std::move(run);
      have = true;
    }
  }
  KMeansResult res;
  res.labels = std::move(best.labels);
  res.centers = best.centers.rowwise() + mean;
  res.inertia = best.inertia;
  res.n_iter = best.n_iter;
  return res;
}

}  // namespace dpclust
