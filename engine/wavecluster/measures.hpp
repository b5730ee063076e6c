#pragma once
// The utility measures of DP WaveCluster (arXiv Sec. 6, KDD Sec. 6): DSG_C on significant grids and
// clusters, OCM and 2CE by "clustering-first-then-classification", and the F-measure the paper compares
// them with (Sec. 7). Every measure compares a private WaveCluster result with the true (non-private)
// one computed with the same parameters.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/dataset.hpp"
#include "core/params.hpp"
#include "wavecluster/c45.hpp"
#include "wavecluster/choice.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/wavecluster.hpp"

namespace dpclust::wavecluster {

// DSG_C (Sec. 6.1). Clusters are sets of significant cells of the average subband. The distance of a
// true cluster Ci and a private cluster Cj is max(|Ci \ Cj|, |Cj \ Ci|); the cost of a matching is the
// sum of the matched pairs' distances plus the cells of the unmatched clusters; DSG_C = the minimum
// cost (Hungarian method, engine/metrics/assignment) / |T| (true significant cells).
// The paper defines the matching for t >= s (at least as many true as private clusters), where every
// private cluster is matched and only true clusters can stay unmatched. For s > t we charge the
// unmatched private clusters their size too (the distance to an empty cluster), the symmetric
// extension; for t >= s it is exactly the paper's formula. Both clusterings must have the same shape.
// |T| = 0 divides by 1 (DSG_C = the number of private significant cells).
double dsg_c(const Clustering& truth, const Clustering& priv);

// OCM (Sec. 6.2) of the classes the true and the private classifier predict for the same test points:
// class 0 is the noise class C0, 1..c the clusters. C0 is paired with C0 (SPEC.md: the authors count
// test points both classifiers put in C0 as matched), the other classes by the Hungarian method
// maximising the common test points CT; OCM = 1 - (CT + |C0 and C0|) / TT.
double ocm(const std::vector<std::int32_t>& pred_true, const std::vector<std::int32_t>& pred_priv);

// OCM as the authors' code computes it (option `ocm_matching: authors_set_difference`; the default
// `max_intersection` is ocm above). Source: UsefulnessHungarianMappingUsingGridTrainingIncludingC0.java
// (main) with ArrayLevenshteinDistance.ArrayEditDistances (lchen10/DiffPrivWaveCluster,
// WaveCluster_PrivQT / WaveCluster_PrivTHR*). Where it departs from Sec. 6.2 ("the optimal matching
// ... maximizing the common test points"): the clusters (the classes 1.. each classifier gives to
// at least one test point; C0 apart) are matched by the Hungarian method on the MINIMUM set-difference
// cost max(|Ci \ Cj|, |Cj \ Ci|) (their larger set minus the smaller), and then the intersections
// |Ci and Cj| of that matching are counted; OCM = 1 - (those + |C0 and C0|) / TT. Their special case is
// kept: with exactly one cluster on each side the fold is skipped (`continue` before the round is
// counted): std::nullopt, and cross_validate leaves the fold out of the OCM mean. With no cluster on
// one side (their code would fail on an empty matrix) only C0 and C0 count. Ties between equally cheap
// matchings may be broken differently from their Munkres code.
std::optional<double> ocm_authors(const std::vector<std::int32_t>& pred_true,
                                  const std::vector<std::int32_t>& pred_priv);
// 2CE (Sec. 6.2): share of unordered test pairs classified inconsistently (same class under one
// classifier, different under the other; two points in C0 are "same class"). Counted from the
// contingency table in O(n + c^2): same-in-both = sum C(n_ij, 2), inconsistent = sum_i C(a_i, 2) +
// sum_j C(b_j, 2) - 2 sum C(n_ij, 2), divided by C(TT, 2). 0 when TT < 2.
double two_ce(const std::vector<std::int32_t>& pred_true, const std::vector<std::int32_t>& pred_priv);

// F-measure of the private point labels against the true WaveCluster labels taken as ground truth
// (Sec. 7, "Comparison to F-measure"): F = sum_i (n_i / n) max_j F(i, j), F(i, j) = 2 P R / (P + R),
// P = n_ij / |private j|, R = n_ij / n_i (Larsen & Aone 1999). i runs over the true clusters (the
// true noise points are not a class; n = the points in true clusters), j over the private clusters
// (private noise is no cluster, so it only lowers recall). No true cluster: 1 if the private result
// has none either, else 0.
double f_measure(const Labels& truth, const Labels& pred);

// Which non-significant cells the classifiers see as C0 training instances: all cells of the average
// subband ("all", default) or only those with a positive (noisy) value ("positive").
enum class C0Grids { all, positive };

// The classifier of one WaveCluster result (Sec. 6.2): a C4.5 tree trained on the cells of the average
// subband (features: the cell's integer coordinates; class: cluster id + 1, or 0 = C0 for a
// non-significant cell), then evaluated once on every cell. Because a test point's features are its
// cell's coordinates, its prediction is the table entry of its cell: per-point prediction is O(1).
std::vector<std::int32_t> cell_classifier(const WaveClusterOutput& result, const C45Options& opt, C0Grids c0);
// The same with the cells of the average subband already sorted along every coordinate (lattice_presort of
// the result's shape): what every tree on that grid shares, computed once.
std::vector<std::int32_t> cell_classifier(const WaveClusterOutput& result, const C45Options& opt, C0Grids c0,
                                          const C45Presort& lattice);
// The cells of a grid as C4.5 instances: cell i (row-major) has its integer coordinates as attributes.
C45Presort lattice_presort(const GridShape& shape);

// How OCM matches the classes of the two classifiers (see ocm and ocm_authors).
enum class OcmMatching { max_intersection, authors_set_difference };
template <>
struct ChoiceNames<OcmMatching> {
  static constexpr std::array<std::pair<OcmMatching, std::string_view>, 2> names{
      {{OcmMatching::max_intersection, "max_intersection"},
       {OcmMatching::authors_set_difference, "authors_set_difference"}}};
};
// How the points are cut into folds: dpclust = shuffled with the trial's metric seed, cut into equal
// consecutive parts; weka = the authors' fixed, label-stratified Weka folds (weka_folds.hpp).
enum class CvFolds { dpclust, weka };
template <>
struct ChoiceNames<CvFolds> {
  static constexpr std::array<std::pair<CvFolds, std::string_view>, 2> names{
      {{CvFolds::dpclust, "dpclust"}, {CvFolds::weka, "weka"}}};
};

struct CvOptions {
  std::size_t folds = 10;
  C45Options tree;
  C0Grids c0 = C0Grids::all;
  OcmMatching matching = OcmMatching::max_intersection;
  CvFolds fold_rule = CvFolds::dpclust;
  static CvOptions from(const ParamSet& params);
};
struct CvResult {
  double ocm = 0, two_ce = 0;    // means over the folds
  std::size_t folds = 0;         // folds with a held-out point (2CE's mean)
  std::size_t ocm_folds = 0;     // folds in OCM's mean (ocm_authors skips its one-cluster-each special case)
  double mechanism_seconds = 0;  // wall seconds of the folds' mechanism runs (steady clock), not a result
};

// What cross_validate reuses from trial to trial on one dataset: everything that depends on the points,
// the grid and the options but not on a trial's seed or noise. The points are fixed, only the labels
// change, so it is computed once per dataset and parameters (paper_metrics.cpp keeps it in the run's
// DatasetCache, shared read-only by the trial threads) and each fold's true count matrix is the full one
// minus the held-out points' cells: a pass over the held-out points instead of quantizing the training
// points again. The mechanism re-run on the fold gets that count matrix too (WcMechanism::run_wc's
// known_counts), and the training points are copied only for Baseline, whose synopsis reads them.
struct CvFixed {
  GridShape grid, subband;            // the count matrix's shape and the average subband's
  std::vector<std::uint32_t> cell;    // per point: its cell of the count matrix (Quantizer::cell_of)
  std::vector<std::uint32_t> coarse;  // per point: its cell of the average subband (what classifies it)
  std::vector<double> counts;         // the count matrix M of all the points
  C45Presort lattice;                 // the average subband's cells as C4.5 instances (lattice_presort)
  // fold_rule weka only: the authors' fold order (Weka's stratification on the dataset's own labels, the
  // same in every trial) and, per fold, the true classifier's cell table (it depends on the fold alone).
  std::vector<std::uint32_t> weka_order;
  std::vector<std::vector<std::int32_t>> weka_truth;
  // Throws what cross_validate throws for bad options (fewer than 2 folds; weka folds without labels).
  static CvFixed of(const Dataset& data, const WcParams& wp, const CvOptions& opt);
};

// K-fold clustering-first-then-classification (Sec. 6.2, SPEC.md): the points are shuffled with
// `seed` and cut into K folds (opt.fold_rule = weka: the authors' fixed stratified folds instead, which
// need the dataset's labels; InputError without them); for each fold, true WaveCluster and `mechanism` (re-run with its
// own budget epsilon, seeded from `seed` and the fold) cluster the other K-1 folds, a tree is built from each result,
// both classify the held-out fold; OCM and 2CE are computed per fold and averaged. `fixed`: CvFixed::of(data, wp, opt)
// when the caller keeps it across trials; nullptr computes it here. Either way the numbers are those of training and
// classifying every fold from scratch.
CvResult cross_validate(const Dataset& data, const WcParams& wp, const ParamSet& params, const WcMechanism& mechanism,
                        bool is_private, std::uint64_t seed, const CvOptions& opt, const CvFixed* fixed = nullptr);

}  // namespace dpclust::wavecluster
