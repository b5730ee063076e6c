#include "metrics/clustering_scores.hpp"

#include <math.h>  // lgamma_r (glibc, BSD libc): the re-entrant lgamma, which does not write signgam
#include <algorithm>
#include <cmath>
#include <limits>

namespace dpclust {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// The EMI sum skips hypergeometric tail terms whose log-probability is below a threshold chosen so that
// everything skipped adds up to less than this (absolute, in nats). See expected_mutual_information.
constexpr double kEmiSkippedMassBound = 1e-24;

double to_double(std::int64_t v) { return static_cast<double>(v); }

// log Gamma(x) for x > 0, without touching the global signgam where the re-entrant form exists.
double log_gamma(double x) {
#if defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__)
  int sign = 0;
  return ::lgamma_r(x, &sign);
#else
  return std::lgamma(x);
#endif
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// Pair counting and ARI

PairConfusion pair_confusion_matrix(const ContingencyTable& t) {
  // Same identities as scikit-learn: with S = sum n_ij^2, tp = S - n, fp = sum_j b_j^2 - S,
  // fn = sum_i a_i^2 - S, tn = n^2 - fp - fn - S. All fit int64 for n < 2^31.
  std::int64_t sum_squares = 0;
  for (const auto& c : t.cells) sum_squares += c.count * c.count;
  std::int64_t sum_a2 = 0, sum_b2 = 0;
  for (std::int64_t a : t.row_sums) sum_a2 += a * a;
  for (std::int64_t b : t.col_sums) sum_b2 += b * b;
  PairConfusion pc;
  pc.tp = sum_squares - t.n;
  pc.fp = sum_b2 - sum_squares;
  pc.fn = sum_a2 - sum_squares;
  pc.tn = t.n * t.n - pc.fp - pc.fn - sum_squares;
  return pc;
}

PairConfusion pair_confusion_matrix(const Labels& truth, const Labels& pred) {
  return pair_confusion_matrix(contingency_table(truth, pred));
}

double adjusted_rand_score(const ContingencyTable& t) {
  const PairConfusion pc = pair_confusion_matrix(t);
  if (pc.fn == 0 && pc.fp == 0) return 1.0;  // full agreement (and both labelings one cluster)
  __extension__ typedef __int128 I128;       // GCC/Clang 128-bit integer (__extension__: no -Wpedantic note)
  const I128 tp = pc.tp, tn = pc.tn, fp = pc.fp, fn = pc.fn;
  const I128 numerator = tp * tn - fn * fp;                                // |.| < n^4 < 2^124
  const I128 denominator = (tp + fn) * (fn + tn) + (tp + fp) * (fp + tn);  // > 0 here
  // scikit-learn evaluates 2.0 * int / int in Python: each integer rounded once to double, then
  // multiplied and divided in double. The same operations give the same bits.
  return 2.0 * static_cast<double>(numerator) / static_cast<double>(denominator);
}

double adjusted_rand_score(const Labels& truth, const Labels& pred) {
  return adjusted_rand_score(contingency_table(truth, pred));
}

// ---------------------------------------------------------------------------------------------------
// Information-theoretic scores

double mutual_info_score(const ContingencyTable& t) {
  if (t.rows() == 1 || t.cols() == 1) return 0.0;
  const double n = to_double(t.n);
  const double log_n = std::log(n);
  double mi = 0.0;
  for (const auto& c : t.cells) {
    const double nij = to_double(c.count);
    const double p = nij / n;
    const double outer =
        to_double(t.row_sums[static_cast<std::size_t>(c.row)] * t.col_sums[static_cast<std::size_t>(c.col)]);
    const double log_outer = -std::log(outer) + log_n + log_n;
    double term = p * (std::log(nij) - log_n) + p * log_outer;
    if (std::abs(term) < kEps) term = 0.0;
    mi += term;
  }
  return std::max(mi, 0.0);
}

double mutual_info_score(const Labels& truth, const Labels& pred) {
  return mutual_info_score(contingency_table(truth, pred));
}

double entropy_of_counts(const std::vector<std::int64_t>& counts) {
  std::size_t nonzero = 0;
  double total = 0.0;
  for (std::int64_t c : counts) {
    if (c <= 0) continue;
    ++nonzero;
    total += to_double(c);
  }
  if (nonzero == 0) return 1.0;  // scikit-learn: entropy([]) == 1.0
  if (nonzero == 1) return 0.0;
  const double log_total = std::log(total);
  double h = 0.0;
  for (std::int64_t c : counts) {
    if (c <= 0) continue;
    const double pc = to_double(c);
    h += (pc / total) * (std::log(pc) - log_total);
  }
  return -h;
}

double entropy(const Labels& labels) {
  if (labels.empty()) return 1.0;
  return entropy_of_counts(relabel_dense(labels).counts);
}

double normalized_mutual_info_score(const ContingencyTable& t) {
  if (t.rows() == 1 && t.cols() == 1) return 1.0;  // neither labeling splits the data: perfect match
  const double mi = mutual_info_score(t);
  if (mi == 0.0) return 0.0;
  const double normalizer = (entropy_of_counts(t.row_sums) + entropy_of_counts(t.col_sums)) / 2.0;
  return mi / normalizer;
}

double normalized_mutual_info_score(const Labels& truth, const Labels& pred) {
  return normalized_mutual_info_score(contingency_table(truth, pred));
}

namespace {

// The per-n_ij quantities of scikit-learn's EMI (term1 = n_ij / N, log(N n_ij) = log N + log n_ij,
// gln_Nnij = log n_ij! + log N!) and log k!, either tabulated once or computed on demand. Both give
// the same values (the tables hold the very same expressions), so the choice affects speed only.
class TabulatedTerms {
 public:
  TabulatedTerms(std::int64_t n, std::int64_t max_a, std::int64_t max_b) : n_(n) {
    const std::int64_t max_ab = std::max(max_a, max_b);
    // log k! over the two ranges the sum reads: k in [0, max_ab] (n_ij, a_i - n_ij, b_j - n_ij, a_i,
    // b_j) and k in [high0, N] (N - a_i - b_j + n_ij, N - a_i, N - b_j, N).
    lf_low_.resize(static_cast<std::size_t>(max_ab + 1));
    for (std::size_t k = 0; k < lf_low_.size(); ++k) lf_low_[k] = log_gamma(static_cast<double>(k) + 1.0);
    high0_ = std::max<std::int64_t>(0, n - max_a - max_b);
    lf_high_.resize(static_cast<std::size_t>(n - high0_ + 1));
    for (std::size_t k = 0; k < lf_high_.size(); ++k) {
      const std::int64_t v = high0_ + static_cast<std::int64_t>(k);
      lf_high_[k] = v <= max_ab ? lf_low_[static_cast<std::size_t>(v)] : log_gamma(to_double(v) + 1.0);
    }
    const double n_d = to_double(n), log_n = std::log(n_d), lf_n = lf_high(n);
    term1_.resize(lf_low_.size());
    log_nnij_.resize(lf_low_.size());
    gln_nnij_.resize(lf_low_.size());
    for (std::size_t k = 1; k < lf_low_.size(); ++k) {
      const double nij = static_cast<double>(k);
      term1_[k] = nij / n_d;
      log_nnij_[k] = log_n + std::log(nij);
      gln_nnij_[k] = lf_low_[k] + lf_n;
    }
  }
  // Table sizes for a given table shape, to weigh against the number of terms the sum will visit.
  static double entries(std::int64_t n, std::int64_t max_a, std::int64_t max_b) {
    const std::int64_t low = std::max(max_a, max_b) + 1;
    const std::int64_t high = n - std::max<std::int64_t>(0, n - max_a - max_b) + 1;
    return 4.0 * to_double(low) + to_double(high);
  }
  double lf_low(std::int64_t k) const { return lf_low_[static_cast<std::size_t>(k)]; }
  double lf_high(std::int64_t k) const { return lf_high_[static_cast<std::size_t>(k - high0_)]; }
  double term1(std::int64_t k) const { return term1_[static_cast<std::size_t>(k)]; }
  double log_nnij(std::int64_t k) const { return log_nnij_[static_cast<std::size_t>(k)]; }
  double gln_nnij(std::int64_t k) const { return gln_nnij_[static_cast<std::size_t>(k)]; }
  std::int64_t n() const { return n_; }

 private:
  std::int64_t n_, high0_ = 0;
  std::vector<double> lf_low_, lf_high_, term1_, log_nnij_, gln_nnij_;
};

class DirectTerms {
 public:
  explicit DirectTerms(std::int64_t n)
      : n_(n), n_d_(to_double(n)), log_n_(std::log(n_d_)), lf_n_(log_gamma(n_d_ + 1.0)) {}
  double lf_low(std::int64_t k) const { return log_gamma(to_double(k) + 1.0); }
  double lf_high(std::int64_t k) const { return log_gamma(to_double(k) + 1.0); }
  double term1(std::int64_t k) const { return to_double(k) / n_d_; }
  double log_nnij(std::int64_t k) const { return log_n_ + std::log(to_double(k)); }
  double gln_nnij(std::int64_t k) const { return lf_low(k) + lf_n_; }
  std::int64_t n() const { return n_; }

 private:
  std::int64_t n_;
  double n_d_, log_n_, lf_n_;
};

template <class Terms>
double emi_sum(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b, const Terms& terms,
               double threshold) {
  const std::int64_t n = terms.n();
  std::vector<double> log_a(a.size()), gln_a(a.size()), gln_na(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    log_a[i] = std::log(to_double(a[i]));
    gln_a[i] = terms.lf_low(a[i]);
    gln_na[i] = terms.lf_high(n - a[i]);
  }
  std::vector<double> log_b(b.size()), gln_b(b.size()), gln_nb(b.size());
  for (std::size_t j = 0; j < b.size(); ++j) {
    log_b[j] = std::log(to_double(b[j]));
    gln_b[j] = terms.lf_low(b[j]);
    gln_nb[j] = terms.lf_high(n - b[j]);
  }

  double emi = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::int64_t ai = a[i];
    for (std::size_t j = 0; j < b.size(); ++j) {
      const std::int64_t bj = b[j];
      // log P(n_ij) under the hypergeometric model, in scikit-learn's order of operations.
      auto gln = [&](std::int64_t nij) {
        return gln_a[i] + gln_b[j] + gln_na[i] + gln_nb[j] - terms.gln_nnij(nij) - terms.lf_low(ai - nij) -
               terms.lf_low(bj - nij) - terms.lf_high(n - ai - bj + nij);
      };
      std::int64_t lo = std::max<std::int64_t>(1, ai - n + bj);
      std::int64_t hi = std::min(ai, bj);
      if (hi - lo > 16) {
        // Restrict to the interval where log P >= threshold. The log-pmf is concave with its maximum
        // at the hypergeometric mode (where P >= 1/(hi - lo + 1), so log P > -22 > threshold), hence
        // that set is one interval around the mode and each end is found by binary search.
        const std::int64_t mode = std::clamp<std::int64_t>((ai + 1) * (bj + 1) / (n + 2), lo, hi);
        if (gln(mode) >= threshold) {
          std::int64_t l = mode, r = hi;  // last k >= mode with gln(k) >= threshold
          while (l < r) {
            const std::int64_t mid = l + (r - l + 1) / 2;
            if (gln(mid) >= threshold) l = mid;
            else r = mid - 1;
          }
          const std::int64_t new_hi = l;
          l = lo;
          r = mode;  // first k <= mode with gln(k) >= threshold
          while (l < r) {
            const std::int64_t mid = l + (r - l) / 2;
            if (gln(mid) >= threshold) r = mid;
            else l = mid + 1;
          }
          lo = r;
          hi = new_hi;
        }
      }
      for (std::int64_t nij = lo; nij <= hi; ++nij) {
        const double term2 = terms.log_nnij(nij) - log_a[i] - log_b[j];
        const double term3 = std::exp(gln(nij));
        emi += terms.term1(nij) * term2 * term3;
      }
    }
  }
  return emi;
}

}  // namespace

double expected_mutual_information(const ContingencyTable& t) {
  const std::vector<std::int64_t>& a = t.row_sums;
  const std::vector<std::int64_t>& b = t.col_sums;
  if (a.size() == 1 || b.size() == 1) return 0.0;
  const std::int64_t n = t.n;
  const double n_d = to_double(n);

  // Tail pruning. A term is (n_ij/N) log(N n_ij/(a_i b_j)) P(n_ij) with n_ij/N <= 1 and
  // |log(N n_ij/(a_i b_j))| <= log N (the ratio lies in [1/N, N]), so each term with log P < T is
  // below log(N) e^T in magnitude. There are at most S = sum_ij min(a_i, b_j) terms in all, so with
  // T = log(bound / (S log N)) the skipped terms total less than the bound (1e-24 nats), far below
  // the rounding of the sum itself. T lies in about [-102, -55]; scikit-learn's own sum already loses
  // every term below -745 to exp() underflow.
  //
  // Meanwhile estimate how many terms will be visited: about 2 sqrt(-2T) hypergeometric standard
  // deviations per cell (plus the binary searches), to decide whether tabulating log-factorials pays.
  double total_terms = 0.0, visited_terms = 0.0;
  const double threshold_guess = -110.0;  // conservative (wider) for the estimate only
  for (std::int64_t ai : a)
    for (std::int64_t bj : b) {
      const double range = to_double(std::min(ai, bj) - std::max<std::int64_t>(1, ai - n + bj) + 1);
      const double var = to_double(ai) * to_double(bj) / n_d * (1.0 - to_double(ai) / n_d) *
                         (1.0 - to_double(bj) / n_d) * n_d / std::max(1.0, n_d - 1.0);
      total_terms += to_double(std::min(ai, bj));
      visited_terms += std::min(range, 2.0 * std::sqrt(-2.0 * threshold_guess * var) + 64.0);
    }
  const double threshold = std::log(kEmiSkippedMassBound) - std::log(total_terms) - std::log(std::log(n_d));

  const std::int64_t max_a = *std::max_element(a.begin(), a.end());
  const std::int64_t max_b = *std::max_element(b.begin(), b.end());
  // A visited term costs four log-factorials on demand, a table entry one.
  if (TabulatedTerms::entries(n, max_a, max_b) <= 4.0 * visited_terms)
    return emi_sum(a, b, TabulatedTerms(n, max_a, max_b), threshold);
  return emi_sum(a, b, DirectTerms(n), threshold);
}

namespace {

double ami_from_parts(const ContingencyTable& t, double mi, double emi) {
  const double normalizer = (entropy_of_counts(t.row_sums) + entropy_of_counts(t.col_sums)) / 2.0;
  double denominator = normalizer - emi;
  // EMI can exceed the normaliser by rounding when they are equal in exact arithmetic; keep the sign.
  if (denominator < 0) denominator = std::min(denominator, -kEps);
  else denominator = std::max(denominator, kEps);
  return (mi - emi) / denominator;
}

}  // namespace

double adjusted_mutual_info_score(const ContingencyTable& t) {
  if (t.rows() == 1 && t.cols() == 1) return 1.0;  // neither labeling splits the data: perfect match
  return ami_from_parts(t, mutual_info_score(t), expected_mutual_information(t));
}

double adjusted_mutual_info_score(const Labels& truth, const Labels& pred) {
  return adjusted_mutual_info_score(contingency_table(truth, pred));
}

// ---------------------------------------------------------------------------------------------------
// Counts and the bundle

std::size_t n_clusters(const Labels& labels) {
  if (labels.empty()) return 0;
  const DenseLabeling d = relabel_dense(labels);
  const bool has_noise = std::binary_search(d.values.begin(), d.values.end(), kNoise);
  return d.size() - (has_noise ? 1 : 0);
}

std::size_t n_noise(const Labels& labels) {
  return static_cast<std::size_t>(std::count(labels.begin(), labels.end(), kNoise));
}

ClusteringScores score_labelings(const Labels& truth, const Labels& pred) {
  const ContingencyTable t = contingency_table(truth, pred);
  ClusteringScores s;
  s.ari = adjusted_rand_score(t);
  s.mi = mutual_info_score(t);
  s.nmi = normalized_mutual_info_score(t);
  if (t.rows() == 1 && t.cols() == 1) {
    s.emi = 0.0;
    s.ami = 1.0;
  } else {
    s.emi = expected_mutual_information(t);
    s.ami = ami_from_parts(t, s.mi, s.emi);
  }
  auto count_noise = [](const std::vector<Label>& values, const std::vector<std::int64_t>& counts) {
    auto it = std::lower_bound(values.begin(), values.end(), kNoise);
    return (it != values.end() && *it == kNoise)
               ? static_cast<std::size_t>(counts[static_cast<std::size_t>(it - values.begin())])
               : std::size_t{0};
  };
  s.n_noise_true = count_noise(t.row_labels, t.row_sums);
  s.n_noise_pred = count_noise(t.col_labels, t.col_sums);
  s.n_clusters_true = t.rows() - (s.n_noise_true > 0 ? 1 : 0);
  s.n_clusters_pred = t.cols() - (s.n_noise_pred > 0 ? 1 : 0);
  return s;
}

}  // namespace dpclust
