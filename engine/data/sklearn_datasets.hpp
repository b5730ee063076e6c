#pragma once
// scikit-learn 1.2.1's make_moons, make_circles, make_blobs and StandardScaler, reproduced bit for bit
// on numpy 1.24's legacy random stream (core/numpy_random.hpp), so that e.g.
//   X, y = make_circles(n_samples=2000, factor=0.5, noise=0.05, random_state=30)
//   X = StandardScaler().fit_transform(X)
// gives here the same doubles as in Python, and the Circles / Moons / Blobs files of the DP-DBSCAN
// evaluation can be regenerated without a download. The generators in data/generators.hpp call these
// when their options say `stream = RandomStream::numpy`.
//
// What "bit for bit" needed, step by step (sklearn/datasets/_samples_generator.py, 1.2.1):
//   linspace   numpy's: i * (delta / div) + start, the endpoint set to stop (numpy_linspace below).
//   sin, cos   numpy 1.24 on a CPU with AVX-512 (Skylake-X and later) evaluates float64 sin/cos with
//              Intel's SVML, not the C library: about 2 in 3 results differ from glibc's in the last
//              bit. numpy_sin / numpy_cos below reproduce SVML's short-vector algorithm (see the .cpp);
//              the reference files were made that way. On a CPU without AVX-512 numpy uses the C
//              library and would have produced other last bits (and other files).
//   shuffle    sklearn.utils.shuffle -> resample(replace=False): indices = arange(n);
//              RandomState.shuffle(indices); rows = rows[indices] (labels alike).
//   noise      drawn after the shuffle: X += normal(scale=noise, size=(n, 2)), row-major; noise = 0
//              is taken as sklearn's default noise=None (no draws at all).
//   blobs      uniform centres only when `centers` is a count; then per centre
//              normal(loc=centre, scale=std, size=(n_i, d)) row-major; then the shuffle.
// Seeds must be below 2^32 (numpy's RandomState accepts no more); larger seeds throw InputError.
//
// provenance["generator"] holds every parameter, "stream": "numpy", and "numpy_memory_order": the
// memory order ("C" or "F") of the array sklearn returns, which decides StandardScaler's summation order.
#include <cstddef>
#include <vector>

#include "core/dataset.hpp"
#include "data/generators.hpp"

namespace dpclust {

Dataset sklearn_make_moons(const MoonsOptions& options);
Dataset sklearn_make_circles(const CirclesOptions& options);
Dataset sklearn_make_blobs(const BlobsOptions& options);

// Memory order of the (n, d) array scikit-learn holds. make_moons / make_circles build
// vstack([xs, ys]).T, a Fortran-ordered array; indexing it with the shuffled indices makes a C-ordered
// copy, so only their unshuffled output is Fortran-ordered.
enum class NumpyMemoryOrder { c_contiguous, f_contiguous };

// sklearn.preprocessing.StandardScaler().fit_transform(X) on finite float64 data, bit for bit:
//   mean  = sum(X[:, j]) / n;  var = (sum((x - mean)^2) - sum(x - mean)^2 / n) / n  (Chan, Golub &
//   LeVeque's corrected two-pass algorithm, sklearn.utils.extmath._incremental_mean_and_var);
//   scale = sqrt(var), or 1 for a feature constant within rounding (_is_constant_feature);
//   x' = (x - mean) / scale.
// numpy's sum along axis 0 adds a C-ordered array's rows one after another, but reduces each column of
// a Fortran-ordered array pairwise (in blocks of 8192), so the order changes the last bits.
// The one-argument form takes the order from provenance["generator"]["numpy_memory_order"] (C when
// absent). Appends {"name": "sklearn_standard_scale", mean, scale, ...} to provenance["transforms"];
// bounds, if set, are mapped like the points. Throws InputError on NaN/inf (sklearn rejects inf; NaN
// handling is not reproduced) or on an empty dataset.
void sklearn_standard_scale(Dataset& data);
void sklearn_standard_scale(Dataset& data, NumpyMemoryOrder order);

// numpy.linspace(start, stop, num, endpoint) in numpy 1.24's operation order.
std::vector<double> numpy_linspace(double start, double stop, std::size_t num, bool endpoint);

// numpy 1.24's float64 sin / cos on AVX-512 CPUs (Intel SVML's algorithm): bit-identical for
// |x| <= 2^24 (sin) and |x| < 8388607 * pi (cos); beyond that SVML switches to a large-argument
// reduction that is not reproduced, and these return the C library's value.
double numpy_sin(double x);
double numpy_cos(double x);

}  // namespace dpclust
