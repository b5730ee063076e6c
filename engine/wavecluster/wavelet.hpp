#pragma once
// WaveCluster step 2 (arXiv Sec. 3.2 "Wavelet transform"): the average subband (approximation) of a
// separable discrete wavelet transform of the count matrix, for any dimension d >= 1 and level >= 1.
// Only the approximation is needed: significant grids are chosen from it (Sec. 3.2, "Significant grid
// identification"), so the detail subbands are never formed.
//
// One level applies the analysis low-pass filter followed by downsampling by 2 along every dimension
// in turn; a dimension of length n becomes ceil(n / 2). All filters are orthonormally scaled (sum of
// taps = sqrt 2), so for Haar the level-1 value of a 2x2 block is (sum of its 4 counts) / 2, as
// SPEC.md requires (it reproduces DS2's |L| = 159, |Z| = 241).
//
//   haar     a_i = (x_{2i} + x_{2i+1}) / sqrt 2
//   bior2.2  a_i = sqrt 2 (-x_{2i-2}/8 + x_{2i-1}/4 + 3 x_{2i}/4 + x_{2i+1}/4 - x_{2i+2}/8)
//            (the CDF 5/3 analysis low-pass of pywt/MATLAB 'bior2.2', taps
//            [-1/8, 1/4, 3/4, 1/4, -1/8] * sqrt 2, centred on the even sample so that approximation
//            cell i covers cells 2i and 2i+1 like Haar and a point maps to cell floor(c / 2^level)).
//   db2      a_i = h0 x_{2i} + h1 x_{2i+1} + h2 x_{2i+2} + h3 x_{2i+3}, the Daubechies wavelet with two
//            vanishing moments (4 taps; the arXiv text, Sec. 3.2, names "Daubechies transform" beside
//            Haar and biorthogonal). Coefficients: Daubechies, "Orthonormal bases of compactly supported
//            wavelets", Comm. Pure Appl. Math. 41 (1988), Table 1 (N = 2), in closed form
//            h = [1 + sqrt3, 3 + sqrt3, 3 - sqrt3, 1 - sqrt3] / (4 sqrt2)
//              = [0.482962913145, 0.836516303738, 0.224143868042, -0.129409522551]
//            (also Ten Lectures on Wavelets, 1992, Table 6.1; pywt's 'db2' rec_lo). Orthonormal: sum h = sqrt2,
//            sum h^2 = 1, sum h_t h_{t+2} = 0, so with periodic extension the transform is perfectly
//            invertible. Aligned like Haar (offset 0, the textbook a_i = sum_n h_{n-2i} x_n): the
//            filter's centre of mass is at 2i + (3 - sqrt3)/2 = 2i + 0.634, inside the cell pair (2i, 2i+1);
//            pywt's dwt puts the same taps on x_{2i-2..2i+1}, i.e. its output is ours shifted by one cell.
//
// Boundary handling (where a filter reads outside [0, n)): the paper does not say. Default "zero":
// the count matrix is zero outside the public domain, which is what a count means there, keeps the
// subband aligned with the grid and makes no cell at the border count twice. "symmetric" is the
// half-sample reflection x_{-1} = x_0, x_n = x_{n-1} (pywt's default mode 'symmetric', MATLAB's
// 'sym'); "periodic" wraps around (pywt 'periodization'-like). The subband always has ceil(n / 2)
// cells per dimension and level (pywt's 'symmetric'/'zero' modes would add filter-length - 1 border
// coefficients that correspond to no grid cell; we drop them). With Haar and even n every mode gives
// the same result; with odd n the last Haar value is x_{n-1}/sqrt 2 (zero) or 2 x_{n-1}/sqrt 2 (symmetric).
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wavecluster/choice.hpp"
#include "wavecluster/grid.hpp"

namespace dpclust::wavecluster {

// Choice parameters `wavelet` and `boundary` (choice.hpp): the names below are the only ones accepted.
enum class Wavelet { haar, bior2_2, db2 };
enum class Boundary { zero, symmetric, periodic };
template <>
struct ChoiceNames<Wavelet> {
  static constexpr std::array<std::pair<Wavelet, std::string_view>, 3> names{
      {{Wavelet::haar, "haar"}, {Wavelet::bior2_2, "bior2.2"}, {Wavelet::db2, "db2"}}};
};
template <>
struct ChoiceNames<Boundary> {
  static constexpr std::array<std::pair<Boundary, std::string_view>, 3> names{
      {{Boundary::zero, "zero"}, {Boundary::symmetric, "symmetric"}, {Boundary::periodic, "periodic"}}};
};

Wavelet parse_wavelet(const std::string& name);    // "haar", "bior2.2", "db2"
Boundary parse_boundary(const std::string& name);  // "zero", "symmetric", "periodic"
const char* to_string(Wavelet w);
const char* to_string(Boundary b);

struct WaveletSpec {
  Wavelet wavelet = Wavelet::haar;
  int level = 1;
  Boundary boundary = Boundary::zero;
};

// Analysis low-pass filter: a_i = sum_t taps[t] * x[2i + t - offset].
struct LowpassFilter {
  std::vector<double> taps;
  int offset = 0;
};
LowpassFilter lowpass_filter(Wavelet w);

// One level along one axis: n input samples (stride `in_stride`) -> ceil(n/2) outputs (stride `out_stride`).
void lowpass_1d(const double* x, std::size_t n, std::size_t in_stride, double* y, std::size_t out_stride,
                const LowpassFilter& f, Boundary b);

// The average subband of `m` (shape `shape`) after spec.level levels; its shape is shape.coarsened(level).
std::vector<double> approximation(const std::vector<double>& m, const GridShape& shape, const WaveletSpec& spec);

// How much one record (one count +-1 anywhere in the grid) can change the two data-dependent
// quantities the private mechanisms release, derived from the filter (arXiv footnote to Alg. 1 / 2:
// "depends on the count of positive values and the count of negative values in the matrix computed by
// the coefficient vector"). For a unit change at cell c the approximation changes by the column
// R_c = (x)_j A_j^(level) e_{c_j} of the (separable) linear map. An added record raises the P values
// with a positive coefficient and lowers the N values with a negative one, so
//   |Z| (count of non-positive values) changes by at most max(P, N)         -> nonpositive_count
//   the EM quality |rank(x) - k| changes by at most P + N (rank and k move) -> rank_quality
// maximised over all cells c (boundary columns included). Haar at any level and dimension: P = 1,
// N = 0, so both are 1, the paper's values. bior2.2 level 1 in 2D: the interior columns are the
// outer products of [-1/8, 3/4, -1/8] or [1/4, 1/4] (times sqrt 2) with each other; the 3x3 one has
// P = 5, N = 4, so |Z| has sensitivity 5 and the EM quality 9. db2 level 1: a unit at an even cell
// reaches (h0, h2), both positive, at an odd cell (h1, h3), one of each, so in 2D the worst column
// has P = 4 (|Z| sensitivity 4) and P + N = 4 (EM quality 4).
struct Sensitivity {
  double nonpositive_count = 1;
  double rank_quality = 1;
};
Sensitivity sensitivity(const GridShape& shape, const WaveletSpec& spec);

}  // namespace dpclust::wavecluster
