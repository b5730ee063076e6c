#pragma once
// What every point generator needs, in one place for the dpclust stream (generators.cpp) and
// numpy's stream (sklearn_datasets.cpp): argument checks with the generator's name and the fix, an
// empty dataset of n x d with size caps checked before any allocation, and a row permutation.
#include <cstddef>
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

}  // namespace dpclust
