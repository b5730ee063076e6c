#pragma once
// External clustering scores with scikit-learn (>= 1.2) semantics, special cases included:
//
//   adjusted_rand_score          Hubert & Arabie (1985), via the pair confusion matrix.
//   mutual_info_score, entropy   natural log.
//   normalized_mutual_info_score average_method = "arithmetic".
//   adjusted_mutual_info_score   average_method = "arithmetic", with the exact expected mutual
//                                information of Vinh, Epps & Bailey (2010).
//
// Labels are arbitrary int32 values; noise (-1) counts as its own label, as scikit-learn does. The
// two-labeling functions throw std::invalid_argument when the labelings differ in length or are
// empty. Each score also has an overload taking a prebuilt ContingencyTable, so several scores of the
// same pair of labelings share one table (see score_labelings).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"
#include "metrics/contingency.hpp"

namespace dpclust {

// scikit-learn's pair_confusion_matrix: counts over ORDERED pairs of distinct points (so each entry
// is twice the number of unordered pairs). tp: same cluster in both; fn: same in the first labeling
// only; fp: same in the second only; tn: different in both. Fits int64 for any n < 2^31.
struct PairConfusion {
  std::int64_t tn = 0, fp = 0, fn = 0, tp = 0;
};
PairConfusion pair_confusion_matrix(const ContingencyTable& table);
PairConfusion pair_confusion_matrix(const Labels& truth, const Labels& pred);

// ARI = 2 (tp tn - fn fp) / ((tp + fn)(fn + tn) + (tp + fp)(fp + tn)), the products formed exactly in
// 128-bit integers; 1.0 when fn == fp == 0 (full agreement, including both labelings one cluster).
double adjusted_rand_score(const ContingencyTable& table);
double adjusted_rand_score(const Labels& truth, const Labels& pred);

// Mutual information in nats; 0 when either labeling has a single label. As scikit-learn does, each
// cell's term is zeroed when smaller than machine epsilon in magnitude, and the sum is clipped at 0.
double mutual_info_score(const ContingencyTable& table);
double mutual_info_score(const Labels& truth, const Labels& pred);

// Entropy in nats of a labeling (of its label counts). 0 for a single label; 1.0 for an empty
// labeling, mirroring scikit-learn's entropy([]) (the two-labeling scores reject empty input).
double entropy(const Labels& labels);
double entropy_of_counts(const std::vector<std::int64_t>& counts);

// NMI with the arithmetic mean of the entropies: 1.0 when both labelings are a single cluster, 0.0
// when MI == 0, otherwise MI / ((H_true + H_pred) / 2).
double normalized_mutual_info_score(const ContingencyTable& table);
double normalized_mutual_info_score(const Labels& truth, const Labels& pred);

// Exact expected mutual information under the permutation (hypergeometric) model, Vinh et al. 2010
// eq. 24a, summed in the order and with the operations of scikit-learn's _expected_mutual_info_fast
// (0 when either labeling has a single label). Hypergeometric tail terms too small to matter are
// skipped: the threshold on log P(n_ij) is set so that all skipped terms together are below 1e-24
// nats (a proven bound, not an estimate; scikit-learn itself loses every term below e^-745 to
// underflow). The log-pmf is concave in n_ij, so the kept terms form one interval around the mode,
// found by binary search. Log-factorials are tabulated once over the two index ranges the sum reads
// ([0, max(a, b)] and [N - max a - max b, N]) unless the sum visits so few terms (a few huge
// clusters) that computing them on demand is cheaper; both give identical values. Cost: about
// sum_ij min(a_i, b_j, ~30 sd_ij) terms, e.g. ~10 ms for N = 1e6 with 40 x 40 balanced clusters.
double expected_mutual_information(const ContingencyTable& table);

// AMI = (MI - EMI) / (mean(H_true, H_pred) - EMI), arithmetic mean; 1.0 when both labelings are a
// single cluster; the denominator is clamped away from 0 by machine epsilon keeping its sign.
double adjusted_mutual_info_score(const ContingencyTable& table);
double adjusted_mutual_info_score(const Labels& truth, const Labels& pred);

// Number of distinct non-noise labels, and number of points labelled kNoise (-1).
std::size_t n_clusters(const Labels& labels);
std::size_t n_noise(const Labels& labels);

struct ClusteringScores {
  double ari = 0.0;
  double ami = 0.0;
  double nmi = 0.0;
  double mi = 0.0;   // mutual information (nats)
  double emi = 0.0;  // expected mutual information (nats)
  std::size_t n_clusters_true = 0;
  std::size_t n_clusters_pred = 0;
  std::size_t n_noise_true = 0;
  std::size_t n_noise_pred = 0;
};

// All of the above from one contingency table. Throws std::invalid_argument on length mismatch or
// empty labelings.
ClusteringScores score_labelings(const Labels& truth, const Labels& pred);

}  // namespace dpclust
