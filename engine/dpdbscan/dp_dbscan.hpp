#pragma once
// DP-DBSCAN (Qiu & Yi, "Approximate DBSCAN under Differential Privacy"), Algorithm 1, in one place:
//
//   line 3   w = eta alpha / (4 sqrt d)                          grid.hpp (make_grid)
//   line 4   grid of cells X over the public domain              grid.hpp; cell counts x_i in
//                                                                cell_counts.cpp (count_cells, histogram.hpp)
//   line 5   DP histogram x~ (naive Thm 2.8, or Alg. 2)          naive_histogram.hpp / linear_histogram.hpp
//                                                                (Alg. 2 has its own line table); the
//                                                                only data access: its noise comes from one
//                                                                privacy::CountMechanism (noise.hpp), which
//                                                                records the one ledger entry
//   line 6   X_core = {X : S(X) >= MinPts + Gamma}               spans.hpp (find_core_cells); Gamma,
//                                                                tau, theta in error_bounds.hpp
//   line 7   merge core cells at distance < alpha into spans     spans.hpp (merge_core_cells)
//
// Everything after line 5 is post-processing of the released histogram. Two inputs are treated as
// public, as in the paper: the domain bounds (from the config) and n, which picks the histogram
// (linear when n <= |X|/2, Sec. 8.1) and sets theta = ln(|X|/n)/eps' (Thm 6.1). Under bounded DP n is
// public by definition; under unbounded DP pass a public estimate as n_public to make the release
// independent of the true n (the grid, Gamma and the released histogram never depend on it otherwise).
//
// Testable noise: Gamma and theta follow the noise really drawn (the mechanism's scale times the
// ledger's noise_scale), so with noise_scale 0 the release is the non-private rho-approximate skeleton:
// the cells with UB(X) >= MinPts of the exact histogram, merged (tests/dpdbscan/spans_test.cpp).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/numpy_random.hpp"
#include "core/rng.hpp"
#include "dpdbscan/grid.hpp"
#include "dpdbscan/histogram.hpp"
#include "dpdbscan/noise.hpp"
#include "dpdbscan/spans.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpdbscan {

enum class HistogramChoice { automatic, naive, linear };
enum class StorageChoice { automatic, dense, sparse };
enum class CoreRule { minpts_prime, lemma_5_1 };

// Dense storage is chosen automatically when |X| <= min(2^25, max(2^20, 32 n)); it may be forced up to
// 2^26 cells (about 20 bytes per cell). The naive histogram always needs it.
inline constexpr std::uint64_t kDenseAutoMax = std::uint64_t{1} << 25;
inline constexpr std::uint64_t kDenseMax = std::uint64_t{1} << 26;

struct DpDbscanOptions {
  double alpha = 0;
  std::int64_t min_pts = 1;
  double eta = 4.0;   // w = eta alpha / (4 sqrt d)
  double beta = 0.5;  // failure probability of the error bound
  double epsilon = 1.0;
  double delta = 0.0;  // gaussian noise only
  NoiseKind noise = NoiseKind::laplace;
  privacy::Sampler sampler = privacy::Sampler::secure;  // geometric noise is always secure (noise.hpp)
  HistogramChoice histogram = HistogramChoice::automatic;
  StorageChoice storage = StorageChoice::automatic;
  CoreRule core_rule = CoreRule::minpts_prime;
  bool bounded_dp = false;  // sensitivity 2 (change one point) instead of 1 (add/remove)
  double theta = -1;        // Alg. 2 threshold; < 0 = by theta_rule
  // theta when not given: Theorem 7.1's max{0, ln(|X|/n)}/eps' (false), or the authors' code (true):
  // ln(|X|/n)/eps' when |X| > 2n, otherwise Gamma_noise / kappa.
  bool theta_authors_code = false;
  std::uint64_t n_public = 0;   // 0 = the data's n
  bool keep_histogram = false;  // return the released histogram (figures); otherwise it is freed
  // rng: numpy (the authors' stream): the naive histogram's noise from numpy's RandomState(numpy_seed), one draw per
  // cell in code order, as the authors' code draws it (naive histogram, textbook sampler, laplace or
  // gaussian noise; checked). Everything else is the same algorithm.
  RandomStream stream = RandomStream::dpclust;
  std::uint32_t numpy_seed = 0;
};

struct DpDbscanResult {
  CellGrid grid;
  std::size_t kappa = 0;
  bool linear = false;
  bool dense = false;
  double gamma = 0;          // Gamma used (kappa theta + Gamma_noise for the linear histogram)
  double gamma_noise = 0;    // Gamma of the noise alone
  double tau = 0;            // 2 Gamma (Lemma 5.1)
  double theta = 0;          // Alg. 2 threshold (linear only)
  double threshold = 0;      // core when S(X) >= threshold
  double min_pts_prime = 0;  // MinPts + tau (Sec. 7.2)
  privacy::Sampler sampler = privacy::Sampler::secure;  // the sampler the histogram really used
  // Public: functions of the release (released cells; cells whose neighbourhood sum was formed).
  std::uint64_t released = 0, evaluated = 0;
  // Exact statistics of the true data (evaluation only, never part of the release): occupied cells
  // |F|, occupied cells released (Alg. 2 lines 4-7) and empty cells sampled (line 9).
  std::uint64_t occupied = 0, released_occupied = 0, sampled_empty = 0;
  CoreCells core;
  SpanSet spans;
  NoisyHistogram histogram;    // the released histogram when options.keep_histogram
  std::string histogram_note;  // what the ledger records
};

// Runs Algorithm 1 on n points of dimension bounds.dims(). The histogram's mechanism records its entry
// in `ledger` (epsilon, and delta for gaussian noise). Throws InputError for unusable parameters
// (messages name the parameter and a fix).
DpDbscanResult dp_dbscan(const double* coords, std::size_t n, const Bounds& bounds, const DpDbscanOptions& options,
                         Rng& rng, BudgetLedger& ledger);

}  // namespace dpclust::dpdbscan
