#pragma once
// Affinity Propagation (Frey & Dueck, Science 2007) with scikit-learn's semantics
// (sklearn.cluster.affinity_propagation, 1.0 - 1.3), the building block the nD-Laplace thesis clusters
// with (thesis Sec. 2.2.1 and Table 5.2: preference = median similarity, damping 0.5).
//
//   * similarity: s(i, k) = -||x_i - x_k||^2 (sklearn's affinity="euclidean"), diagonal 0 before the
//     preference is placed on it;
//   * preference: by default the median of the whole n x n similarity matrix, its n zero diagonal
//     entries included (np.median(S), the mean of the two middle values for an even count), which is
//     what "median of all similarities" means in sklearn; "minimum" gives fewer clusters;
//   * degenerate input (n == 1, or all off-diagonal similarities equal and all preferences equal):
//     no message passing; every point is its own exemplar when the preference is >= the similarity,
//     otherwise one cluster (sklearn's _equal_similarities_and_preferences branch);
//   * tie breaking: sklearn adds (eps * S + 100 * tiny) * N(0, 1) noise to S with random_state = 0;
//     here the noise comes from dpclust::Rng(noise_seed) (default 0), so the result is a fixed function
//     of the data as in sklearn, but the noise values differ from numpy's (they only break exact ties);
//   * updates: responsibilities and availabilities, each damped as
//     new = damping * old + (1 - damping) * update, in sklearn's order of floating-point operations;
//   * convergence: a point is an exemplar when a(k,k) + r(k,k) > 0; the run stops once the exemplar set
//     has not changed for convergence_iter iterations (and is non-empty), after at least
//     convergence_iter + 1 iterations; without convergence within max_iter every label is -1 and there
//     are no exemplars (sklearn >= 0.23);
//   * final assignment: each point joins its most similar exemplar; every cluster's exemplar is then
//     refined to the member maximising the summed similarity to the other members, points re-assigned,
//     and labels renumbered 0..K-1 in ascending order of exemplar index.
// Memory is O(n^2) (three n x n matrices), time O(n^2) per iteration; single-threaded, so the result
// never depends on the thread count.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/method.hpp"

namespace dpclust {

struct AffinityOptions {
  double damping = 0.5;  // in [0.5, 1)
  std::int64_t max_iter = 200;
  std::int64_t convergence_iter = 15;
  std::string preference = "median";  // median | minimum (of the similarity matrix)
  bool tie_noise = true;              // sklearn's degeneracy-removing noise
  std::uint64_t noise_seed = 0;       // sklearn's random_state = 0
};

struct AffinityResult {
  Labels labels;                       // 0..K-1, or all -1 when the run did not converge
  std::vector<std::size_t> exemplars;  // cluster_centers_indices_, ascending
  std::int64_t n_iter = 0;             // iterations run (sklearn's n_iter_)
  bool converged = false;
  double preference = 0;  // the preference used
};

// Largest n accepted (three n x n double matrices: ~1 GB at this size).
inline constexpr std::size_t kAffinityMaxPoints = 6000;

// Largest max_iter / convergence_iter accepted: the run keeps an n x convergence_iter history of the
// exemplar set, so an unbounded value would overflow the size (or exhaust memory).
inline constexpr std::int64_t kAffinityMaxIter = 1'000'000;

// On a dense row-major n x n similarity matrix (diagonal ignored: the preference replaces it).
// Throws dpclust::InputError for max_iter / convergence_iter outside [1, kAffinityMaxIter] and
// std::invalid_argument for other bad options, a non-square/non-finite matrix or n > kAffinityMaxPoints.
AffinityResult affinity_propagation(std::vector<double> similarity, std::size_t n, const AffinityOptions& options);
// On n x d row-major points with s(i, k) = -||x_i - x_k||^2.
AffinityResult affinity_propagation(const double* coords, std::size_t n, std::size_t d, const AffinityOptions& options);

namespace detail {
// One iteration of the message passing on row-major n x n matrices (S with the preference on its
// diagonal and the tie noise added): R, then A, updated in place with sklearn's operations in sklearn's
// order. colsum (n) is scratch. Exposed for the test that compares it bit for bit with a transcription
// of sklearn's numpy statements.
void affinity_iteration(const double* S, std::size_t n, double damping, double* A, double* R, double* colsum);
}  // namespace detail

}  // namespace dpclust
