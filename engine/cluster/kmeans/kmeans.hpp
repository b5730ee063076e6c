#pragma once
// k-means (Lloyd) following scikit-learn's KMeans(algorithm="lloyd", init="k-means++").
//
//   * the data are centred on their mean first and the centres shifted back at the end (as sklearn does
//     for dense input, for precision);
//   * init: sklearn's _kmeans_plusplus: first centre a uniformly random point, then for every further
//     centre n_local_trials = 2 + floor(ln k) candidates drawn with probability proportional to the
//     current closest squared distance (searchsorted on the running sum), keeping the candidate that
//     minimises the potential (sum of closest squared distances);
//   * Lloyd iterations: assign every point to its nearest centre (ties: lowest centre index), move the
//     centres to the means. Stop when the labels did not change (strict convergence), when the total
//     squared centre shift is <= tol * mean_j var(X_j) (sklearn scales tol by np.mean(np.var(X, 0))),
//     or after max_iter iterations; without strict convergence the labels are recomputed from the final
//     centres, so the returned labels are always the nearest centres;
//   * empty clusters (sklearn's _relocate_empty_clusters_dense): each empty cluster takes one of the
//     points farthest from their assigned centre (farthest first; ties to the lower index; sklearn's
//     argpartition leaves that order unspecified), which leaves its old cluster;
//   * n_init runs with the same generator in sequence; the run with the lowest inertia wins (the first
//     one on ties). sklearn >= 1.4's n_init="auto" means a single run for k-means++, hence default 1.
// Distances are direct sums of squared differences (no ||x||^2 - 2x.c + ||c||^2 cancellation); the
// assignment step may use OpenMP, per point, so results depend only on the data and the seed.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"
#include "core/method.hpp"
#include "core/rng.hpp"

namespace dpclust {

// Declared upper bounds of the restart and iteration counts (every method that runs k-means uses them),
// so that `n_init: 1e9` is refused by `dpclust validate` instead of running for ever.
inline constexpr std::int64_t kKMeansMaxInit = 10'000;
inline constexpr std::int64_t kKMeansMaxIter = 1'000'000;

struct KMeansOptions {
  std::int64_t n_init = 1;
  std::int64_t max_iter = 300;
  double tol = 1e-4;
  // Skip the distances the triangle inequality proves cannot change the result: k-means++ leaves a point
  // alone when the candidate is more than twice as far from the point's nearest centre as the point is,
  // and Lloyd's assignment step keeps Hamerly's bounds (hamerly.hpp). Both test with a margin above every
  // rounding error, so the result -- labels, centres, inertia, iterations, the generator's state -- is the
  // same, double for double, as without (tests/cluster/kmeans_pruning_test.cpp); only the work differs
  // (on well-separated clusters most distances are skipped). Used by the k-means reference run of the
  // measures (cluster/kmeans/kmeans_reference.hpp), DRBT's K-means and the k-means of EUGkM's and LSH clustering's
  // synopses (EUGkM on synth_10d at eps 0.5, a million grid cells: 29.4 -> 10.7 s a fit, the same values);
  // the `kmeans` method keeps the exhaustive search.
  bool triangle_pruning = false;
};

struct KMeansResult {
  Labels labels;            // nearest centre of every point, 0..k-1
  RowMatrix centers;        // k x d
  double inertia = 0;       // sum of squared distances to the assigned centres
  std::int64_t n_iter = 0;  // Lloyd iterations of the retained run
};

// k-means++ seeding (sklearn's greedy variant) of n x d row-major points: k x d centres.
RowMatrix kmeans_plusplus(const double* coords, std::size_t n, std::size_t d, std::size_t k, Rng& rng);

// Throws std::invalid_argument unless 1 <= k <= n, d >= 1, n_init >= 1, max_iter >= 1, tol >= 0.
//
// `weights` (n non-negative finite numbers, or nullptr for 1 each) makes it scikit-learn's
// KMeans.fit(sample_weight=w): the centring and the variance of tol are weighted, k-means++ draws with
// probability proportional to w_i times the closest squared distance (the first centre proportional to
// w_i), centres are weighted means, inertia is the weighted sum. It is what clusters a synopsis: the
// cell centres of a noisy histogram (EUGkM), the leaf averages of a private coreset (LSH clustering).
// Points of weight 0 are kept (they never become centres unless every weight is 0, which is refused).
KMeansResult kmeans(const double* coords, std::size_t n, std::size_t d, std::size_t k, const KMeansOptions& options,
                    Rng& rng, const double* weights = nullptr);
// Advances `rng` exactly as kmeans(coords, n, d, k, options, rng, weights) does, without clustering (for a
// caller that needs the generator's later words but not the clusters): k-means++ reads, for each of the n_init
// runs, rng.below(n) (with weights: one uniform) for the first centre and 2 + floor(ln k) uniforms for each
// further one, whatever the points, and Lloyd's iterations read nothing. The same checks and exceptions.
void kmeans_skip_draws(const double* coords, std::size_t n, std::size_t d, std::size_t k, const KMeansOptions& options,
                       Rng& rng, const double* weights = nullptr);
inline KMeansResult kmeans(const Dataset& data, std::size_t k, const KMeansOptions& options, Rng& rng) {
  return kmeans(data.coords.data(), data.n, data.d, k, options, rng);
}
// Independent runs on the same data, centred once: run r is kmeans() with n_init = 1 drawing from rngs[r]
// (the same result as that call; options.n_init is not used). For restarts whose every result is wanted
// (the k-means measures' reference, cluster/kmeans/kmeans_reference.hpp).
std::vector<KMeansResult> kmeans_runs(const double* coords, std::size_t n, std::size_t d, std::size_t k,
                                      const KMeansOptions& options, std::vector<Rng>& rngs,
                                      const double* weights = nullptr);

}  // namespace dpclust
