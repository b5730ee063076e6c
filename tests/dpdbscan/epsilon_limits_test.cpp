// The secure samplers' parameter limits (engine/privacy/samplers.hpp: discrete Laplace
// scale and discrete Gaussian sigma^2 <= 2^40, snapping lambda < B < 2^46 lambda with grid Lambda <= B)
// are refused as InputError in validation (check_shape) and before any draw, naming the limit -- not
// std::invalid_argument from deep inside a trial. The limits here are the closed forms derived in
// dp_kmeans.hpp and noise.hpp, computed independently of the implementation; "just above" must run to
// the end (the samplers really accept it), "just below" must be refused with the limit in the message.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/method.hpp"
#include "dpdbscan/dp_kmeans.hpp"
#include "dpdbscan/noise.hpp"
#include "dpdbscan/register.hpp"

namespace dpclust::dpdbscan {
namespace {

ParamSet with_defaults(const MethodInfo& m, const std::map<std::string, ParamValue>& set) {
  ParamSet p;
  for (const ParamSpec& s : m.params)
    if (!s.required()) p.set(s.name, s.default_value);
  for (const auto& [k, v] : set) p.set(k, v);
  for (const ParamSpec& s : m.params) EXPECT_EQ(s.check(p.get(s.name)), "") << s.name;
  return p;
}

// The number after `after` in `msg` (NaN when absent).
double number_after(const std::string& msg, const std::string& after) {
  const std::size_t at = msg.find(after);
  if (at == std::string::npos) return std::nan("");
  return std::stod(msg.substr(at + after.size()));
}

std::vector<double> square_points(std::size_t n, double lo, double hi) {
  std::vector<double> p;
  Rng r(3);
  for (std::size_t i = 0; i < 2 * n; ++i) p.push_back(lo + (hi - lo) * r.uniform());
  return p;
}

// Closed form (dp_kmeans.hpp): eps >= T (d' + e0) (1 + 2^-49 B) / 2^floor(log2 B), e0 = cbrt(4 d 0.225^2);
// B = N when the half width is a power of two, N / (1 + 2^-50 N) otherwise.
double kmeans_min_epsilon(double t, double d, double n_bound, bool half_power_of_two) {
  const double e0 = std::cbrt(4.0 * d * 0.225 * 0.225);
  const double b = half_power_of_two ? n_bound : n_bound / (1.0 + 0x1p-50 * n_bound);
  return t * (d + e0) * (1.0 + 0x1p-49 * b) / std::exp2(std::floor(std::log2(b)));
}

struct KmeansCase {
  const char* name;
  Bounds bounds;
  std::int64_t iterations;
  std::uint64_t n_public;
  double expected_min;
};

TEST(EpsilonLimits, DpKmeansAcceptsJustAboveAndRefusesJustBelowItsSecureLimit) {
  const std::vector<KmeansCase> cases = {
      // d = 2, T = 5 (the default), no n_public (N = 2^32), half width 4 = 2^2: the "about 3e-9".
      {"power-of-two width", Bounds{{0, 0}, {8, 8}}, 0, 0, kmeans_min_epsilon(5, 2, 0x1p32, true)},
      // half width 2.5: the unit is inflated, B just below 2^32, the limit twice as high.
      {"other width", Bounds{{-2.5, -2.5}, {2.5, 2.5}}, 0, 0, kmeans_min_epsilon(5, 2, 0x1p32, false)},
      // n_public = 8000: N = 8000, T by the rule on n_public (2 at these epsilons).
      {"n_public", Bounds{{0, 0}, {8, 8}}, 0, 8000, kmeans_min_epsilon(2, 2, 8000, true)},
      {"T = 1", Bounds{{0, 0}, {8, 8}}, 1, 0, kmeans_min_epsilon(1, 2, 0x1p32, true)},
  };
  EXPECT_NEAR(cases[0].expected_min, 3.19e-9, 0.01e-9);
  const std::vector<double> pts = square_points(200, 0.5, 2.0);
  for (const KmeansCase& c : cases) {
    SCOPED_TRACE(c.name);
    DpKmeansOptions o;
    o.k = 2;
    o.iterations = c.iterations;
    o.n_public = c.n_public;
    o.sampler = privacy::Sampler::secure;
    // Just above: every draw of every iteration succeeds.
    o.epsilon = c.expected_min * (1 + 1e-9);
    {
      Rng rng(1);
      BudgetLedger ledger(o.epsilon);
      EXPECT_NO_THROW(dp_kmeans(pts.data(), 200, c.bounds, o, rng, ledger));
    }
    // Just below and far below: InputError on params.epsilon naming the limit, before any draw.
    for (double eps : {c.expected_min * (1 - 1e-9), 1e-12}) {
      o.epsilon = eps;
      Rng rng(1);
      BudgetLedger ledger(1.0);
      try {
        dp_kmeans(pts.data(), 200, c.bounds, o, rng, ledger);
        ADD_FAILURE() << "epsilon " << eps << " was accepted";
      } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("params.epsilon"), std::string::npos) << msg;
        EXPECT_NEAR(number_after(msg, " is below "), c.expected_min, 1e-5 * c.expected_min) << msg;
        EXPECT_NEAR(number_after(msg, "use epsilon >= "), c.expected_min, 1e-5 * c.expected_min) << msg;
        EXPECT_GE(number_after(msg, "use epsilon >= "), c.expected_min) << msg;  // the printed limit is accepted
        EXPECT_TRUE(ledger.entries().empty());                                   // nothing charged, nothing drawn
      } catch (const std::exception& e) {
        ADD_FAILURE() << "not an InputError: " << e.what();
      }
    }
  }
}

TEST(EpsilonLimits, DpKmeansCheckShapeRefusesInValidation) {
  const MethodInfo& m = dp_kmeans_method_info();
  DataShape shape;
  shape.d = 2;
  shape.bounds = Bounds{{0, 0}, {8, 8}};
  shape.dataset = "toy";
  const double limit = kmeans_min_epsilon(5, 2, 0x1p32, true);
  try {
    m.check_shape(with_defaults(m, {{"k", std::int64_t{2}}, {"epsilon", 1e-12}}), shape);
    ADD_FAILURE() << "epsilon 1e-12 passed validation";
  } catch (const InputError& e) {
    EXPECT_NEAR(number_after(e.what(), " is below "), limit, 1e-5 * limit) << e.what();
    EXPECT_NE(std::string(e.what()).find("sampler: textbook"), std::string::npos) << e.what();
  }
  EXPECT_THROW(m.check_shape(with_defaults(m, {{"k", std::int64_t{2}}, {"epsilon", limit * (1 - 1e-9)}}), shape),
               InputError);
  // Just above, and the paper's 1/n^2 for Cluto's 8,000 points (shipped configs use 1.5625e-8).
  EXPECT_NO_THROW(m.check_shape(with_defaults(m, {{"k", std::int64_t{2}}, {"epsilon", limit * (1 + 1e-9)}}), shape));
  EXPECT_NO_THROW(m.check_shape(with_defaults(m, {{"k", std::int64_t{2}}, {"epsilon", 1.5625e-8}}), shape));
  // No limit for the textbook sampler or the diffprivlib variant (their samplers draw on doubles).
  EXPECT_NO_THROW(m.check_shape(
      with_defaults(m, {{"k", std::int64_t{2}}, {"epsilon", 1e-12}, {"sampler", std::string("textbook")}}), shape));
  EXPECT_NO_THROW(m.check_shape(
      with_defaults(m, {{"k", std::int64_t{2}}, {"epsilon", 1e-12}, {"variant", std::string("diffprivlib")}}), shape));
}

TEST(EpsilonLimits, DpKmeansRefusesAnEpsilonAboveTheSnappingUpperLimit) {
  // B < 2^46 lambda: eps < T (d' + e0) 2^46 (1 + 2^-49 B) / B, about 2.2e5 for d = 2, T = 5, B = 2^32.
  const double e0 = std::cbrt(4.0 * 2 * 0.225 * 0.225);
  const double max_eps = 5 * (2 + e0) * 0x1p46 * (1 + 0x1p-17) / 0x1p32;
  const std::vector<double> pts = square_points(100, 0.5, 2.0);
  DpKmeansOptions o;
  o.k = 2;
  o.epsilon = max_eps * (1 - 1e-9);
  Rng rng(1);
  BudgetLedger ledger(o.epsilon);
  EXPECT_NO_THROW(dp_kmeans(pts.data(), 100, Bounds{{0, 0}, {8, 8}}, o, rng, ledger));
  o.epsilon = max_eps * (1 + 1e-9);
  BudgetLedger l2(o.epsilon);
  try {
    dp_kmeans(pts.data(), 100, Bounds{{0, 0}, {8, 8}}, o, rng, l2);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NEAR(number_after(e.what(), " is above "), max_eps, 1e-5 * max_eps) << e.what();
  }
}

TEST(EpsilonLimits, DpDbscanGaussianSecureLimit) {
  // sigma^2 = 2 ln(1.25/delta) Delta_2^2 / eps^2 <= 2^40  <=>  eps >= sqrt(2 ln(1.25/delta)) Delta_2 / 2^20.
  for (bool bounded : {false, true}) {
    const double delta = 1e-6, l2 = bounded ? std::sqrt(2.0) : 1.0;
    const double limit = std::sqrt(2 * std::log(1.25 / delta)) * l2 / 0x1p20;
    SCOPED_TRACE(bounded ? "bounded" : "unbounded");
    EXPECT_NEAR(limit, bounded ? 7.14e-6 : 5.05e-6, 0.01e-6);
    {
      BudgetLedger ledger(1.0, 1e-3);
      const privacy::CountMechanism m = histogram_mechanism(ledger, NoiseKind::gaussian, privacy::Sampler::secure,
                                                            limit * (1 + 1e-9), delta, bounded, "h", "n");
      Rng rng(2);
      EXPECT_NO_THROW(m.noise(rng));  // the discrete Gaussian really draws at sigma^2 just below 2^40
    }
    BudgetLedger ledger(1.0, 1e-3);
    try {
      histogram_mechanism(ledger, NoiseKind::gaussian, privacy::Sampler::secure, limit * (1 - 1e-9), delta, bounded,
                          "h", "n");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NEAR(number_after(e.what(), " is below "), limit, 1e-5 * limit) << e.what();
      EXPECT_TRUE(ledger.entries().empty());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not an InputError: " << e.what();
    }
  }
  // In validation: dp_dbscan with epsilon 1e-6 (its declared minimum) and gaussian noise at delta 1e-6.
  const MethodInfo& m = dp_dbscan_method_info();
  DataShape shape;
  const auto params = [&](double eps, const char* sampler) {
    return with_defaults(m, {{"alpha", 0.2},
                             {"min_pts", std::int64_t{7}},
                             {"noise", std::string("gaussian")},
                             {"delta", 1e-6},
                             {"epsilon", eps},
                             {"sampler", std::string(sampler)}});
  };
  EXPECT_THROW(m.check_shape(params(1e-6, "secure"), shape), InputError);
  EXPECT_NO_THROW(m.check_shape(params(5.06e-6, "secure"), shape));
  EXPECT_NO_THROW(m.check_shape(params(1e-6, "textbook"), shape));
}

}  // namespace
}  // namespace dpclust::dpdbscan
