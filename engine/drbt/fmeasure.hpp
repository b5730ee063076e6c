#pragma once
// The overall F-measure of DRBT Sec. 4.5 (after Larsen & Aone 1999): how closely the clusters c'_j
// found in the transformed data match the clusters c_i found in the original data.
//
//   clustering membership matrix (Table 6): freq_ij = |c_i intersect c'_j|
//   P_ij = freq_ij / |c'_j|   (Eq. 11; the paper's |c'_i| is a typo: precision divides by the
//                              transformed cluster's size)
//   R_ij = freq_ij / |c_i|    (Eq. 12)
//   F_ij = 2 P R / (P + R)    (Eq. 13; 0 when freq_ij = 0)
//   OF   = sum_i |c_i| F(c_i) / sum_i |c_i|                                 (Eq. 14)
// How F(c_i) is matched (param of_matching):
//   best       the paper: "for each cluster c_i, find the c'_j with the highest F-measure", so two original
//              clusters may pick the same transformed cluster;
//   hungarian  a one-to-one matching maximising sum_i |c_i| F_ij (an unmatched c_i scores 0).
// Noise labels (-1) count as one more cluster on either side (k-means produces none).
#include <string>

#include "core/dataset.hpp"

namespace dpclust::drbt {

enum class OfMatching { best, hungarian };
OfMatching parse_of_matching(const std::string& name);

// original: labels on the original data (rows c_i); transformed: labels on the transformed data (c'_j).
// Throws std::invalid_argument when the labelings differ in length or are empty.
double overall_f_measure(const Labels& original, const Labels& transformed, OfMatching matching = OfMatching::best);

}  // namespace dpclust::drbt
