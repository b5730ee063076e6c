#pragma once
// Synthetic point sets. make_moons / make_circles / make_blobs follow scikit-learn's definitions and
// parameter names exactly (the point layout, the per-class split, the order of shuffle and noise), so
// a paper's "sklearn moons with noise 0.05" means the same distribution here. By default the random
// stream is dpclust::Rng, not numpy's: the same seed gives the same points on every platform, but not
// the points numpy would draw. With `stream = RandomStream::numpy` those three draw from numpy's
// RandomState exactly as scikit-learn 1.2.1 does and return sklearn's points bit for bit
// (data/sklearn_datasets.hpp).
//
// Every generator sets provenance["generator"] = {name, every parameter, seed}; labels are the
// true classes (-1 for noise points); no bounds are set (the config supplies them).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/dataset.hpp"
#include "core/numpy_random.hpp"
#include "core/params.hpp"

namespace dpclust {

// Size caps of the generators (the config schema bounds n_samples, centers, n_features to the same):
// every generator throws dpclust::InputError before allocating more than kMaxGeneratedValues
// coordinates (n_samples x n_features, or centers x n_features), products computed with overflow checks.
inline constexpr std::size_t kMaxGeneratedSamples = 100'000'000;   // n_samples
inline constexpr std::size_t kMaxGeneratedValues = 1'000'000'000;  // coordinates in all (8 GB of doubles)

// The random stream a generator draws from.
//   dpclust  dpclust::Rng (mt19937_64 + Boost): any uint64 seed; the project's own points.
//   numpy    numpy.random.RandomState(seed), drawn as scikit-learn draws: sklearn's own points for the
//            same seed (moons, circles and blobs only); the seed must be below 2^32.
// (RandomStream and its names: core/numpy_random.hpp.)
// The generator parameter `stream` (choices dpclust | numpy, default dpclust), declared once for every
// generator that offers it, and its value in a validated parameter set (dpclust when absent).
ParamSpec random_stream_param();
RandomStream random_stream_of(const ParamSet& params);

// sklearn.datasets.make_moons: two interleaving half circles; outer (label 0) gets n_samples // 2
// points, inner (label 1) the rest.
struct MoonsOptions {
  std::size_t n_samples = 100;
  double noise = 0.0;  // standard deviation of Gaussian noise added to every coordinate
  bool shuffle = true;
  std::uint64_t seed = 0;
  RandomStream stream = RandomStream::dpclust;
};
Dataset make_moons(const MoonsOptions& options);
Dataset make_moons(std::size_t n_samples, double noise, std::uint64_t seed);

// sklearn.datasets.make_circles: a unit circle (label 0, n_samples // 2 points) around a circle of
// radius `factor` (label 1, the rest).
struct CirclesOptions {
  std::size_t n_samples = 100;
  double noise = 0.0;
  double factor = 0.8;  // inner radius, in [0, 1)
  bool shuffle = true;
  std::uint64_t seed = 0;
  RandomStream stream = RandomStream::dpclust;
};
Dataset make_circles(const CirclesOptions& options);
Dataset make_circles(std::size_t n_samples, double noise, double factor, std::uint64_t seed);

// sklearn.datasets.make_blobs: isotropic Gaussian blobs, label = center index. Center i gets
// n_samples // n_centers points, plus one for the first n_samples % n_centers centers.
struct BlobsOptions {
  std::size_t n_samples = 100;
  std::size_t n_features = 2;                  // ignored when `centers` is given (its rows fix the dimension)
  std::size_t n_centers = 3;                   // sklearn's `centers` as a count: drawn uniformly in center_box
  std::vector<std::vector<double>> centers{};  // sklearn's `centers` as an array; overrides n_centers
  std::vector<double> cluster_std = {1.0};     // one value for all centers, or one per center
  std::pair<double, double> center_box = {-10.0, 10.0};
  bool shuffle = true;
  std::uint64_t seed = 0;
  RandomStream stream = RandomStream::dpclust;
};
// provenance["generator"]["centers"] holds the centers used (drawn or given).
Dataset make_blobs(const BlobsOptions& options);

// A Gaussian mixture: the component of each point is drawn with probability `weights` (multinomial
// counts, as sklearn's GaussianMixture.sample), label = component.
struct GaussianMixtureOptions {
  std::size_t n_samples = 100;
  std::vector<std::vector<double>> means{};        // one per component, all of the same dimension d
  std::vector<std::vector<double>> covariances{};  // per component, d*d row-major, positive definite
  std::vector<double> sd{};                        // or: isotropic sd per component (one value = all; neither = 1)
  std::vector<double> weights{};                   // empty = equal; normalised to sum 1
  bool shuffle = true;
  std::uint64_t seed = 0;
};
Dataset gaussian_mixture(const GaussianMixtureOptions& options);

// n_arms interleaved Archimedean spirals in 2D: arm k holds points at radius s and angle
// 2*pi*(turns*s + k/n_arms) with s ~ U[0,1), plus Gaussian noise; label = arm. Arms get points as
// make_blobs splits them.
struct SpiralsOptions {
  std::size_t n_samples = 100;
  std::size_t n_arms = 2;
  double noise = 0.0;
  double turns = 1.0;
  bool shuffle = true;
  std::uint64_t seed = 0;
};
Dataset spirals(const SpiralsOptions& options);

// Points uniform in the box `bounds`, all labelled -1 (background noise to mix with clusters).
Dataset uniform_noise(std::size_t n_samples, const Bounds& bounds, std::uint64_t seed);

}  // namespace dpclust
