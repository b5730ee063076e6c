#pragma once
// EUGkM: k-means on a noisy uniform-grid histogram (Su, Cao, Li, Bertino, Lin, Jin, "Differentially
// private k-means clustering and a hybrid approach to private optimization", VLDB Journal 26(3), 2017;
// arXiv 1504.05998; first as "Differentially private k-means clustering", CODASPY 2016). The
// non-interactive approach of the paper: publish a differentially private synopsis of the data (a uniform
// grid with Laplace noise on every cell: Qardaji, Yang & Li's UG, "Differentially private grids for
// geospatial data", ICDE 2013, arXiv 1209.1322, extended from 2 to d dimensions), then run k-means on the
// synopsis: the centre of every cell weighted by its noisy count.
//
// Source. The paper's full text could not be read where this was written (no stored copy of the arXiv or
// VLDBJ text was found); its abstract and the UG paper are the sources, and every reading below that the
// paper may state otherwise is a parameter (docs/choices.md "EUGkM and the hybrid").
//
// Steps, and where each is:
//   N       the number of points the grid rule needs:              estimate_size()
//             n_source noisy (default): N~ = n + discrete Laplace(1 / eps_N), eps_N = n_fraction eps (a
//                                       count, sensitivity 1 under add/remove), the first ledger entry;
//             n_source public:          N = n_public (no budget);
//             n_source data:            N = the true n (the paper's analysis takes N as given; add/remove
//                                       DP does not make it public: flagged non-private, and the ledger
//                                       declared data-derived: the grid, and so the whole release, moves
//                                       with n, which no finite epsilon bounds).
//   grid    m cells per (non-constant) dimension:                 grid_size()
//             m = floor((N eps_H / theta)^(2 / (2 + d))), theta = 10, d the non-constant dimensions,
//             eps_H the histogram's budget: the rule that minimises the sum of the noise error
//             (~ m^d / (N eps)^2) and the non-uniformity error (~ 1 / m^2) of a k-means synopsis, which
//             for d = 2 is UG's Guideline 1, m = sqrt(N eps / c), c = 10; at least 1, raised to the
//             smallest m with m^d >= k (public: k and d) so that k centres can be placed; `grid_size`
//             fixes m instead. Cells split [lo_j, hi_j] into m equal intervals; a constant dimension has 1.
//   counts  the true count of every one of the m^d cells (records clamped into the domain), and
//           count~ = count + discrete Laplace(1 / eps_H), every cell, empty or not:   eugkm_on_grid()
//             one privacy::CountMechanism::laplace (secure: the exact integer sampler) for all cells:
//             a record is in one cell (parallel composition), sensitivity 1. Each cell draws from its
//             own stream (core/cell_streams.hpp), so the histogram is the same on any thread count.
//   weights w_c = max(count~_c, 0): a negative noisy count puts no mass on its cell (post-processing);
//           when fewer than k cells have w_c > 0, every cell gets w_c + 1 (add-one smoothing of the
//           synopsis, public), so that k centres exist.
//   k-means the weighted k-means of the positive-weight cells' centres (cluster/kmeans: scikit-learn's
//           KMeans.fit(centres, sample_weight=w), k-means++ seeding, n_init restarts, the lowest weighted
//           inertia on the synopsis kept): post-processing of the noisy histogram. A zero-weight cell
//           adds nothing to a weighted mean or to the inertia and is left out.
//   release the k centres. The labels (evaluation only) are each point's nearest released centre.
//
// Budget: eps = eps_N + eps_H (eps_N = 0 for n_source public or data). The ledger's noise_scale multiplies
// every noise scale; at 0 the histogram is the true one and the centres the exact weighted k-means of it.
// Memory: m^d counts (8 bytes) and noisy counts (8 bytes) plus (d + 1) doubles per positive cell: a grid
// known from public inputs (grid_size, or the rule at n_public) is refused above max_grid_cells before any
// work (check_shape); a grid from N~ or the true n is capped at it in the run (m = the largest that fits,
// diagnostic grid_capped): the number of points of the data never refuses a run.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cluster/kmeans/kmeans.hpp"
#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::eugkm {

// The grid rule's constant: UG's c = 10 (Qardaji et al. Guideline 1), which the rule keeps in d dimensions.
inline constexpr double kGridConstant = 10.0;
inline constexpr double kDefaultSizeFraction = 0.05;
inline constexpr std::uint64_t kDefaultMaxCells = std::uint64_t{1} << 22;
inline constexpr std::uint64_t kMaxCellsLimit = std::uint64_t{1} << 30;

// Where N of the grid rule comes from.
enum class SizeSource { noisy, public_n, data };
// The non_private note, and the ledger's data-derived reason, of n_source: data.
inline constexpr const char* kTrueSizeNote =
    "the grid size uses the true number of points n (n_source: data), which add/remove DP does not make public";
const char* to_string(SizeSource s);

struct SizeEstimate {
  double value = 0;  // N~ (noisy, may be below 1), n_public, or the true n
  SizeSource source = SizeSource::noisy;
  double epsilon = 0;  // spent on it (noisy only)
  // The value the rules use: at least 1.
  double usable() const { return value < 1 ? 1.0 : value; }
};

// N for the grid rule: a noisy count (one ledger entry, eps_N), n_public, or the true n (the ledger declared
// data-derived with kTrueSizeNote). Throws InputError
// for n_source public without n_public, or a noisy count without budget.
SizeEstimate estimate_size(std::size_t n, SizeSource source, double epsilon, std::uint64_t n_public,
                           privacy::Sampler sampler, Rng& rng, BudgetLedger& ledger);

// (N eps / theta)^(2 / (2 + d)): the real-valued rule (N, eps, theta > 0).
double grid_rule(double n, double epsilon, std::size_t d, double theta = kGridConstant);
// m^d, saturating at UINT64_MAX (d = 0: 1).
std::uint64_t grid_cells(std::int64_t m, std::size_t d);

struct GridSize {
  double rule = 0;  // (N eps / theta)^(2 / (2 + d)); 0 when `fixed` gave m
  std::int64_t cells_per_dim = 1;
  bool raised_for_k = false;  // floor(rule) had m^d < k
  bool capped = false;        // the rule's m^d was above max_cells: the largest m within it
  std::uint64_t cells = 1;    // m^d
};
// The grid: `fixed` > 0 is m as given (no raise, no cap); else floor(rule) >= 1, raised to host k cells,
// then capped to max_cells. d = the non-constant dimensions.
GridSize grid_size(double n, double epsilon, std::size_t d, std::size_t k, double theta, std::int64_t fixed,
                   std::uint64_t max_cells);
// The largest m with m^d <= max_cells (at least 1).
std::int64_t largest_cells_per_dim(std::size_t d, std::uint64_t max_cells);

struct EugkmOptions {
  std::size_t k = 2;
  double epsilon = 1.0;  // the whole budget (N's count included)
  SizeSource n_source = SizeSource::noisy;
  double n_fraction = kDefaultSizeFraction;  // of epsilon, for the noisy N
  std::uint64_t n_public = 0;
  double grid_constant = kGridConstant;  // theta
  std::int64_t grid_size = 0;            // > 0: m cells per dimension, instead of the rule
  std::uint64_t max_cells = kDefaultMaxCells;
  privacy::Sampler sampler = privacy::Sampler::secure;
  KMeansOptions kmeans;  // the k-means of the synopsis
};

struct EugkmResult {
  SizeEstimate size;
  double epsilon_histogram = 0;
  GridSize grid;
  std::size_t informative_dims = 0;  // d of the rule: the non-constant dimensions
  std::vector<double> noisy_counts;  // every cell (m^d), row-major over the non-constant dimensions
  std::uint64_t positive_cells = 0;  // cells with count~ > 0
  bool smoothed = false;             // fewer than k positive cells: every weight + 1
  RowMatrix centers;                 // k x d, the release
  double synopsis_inertia = 0;       // weighted k-means cost on the synopsis (a function of the release)
  std::int64_t kmeans_iterations = 0;
  // Exact statistics of the true data (evaluation only):
  Labels labels;                     // nearest released centre
  double inertia = 0;                // of the released centres on the true points
  std::uint64_t occupied_cells = 0;  // cells with a true count > 0
};

// The cell of every point (index into the m^d cells, row-major over the non-constant dimensions).
void cell_indices(const double* coords, std::size_t n, const Bounds& bounds, std::int64_t cells_per_dim,
                  std::vector<std::uint64_t>& cell);
// The centre of cell `index` (d coordinates; a constant dimension's is lo_j).
void cell_centre(std::uint64_t index, const Bounds& bounds, std::int64_t cells_per_dim, double* out);

// The synopsis and its k-means for a given N (EUGkM's steps after N; the hybrid calls it with its share).
// epsilon = eps_H. Throws InputError for unusable parameters; every noisy step is in `ledger`.
EugkmResult eugkm_on_grid(const double* coords, std::size_t n, const Bounds& bounds, const EugkmOptions& options,
                          const SizeEstimate& size, double epsilon, Rng& rng, BudgetLedger& ledger);
// The whole method: N (estimate_size with n_fraction of epsilon when noisy), then eugkm_on_grid.
EugkmResult eugkm(const double* coords, std::size_t n, const Bounds& bounds, const EugkmOptions& options, Rng& rng,
                  BudgetLedger& ledger);

// Parameter checks shared by the method and the hybrid: k >= 1, epsilon finite > 0, n_fraction in (0, 1)
// when noisy, n_public > 0 when public, grid_size^d >= k when fixed. Throws InputError("params.<key>", ...).
void check_options(const EugkmOptions& o, std::size_t informative_dims);
// The parameter checks of check_options without the last one, that the grid can hold k cells: the hybrid k-means
// runs without a grid when the grid would have one cell per dimension (DPLloyd alone), so it checks that only for a
// plan that uses the grid (grid_hosts_k).
void check_parameters(const EugkmOptions& o, std::size_t informative_dims);
void check_grid_hosts_k(const EugkmOptions& o, std::size_t informative_dims);

}  // namespace dpclust::eugkm
