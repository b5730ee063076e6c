#include "data/generators.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "data/blobs.hpp"
#include "data/generator_support.hpp"
#include "data/sklearn_datasets.hpp"

namespace dpclust {

ParamSpec random_stream_param() {
  return choice_param("stream", "dpclust", random_stream_names(),
                      "random stream: dpclust (mt19937_64, any seed) or numpy (scikit-learn's exact points; "
                      "RandomState, seed < 2^32)");
}

RandomStream random_stream_of(const ParamSet& params) {
  return params.has("stream") ? parse_random_stream(params.string("stream"), "stream") : RandomStream::dpclust;
}

namespace {

// numpy.linspace: start + i*step, with the endpoint set exactly, so n = 1 gives {start}.
std::vector<double> linspace(double start, double stop, std::size_t num, bool endpoint) {
  std::vector<double> out(num);
  const std::size_t div = endpoint ? (num > 1 ? num - 1 : 1) : num;
  const double step = div ? (stop - start) / static_cast<double>(div) : 0.0;
  for (std::size_t i = 0; i < num; ++i) out[i] = start + static_cast<double>(i) * step;
  if (endpoint && num > 1) out[num - 1] = stop;
  return out;
}

// Gaussian noise on every coordinate, row-major; skipped at 0 so noiseless points are exact.
void add_noise(Dataset& ds, Rng& rng, double sd) {
  if (sd == 0) return;
  for (double& x : ds.coords) x += sd * rng.normal();
}

}  // namespace

Dataset make_moons(const MoonsOptions& o) {
  check_size("make_moons", o.n_samples, 2, "n_samples");
  if (o.stream == RandomStream::numpy) return sklearn_make_moons(o);
  check_common("make_moons", o.n_samples, o.noise);
  const std::size_t n_out = o.n_samples / 2, n_in = o.n_samples - n_out;
  Dataset ds = empty_dataset("moons", o.n_samples, 2);
  for (double t : linspace(0, std::numbers::pi, n_out, true)) push_point(ds, std::cos(t), std::sin(t), 0);
  for (double t : linspace(0, std::numbers::pi, n_in, true)) push_point(ds, 1 - std::cos(t), 1 - std::sin(t) - 0.5, 1);
  Rng rng(o.seed);
  if (o.shuffle) shuffle_rows(ds, rng);  // sklearn shuffles first, then adds noise
  add_noise(ds, rng, o.noise);
  ds.provenance["generator"] = {
      {"name", "make_moons"}, {"n_samples", o.n_samples}, {"noise", o.noise}, {"shuffle", o.shuffle}, {"seed", o.seed}};
  return ds;
}

Dataset make_moons(std::size_t n_samples, double noise, std::uint64_t seed) {
  return make_moons(MoonsOptions{.n_samples = n_samples, .noise = noise, .shuffle = true, .seed = seed});
}

Dataset make_circles(const CirclesOptions& o) {
  check_size("make_circles", o.n_samples, 2, "n_samples");
  if (o.stream == RandomStream::numpy) return sklearn_make_circles(o);
  check_common("make_circles", o.n_samples, o.noise);
  require(o.factor >= 0 && o.factor < 1, "make_circles", "factor must be in [0, 1), got " + std::to_string(o.factor),
          "factor is the inner circle's radius relative to the outer (sklearn's default 0.8)");
  const std::size_t n_out = o.n_samples / 2, n_in = o.n_samples - n_out;
  Dataset ds = empty_dataset("circles", o.n_samples, 2);
  const double two_pi = 2 * std::numbers::pi;
  for (double t : linspace(0, two_pi, n_out, false)) push_point(ds, std::cos(t), std::sin(t), 0);
  for (double t : linspace(0, two_pi, n_in, false)) push_point(ds, std::cos(t) * o.factor, std::sin(t) * o.factor, 1);
  Rng rng(o.seed);
  if (o.shuffle) shuffle_rows(ds, rng);
  add_noise(ds, rng, o.noise);
  ds.provenance["generator"] = {{"name", "make_circles"}, {"n_samples", o.n_samples}, {"noise", o.noise},
                                {"factor", o.factor},     {"shuffle", o.shuffle},     {"seed", o.seed}};
  return ds;
}

Dataset make_circles(std::size_t n_samples, double noise, double factor, std::uint64_t seed) {
  return make_circles(
      CirclesOptions{.n_samples = n_samples, .noise = noise, .factor = factor, .shuffle = true, .seed = seed});
}

Dataset make_blobs(const BlobsOptions& o) {
  check_size("make_blobs", o.n_samples, o.centers.empty() ? o.n_features : o.centers.front().size(), "n_samples");
  if (o.centers.empty()) check_size("make_blobs", o.n_centers, o.n_features, "centers");
  if (o.stream == RandomStream::numpy) return sklearn_make_blobs(o);
  check_common("make_blobs", o.n_samples, 0);
  Rng rng(o.seed);
  return draw_blobs(o, rng);
}

namespace {

// Cholesky factors L (covariance = L L^T) of every component, from full covariances or sds.
std::vector<Eigen::MatrixXd> mixture_factors(const GaussianMixtureOptions& o, std::size_t k, std::size_t d) {
  const char* gen = "gaussian_mixture";
  require(o.covariances.empty() || o.sd.empty(), gen, "both covariances and sd are given", "give only one of them");
  std::vector<Eigen::MatrixXd> factors;
  if (!o.covariances.empty()) {
    require(o.covariances.size() == k, gen, "need one covariance per component",
            "give " + std::to_string(k) + " matrices");
    for (std::size_t c = 0; c < k; ++c) {
      require(o.covariances[c].size() == d * d, gen,
              "covariance " + std::to_string(c) + " must have d*d = " + std::to_string(d * d) + " entries (row-major)",
              "write each covariance as a flat row-major list");
      Eigen::MatrixXd cov = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
          o.covariances[c].data(), static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(d));
      Eigen::LLT<Eigen::MatrixXd> llt(cov);
      require(cov.isApprox(cov.transpose()) && llt.info() == Eigen::Success, gen,
              "covariance " + std::to_string(c) + " is not symmetric positive definite",
              "use a symmetric matrix with positive eigenvalues");
      factors.push_back(llt.matrixL());
    }
    return factors;
  }
  const std::vector<double> sd = o.sd.empty() ? std::vector<double>{1.0} : o.sd;
  require(sd.size() == 1 || sd.size() == k, gen, "need one sd or one per component", "fix sd");
  for (std::size_t c = 0; c < k; ++c) {
    const double s = sd.size() == 1 ? sd[0] : sd[c];
    require(std::isfinite(s) && s >= 0, gen, "sd must be finite and >= 0", "fix sd");
    factors.push_back(Eigen::MatrixXd::Identity(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(d)) * s);
  }
  return factors;
}

std::vector<double> mixture_weights(const GaussianMixtureOptions& o, std::size_t k) {
  if (o.weights.empty()) return std::vector<double>(k, 1.0 / static_cast<double>(k));
  require(o.weights.size() == k, "gaussian_mixture", "need one weight per component", "fix weights");
  double sum = 0;
  for (double w : o.weights) {
    require(std::isfinite(w) && w >= 0, "gaussian_mixture", "weights must be finite and >= 0", "fix weights");
    sum += w;
  }
  require(sum > 0, "gaussian_mixture", "weights sum to 0", "give at least one positive weight");
  std::vector<double> w = o.weights;
  for (double& x : w) x /= sum;
  return w;
}

// Multinomial(n, w) by sequential binomials: exact, and one draw per component rather than per point.
std::vector<std::size_t> multinomial(std::size_t n, const std::vector<double>& w, Rng& rng) {
  std::vector<std::size_t> counts(w.size(), 0);
  std::size_t left = n;
  double mass = 1.0;
  for (std::size_t c = 0; c + 1 < w.size() && left > 0; ++c) {
    const double p = mass > 0 ? std::min(1.0, w[c] / mass) : 1.0;
    counts[c] = p >= 1.0 ? left : static_cast<std::size_t>(rng.binomial(left, p));
    left -= counts[c];
    mass -= w[c];
  }
  counts.back() += left;
  return counts;
}

}  // namespace

Dataset gaussian_mixture(const GaussianMixtureOptions& o) {
  const char* gen = "gaussian_mixture";
  check_common(gen, o.n_samples, 0);
  require(!o.means.empty(), gen, "no components: means is empty", "give one mean per component");
  const std::size_t k = o.means.size(), d = o.means.front().size();
  for (const auto& m : o.means)
    require(d > 0 && m.size() == d, gen, "all means must have the same dimension (>= 1)", "fix means");
  const std::vector<Eigen::MatrixXd> factors = mixture_factors(o, k, d);
  const std::vector<double> weights = mixture_weights(o, k);
  Rng rng(o.seed);
  const std::vector<std::size_t> counts = multinomial(o.n_samples, weights, rng);
  Dataset ds = empty_dataset("gaussian_mixture", o.n_samples, d);
  Eigen::VectorXd z(static_cast<Eigen::Index>(d));
  for (std::size_t c = 0; c < k; ++c) {
    for (std::size_t i = 0; i < counts[c]; ++i) {
      for (auto& x : z) x = rng.normal();
      const Eigen::VectorXd x = factors[c] * z;
      for (std::size_t j = 0; j < d; ++j) ds.coords.push_back(o.means[c][j] + x[static_cast<Eigen::Index>(j)]);
      ds.labels.push_back(static_cast<Label>(c));
    }
  }
  if (o.shuffle) shuffle_rows(ds, rng);
  ds.provenance["generator"] = {{"name", "gaussian_mixture"},
                                {"n_samples", o.n_samples},
                                {"means", o.means},
                                {"covariances", o.covariances},
                                {"sd", o.sd},
                                {"weights", weights},
                                {"counts", counts},
                                {"shuffle", o.shuffle},
                                {"seed", o.seed}};
  return ds;
}

Dataset spirals(const SpiralsOptions& o) {
  check_common("spirals", o.n_samples, o.noise);
  require(o.n_arms > 0, "spirals", "n_arms must be at least 1", "set n_arms");
  check_size("spirals", o.n_arms, 1, "arms");
  require(std::isfinite(o.turns) && o.turns > 0, "spirals", "turns must be finite and > 0", "set turns, e.g. 1.5");
  Rng rng(o.seed);
  Dataset ds = empty_dataset("spirals", o.n_samples, 2);
  const std::vector<std::size_t> counts = split_evenly(o.n_samples, o.n_arms);
  const double two_pi = 2 * std::numbers::pi;
  for (std::size_t arm = 0; arm < o.n_arms; ++arm) {
    const double phase = static_cast<double>(arm) / static_cast<double>(o.n_arms);
    for (std::size_t i = 0; i < counts[arm]; ++i) {
      const double s = rng.uniform();
      const double angle = two_pi * (o.turns * s + phase);
      push_point(ds, s * std::cos(angle), s * std::sin(angle), static_cast<Label>(arm));
    }
  }
  if (o.shuffle) shuffle_rows(ds, rng);
  add_noise(ds, rng, o.noise);
  ds.provenance["generator"] = {{"name", "spirals"}, {"n_samples", o.n_samples}, {"n_arms", o.n_arms},
                                {"noise", o.noise},  {"turns", o.turns},         {"shuffle", o.shuffle},
                                {"seed", o.seed}};
  return ds;
}

Dataset uniform_noise(std::size_t n_samples, const Bounds& bounds, std::uint64_t seed) {
  check_common("uniform_noise", n_samples, 0);
  require(!bounds.empty() && bounds.lo.size() == bounds.hi.size(), "uniform_noise", "bounds are empty or malformed",
          "give one [low, high] pair per dimension");
  for (std::size_t j = 0; j < bounds.dims(); ++j)
    require(std::isfinite(bounds.lo[j]) && std::isfinite(bounds.hi[j]) && bounds.lo[j] <= bounds.hi[j], "uniform_noise",
            "bounds must be finite with low <= high in every dimension", "fix the bounds");
  Rng rng(seed);
  Dataset ds = empty_dataset("uniform_noise", n_samples, bounds.dims());
  for (std::size_t i = 0; i < n_samples; ++i) {
    for (std::size_t j = 0; j < ds.d; ++j) ds.coords.push_back(rng.uniform(bounds.lo[j], bounds.hi[j]));
    ds.labels.push_back(kNoise);
  }
  ds.provenance["generator"] = {
      {"name", "uniform_noise"}, {"n_samples", n_samples}, {"bounds", bounds.to_json()}, {"seed", seed}};
  return ds;
}

}  // namespace dpclust
