#include "data/generator_support.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace dpclust {

void require(bool ok, const char* generator, const std::string& what, const std::string& fix) {
  if (!ok) throw InputError(generator, what, fix);
}

void check_common(const char* gen, std::size_t n_samples, double noise) {
  require(n_samples > 0, gen, "n_samples must be at least 1", "set n_samples to the number of points wanted");
  require(std::isfinite(noise) && noise >= 0, gen, "noise must be a finite value >= 0, got " + std::to_string(noise),
          "noise is the standard deviation of the Gaussian noise; use 0 for none");
}

// n rows of d coordinates: refuses more than kMaxGeneratedSamples rows or kMaxGeneratedValues values.
void check_size(const char* gen, std::size_t n, std::size_t d, const char* rows) {
  require(n <= kMaxGeneratedSamples, gen,
          std::string(rows) + " = " + std::to_string(n) + " exceeds the cap of " + std::to_string(kMaxGeneratedSamples),
          std::string("set ") + rows + " to at most 100000000 (or sub-sample a larger dataset)");
  std::size_t values = 0;
  require(!__builtin_mul_overflow(n, d, &values) && values <= kMaxGeneratedValues, gen,
          std::string(rows) + " x n_features = " + std::to_string(n) + " x " + std::to_string(d) +
              " coordinates exceeds the cap of " + std::to_string(kMaxGeneratedValues),
          std::string("lower ") + rows + " or n_features");
}

Dataset empty_dataset(const char* name, std::size_t n, std::size_t d) {
  check_size(name, n, d, "n_samples");
  Dataset ds;
  ds.name = name;
  ds.n = n;
  ds.d = d;
  ds.coords.reserve(n * d);
  ds.labels.reserve(n);
  for (std::size_t j = 0; j < d; ++j) {
    std::string col = "x";  // built in two steps: GCC 12 warns falsely (-Wrestrict) on "x" + to_string
    col += std::to_string(j);
    ds.column_names.push_back(std::move(col));
  }
  return ds;
}

void take_rows(Dataset& ds, const std::vector<std::size_t>& order) {
  std::vector<double> coords(ds.coords.size());
  Labels labels(ds.n);
  for (std::size_t i = 0; i < ds.n; ++i) {
    std::copy_n(ds.point(order[i]), ds.d, coords.data() + i * ds.d);
    labels[i] = ds.labels[order[i]];
  }
  ds.coords = std::move(coords);
  ds.labels = std::move(labels);
}

void push_point(Dataset& ds, double x, double y, Label label) {
  ds.coords.push_back(x);
  ds.coords.push_back(y);
  ds.labels.push_back(label);
}

std::vector<std::size_t> split_evenly(std::size_t n, std::size_t k) {
  std::vector<std::size_t> counts(k, n / k);
  for (std::size_t i = 0; i < n % k; ++i) ++counts[i];
  return counts;
}

}  // namespace dpclust
