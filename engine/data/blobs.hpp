#pragma once
// make_blobs (generators.hpp) for both random streams: the dpclust stream (core/rng.hpp) and numpy's
// RandomState (sklearn_datasets.hpp). They differ only in their draws, so the steps of
// sklearn.datasets.make_blobs are written once here:
//   1. the centres: `centers` when given; else n_centers x n_features draws uniform(low, high) of
//      center_box, row-major as numpy's uniform(size=(n_centers, n_features)), before anything else;
//   2. per centre c, in order: n_samples // k points, one more for the first n_samples % k, each
//      coordinate normal(centre[j], cluster_std[c]), row-major; label c;
//   3. the rows shuffled (shuffle_rows) when `shuffle`.
// provenance["generator"] holds every parameter and the centres used; the numpy stream adds its own keys.
#include <cmath>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "data/generator_support.hpp"
#include "data/generators.hpp"

namespace dpclust {

template <class Random>
std::vector<std::vector<double>> blob_centers(const BlobsOptions& o, Random& random) {
  if (!o.centers.empty()) {
    const std::size_t d = o.centers.front().size();
    for (const auto& c : o.centers)
      require(d > 0 && c.size() == d, "make_blobs", "all centers must have the same dimension (>= 1)",
              "give every center the same number of coordinates");
    return o.centers;
  }
  require(o.n_centers > 0 && o.n_features > 0, "make_blobs", "n_centers and n_features must be at least 1",
          "set centers to a count >= 1 and n_features >= 1");
  const auto [lo, hi] = o.center_box;
  // hi - lo finite: both ends finite, and a width a uniform draw can scale without overflowing.
  require(std::isfinite(hi - lo) && lo <= hi, "make_blobs", "center_box must be finite with low <= high",
          "e.g. center_box: [-10, 10]");
  std::vector<std::vector<double>> centers(o.n_centers, std::vector<double>(o.n_features));
  for (auto& c : centers)
    for (double& x : c) x = random.uniform(lo, hi);
  return centers;
}

template <class Random>
Dataset draw_blobs(const BlobsOptions& o, Random& random) {
  const std::vector<std::vector<double>> centers = blob_centers(o, random);
  const std::size_t k = centers.size(), d = centers.front().size();
  require(o.cluster_std.size() == 1 || o.cluster_std.size() == k, "make_blobs",
          "cluster_std has " + std::to_string(o.cluster_std.size()) + " values for " + std::to_string(k) + " centers",
          "give one cluster_std for all centers or one per center");
  for (double s : o.cluster_std)
    require(std::isfinite(s) && s >= 0, "make_blobs", "cluster_std must be finite and >= 0", "fix cluster_std");
  Dataset ds = empty_dataset("blobs", o.n_samples, d);
  const std::vector<std::size_t> counts = split_evenly(o.n_samples, k);
  for (std::size_t c = 0; c < k; ++c) {
    const double sd = o.cluster_std.size() == 1 ? o.cluster_std[0] : o.cluster_std[c];
    for (std::size_t i = 0; i < counts[c]; ++i) {
      for (std::size_t j = 0; j < d; ++j) ds.coords.push_back(random.normal(centers[c][j], sd));
      ds.labels.push_back(static_cast<Label>(c));
    }
  }
  if (o.shuffle) shuffle_rows(ds, random);
  ds.provenance["generator"] = {{"name", "make_blobs"},
                                {"n_samples", o.n_samples},
                                {"n_features", d},
                                {"centers", centers},
                                {"centers_given", !o.centers.empty()},
                                {"cluster_std", o.cluster_std},
                                {"center_box", {o.center_box.first, o.center_box.second}},
                                {"shuffle", o.shuffle},
                                {"seed", o.seed}};
  return ds;
}

}  // namespace dpclust
