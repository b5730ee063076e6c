#pragma once
// DRBT, the Dimensionality Reduction-Based Transformation (Oliveira & Zaiane, "A Privacy-Preserving
// Clustering Approach Toward Secure and Effective Data Analysis for Business Collaboration"):
// z-score normalisation (Eq. 3), a random d x k matrix R, the disguised data D' = D R (Eq. 7), the
// stress of the distances (Eq. 6), and vertical partitioning among parties (Sec. 4.3, Table 10).
//
// Random matrices (Sec. 2.4, 4.2):
//   RP1  entries i.i.d. N(0, 1), "then normalizing the columns to unit length";
//   RP2  Achlioptas' entries sqrt(3) * {+1 w.p. 1/6, 0 w.p. 2/3, -1 w.p. 1/6} (Eq. 9).
// Normalisation (the paper is ambiguous; param `normalization`):
//   unit         (default) every column scaled to unit length, for RP1 as Sec. 2.4 states and for RP2
//                as well: the RP2 columns of Table 5 are exactly sign patterns divided by sqrt(#non-zeros)
//                (e.g. Att1 = (age - h_rate - int_def - QRS)/2 of Table 3), so the paper normalised both.
//                A column that is all zero (RP2, probability (2/3)^d) cannot be normalised and is redrawn.
//   orthonormal  Gram-Schmidt on the columns in order (Sec. 2.4's constraint list: "composed of
//                orthonormal vectors"); a column (nearly) in the span of the previous ones is redrawn.
//                Needs k <= d. With k = d the projection is a rotation: stress 0, as Table 4's k = 6 column.
//   none         the raw entries (Achlioptas' scale; projected distances grow by about sqrt(k)).
// Products use Eigen's coefficient-based lazyProduct: its summation order is fixed, whereas Eigen's
// blocked GEMM picks block sizes (and so the order of additions) from the OpenMP thread count.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/rng.hpp"

namespace dpclust::drbt {

enum class Projection { rp1, rp2 };
enum class Normalization { unit, orthonormal, none };
Projection parse_projection(const std::string& name);
Normalization parse_normalization(const std::string& name);

// DRBT Eq. 3: v' = (v - mean_A) / sd_A per column, with the population sd (as scikit-learn's
// StandardScaler); a constant column is only centred.
void zscore(RowMatrix& data);

// A d x k random matrix of the given kind, drawn column by column (column j: rows 0..d-1 in order),
// then normalised. Throws std::invalid_argument when k or d is 0, or k > d with orthonormal.
RowMatrix random_matrix(Projection kind, std::size_t d, std::size_t k, Normalization norm, Rng& rng);

// D' = D R (Eq. 7).
RowMatrix project(const RowMatrix& data, const RowMatrix& R);

// Vertical partitioning (Sec. 3.2, 4.3): the d attributes split into `parties` contiguous groups whose
// sizes differ by at most one, the larger groups first (74 attributes, 3 parties: 25, 25, 24 as in
// Table 10), and the k target dimensions shared in proportion to the group sizes by largest remainders
// (ties to the earlier group): 74 -> 38 gives 19 + 19, 13 + 13 + 12, 10 + 10 + 9 + 9 as in Table 10.
struct Party {
  std::size_t first = 0;  // first attribute (column) of the group
  std::size_t cols = 0;   // attributes held
  std::size_t dims = 0;   // dimensions it projects them to
};
// Throws std::invalid_argument unless 1 <= parties <= d and parties <= k <= d.
std::vector<Party> partition_attributes(std::size_t d, std::size_t parties, std::size_t k);

// Each party projects its own attributes with its own matrix (drawn in party order); the central party
// joins the parts column-wise (Sec. 4.3, steps 1-2). One party = PPC over centralised data (Sec. 4.2).
struct Disguised {
  RowMatrix data;  // n x k
  std::vector<Party> parties;
  std::vector<RowMatrix> matrices;  // one per party (secret to it: never released)
};
Disguised transform(const RowMatrix& data, Projection kind, Normalization norm, std::size_t parties, std::size_t k,
                    Rng& rng);

// DRBT Eq. 6: stress^2 = sum_{i<j} (dhat_ij - d_ij)^2 / sum_{i<j} d_ij^2, d in the original space, dhat
// in the reduced one (optionally scaled by sqrt(d/k), Eq. 8). `squared` returns Eq. 6's left-hand side
// (stress^2; the magnitudes of Table 4 match it), otherwise its square root. Exhaustive over the
// n(n-1)/2 pairs when they are at most max_pairs, otherwise over all pairs among m rows drawn without
// replacement from rng (m = stress_sample_rows(n, max_pairs), at most max_pairs pairs): every pair of
// the data is equally likely to be in the sample, and the rows stay in cache (projection.cpp).
struct StressOptions {
  bool squared = true;
  bool scale = false;
  std::uint64_t max_pairs = 2000000;
};
double stress(const RowMatrix& original, const RowMatrix& reduced, const StressOptions& options, Rng& rng);
// The rows the sampled stress uses: n when n(n-1)/2 <= max_pairs (or max_pairs is 0), else the largest m
// with m(m-1)/2 <= max_pairs (at least 2).
std::uint64_t stress_sample_rows(std::uint64_t n, std::uint64_t max_pairs);

}  // namespace dpclust::drbt
