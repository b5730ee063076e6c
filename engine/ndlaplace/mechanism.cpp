// nD-Laplace noise and truncation; definitions and citations in mechanism.hpp.
#include "ndlaplace/mechanism.hpp"

#include <algorithm>
#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/lambert_w.hpp>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"

namespace dpclust::ndlaplace {

double planar_radius_cdf(double eps, double r) {
  if (r <= 0) return 0.0;
  return 1.0 - (1.0 + eps * r) * std::exp(-eps * r);
}

double planar_radius_inverse_cdf(double eps, double p) {
  if (!(eps > 0) || !std::isfinite(eps)) throw std::invalid_argument("planar Laplace: eps must be a finite number > 0");
  if (!(p >= 0.0 && p < 1.0)) throw std::invalid_argument("planar Laplace: p must be in [0, 1)");
  // thesis Eq. 3.3. The argument (p - 1)/e lies in [-1/e, 0), the domain of the W_{-1} branch; p = 0
  // is the branch point W_{-1}(-1/e) = -1 (r = 0). Clamp against rounding below -1/e.
  const double e = boost::math::constants::e<double>();
  const double z = std::max((p - 1.0) / e, -boost::math::constants::exp_minus_one<double>());
  const double w = boost::math::lambert_wm1(z);
  return std::max(0.0, -(w + 1.0) / eps);
}

Sampler parse_sampler(const std::string& name, std::size_t d) {
  if (name == "auto") return d == 2 ? Sampler::planar : Sampler::nd;
  if (name == "nd") return Sampler::nd;
  if (name == "planar") {
    if (d != 2)
      throw InputError("params.sampler", "sampler 'planar' (polar Laplace, thesis Sec. 3.1.1) is defined for 2-dimensional data only, "
                                         "the data has d = " + std::to_string(d),
                       "use sampler: nd (Gamma(d, 1/eps) radius, uniform direction) or auto");
    return Sampler::planar;
  }
  throw std::invalid_argument("unknown sampler '" + name + "'");
}

Truncation parse_truncation(const std::string& name) {
  if (name == "resample") return Truncation::resample;
  if (name == "remap") return Truncation::remap;
  if (name == "none") return Truncation::none;
  throw std::invalid_argument("unknown truncation '" + name + "'");
}

void draw_noise(std::size_t d, double eps, Sampler sampler, Rng& rng, double* out) {
  if (sampler == Sampler::planar) {
    if (d != 2) throw std::invalid_argument("planar Laplace noise needs d == 2");
    // thesis Sec. 3.1.1: r by the inverse CDF (Eq. 3.3), theta uniform on [0, 2 pi).
    const double r = planar_radius_inverse_cdf(eps, rng.uniform_open());
    const double theta = 2.0 * std::numbers::pi * rng.uniform();
    out[0] = r * std::cos(theta);
    out[1] = r * std::sin(theta);
    return;
  }
  // nD: density proportional to exp(-eps ||v||) in R^d. In polar form the radial density is
  // proportional to r^{d-1} e^{-eps r} (surface of the sphere of radius r times the density), i.e.
  // Gamma(shape d, scale 1/eps); the direction is uniform on the sphere (normalised Gaussian vector).
  const double r = rng.gamma(static_cast<double>(d), 1.0 / eps);
  double norm2 = 0.0;
  do {
    norm2 = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
      out[j] = rng.normal();
      norm2 += out[j] * out[j];
    }
  } while (!(norm2 > 0.0));
  const double s = r / std::sqrt(norm2);
  for (std::size_t j = 0; j < d; ++j) out[j] *= s;
}

namespace {

std::string describe_point(const double* x, std::size_t d) {
  std::ostringstream s;
  s.precision(10);
  s << "(";
  for (std::size_t j = 0; j < d; ++j) s << (j ? ", " : "") << x[j];
  s << ")";
  return s.str();
}

}  // namespace

std::vector<double> perturb(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                            const PerturbOptions& o, Rng& rng, PerturbStats* stats) {
  if (!(o.eps > 0) || !std::isfinite(o.eps)) throw std::invalid_argument("nD-Laplace: eps must be a finite number > 0");
  if (o.max_retries < 1) throw std::invalid_argument("nD-Laplace: max_retries must be >= 1");
  const bool truncate = o.truncation != Truncation::none;
  if (truncate && bounds.dims() != d)
    throw InputError("dataset.bounds", "truncation needs the public domain bounds of all " + std::to_string(d) + " dimensions",
                     "add bounds: [[lo, hi], ...] to the dataset, or use truncation: none");
  PerturbStats st;
  std::vector<double> z(n * d);
  std::vector<double> noise(d);
  double dist_sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double* x = coords + i * d;
    double* zi = z.data() + i * d;
    if (truncate && !bounds.contains(x))
      throw InputError("dataset.bounds", "point " + std::to_string(i) + " " + describe_point(x, d) +
                                             " lies outside the domain used for truncation",
                       "widen the dataset's bounds or drop out-of-domain points (clip_to_bounds: true)");
    std::uint64_t draws = 0;
    for (;;) {
      draw_noise(d, o.eps, o.sampler, rng, noise.data());
      ++draws;
      for (std::size_t j = 0; j < d; ++j) zi[j] = x[j] + noise[j];
      if (o.truncation != Truncation::resample || bounds.contains(zi)) break;
      // thesis Alg. 1: outside the domain -> draw new noise for the same x (the recursion, as a loop).
      if (draws >= static_cast<std::uint64_t>(o.max_retries)) {
        std::ostringstream fix;
        fix << "the noise scale 1/eps = " << 1.0 / o.eps
            << " is large against the domain: raise epsilon, raise max_retries, or use truncation: remap";
        throw InputError("params.max_retries",
                         "truncation by resampling (thesis Alg. 1) did not bring point " + std::to_string(i) + " " +
                             describe_point(x, d) + " into the domain within " + std::to_string(o.max_retries) + " draws",
                         fix.str());
      }
    }
    if (o.truncation == Truncation::remap) {
      // Andres et al. step 5: the nearest admissible point of a box is the coordinate-wise clamp.
      bool moved = false;
      for (std::size_t j = 0; j < d; ++j) {
        const double c = std::clamp(zi[j], bounds.lo[j], bounds.hi[j]);
        moved = moved || c != zi[j];
        zi[j] = c;
      }
      st.remapped += moved ? 1 : 0;
    } else if (o.truncation == Truncation::none && bounds.dims() == d && !bounds.contains(zi)) {
      ++st.outside;
    }
    double s = 0.0;
    for (std::size_t j = 0; j < d; ++j) s += (zi[j] - x[j]) * (zi[j] - x[j]);
    dist_sum += std::sqrt(s);
    st.draws += draws;
    st.max_draws_point = std::max(st.max_draws_point, draws);
  }
  st.avg_distance = n ? dist_sum / static_cast<double>(n) : 0.0;
  if (stats) *stats = st;
  return z;
}

}  // namespace dpclust::ndlaplace
