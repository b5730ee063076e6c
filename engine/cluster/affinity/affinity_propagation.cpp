// Affinity Propagation; semantics (scikit-learn's) in affinity_propagation.hpp.
#include "cluster/affinity/affinity_propagation.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace dpclust {
namespace {

// np.median of the whole matrix: the middle value, or the mean of the two middle values.
double median_of(std::vector<double> v) {
  const std::size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m), v.end());
  const double hi = v[m];
  if (v.size() % 2 == 1) return hi;
  const double lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m));
  return (lo + hi) / 2.0;  // numpy: mean of the two middle values
}

// First index of the maximum of f(0..count-1) (np.argmax).
template <class F>
std::size_t argmax(std::size_t count, F f) {
  std::size_t best = 0;
  double best_v = f(0);
  for (std::size_t j = 1; j < count; ++j) {
    const double v = f(j);
    if (v > best_v) {
      best_v = v;
      best = j;
    }
  }
  return best;
}

// std::max(v, 0.0), written as the comparison SSE's maxpd performs so that the loops vectorise:
// v < 0 gives +0, anything else (-0 included) v itself.
inline double positive_part(double v) { return v < 0.0 ? 0.0 : v; }

using RowArray = Eigen::Map<const Eigen::ArrayXd>;

// max over k in [lo, hi) of a[k] + s[k], -inf when empty. Eigen's maxCoeff (SIMD max, any order): the
// value is exact whatever the order of comparisons, except for the sign of a zero maximum.
double sum_max(const double* a, const double* s, std::size_t lo, std::size_t hi) {
  if (lo >= hi) return -std::numeric_limits<double>::infinity();
  const auto len = static_cast<Eigen::Index>(hi - lo);
  return (RowArray(a + lo, len) + RowArray(s + lo, len)).maxCoeff();
}

// The left-to-right scan of the earlier code (and of the test's transcription of sklearn): I = the
// first index of the maximum of A + S, Y = (A + S)[I], Y2 = std::max over the other entries in index
// order (of equal values the first wins). The reference for the fast path below, and its fallback.
struct RowMax {
  std::size_t index;
  double first, second;
};
RowMax row_max_sequential(const double* a, const double* s, std::size_t n) {
  RowMax out{0, a[0] + s[0], 0.0};
  for (std::size_t k = 1; k < n; ++k)
    if (a[k] + s[k] > out.first) {
      out.first = a[k] + s[k];
      out.index = k;
    }
  out.second = out.index == 0 ? -std::numeric_limits<double>::infinity() : a[0] + s[0];
  for (std::size_t k = 1; k < n; ++k)
    if (k != out.index) out.second = std::max(out.second, a[k] + s[k]);
  return out;
}

// The same I, Y and Y2 from SIMD maxima, without storing the row of A + S (each entry is recomputed,
// so the same double). A maximum is exact in any order of comparisons except for the sign of a zero
// (and for NaN, which finite similarities and messages never produce): then the sequential scan decides.
RowMax row_max_and_second(const double* a, const double* s, std::size_t n) {
  RowMax out{};
  const double top = sum_max(a, s, 0, n);
  while (out.index < n && !(a[out.index] + s[out.index] == top)) ++out.index;
  if (out.index == n || top == 0.0) return row_max_sequential(a, s, n);
  out.first = a[out.index] + s[out.index];
  out.second = std::max(sum_max(a, s, 0, out.index), sum_max(a, s, out.index + 1, n));
  if (out.second == 0.0 || std::isnan(out.second)) return row_max_sequential(a, s, n);
  return out;
}

void check_options(const AffinityOptions& o) {
  if (!(o.damping >= 0.5 && o.damping < 1.0))
    throw std::invalid_argument("affinity propagation: damping must be in [0.5, 1), got " + std::to_string(o.damping));
  if (o.max_iter < 1) throw std::invalid_argument("affinity propagation: max_iter must be >= 1");
  if (o.convergence_iter < 1) throw std::invalid_argument("affinity propagation: convergence_iter must be >= 1");
  if (o.max_iter > kAffinityMaxIter)
    throw InputError("affinity_propagation.max_iter",
                     "max_iter = " + std::to_string(o.max_iter) + " exceeds " + std::to_string(kAffinityMaxIter),
                     "set max_iter to at most 1000000 (sklearn's default is 200)");
  if (o.convergence_iter > kAffinityMaxIter)
    throw InputError(
        "affinity_propagation.convergence_iter",
        "convergence_iter = " + std::to_string(o.convergence_iter) + " exceeds " + std::to_string(kAffinityMaxIter),
        "set convergence_iter to at most 1000000 (sklearn's default is 15)");
  if (o.preference != "median" && o.preference != "minimum")
    throw std::invalid_argument("affinity propagation: preference must be 'median' or 'minimum', got '" + o.preference +
                                "'");
}

}  // namespace

namespace {

// Each row is cut at its special columns (I, where Y2 replaces Y, and the diagonal i, where Rp keeps R and
// -A_new is not clipped) so that the loops between them have one branch-free, vectorised body; the special
// entries get the same operations one at a time.
template <class Range, class Single>
void cut(std::size_t p, std::size_t q, std::size_t n, Range&& range, Single&& single) {
  if (p > q) std::swap(p, q);
  range(0, p);
  single(p);
  if (q != p) {
    range(p + 1, q);
    single(q);
  }
  range(q + 1, n);
}

// Row i of the responsibilities (Frey & Dueck eq. 1): r(i,k) = s(i,k) - max_{k' != k} (a(i,k') + s(i,k')),
// damped, and its terms of the column sums of Rp (Rp = max(R, 0) off the diagonal, R on it): added row after
// row, the order of sklearn's np.sum(tmp, axis=0) on a C-ordered array (same bits).
void responsibility_row(const double* S, std::size_t n, std::size_t i, double damp, double undamp, const double* A,
                        double* R, double* colsum) {
  const double* s = &S[i * n];
  const double* a = &A[i * n];
  double* r = &R[i * n];
  const RowMax m = row_max_and_second(a, s, n);
  const double Y = m.first, Y2 = m.second;
  cut(
      m.index, i, n,
      [&](std::size_t lo, std::size_t hi) {
        for (std::size_t k = lo; k < hi; ++k) {
          r[k] = r[k] * damp + (s[k] - Y) * undamp;
          colsum[k] += positive_part(r[k]);
        }
      },
      [&](std::size_t k) {
        r[k] = r[k] * damp + (s[k] - (k == m.index ? Y2 : Y)) * undamp;
        colsum[k] += k == i ? r[k] : positive_part(r[k]);
      });
}

// Row i of the availabilities (eq. 2-3): a(i,k) = min(0, r(k,k) + sum_{i' not in {i,k}} max(0, r(i',k))),
// a(k,k) = sum_{i' != k} max(0, r(i',k)); as sklearn: -A_new = Rp - colsum, clipped at 0 off the diagonal,
// then damped.
void availability_row(std::size_t n, std::size_t i, double damp, double undamp, const double* R, const double* colsum,
                      double* A) {
  const double* r = &R[i * n];
  double* a = &A[i * n];
  cut(
      i, i, n,
      [&](std::size_t lo, std::size_t hi) {
        for (std::size_t k = lo; k < hi; ++k)
          a[k] = a[k] * damp - positive_part(positive_part(r[k]) - colsum[k]) * undamp;
      },
      [&](std::size_t k) { a[k] = a[k] * damp - (r[k] - colsum[k]) * undamp; });
}

}  // namespace

namespace detail {

void affinity_iteration(const double* S, std::size_t n, double damping, double* A, double* R, double* colsum) {
  const double damp = damping, undamp = 1.0 - damping;
  std::fill(colsum, colsum + n, 0.0);
  for (std::size_t i = 0; i < n; ++i) responsibility_row(S, n, i, damp, undamp, A, R, colsum);
  for (std::size_t i = 0; i < n; ++i) availability_row(n, i, damp, undamp, R, colsum, A);
}

}  // namespace detail

namespace {

// sklearn's _equal_similarities_and_preferences: nothing to propagate when there is one point or every similarity is
// the same; then each point is its own exemplar (preference >= the similarities) or all share point 0. Returns
// whether res is that result.
bool equal_similarities(const std::vector<double>& S, std::size_t n, double pref, AffinityResult& res) {
  bool all_equal = true;
  const double first_off = n > 1 ? S[1] : 0.0;
  for (std::size_t i = 0; i < n && all_equal; ++i)
    for (std::size_t k = 0; k < n; ++k)
      if (i != k && S[i * n + k] != first_off) {
        all_equal = false;
        break;
      }
  if (!(n == 1 || all_equal)) return false;
  res.converged = true;
  res.labels.resize(n);
  if (pref >= S[n - 1]) {  // S.flat[n_samples - 1]: each point its own exemplar
    for (std::size_t i = 0; i < n; ++i) {
      res.labels[i] = static_cast<Label>(i);
      res.exemplars.push_back(i);
    }
  } else {
    std::fill(res.labels.begin(), res.labels.end(), Label{0});
    res.exemplars.push_back(0);
  }
  return true;
}

// The message passing until the exemplar set is unchanged over convergence_iter iterations, or max_iter: the
// exemplar flags E of the last iteration, and the iterations run (max_iter when it never converged).
struct Passing {
  std::vector<unsigned char> E;
  bool never_converged = true;
  std::int64_t iterations = 0;
};

Passing pass_messages(const std::vector<double>& S, std::size_t n, const AffinityOptions& options) {
  const auto conv = static_cast<std::size_t>(options.convergence_iter);
  std::size_t hist_size = 0;
  if (__builtin_mul_overflow(n, conv, &hist_size))
    throw InputError("affinity_propagation.convergence_iter",
                     "n * convergence_iter overflows the size of the convergence history",
                     "lower convergence_iter (sklearn's default is 15)");
  // Row-major n x n messages; the only column-wise quantity, the column sums of Rp, is accumulated row by
  // row into a vector. No n x n temporary (sklearn's tmp) and no allocation inside the loop. Iteration t's
  // availabilities need all of its responsibilities (through the column sums), but row i of iteration t + 1's
  // responsibilities needs only row i of A, R and S: so one pass over the rows updates row i's availabilities
  // (iteration t) and at once its next responsibilities (iteration t + 1), while the row is in cache: three
  // matrices read and two written per iteration instead of five and two, the same operations on the same
  // values in the same order (detail::affinity_iteration is the two-pass form the tests compare with sklearn).
  // The responsibilities one iteration ahead are not needed after the last (or the converged) iteration: only
  // E and S are read after the loop.
  const double damp = options.damping, undamp = 1.0 - options.damping;
  std::vector<double> A(n * n, 0.0), R(n * n, 0.0), colsum(n, 0.0), colsum_next(n);
  for (std::size_t i = 0; i < n; ++i)
    responsibility_row(S.data(), n, i, damp, undamp, A.data(), R.data(), colsum.data());
  std::vector<unsigned char> hist(hist_size, 0);  // e[:, it % convergence_iter]
  std::vector<unsigned char> E(n, 0);
  bool never_converged = true;
  std::int64_t it = 0;
  for (; it < options.max_iter; ++it) {
    const bool ahead = it + 1 < options.max_iter;
    std::fill(colsum_next.begin(), colsum_next.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      availability_row(n, i, damp, undamp, R.data(), colsum.data(), A.data());
      E[i] = (A[i * n + i] + R[i * n + i]) > 0 ? 1 : 0;  // this iteration's, before row i's R moves ahead
      if (ahead) responsibility_row(S.data(), n, i, damp, undamp, A.data(), R.data(), colsum_next.data());
    }
    colsum.swap(colsum_next);
    // Convergence: the exemplar set unchanged over the last convergence_iter iterations.
    std::size_t K = 0;
    const std::size_t slot = static_cast<std::size_t>(it) % conv;
    for (std::size_t k = 0; k < n; ++k) {
      hist[k * conv + slot] = E[k];
      K += E[k];
    }
    if (static_cast<std::size_t>(it) >= conv) {
      std::size_t stable = 0;
      for (std::size_t k = 0; k < n; ++k) {
        std::size_t se = 0;
        for (std::size_t c = 0; c < conv; ++c) se += hist[k * conv + c];
        stable += (se == conv || se == 0) ? 1 : 0;
      }
      if (stable == n && K > 0) {
        never_converged = false;
        break;
      }
    }
  }

  return {std::move(E), never_converged, never_converged ? options.max_iter : it + 1};
}

// The clusters from the exemplars (sklearn's final assignment): every point to its most similar exemplar, each
// exemplar refined to the member with the largest summed similarity from its cluster, then the points assigned
// again; labels renumbered by ascending exemplar index.
void assign_to_exemplars(const std::vector<double>& S, std::size_t n, std::vector<std::size_t> I, AffinityResult& res) {
  res.converged = true;
  const std::size_t K = I.size();
  auto assign = [&](std::vector<std::size_t>& c) {
    for (std::size_t i = 0; i < n; ++i) c[i] = argmax(K, [&](std::size_t j) { return S[i * n + I[j]]; });
    for (std::size_t j = 0; j < K; ++j) c[I[j]] = j;
  };
  std::vector<std::size_t> c(n);
  assign(c);
  // Refine each exemplar: the member with the largest summed similarity from the cluster's members.
  for (std::size_t k = 0; k < K; ++k) {
    std::vector<std::size_t> ii;
    for (std::size_t i = 0; i < n; ++i)
      if (c[i] == k) ii.push_back(i);
    const std::size_t j = argmax(ii.size(), [&](std::size_t col) {
      double sum = 0.0;
      for (std::size_t row : ii) sum += S[row * n + ii[col]];
      return sum;
    });
    I[k] = ii[j];
  }
  assign(c);
  // labels = I[c], renumbered by ascending exemplar index (np.unique + searchsorted).
  std::vector<std::size_t> ex(I);
  std::sort(ex.begin(), ex.end());
  ex.erase(std::unique(ex.begin(), ex.end()), ex.end());
  res.labels.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    res.labels[i] = static_cast<Label>(std::lower_bound(ex.begin(), ex.end(), I[c[i]]) - ex.begin());
  res.exemplars = std::move(ex);
}

}  // namespace

AffinityResult affinity_propagation(std::vector<double> S, std::size_t n, const AffinityOptions& options) {
  check_options(options);
  if (n > kAffinityMaxPoints)  // first: n * n below cannot overflow
    throw std::invalid_argument("affinity propagation needs O(n^2) memory: n = " + std::to_string(n) + " exceeds " +
                                std::to_string(kAffinityMaxPoints) + " points; sub-sample the dataset (sample: N)");
  if (S.size() != n * n) throw std::invalid_argument("affinity propagation: similarity matrix is not n x n");
  if (n == 0) return {};
  for (double s : S)
    if (!std::isfinite(s)) throw std::invalid_argument("affinity propagation: non-finite similarity");

  AffinityResult res;
  // The preference: np.median(S) / np.min(S) over the full matrix as given (diagonal included).
  res.preference = options.preference == "median" ? median_of(S) : *std::min_element(S.begin(), S.end());
  const double pref = res.preference;

  if (equal_similarities(S, n, pref, res)) return res;

  for (std::size_t i = 0; i < n; ++i) S[i * n + i] = pref;
  if (options.tie_noise) {
    // Remove degeneracies (sklearn): S += (eps * S + 100 * tiny) * N(0, 1), row-major draw order.
    Rng noise(options.noise_seed);
    const double eps = std::numeric_limits<double>::epsilon();
    const double tiny100 = std::numeric_limits<double>::min() * 100.0;
    for (double& s : S) s += (eps * s + tiny100) * noise.normal();
  }

  const Passing passing = pass_messages(S, n, options);
  res.n_iter = passing.iterations;
  std::vector<std::size_t> I;
  for (std::size_t k = 0; k < n; ++k)
    if (passing.E[k]) I.push_back(k);
  if (I.empty() || passing.never_converged) {
    res.converged = false;
    res.labels.assign(n, kNoise);
    return res;
  }
  assign_to_exemplars(S, n, std::move(I), res);
  return res;
}

AffinityResult affinity_propagation(const double* coords, std::size_t n, std::size_t d,
                                    const AffinityOptions& options) {
  if (n > kAffinityMaxPoints)
    throw std::invalid_argument("affinity propagation needs O(n^2) memory: n = " + std::to_string(n) + " exceeds " +
                                std::to_string(kAffinityMaxPoints) + " points; sub-sample the dataset (sample: N)");
  std::vector<double> S(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = i + 1; k < n; ++k) {
      double s = 0.0;
      for (std::size_t j = 0; j < d; ++j) {
        const double t = coords[i * d + j] - coords[k * d + j];
        s += t * t;
      }
      S[i * n + k] = S[k * n + i] = -s;
    }
  return affinity_propagation(std::move(S), n, options);
}

}  // namespace dpclust
