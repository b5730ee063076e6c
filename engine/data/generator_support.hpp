#pragma once
// What every point generator needs, in one place for the dpclust stream (generators.cpp) and
// numpy's stream (sklearn_datasets.cpp): argument checks with the generator's name and the fix, an
// empty dataset of n x d with size caps checked before any allocation, sklearn's split of the points
// over groups, and the shuffle of the rows.
#include <cstddef>
#include <numeric>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "data/generators.hpp"  // the size caps

namespace dpclust {

void require(bool ok, const char* generator, const std::string& what, const std::string& fix);
void check_common(const char* generator, std::size_t n_samples, double noise);
// n rows of d coordinates: refuses more than kMaxGeneratedSamples rows or kMaxGeneratedValues values.
void check_size(const char* generator, std::size_t n, std::size_t d, const char* rows);
// Columns x0 .. x{d-1}, capacity reserved for n points with labels; checks the size first.
Dataset empty_dataset(const char* name, std::size_t n, std::size_t d);
// Reorders the points (coordinates and labels together) as X[order], y[order].
void take_rows(Dataset& ds, const std::vector<std::size_t>& order);
// Appends a 2-D point with its label (moons, circles).
void push_point(Dataset& ds, double x, double y, Label label);
// sklearn's split of n samples over k groups (make_blobs' centres, the arms of spirals): n // k each, one
// more for the first n % k.
std::vector<std::size_t> split_evenly(std::size_t n, std::size_t k);

// Permutes the rows as sklearn.utils.shuffle does: indices = arange(n); shuffle(indices); X[indices],
// y[indices]. `Random` is either stream (core/rng.hpp's Rng, core/numpy_random.hpp's NumpyRandomState):
// each shuffles an index array in place with its own Fisher-Yates.
template <class Random>
void shuffle_rows(Dataset& ds, Random& random) {
  std::vector<std::size_t> order(ds.n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  random.shuffle(order.data(), order.size());
  take_rows(ds, order);
}

}  // namespace dpclust
