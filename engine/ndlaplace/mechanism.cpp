// nD-Laplace noise and truncation; definitions and citations in mechanism.hpp.
#include "ndlaplace/mechanism.hpp"

#include <algorithm>
#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/lambert_w.hpp>
#include <cmath>
#include <numbers>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"
#include "ndlaplace/grid_laplace.hpp"

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

ContinuousSampler parse_continuous_sampler(const std::string& name, std::size_t d) {
  if (name == "auto") return d == 2 ? ContinuousSampler::planar : ContinuousSampler::nd;
  if (name == "nd") return ContinuousSampler::nd;
  if (name == "planar") {
    if (d != 2)
      throw InputError(
          "params.continuous_sampler",
          "continuous_sampler 'planar' (polar Laplace, thesis Sec. 3.1.1) is defined for 2-dimensional data only, "
          "the data has d = " +
              std::to_string(d),
          "use continuous_sampler: nd (Gamma(d, 1/eps) radius, uniform direction) or auto");
    return ContinuousSampler::planar;
  }
  throw std::invalid_argument("unknown continuous sampler '" + name + "'");
}

Truncation parse_truncation(const std::string& name) {
  if (name == "resample") return Truncation::resample;
  if (name == "remap") return Truncation::remap;
  if (name == "none") return Truncation::none;
  throw std::invalid_argument("unknown truncation '" + name + "'");
}

const char* truncation_name(Truncation t) {
  switch (t) {
    case Truncation::resample: return "resample";
    case Truncation::remap: return "remap";
    case Truncation::none: return "none";
  }
  return "?";
}

double expected_resample_draws(std::size_t d, double draw_rate, const Bounds& bounds) {
  if (d == 0 || bounds.dims() != d) return 0;
  const double mean_length = static_cast<double>(d) / std::max(draw_rate, 1e-12);
  double draws = 1;
  for (std::size_t j = 0; j < d && draws < 1e12; ++j) {
    const double side = bounds.hi[j] - bounds.lo[j];
    if (side > 0) draws *= 1 + mean_length / side;
  }
  return draws;
}

TruncationChoice choose_truncation(const std::string& name, double epsilon, double radius, ResamplingBudget budget,
                                   std::int64_t max_retries, std::size_t d, const Bounds& bounds) {
  TruncationChoice c;
  if (name != "auto") {
    c.truncation = parse_truncation(name);
    return c;
  }
  c.automatic = true;
  c.limit = static_cast<double>(max_retries) / 10;
  if (budget == ResamplingBudget::thesis) {
    c.truncation = Truncation::resample;
    c.reason = "auto: resample, as resampling_budget: thesis reads the thesis's Alg. 1";
    return c;
  }
  if (bounds.dims() != d) {
    c.truncation = Truncation::resample;
    c.reason = "auto: resample (no bounds to judge it by)";
    return c;
  }
  c.expected_draws = expected_resample_draws(d, 0.5 * epsilon / radius, bounds);
  c.corner_draws = std::ldexp(1.0, static_cast<int>(std::min<std::size_t>(d, 1000)));
  const bool resample = c.expected_draws <= c.limit && c.corner_draws <= c.limit;
  c.truncation = resample ? Truncation::resample : Truncation::remap;
  std::ostringstream why;
  why.precision(3);
  why << "auto: " << (resample ? "resample" : "remap") << ": resampling would need about " << c.expected_draws
      << " draws per point, and at least 2^d = " << c.corner_draws << " for a point in a corner of the box, "
      << (resample ? "both at most" : "not both at most") << " max_retries / 10 = " << c.limit;
  c.reason = why.str();
  return c;
}

ResamplingBudget parse_resampling_budget(const std::string& name) {
  if (name == "halve") return ResamplingBudget::halve;
  if (name == "thesis") return ResamplingBudget::thesis;
  throw std::invalid_argument("unknown resampling_budget '" + name + "'");
}

void draw_noise(std::size_t d, double eps, ContinuousSampler sampler, Rng& rng, double* out) {
  if (sampler == ContinuousSampler::planar) {
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

std::vector<double> perturb(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                            const PerturbOptions& o, Rng& rng, PerturbStats* stats) {
  if (!(o.eps > 0) || !std::isfinite(o.eps)) throw std::invalid_argument("nD-Laplace: eps must be a finite number > 0");
  if (o.max_retries < 1) throw std::invalid_argument("nD-Laplace: max_retries must be >= 1");
  if (!(o.grid_step >= 0) || !std::isfinite(o.grid_step))
    throw std::invalid_argument("nD-Laplace: grid_step must be finite and >= 0");
  const bool truncate = o.truncation != Truncation::none;
  const bool have_bounds = bounds.dims() == d;
  if (truncate && !have_bounds)
    throw InputError("dataset.bounds",
                     "truncation needs the public domain bounds of all " + std::to_string(d) + " dimensions",
                     "add bounds: [[lo, hi], ...] to the dataset, or use truncation: none");
  // The secure sampler's grid: origin at the domain's lower corner (0 without bounds), step u.
  std::optional<GridLaplaceSampler> grid;
  if (o.sampler == privacy::Sampler::secure) {
    const std::vector<double> empty;
    const double u = o.grid_step > 0
                         ? o.grid_step
                         : auto_grid_step(o.eps, have_bounds ? bounds.lo : empty, have_bounds ? bounds.hi : empty);
    if (have_bounds) {
      double max_abs = u;
      for (std::size_t j = 0; j < d; ++j)
        max_abs = std::max(max_abs, 2.0 * std::fabs(bounds.lo[j]) + std::fabs(bounds.hi[j]) + u);
      if (u < finest_grid_step(max_abs))
        throw InputError(
            "params.grid_step",
            "grid_step " + std::to_string(u) + " is finer than doubles resolve on this domain (2^-40 of its magnitude)",
            "use a coarser grid_step, or 0 (auto)");
    }
    try {
      grid.emplace(d, o.eps, have_bounds ? bounds.lo : std::vector<double>(d, 0.0), u);
    } catch (const std::invalid_argument& e) {
      throw InputError("params.grid_step", e.what(), "use a coarser grid_step, or 0 (auto)");
    }
  }
  PerturbStats st;
  std::vector<double> z(n * d);
  std::vector<double> noise(d);
  double dist_sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double* x = coords + i * d;
    double* zi = z.data() + i * d;
    // Messages name the point by its index: its coordinates are private.
    if (truncate && !bounds.contains(x))
      throw InputError("dataset.bounds",
                       "point " + std::to_string(i) + " (0-based row) lies outside the domain used for truncation",
                       "widen the dataset's bounds or drop out-of-domain points (clip_to_bounds: true)");
    std::uint64_t draws = 0;
    for (;;) {
      if (grid) {
        try {
          grid->draw(x, rng, zi);
        } catch (const std::invalid_argument& e) {
          throw InputError("params.grid_step", "point " + std::to_string(i) + " (0-based row): " + e.what(),
                           "use a coarser grid_step, or give the dataset bounds");
        }
      } else {
        draw_noise(d, o.eps, o.continuous, rng, noise.data());
        for (std::size_t j = 0; j < d; ++j) zi[j] = x[j] + noise[j];
      }
      ++draws;
      if (o.truncation != Truncation::resample || bounds.contains(zi)) break;
      // thesis Alg. 1: outside the domain -> draw new noise for the same x (the recursion, as a loop).
      if (draws >= static_cast<std::uint64_t>(o.max_retries)) {
        std::ostringstream fix;
        fix << "the noise is drawn at rate " << o.eps << " per data unit"
            << (o.rate_origin.empty() ? std::string() : " (" + o.rate_origin + ")")
            << ", a mean noise length of d / rate = " << static_cast<double>(d) / o.eps
            << " against the domain: raise epsilon or lower radius (rate = epsilon / radius), raise max_retries, or "
               "use truncation: remap";
        throw InputError("params.max_retries",
                         "truncation by resampling (thesis Alg. 1) did not bring point " + std::to_string(i) +
                             " (0-based row) into the domain within " + std::to_string(o.max_retries) + " draws",
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
    } else if (o.truncation == Truncation::none && have_bounds && !bounds.contains(zi)) {
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

NdLaplaceMechanism NdLaplaceMechanism::create(BudgetLedger& ledger, const NdLaplaceSettings& s, std::size_t d,
                                              const Bounds& bounds, std::string step) {
  if (!(s.epsilon > 0) || !std::isfinite(s.epsilon))
    throw std::invalid_argument("nD-Laplace: epsilon must be finite and > 0");
  if (!(s.radius > 0) || !std::isfinite(s.radius))
    throw std::invalid_argument("nD-Laplace: radius must be finite and > 0");
  if (d == 0) throw std::invalid_argument("nD-Laplace: the data has no dimensions");
  // privacy::charge types the entry after the ledger: a central ledger would record this per-record
  // metric guarantee as central eps-DP, which it is not.
  if (ledger.measure() != PrivacyMeasure::local)
    throw std::logic_error(
        "nD-Laplace is a local (per-record, metric) guarantee: it needs a local ledger "
        "(MethodInfo::local_privacy), not a " +
        std::string(to_string(ledger.measure())) + " one");
  NdLaplaceMechanism m;
  m.d_ = d;
  const bool secure = s.sampler == privacy::Sampler::secure;
  // rate = epsilon / radius, rounded down (fma gives the exact sign of rate * radius - epsilon), so the
  // rate drawn at never exceeds the one recorded.
  double rate = s.epsilon / s.radius;
  if (std::fma(rate, s.radius, -s.epsilon) > 0) rate = std::nextafter(rate, 0.0);
  m.rate_ = rate;
  // mechanism.hpp "The factor 2": the normaliser depends on x under resampling, and always on the grid.
  const bool normaliser_depends_on_x = s.truncation == Truncation::resample || secure;
  m.thesis_ = s.truncation == Truncation::resample && s.resampling_budget == ResamplingBudget::thesis;
  m.draw_rate_ = normaliser_depends_on_x && !m.thesis_ ? 0.5 * rate : rate;  // halving is exact
  m.factor_ = normaliser_depends_on_x ? 2.0 : 1.0;
  m.noise_scale_ = ledger.noise_scale();

  m.options_.sampler = s.sampler;
  m.options_.continuous = s.continuous;
  m.options_.truncation = s.truncation;
  m.options_.max_retries = s.max_retries;
  // The ledger's testable-noise factor divides the rate (0: no noise at all, handled in perturb()).
  m.options_.eps = m.noise_scale_ > 0 ? m.draw_rate_ / m.noise_scale_ : m.draw_rate_;
  {
    std::ostringstream origin;
    origin << "epsilon / radius = " << s.epsilon << " / " << s.radius;
    if (m.draw_rate_ < rate)
      origin << ", halved because " << (secure ? "the grid's" : "the truncated noise's")
             << " normaliser depends on the point (resampling_budget: halve; mechanism.hpp)";
    m.options_.rate_origin = origin.str();
  }
  if (secure) {
    if (!(s.grid_step >= 0) || !std::isfinite(s.grid_step))
      throw std::invalid_argument("nD-Laplace: grid_step must be finite and >= 0");
    const bool have_bounds = bounds.dims() == d;
    const std::vector<double> empty;
    m.options_.grid_step = s.grid_step > 0 ? s.grid_step
                                           : auto_grid_step(m.options_.eps, have_bounds ? bounds.lo : empty,
                                                            have_bounds ? bounds.hi : empty);
  }
  m.mechanism_ = std::string(d == 2 ? "planar_laplace" : "nd_laplace") + (secure ? " (grid, exact)" : " (textbook)");

  std::ostringstream note;
  note.precision(6);
  note
      << "local geo-indistinguishability (Andres et al. 2013; thesis Eq. 3.1): for two inputs x, x' of one record in "
         "the "
         "domain, the distribution of its report changes by at most a factor exp(epsilon d(x, x') / radius) (epsilon = "
      << s.epsilon << " at distance radius = " << s.radius << ", i.e. " << rate
      << " per unit distance; sensitivity 1 per unit distance); a per-record guarantee, not central "
         "(neighbouring-dataset) DP. ";
  if (secure)
    note << "Sampler secure: reports on the grid lo + u Z^d (u = " << m.options_.grid_step
         << "), sampled exactly (ndlaplace/grid_laplace.hpp; Andres et al. 2013 Sec. 4.1-4.2: discretisation and "
            "truncation). ";
  else note << "Sampler textbook: the thesis's continuous sampler on doubles. ";
  if (normaliser_depends_on_x) {
    note << (s.truncation == Truncation::resample
                 ? "Truncation by resampling (thesis Alg. 1) conditions the noise on the domain, p(z | x) = f_x(z) / "
                   "Z(x)"
                 : "On the grid the normaliser Z(x) = sum_g exp(-e ||g - x||) depends on x")
         << ", and Z(x') / Z(x) <= exp(e d(x, x')) like the density itself, so noise drawn at rate e gives 2 e d(x, "
            "x') ";
    if (m.thesis_)
      note << "(the normalising constant of the truncated distribution). resampling_budget: thesis: the noise is drawn "
              "at the full "
              "rate "
           << m.draw_rate_ << " as in the thesis, so the release is only " << 2 * s.epsilon
           << "-geo-indistinguishable at distance radius; this entry records the thesis's epsilon, not the guarantee "
              "(the result is flagged non-private).";
    else
      note << "(the normalising constant of the truncated distribution); the noise is therefore drawn at rate / 2 = "
           << m.draw_rate_ << " (resampling_budget: halve), so the recorded epsilon holds.";
  } else {
    note << (s.truncation == Truncation::remap ? "Remapping to the nearest admissible point is post-processing."
                                               : "Reports are released as drawn (truncation: none).");
  }
  privacy::charge(ledger, std::move(step), s.epsilon, m.mechanism_, 1.0, "metric", note.str());
  // The level is reached at distance `radius`; the accounting composes epsilon / radius.
  ledger.set_local_distance(s.radius);
  // The thesis's reading draws at the full rate, so the release is 2 epsilon at distance
  // radius: the ledger states that true cost (the configured epsilon again, as a declared excess).
  if (m.thesis_)
    ledger.charge_excess(
        "resampling_budget: thesis (true cost of truncation by resampling)", s.epsilon,
        "resampling_budget: thesis draws the noise at the full rate epsilon / radius; truncation by resampling "
        "doubles the cost (the normaliser Z(x) depends on x: mechanism.hpp \"The factor 2\"), so the release "
        "costs 2 epsilon at distance radius");
  return m;
}

std::vector<double> NdLaplaceMechanism::perturb(const double* coords, std::size_t n, const Bounds& bounds, Rng& rng,
                                                PerturbStats* stats) const {
  if (noise_scale_ == 0) {
    // Testable noise: no noise at all, the release is the input (the non-private counterpart).
    const bool truncate = options_.truncation != Truncation::none;
    if (truncate && bounds.dims() != d_)
      throw InputError("dataset.bounds",
                       "truncation needs the public domain bounds of all " + std::to_string(d_) + " dimensions",
                       "add bounds: [[lo, hi], ...] to the dataset, or use truncation: none");
    for (std::size_t i = 0; i < n; ++i)
      if (truncate && !bounds.contains(coords + i * d_))
        throw InputError("dataset.bounds",
                         "point " + std::to_string(i) + " (0-based row) lies outside the domain used for truncation",
                         "widen the dataset's bounds or drop out-of-domain points (clip_to_bounds: true)");
    if (stats) *stats = PerturbStats{};
    return std::vector<double>(coords, coords + n * d_);
  }
  return ndlaplace::perturb(coords, n, d_, bounds, options_, rng, stats);
}

std::vector<std::string> NdLaplaceMechanism::non_private_notes() const {
  std::vector<std::string> notes;
  if (options_.sampler == privacy::Sampler::textbook) notes.emplace_back(privacy::kTextbookSamplerNote);
  if (thesis_)
    notes.emplace_back(
        "resampling_budget: thesis: nD-Laplace noise drawn at the full rate epsilon / radius as the thesis does; "
        "truncation by "
        "resampling makes the release only 2 epsilon-geo-indistinguishable (the normalising constant of the truncated "
        "distribution depends on x)");
  return notes;
}

}  // namespace dpclust::ndlaplace
