#include "ndlaplace/mechanism.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace dpclust::ndlaplace {
namespace {

// One-sample Kolmogorov-Smirnov statistic sup |F_n - F|.
double ks_statistic(std::vector<double> x, const std::function<double(double)>& cdf) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double D = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double F = cdf(x[i]);
    D = std::max({D, F - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - F});
  }
  return D;
}

// Two-sample KS statistic.
double ks_two_sample(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::size_t i = 0, j = 0;
  double D = 0.0;
  while (i < a.size() && j < b.size()) {
    const double v = std::min(a[i], b[j]);
    while (i < a.size() && a[i] == v) ++i;
    while (j < b.size() && b[j] == v) ++j;
    D = std::max(D, std::fabs(static_cast<double>(i) / static_cast<double>(a.size()) -
                              static_cast<double>(j) / static_cast<double>(b.size())));
  }
  return D;
}

// Critical values at alpha = 0.001 (asymptotic): 1.949 / sqrt(n), two-sample 1.949 sqrt((n+m)/(nm)).
constexpr double kKs001 = 1.949;
constexpr std::size_t kDraws = 20000;

TEST(PlanarLaplace, InverseCdfInvertsTheCdf) {
  for (double eps : {0.05, 0.5, 1.0, 3.0}) {
    EXPECT_DOUBLE_EQ(planar_radius_inverse_cdf(eps, 0.0), 0.0);
    for (double p : {1e-9, 0.001, 0.1, 0.5, 0.9, 0.999, 1 - 1e-9}) {
      const double r = planar_radius_inverse_cdf(eps, p);
      EXPECT_NEAR(planar_radius_cdf(eps, r), p, 1e-12) << "eps " << eps << " p " << p;
    }
  }
  // The median radius scales as 1/eps.
  EXPECT_NEAR(planar_radius_inverse_cdf(2.0, 0.5) * 2.0, planar_radius_inverse_cdf(1.0, 0.5), 1e-12);
}

// thesis Sec. 3.1.1: the radius drawn by Eq. 3.3 follows C_eps (KS test), the angle is uniform.
TEST(PlanarLaplace, RadiusFollowsItsCdf) {
  const double eps = 0.7;
  Rng rng(11);
  std::vector<double> r(kDraws), theta(kDraws);
  double v[2];
  for (std::size_t i = 0; i < kDraws; ++i) {
    draw_noise(2, eps, ContinuousSampler::planar, rng, v);
    r[i] = std::hypot(v[0], v[1]);
    theta[i] = std::atan2(v[1], v[0]) + std::numbers::pi;
  }
  const double crit = kKs001 / std::sqrt(static_cast<double>(kDraws));
  EXPECT_LT(ks_statistic(r, [&](double x) { return planar_radius_cdf(eps, x); }), crit);
  EXPECT_LT(ks_statistic(theta, [](double x) { return x / (2 * std::numbers::pi); }), crit);
  // Mean radius of planar Laplace: 2 / eps.
  double mean = 0;
  for (double x : r) mean += x / static_cast<double>(kDraws);
  EXPECT_NEAR(mean, 2.0 / eps, 0.05 * 2.0 / eps);
}

// The nD generalisation (Gamma(d, 1/eps) radius, uniform direction) is planar Laplace for d = 2.
TEST(NdLaplace, ReducesToPlanarForTwoDimensions) {
  const double eps = 1.3;
  Rng a(5), b(6);
  std::vector<double> r_nd(kDraws), th_nd(kDraws), x_nd(kDraws), x_pl(kDraws), y_nd(kDraws), y_pl(kDraws);
  double v[2];
  for (std::size_t i = 0; i < kDraws; ++i) {
    draw_noise(2, eps, ContinuousSampler::nd, a, v);
    r_nd[i] = std::hypot(v[0], v[1]);
    th_nd[i] = std::atan2(v[1], v[0]) + std::numbers::pi;
    x_nd[i] = v[0];
    y_nd[i] = v[1];
    draw_noise(2, eps, ContinuousSampler::planar, b, v);
    x_pl[i] = v[0];
    y_pl[i] = v[1];
  }
  const double crit = kKs001 / std::sqrt(static_cast<double>(kDraws));
  // Radius: the planar CDF C_eps (= the Gamma(2, 1/eps) CDF).
  EXPECT_LT(ks_statistic(r_nd, [&](double x) { return planar_radius_cdf(eps, x); }), crit);
  EXPECT_LT(ks_statistic(th_nd, [](double x) { return x / (2 * std::numbers::pi); }), crit);
  // The coordinates of both samplers have the same distribution (two-sample KS).
  const double crit2 = kKs001 * std::sqrt(2.0 / static_cast<double>(kDraws));
  EXPECT_LT(ks_two_sample(x_nd, x_pl), crit2);
  EXPECT_LT(ks_two_sample(y_nd, y_pl), crit2);
  // And the two CDFs agree analytically: Gamma(2) CDF = 1 - (1 + t) e^{-t}.
  for (double x : {0.01, 0.3, 1.0, 2.5, 7.0})
    EXPECT_NEAR(boost::math::gamma_p(2.0, eps * x), planar_radius_cdf(eps, x), 1e-14);
}

TEST(NdLaplace, RadiusIsGammaInHigherDimensions) {
  for (std::size_t d : {1u, 3u, 5u}) {
    const double eps = 0.4;
    Rng rng(100 + d);
    std::vector<double> r(kDraws), v(d);
    std::vector<double> mean_dir(d, 0.0);
    for (std::size_t i = 0; i < kDraws; ++i) {
      draw_noise(d, eps, ContinuousSampler::nd, rng, v.data());
      double s = 0;
      for (double c : v) s += c * c;
      r[i] = std::sqrt(s);
      for (std::size_t j = 0; j < d; ++j) mean_dir[j] += v[j] / r[i] / static_cast<double>(kDraws);
    }
    const double crit = kKs001 / std::sqrt(static_cast<double>(kDraws));
    EXPECT_LT(ks_statistic(r, [&](double x) { return boost::math::gamma_p(static_cast<double>(d), eps * x); }), crit)
        << d;
    for (double m : mean_dir) EXPECT_NEAR(m, 0.0, 0.03) << d;  // uniform direction: mean unit vector ~ 0
  }
}

TEST(NdLaplace, PlanarSamplerNeedsTwoDimensions) {
  EXPECT_THROW(parse_continuous_sampler("planar", 3), InputError);
  EXPECT_EQ(parse_continuous_sampler("auto", 2), ContinuousSampler::planar);
  EXPECT_EQ(parse_continuous_sampler("auto", 3), ContinuousSampler::nd);
  EXPECT_EQ(parse_continuous_sampler("nd", 2), ContinuousSampler::nd);
}

// A grid of points in [0, 10]^2, many of them on or near the border.
std::vector<double> border_grid() {
  std::vector<double> x;
  for (int i = 0; i <= 10; ++i)
    for (int j = 0; j <= 10; ++j) {
      x.push_back(i);
      x.push_back(j);
    }
  return x;
}
Bounds box10() { return Bounds{{0.0, 0.0}, {10.0, 10.0}}; }

// thesis Alg. 1: resampling keeps every released point inside the domain.
TEST(Truncation, ResampleKeepsEveryPointInTheDomain) {
  const auto x = border_grid();
  const std::size_t n = x.size() / 2;
  // The textbook continuous samplers and the secure grid sampler (which has no planar / nd variant).
  const std::vector<std::pair<privacy::Sampler, ContinuousSampler>> samplers = {
      {privacy::Sampler::textbook, ContinuousSampler::planar},
      {privacy::Sampler::textbook, ContinuousSampler::nd},
      {privacy::Sampler::secure, ContinuousSampler::nd}};
  for (const auto& [sampler, s] : samplers) {
    for (double eps : {0.1, 0.5, 2.0}) {
      Rng rng(7);
      PerturbOptions o;
      o.eps = eps;
      o.sampler = sampler;
      o.continuous = s;
      o.truncation = Truncation::resample;
      PerturbStats st;
      const auto z = perturb(x.data(), n, 2, box10(), o, rng, &st);
      for (std::size_t i = 0; i < n; ++i) EXPECT_TRUE(box10().contains(&z[2 * i])) << i;
      EXPECT_GT(st.draws, n);  // border points needed redraws
      EXPECT_GT(st.avg_distance, 0.0);
    }
  }
}

TEST(Truncation, RemapClampsAndNoneMayLeave) {
  for (privacy::Sampler sampler : {privacy::Sampler::textbook, privacy::Sampler::secure}) {
    const auto x = border_grid();
    const std::size_t n = x.size() / 2;
    PerturbOptions o;
    o.sampler = sampler;
    o.eps = 0.3;
    o.truncation = Truncation::remap;
    Rng rng(8);
    PerturbStats st;
    const auto z = perturb(x.data(), n, 2, box10(), o, rng, &st);
    for (std::size_t i = 0; i < n; ++i) EXPECT_TRUE(box10().contains(&z[2 * i]));
    EXPECT_GT(st.remapped, 0u);
    EXPECT_EQ(st.draws, n);  // one draw per point

    o.truncation = Truncation::none;
    Rng rng2(8);
    const auto z2 = perturb(x.data(), n, 2, box10(), o, rng2, &st);
    EXPECT_GT(st.outside, 0u);
    EXPECT_EQ(st.remapped, 0u);
    // none and remap used the same noise: remap = clamp(none).
    for (std::size_t i = 0; i < 2 * n; ++i) EXPECT_EQ(z[i], std::clamp(z2[i], 0.0, 10.0));
  }
}

TEST(Truncation, UnreachableDomainIsAClearError) {
  for (privacy::Sampler sampler : {privacy::Sampler::textbook, privacy::Sampler::secure}) {
    const std::vector<double> x = {0.5, 0.5};
    PerturbOptions o;
    o.sampler = sampler;
    o.eps = 1e-4;  // noise scale 10^4 against a unit square
    o.max_retries = 50;
    Rng rng(1);
    try {
      perturb(x.data(), 1, 2, Bounds{{0, 0}, {1, 1}}, o, rng);
      FAIL() << "expected InputError";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("50 draws"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("remap"), std::string::npos) << e.what();
    }
    // A point outside the domain cannot be truncated into it.
    const std::vector<double> out = {2.0, 0.5};
    o.eps = 1.0;
    EXPECT_THROW(perturb(out.data(), 1, 2, Bounds{{0, 0}, {1, 1}}, o, rng), InputError);
  }
}

// Defect: the resampling failure printed the private point's coordinates. Every message names the
// point by its row index only (and the number of draws), for both samplers and every failure.
TEST(Truncation, FailureMessagesNameNoCoordinates) {
  // Distinctive coordinates: none of their digits may appear in a message.
  const std::vector<double> x = {0.5, 0.5, 0.7316284915, 0.2718281828};
  const std::vector<std::string> forbidden = {"0.7316", "7316", "0.2718", "2718", "0.73", "0.27"};
  auto check = [&](const std::string& what) {
    for (const auto& f : forbidden) EXPECT_EQ(what.find(f), std::string::npos) << "'" << f << "' in: " << what;
  };
  for (privacy::Sampler sampler : {privacy::Sampler::textbook, privacy::Sampler::secure}) {
    PerturbOptions o;
    o.sampler = sampler;
    o.eps = 1e-4;  // resampling cannot reach the unit square
    o.max_retries = 20;
    Rng rng(3);
    try {
      perturb(x.data(), 2, 2, Bounds{{0, 0}, {1, 1}}, o, rng);
      FAIL() << "expected InputError";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("point 0"), std::string::npos) << what;   // which point: its index
      EXPECT_NE(what.find("20 draws"), std::string::npos) << what;  // how many draws
      check(what);
    }
    // Outside the domain: the index, not the coordinates.
    const std::vector<double> out = {0.5, 0.5, 3.1415926535, 0.2718281828};
    o.eps = 1.0;
    try {
      perturb(out.data(), 2, 2, Bounds{{0, 0}, {1, 1}}, o, rng);
      FAIL() << "expected InputError";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("point 1"), std::string::npos) << what;
      EXPECT_EQ(what.find("3.14"), std::string::npos) << what;
      check(what);
    }
  }
}

TEST(Truncation, DeterministicInTheSeed) {
  const auto x = border_grid();
  for (privacy::Sampler sampler : {privacy::Sampler::textbook, privacy::Sampler::secure}) {
    PerturbOptions o;
    o.sampler = sampler;
    o.eps = 0.5;
    Rng a(42), b(42);
    EXPECT_EQ(perturb(x.data(), x.size() / 2, 2, box10(), o, a), perturb(x.data(), x.size() / 2, 2, box10(), o, b));
  }
}

}  // namespace
}  // namespace dpclust::ndlaplace
