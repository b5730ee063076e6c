// The non-private k-means++ reference of the k-means measures; see kmeans_reference.hpp.
#include "cluster/kmeans/kmeans_reference.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "cluster/kmeans/kmeans.hpp"
#include "core/rng.hpp"

namespace dpclust {

std::uint64_t coordinates_fingerprint(const double* X, std::size_t n, std::size_t d) {
  std::uint64_t h = splitmix64(fnv1a64("coordinates") ^ splitmix64(n) ^ splitmix64(splitmix64(d)));
  for (std::size_t i = 0; i < n * d; ++i) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, X + i, sizeof bits);
    h = splitmix64(h ^ bits);
  }
  return h;
}

std::uint64_t reference_seed(std::uint64_t fingerprint, std::size_t k) {
  return splitmix64(splitmix64(fingerprint ^ fnv1a64("kmeans_reference")) ^ k);
}

KMeansReference kmeans_reference(const double* X, std::size_t n, std::size_t d, std::size_t k, std::uint64_t seed,
                                 std::int64_t restarts) {
  if (k < 1 || k > n)
    throw std::invalid_argument("kmeans reference: k = " + std::to_string(k) +
                                " must be between 1 and the number of points (" + std::to_string(n) + ")");
  if (restarts < 1) throw std::invalid_argument("kmeans reference: restarts must be >= 1");
  KMeansOptions options;  // scikit-learn's defaults: one k-means++ seeding per run, max_iter 300, tol 1e-4
  options.triangle_pruning = true;
  KMeansReference ref;
  ref.k = k;
  ref.seed = seed;
  // Restarts in sequence on one centred copy of the data, each parallel inside (its assignment steps).
  std::vector<Rng> rngs;
  for (std::int64_t r = 0; r < restarts; ++r) rngs.emplace_back(splitmix64(seed + static_cast<std::uint64_t>(r)));
  for (KMeansResult& run : kmeans_runs(X, n, d, k, options, rngs)) {
    if (ref.costs.empty() || run.inertia < ref.costs[ref.best]) {
      ref.best = ref.costs.size();
      ref.best_labels = std::move(run.labels);
      ref.best_iterations = run.n_iter;
    }
    ref.costs.push_back(run.inertia);
    ref.centres.push_back(std::move(run.centers));
  }
  return ref;
}

}  // namespace dpclust
