#pragma once
// DPM's separator search: the candidate splits of one node, their scores, and the exponential mechanism
// that picks one (reference: DPM._split, _compute_scores, _emptiness, _centerness and
// _exponential_mechanism, dpm.py of UzL-PrivSec/dp-mondrian-clustering; the paper's emptiness and
// centreness scores).
//
// Candidates: in dimension j the m_j = int((hi_j - lo_j) / w) positions c_ji = (lo_j + i w) + w / 2,
// i = 0..m_j-1 (np.arange(lo, hi + w, w)[:m + 1] shifted by w / 2), on a public grid: the set does not
// depend on the data. A split sends x with x_j <= c to one child and x_j > c to the other.
// Scores of a node with noisy count N (its released count) and points P:
//   emptiness   E = clip(1 - h / N, 0, 1), h the number of points of P in the candidate's histogram bin;
//   centreness  C(p) with p = #{x in P : x_j < c} (numpy's searchsorted, side left):
//                 |N/2 - p| >= N/2 - N q:  (N/2 - |p - N/2|) t / (N q)                 (the outer q N on each side)
//                 otherwise:               (t - 2q) / (1 - 2q) + (N/2 - |p - N/2|) (1 - t) / (N/2 - N q)
//               continuous, 0 at p = 0 and p = N, t at p = q N and N - q N, 1 at the median;
//   score       w_c C + w_e E   (w_c = 1, w_e = 5, t = 0.3, q = 1/12 in the reference).
// N <= 0: every score is 0 (the reference's early return), a uniform choice.
// The histogram, `histogram_bins`:
//   reference  (default) what the reference computes: fast_histogram's histogram1d(x_j, bins = m_j,
//              range = (lo_j, hi_j)), i.e. m_j bins of width (hi_j - lo_j) / m_j >= w, which are NOT the
//              candidates' intervals unless w divides hi_j - lo_j: bin i drifts from [lo + i w, lo + (i+1) w)
//              by up to i ((hi - lo) / m - w) (on synth_10d, w = 14.75, m = 13: bins of 15.38, the last
//              candidate's bin starts 7.6 past its interval). Bin of x: int((x - lo) (1 / (hi - lo)) m), the
//              top edge in the last bin (fast_histogram >= 0.12), values outside [lo, hi] in none.
//   aligned    the candidate's own interval [lo + i w, lo + (i+1) w) (the strip past lo + m w in none): the
//              emptiness of the interval the separator sits in, as the paper describes the score.
// Sensitivity: one point moves h by 1 (E by at most 1/N) and p by 1 (C by at most its largest slope,
// max(t / q, 2 (1 - t) / (1 - 2q)) / N); the reference charges w_c (t / q) / N' + w_e / N' with
// N' = max(N + ln(2 delta_c) / eps_c, 1), its lower bound of the count, which is <= N when N >= 1 and covers
// both slopes whenever t / q >= 2 (1 - t) / (1 - 2q) (the defaults: 3.6 >= 1.68). score_sensitivity takes
// the larger slope, so other (t, q) stay private; at the defaults it is the reference's number. A noisy N
// in (0, 1) (the textbook sampler's continuous count) is below N' = 1: the sensitivity then uses N, the
// smaller (split_tree.hpp, split_score_sensitivity).
// The choice, `sampler`:
//   secure    the exact exponential mechanism (privacy/exponential.hpp, Ilvento 2020's requirements): scores
//             quantised to integer qualities floor(score K / Delta) (K = kQualityUnits), charged with
//             sensitivity K + 2 units (floor keeps a sensitivity of K; the doubles' rounding of the score can
//             add one unit on each side), distances to the best quality capped at 2^40 (a 1-Lipschitz
//             clamp). The probabilities are exactly proportional to exp(-gamma distance), gamma =
//             eps / (2 (K + 2)) rounded down: the reference's exp(eps (u - max u) / (2 Delta)) up to the
//             quantisation (a flatter distribution by the factor K / (K + 2)).
//   textbook  the reference's diffprivlib Exponential: probabilities exp(eps (u - max u) / (2 Delta)) in
//             doubles, one uniform against their cumulative sum.
// Noise scale f (testable noise): f = 0 picks the best candidate (the first of equal best), else eps / f.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "privacy/exponential.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpm {

enum class HistogramBins { reference, aligned };
const char* to_string(HistogramBins b);

struct ScoreWeights {
  double w_c = 1.0;       // weight of the centreness
  double w_e = 5.0;       // weight of the emptiness
  double t = 0.3;         // centreness at the q-quantiles
  double q = 1.0 / 12.0;  // the outer quantile of the centreness ramp
};

// The candidate positions of every dimension, from the public box and the interval size w.
struct CandidateGrid {
  double interval = 0;
  HistogramBins bins = HistogramBins::reference;
  std::vector<double> lo, hi;       // per dimension
  std::vector<std::size_t> count;   // m_j
  std::vector<std::size_t> offset;  // flattened index of (j, 0): sum of m_0..m_{j-1}
  std::vector<double> position;     // c_ji, flattened dimension-major
  std::size_t total() const { return position.size(); }
};
CandidateGrid candidate_grid(const std::vector<double>& lo, const std::vector<double>& hi, double interval,
                             HistogramBins bins);

// The reference's centreness C(p) for a node of noisy count N (> 0).
double centreness(double noisy_count, double q, double t, double p);
// The utility sensitivity for a node whose count lower bound is n_lower (>= 1).
double score_sensitivity(const ScoreWeights& w, double n_lower);

// Scratch buffers reused across nodes (no allocation per point or per node once grown).
struct ScoreScratch {
  std::vector<std::uint32_t> below;   // per candidate bucket: points with exactly i positions <= x
  std::vector<std::uint32_t> in_bin;  // per candidate: histogram count
};

// The scores of every candidate (flattened, dimension-major) for the node holding points `members`
// (indices into the row-major n x d coords, already clamped into the box).
void node_scores(const double* coords, std::size_t d, const std::uint32_t* members, std::size_t size,
                 const CandidateGrid& grid, double noisy_count, const ScoreWeights& w, std::vector<double>& scores,
                 ScoreScratch& scratch);

// The exact mechanism's integer distances of the candidates: floor(best K / Delta) - floor(score K / Delta),
// capped at 2^40 (K = kQualityUnits). Every candidate is one block of one outcome.
std::vector<std::uint64_t> candidate_distances(const std::vector<double>& scores, double sensitivity);

// The choice among the candidates. `exact` is the level's exact mechanism (secure), built for
// sensitivity K + 2 units; the textbook path uses `epsilon` and the noise scale directly.
std::size_t choose_candidate(const std::vector<double>& scores, double sensitivity, privacy::Sampler sampler,
                             const privacy::ExponentialMechanism* exact, double epsilon, double noise_scale, Rng& rng);

}  // namespace dpclust::dpm
