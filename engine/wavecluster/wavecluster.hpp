#pragma once
// WaveCluster (Sheikholeslami, Chatterjee, Zhang, VLDB 1998) as the DP WaveCluster paper uses it
// (arXiv Sec. 3.2): quantization -> wavelet transform -> significant grids -> connected components.
// The building blocks here are shared by the non-private method and every private mechanism, which
// differ only in how the count matrix and the significance threshold are obtained.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/params.hpp"
#include "wavecluster/grid.hpp"
#include "wavecluster/wavelet.hpp"

namespace dpclust::wavecluster {

// Which cells are significant when several share the k-th largest value d (select_top_k).
enum class Ties { include, exclude, index };

// The WaveCluster parameters of arXiv Sec. 3.2 (num_grid g, density threshold p, level, wavelet)
// plus the two choices the paper leaves open (boundary handling, connectivity).
struct WcParams {
  std::vector<std::size_t> g;  // grids per dimension
  double p = 0.1;              // density threshold: p of the positive values are non-significant
  WaveletSpec wavelet;
  bool full_connectivity = true;  // cells touching at a corner are adjacent (SPEC.md: 8-connectivity in 2D)
  Ties ties = Ties::include;      // cells tied with the k-th largest value (see select_top_k)
  // release_counts (PrivQT, PrivTHR, PrivTHR_EM): also publish the noisy count matrix M' the cells were
  // derived from -- what the mechanism computed, at no extra privacy cost; the audit tests it directly.
  bool release_counts = false;
  // Reads g, p, wavelet, level, boundary, connectivity (and release_counts when declared); throws
  // InputError on a bad g.
  static WcParams from(const ParamSet& params, std::size_t d);
};

// k = ceil((1 - p) |L|) (arXiv Sec. 3.2 / KDD Sec. 3.2 "density threshold"; SPEC.md). The product is
// rounded up after removing floating-point dust (1e-9), so that e.g. 0.4 * 100 gives 40, not 41.
std::size_t top_k_count(double p, std::size_t positives);

// The positive values of W sorted ascending (ConvertToPosSortedArray, Alg. 1 line 4).
std::vector<double> positive_sorted(const std::vector<double>& w);

// Significant cells of W: the top-k positive values (Alg. Baseline/PrivQT lines 6-7, Alg. 1 line 8).
// d is the k-th largest positive value. The paper is ambiguous when other cells tie with d, which
// non-private counts do often (a Haar value is (sum of counts) / 2^(d level / 2)):
//   include (default): every value >= d, i.e. "values below the p-th percentile are non-significant"
//            (arXiv Sec. 3.2); more than k cells when there are ties (DS3 g=50: 340 cells for k = 290).
//   exclude: every value > d, the literal "any value greater than d' is significant" of the
//            pseudocode's prose (k - 1 or fewer cells; DS3: 265).
//   index:   exactly k cells, ties broken by the lower row-major cell index (arbitrary but deterministic).
// DS1, DS2 and DS3 give the paper's cluster counts (14, 3, 5) under all three. With noisy
// (continuous) values there are no ties and all three choose exactly k cells. k = 0 selects nothing.
// Returns d (+inf when k = 0).
double select_top_k(const std::vector<double>& w, std::size_t k, std::vector<std::uint8_t>& significant,
                    Ties ties = Ties::include);
// Significant cells: values strictly above a threshold (PrivTHR_EM, Alg. 2 line 4: "any value in W'
// greater than d' is considered as a significant value").
void select_above(const std::vector<double>& w, double threshold, std::vector<std::uint8_t>& significant);

// Clusters of significant cells: connected components (ConnCompLabel, Alg. 1 line 9). With full
// connectivity two cells are adjacent when every coordinate differs by at most 1 (3^d - 1
// neighbours, 8 in 2D); otherwise only when they share a face (2d neighbours). Cluster ids are
// 0, 1, ... in the row-major order of each cluster's first cell, so they are deterministic.
struct Clustering {
  GridShape shape;                         // shape of the average subband
  std::vector<std::int32_t> cell_cluster;  // per cell: cluster id, or -1 when not significant
  std::size_t n_significant = 0;
  std::size_t n_clusters = 0;
};
// Two cells are adjacent when they share a face (face) or every coordinate differs by at most 1 (full:
// 3^d - 1 neighbours). Components are numbered in index order of their first cell. The work is the
// smaller of S (3^d - 1) and S^2 / 2 neighbour tests for S significant cells, so that a grid of 22
// dimensions (4 million cells at g = 2) does not list its 3^22 neighbour offsets.
Clustering connected_components(const std::vector<std::uint8_t>& significant, const GridShape& shape,
                                bool full_connectivity);
// The bytes connected_components needs besides the mask and the labels, for S significant cells.
double connected_components_memory(std::size_t d, bool full_connectivity, double significant_cells);

// What one WaveCluster run (private or not) produced, typed. It is the family's result: the methods
// put it in MethodResult::details and the metrics read it there (std::any_cast), never a number by a
// string key. Its numbers are split by what they may reveal (core/method.hpp):
//   public      functions of the noisy synopsis and the parameters: written under "diagnostics";
//   evaluation  exact statistics of the true data: written under "evaluation", never released.
struct WaveClusterOutput {
  // The release: significant cells of the average subband and their clusters.
  Clustering clustering;
  std::vector<double> transformed;  // the (noisy) average subband W or W' significance was decided on
  // Public (for plain WaveCluster, which is not private, these are statistics of the true data).
  std::size_t k_prime = 0;                                  // k': the number of top values declared significant
  std::size_t l_prime = 0;                                  // |L'|: positive values of W' (Baseline, PrivQT, PrivTHR)
  double threshold = 0;                                     // d': the significance threshold
  nlohmann::json public_extra = nlohmann::json::object();   // PrivTHR: Z_noisy, ...; Baseline: synthetic_points
  nlohmann::json release_extra = nlohmann::json::object();  // published besides the cells (Baseline: synopsis sizes;
                                                            // release_counts: the noisy count matrix M')
  // Evaluation only: of the true (non-private) W of the same grid.
  std::size_t k = 0;             // k = ceil((1-p)|L|)
  std::size_t l = 0;             // |L|: positive values of W
  std::size_t z = 0;             // |Z|: non-positive values of W
  bool is_private = false;       // false for plain WaveCluster: every number is then of the true data
  bool range_from_data = false;  // PrivTHR_EM took its threshold range from the true values (flagged non-private)
  // PrivTHR_EM's k' is the rank of the chosen threshold among the TRUE coefficients (Alg. 3 lines 8-15):
  // not a function of the release, so it is an evaluation statistic, never a diagnostic (the privacy
  // audit found it: with it among the diagnostics the lattice mechanism looked like a violation).
  bool k_prime_from_true_data = false;
  // Further reasons the run is not private as configured (the authors'-code options: em_repeats_budget:
  // authors, ag_variant: flat_origin); WcMechanism::run copies them into the result's non_private notes.
  std::vector<std::string> non_private_notes;

  // {"k_prime", "L_prime", "threshold", "significant_grids", "clusters", public_extra...} for a private
  // run; for plain WaveCluster only the sizes of its (non-private) result.
  nlohmann::json diagnostics() const;
  // {"k", "L", "Z"} (plain WaveCluster: also k_prime and threshold; PrivTHR_EM: also k_prime).
  nlohmann::json evaluation() const;
};

// The true statistics of W (|L|, |Z|, k) written into `out` (evaluation only).
void set_true_statistics(WaveClusterOutput& out, const std::vector<double>& w, double p);

// Significant cells of a (noisy) W' from its top-k' values, then their clusters (Baseline lines 7-8,
// PrivQT lines 6-7, Alg. 1 lines 8-9): post-processing shared by the mechanisms. `l_size` is the
// |L'| (or |L''|) reported as L_prime.
WaveClusterOutput significant_top_k(const std::vector<double>& w_noisy, const GridShape& shape, const WcParams& params,
                                    std::size_t l_size, std::size_t k_prime);

// The count matrix M of `data` on q's grid (WaveCluster step 1): *known when the caller already holds it,
// otherwise one pass over the points into `storage`. Cross-validation (measures.cpp) trains the mechanisms
// on every fold's training part and already has that part's M (all points' counts minus the held-out
// fold's cells); counts are sums of 1.0, so both ways give the same doubles.
const std::vector<double>& count_matrix(const std::vector<double>* known, const Quantizer& q, const Dataset& data,
                                        std::vector<double>& storage);

// Non-private WaveCluster over the public domain of `data` (its bounds): k' = k, |L|, |Z|, the
// threshold d and the clustering. `known_counts`: count_matrix's `known`.
WaveClusterOutput run_wavecluster(const Dataset& data, const WcParams& params,
                                  const std::vector<double>* known_counts = nullptr);
// The same from an already transformed matrix W.
WaveClusterOutput wavecluster_from_transform(const std::vector<double>& w, const GridShape& shape,
                                             const WcParams& params);

// The grid of a dataset: its public domain bounds, g cells per dimension. Throws InputError when the
// dataset has no bounds.
Quantizer make_quantizer(const Dataset& data, const WcParams& params);

// Point labels: each point gets the cluster of its cell's average-subband cell, -1 (noise) when that
// cell is not significant (arXiv Sec. 3.2: "map the clusters back to the original space"). For the
// private mechanisms these labels are computed from the private data only for evaluation; the
// release is the set of significant cells with their cluster ids.
Labels label_points(const Dataset& data, const Quantizer& q, int level, const Clustering& c);

// Release JSON of a clustering: {"shape": [...], "significant_cells": [[i, j, ..., cluster], ...]}.
nlohmann::json clustering_release(const Clustering& c);
// Inverse of clustering_release (for metrics that compare released cells).
Clustering clustering_from_release(const nlohmann::json& release);

}  // namespace dpclust::wavecluster
