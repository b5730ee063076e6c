#include "data/sklearn_datasets.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/numpy_random.hpp"
#include "data/blobs.hpp"
#include "data/generator_support.hpp"

namespace dpclust {

// ---- numpy's float64 sin / cos on AVX-512 CPUs ----------------------------------------------------
//
// numpy 1.24 dispatches float64 sin/cos to Intel SVML's AVX-512 "__svml_sin8" / "__svml_cos8" (low-
// accuracy variants, < 4 ulp) when the CPU has AVX512_SKX. Their short-argument path, rewritten from
// the instruction sequence (every step below is one correctly rounded IEEE operation or fused
// multiply-add, in the same order; the coefficients are SVML's):
//   sin x: N = rint(x / pi) (by adding 1.5 * 2^52), R = x - N*pi with pi split in three parts,
//          sin x = (-1)^N * (R + R * R^2 * P(R^2)), P of degree 6 evaluated by Horner.
//   cos x: cos |x| = sin(|x| + pi/2): N = floor(|x| / pi) (SVML adds 2^52 rounding toward zero),
//          R = (N + 1/2)*pi - |x|, cos x = (-1)^N * sin R by the same kind of polynomial;
//          |x| < 2^-27 gives 1.
// R^2 is taken before the third part of pi is applied, as SVML does.
namespace {

constexpr double kInvPi = 0x1.45f306dc9c883p-2;
// pi = kPi1 + kPi2 + kPi3 to about 160 bits (Cody & Waite style splitting).
constexpr double kPi1 = 0x1.921fb54442d18p+1;
constexpr double kPi2 = 0x1.1a62633145c06p-53;
constexpr double kPi3 = 0x1.c1cd129024e09p-106;

// Arguments beyond these take SVML's large-argument path, which is not reproduced.
constexpr double kSinFastPathLimit = 0x1.0p24;
constexpr double kCosFastPathMaxN = 8388606.0;  // floor(|x| / pi) above this leaves the fast path

double flip_sign(double v, std::uint64_t sign_bits) {
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) ^ sign_bits);
}

}  // namespace

double numpy_sin(double x) {
  if (!(std::fabs(x) <= kSinFastPathLimit)) return std::sin(x);  // also NaN and inf
  constexpr double shifter = 0x1.8p52;  // x/pi + shifter rounds x/pi to an integer in the last bits
  const double shifted = std::fma(x, kInvPi, shifter);
  const double n = shifted - shifter;
  std::uint64_t sign_bits = std::bit_cast<std::uint64_t>(shifted) << 63;  // (-1)^N
  if (x == 0) sign_bits = std::bit_cast<std::uint64_t>(x);                // keeps sin(-0) = -0
  double r = std::fma(-n, kPi1, x);
  r = std::fma(-kPi2, n, r);
  const double r2 = r * r;
  const double r_full = std::fma(-kPi3, n, r);
  double poly = std::fma(-0x1.9f1517e9f65f0p-41, r2, 0x1.60e6bee01d83ep-33);
  poly = std::fma(r2, poly, -0x1.ae6355aaa4a53p-26);
  poly = std::fma(r2, poly, 0x1.71de3806add1ap-19);
  poly = std::fma(r2, poly, -0x1.a01a019a659ddp-13);
  poly = std::fma(r2, poly, 0x1.111111110a573p-7);
  poly = std::fma(r2, poly, -0x1.55555555554a8p-3);
  return flip_sign(std::fma(r_full * r2, poly, r_full), sign_bits);
}

double numpy_cos(double x) {
  const double ax = std::fabs(x);
  if (ax < 0x1.0p-27) return 1.0;
  // floor of the exact product |x| * kInvPi, which SVML gets from one fma rounded toward zero: the
  // rounded product only misses it when it rounded up onto an integer.
  const double product = ax * kInvPi;
  double n = std::floor(product);
  if (n == product && std::fma(ax, kInvPi, -product) < 0) n -= 1;
  if (!(n <= kCosFastPathMaxN)) return std::cos(x);  // also NaN and inf
  const double n_half = n + 0.5;
  const std::uint64_t sign_bits = std::fmod(n, 2.0) != 0 ? std::uint64_t{1} << 63 : 0;
  double r = std::fma(n_half, kPi1, -ax);
  r = std::fma(n_half, kPi2, r);
  const double r2 = r * r;
  const double r_signed = flip_sign(std::fma(n_half, kPi3, r), sign_bits);
  double poly = std::fma(-0x1.9f0d60811aac8p-41, r2, 0x1.60e6857a2f220p-33);
  poly = std::fma(r2, poly, -0x1.ae63546002231p-26);
  poly = std::fma(r2, poly, 0x1.71de38030fea0p-19);
  poly = std::fma(r2, poly, -0x1.a01a019a5b87bp-13);
  poly = std::fma(r2, poly, 0x1.111111110a4a8p-7);
  poly = std::fma(r2, poly, -0x1.55555555554a7p-3);
  return std::fma(r_signed * r2, poly, r_signed);
}

std::vector<double> numpy_linspace(double start, double stop, std::size_t num, bool endpoint) {
  std::vector<double> y(num);
  const double delta = stop - start;
  const std::size_t div = endpoint ? (num > 0 ? num - 1 : 0) : num;
  const double div_d = static_cast<double>(div);
  const double step = div > 0 ? delta / div_d : 0.0;
  for (std::size_t i = 0; i < num; ++i) {
    const double index = static_cast<double>(i);
    if (div == 0) y[i] = index * delta;                // num <= 1: numpy multiplies by delta, not a step
    else if (step == 0) y[i] = index / div_d * delta;  // numpy's special case for a denormal step
    else y[i] = index * step;
    y[i] += start;
  }
  if (endpoint && num > 1) y[num - 1] = stop;
  return y;
}

// ---- generators ------------------------------------------------------------------------------------

namespace {

NumpyRandomState numpy_state(const char* generator, std::uint64_t seed) {
  require(seed <= std::numeric_limits<std::uint32_t>::max(), generator,
          "stream: numpy needs a seed below 2^32 (numpy's RandomState accepts 0 .. 4294967295), got " +
              std::to_string(seed),
          "use a seed in [0, 4294967295] (sklearn's random_state), or stream: dpclust for 64-bit seeds");
  return NumpyRandomState(static_cast<std::uint32_t>(seed));
}

// X += rs.normal(scale=noise, size=X.shape): row-major draws, each loc 0 + scale * gauss as numpy adds it.
void add_noise(Dataset& ds, NumpyRandomState& rs, double noise) {
  if (noise == 0) return;  // sklearn's noise=None: no draws
  for (double& x : ds.coords) x += rs.normal(0.0, noise);
}

// sklearn's moons and circles: the outer points (label 0) then the inner ones (label 1), then shuffle
// and noise. Returns the memory order of sklearn's array (see NumpyMemoryOrder).
const char* finish_two_classes(Dataset& ds, NumpyRandomState& rs, bool shuffle, double noise) {
  if (shuffle) shuffle_rows(ds, rs);
  add_noise(ds, rs, noise);
  return shuffle ? "C" : "F";
}

}  // namespace

Dataset sklearn_make_moons(const MoonsOptions& o) {
  const char* gen = "make_moons";
  check_common(gen, o.n_samples, o.noise);
  NumpyRandomState rs = numpy_state(gen, o.seed);
  const std::size_t n_out = o.n_samples / 2, n_in = o.n_samples - n_out;
  const double pi = 3.141592653589793;  // np.pi
  Dataset ds = empty_dataset("moons", o.n_samples, 2);
  for (double t : numpy_linspace(0, pi, n_out, true)) push_point(ds, numpy_cos(t), numpy_sin(t), 0);
  for (double t : numpy_linspace(0, pi, n_in, true)) push_point(ds, 1 - numpy_cos(t), 1 - numpy_sin(t) - 0.5, 1);
  const char* order = finish_two_classes(ds, rs, o.shuffle, o.noise);
  ds.provenance["generator"] = {{"name", "make_moons"},       {"n_samples", o.n_samples}, {"noise", o.noise},
                                {"shuffle", o.shuffle},       {"seed", o.seed},           {"stream", "numpy"},
                                {"numpy_memory_order", order}};
  return ds;
}

Dataset sklearn_make_circles(const CirclesOptions& o) {
  const char* gen = "make_circles";
  check_common(gen, o.n_samples, o.noise);
  require(o.factor >= 0 && o.factor < 1, gen, "factor must be in [0, 1), got " + std::to_string(o.factor),
          "factor is the inner circle's radius relative to the outer (sklearn's default 0.8)");
  NumpyRandomState rs = numpy_state(gen, o.seed);
  const std::size_t n_out = o.n_samples / 2, n_in = o.n_samples - n_out;
  const double two_pi = 2 * 3.141592653589793;  // 2 * np.pi, exact
  Dataset ds = empty_dataset("circles", o.n_samples, 2);
  // endpoint=False so that the first point is not repeated as the last.
  for (double t : numpy_linspace(0, two_pi, n_out, false)) push_point(ds, numpy_cos(t), numpy_sin(t), 0);
  for (double t : numpy_linspace(0, two_pi, n_in, false))
    push_point(ds, numpy_cos(t) * o.factor, numpy_sin(t) * o.factor, 1);
  const char* order = finish_two_classes(ds, rs, o.shuffle, o.noise);
  ds.provenance["generator"] = {{"name", "make_circles"}, {"n_samples", o.n_samples},   {"noise", o.noise},
                                {"factor", o.factor},     {"shuffle", o.shuffle},       {"seed", o.seed},
                                {"stream", "numpy"},      {"numpy_memory_order", order}};
  return ds;
}

Dataset sklearn_make_blobs(const BlobsOptions& o) {
  require(o.n_samples > 0, "make_blobs", "n_samples must be at least 1",
          "set n_samples to the number of points wanted");
  NumpyRandomState rs = numpy_state("make_blobs", o.seed);
  Dataset ds = draw_blobs(o, rs);
  ds.provenance["generator"]["stream"] = "numpy";
  ds.provenance["generator"]["numpy_memory_order"] = "C";  // X = np.empty((n, d)) is C-ordered
  return ds;
}

// ---- StandardScaler ---------------------------------------------------------------------------------

namespace {

constexpr std::size_t kNumpyBufferSize = 8192;  // NPY_BUFSIZE: a buffered reduction's chunk length

// numpy's pairwise summation of n values at stride `stride` (its pairwise_sum for float64): below 8
// values a plain loop, up to 128 eight interleaved accumulators combined as a tree, above that the
// two halves (split at a multiple of 8) recursively.
double numpy_pairwise_sum(const double* a, std::size_t n, std::size_t stride) {
  if (n < 8) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += a[i * stride];
    return sum;
  }
  if (n <= 128) {
    double acc[8];
    for (std::size_t j = 0; j < 8; ++j) acc[j] = a[j * stride];
    std::size_t i = 8;
    for (; i < n - n % 8; i += 8)
      for (std::size_t j = 0; j < 8; ++j) acc[j] += a[(i + j) * stride];
    double sum = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
    for (; i < n; ++i) sum += a[i * stride];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return numpy_pairwise_sum(a, half, stride) + numpy_pairwise_sum(a + half * stride, n - half, stride);
}

// np.sum(X, axis=0)[j] for an (n, d) array of the given memory order, X's values being `values`
// (row-major n x d). C order: the rows are added one after another. F order: each column is reduced
// pairwise, chunk by chunk of the iterator's buffer.
double numpy_column_sum(const std::vector<double>& values, std::size_t n, std::size_t d, std::size_t j,
                        NumpyMemoryOrder order) {
  double sum = 0.0;
  if (order == NumpyMemoryOrder::c_contiguous) {
    for (std::size_t i = 0; i < n; ++i) sum += values[i * d + j];
    return sum;
  }
  for (std::size_t start = 0; start < n; start += kNumpyBufferSize)
    sum += numpy_pairwise_sum(values.data() + start * d + j, std::min(kNumpyBufferSize, n - start), d);
  return sum;
}

// sklearn.preprocessing._data._is_constant_feature.
bool is_constant_feature(double var, double mean, double n) {
  const double eps = std::numeric_limits<double>::epsilon();
  const double upper = n * eps * var + (n * mean * eps) * (n * mean * eps);
  return var <= upper;
}

NumpyMemoryOrder memory_order_of(const Dataset& data) {
  const auto gen = data.provenance.find("generator");
  if (gen == data.provenance.end() || !gen->is_object()) return NumpyMemoryOrder::c_contiguous;
  const auto order = gen->find("numpy_memory_order");
  if (order != gen->end() && order->is_string() && order->get<std::string>() == "F")
    return NumpyMemoryOrder::f_contiguous;
  return NumpyMemoryOrder::c_contiguous;
}

}  // namespace

void sklearn_standard_scale(Dataset& data) { sklearn_standard_scale(data, memory_order_of(data)); }

void sklearn_standard_scale(Dataset& data, NumpyMemoryOrder order) {
  const std::string where = "sklearn_standard_scale";
  if (data.n == 0) throw InputError(where, "dataset '" + data.name + "' has no points", "scale a non-empty dataset");
  for (double x : data.coords)
    if (!std::isfinite(x))
      throw InputError(where, "dataset '" + data.name + "' has a NaN or infinite coordinate",
                       "remove or impute non-finite values before scaling");
  const std::size_t n = data.n, d = data.d;
  const double count = static_cast<double>(n);
  std::vector<double> mean(d), scale(d);
  std::vector<double> deviations(data.coords.size());
  // _incremental_mean_and_var on a first batch (last mean, variance and count all 0).
  for (std::size_t j = 0; j < d; ++j) {
    const double sum = numpy_column_sum(data.coords, n, d, j, order);
    mean[j] = (0.0 + sum) / count;          // (last_sum + new_sum) / updated_count
    const double batch_mean = sum / count;  // T = new_sum / new_count
    for (std::size_t i = 0; i < n; ++i) deviations[i * d + j] = data.coords[i * d + j] - batch_mean;
    const double correction = numpy_column_sum(deviations, n, d, j, order);
    for (std::size_t i = 0; i < n; ++i) deviations[i * d + j] *= deviations[i * d + j];
    double unnormalized = numpy_column_sum(deviations, n, d, j, order);
    // Chan, Golub & LeVeque's correction: removes the rounding error left in the mean.
    unnormalized -= correction * correction / count;
    const double var = unnormalized / count;
    scale[j] = is_constant_feature(var, mean[j], count) ? 1.0 : std::sqrt(var);
  }
  // transform: X -= mean_; X /= scale_.
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) data.coords[i * d + j] = (data.coords[i * d + j] - mean[j]) / scale[j];
  for (std::size_t j = 0; j < data.bounds.dims(); ++j) {
    data.bounds.lo[j] = (data.bounds.lo[j] - mean[j]) / scale[j];
    data.bounds.hi[j] = (data.bounds.hi[j] - mean[j]) / scale[j];
  }
  auto& transforms = data.provenance["transforms"];
  if (!transforms.is_array()) transforms = nlohmann::json::array();
  transforms.push_back({{"name", "sklearn_standard_scale"},
                        {"mean", mean},
                        {"scale", scale},
                        {"numpy_memory_order", order == NumpyMemoryOrder::c_contiguous ? "C" : "F"},
                        {"bounds_scaled", !data.bounds.empty()},
                        {"note", "standard scaling uses data mean/std"}});
}

}  // namespace dpclust
