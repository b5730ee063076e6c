// The mechanism layer: building a mechanism records the typed ledger entry its noise is calibrated to;
// the ledger refuses what it cannot compose; the noise scale factor (0 = none, 0.5 = under-noised)
// reaches every draw; the secure sampler releases integers, the textbook one continuous values.
#include "privacy/mechanism.hpp"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace dpclust;
using namespace dpclust::privacy;

TEST(CountMechanism, BuildingItChargesTheLedgerWithTheCalibratingNumbers) {
  BudgetLedger ledger(1.0);
  const auto m = CountMechanism::laplace(ledger, Sampler::secure, 2.0, 0.5, "counts", "disjoint cells");
  ASSERT_EQ(ledger.entries().size(), 1u);
  const BudgetEntry& e = ledger.entries()[0];
  EXPECT_EQ(e.step, "counts");
  EXPECT_DOUBLE_EQ(e.epsilon, 0.5);
  EXPECT_DOUBLE_EQ(e.sensitivity, 2.0);
  EXPECT_EQ(e.sensitivity_norm, "l1");
  EXPECT_EQ(e.mechanism, "discrete_laplace");
  EXPECT_EQ(e.measure, PrivacyMeasure::pure);
  EXPECT_EQ(e.relation, NeighbourRelation::add_remove);
  EXPECT_DOUBLE_EQ(m.scale(), 4.0);  // b = l1 / eps: the scale comes from the charged numbers
  (void)CountMechanism::laplace(ledger, Sampler::textbook, 1.0, 0.5, "more");
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_EQ(ledger.entries()[1].mechanism, "laplace (textbook)");
}

TEST(CountMechanism, SecureNoiseIsIntegerTextbookIsNot) {
  BudgetLedger ledger(2.0);
  Rng rng(7);
  const auto secure = CountMechanism::laplace(ledger, Sampler::secure, 1.0, 1.0, "a");
  const auto textbook = CountMechanism::laplace(ledger, Sampler::textbook, 1.0, 1.0, "b");
  int non_integer = 0;
  double sum_abs = 0;
  for (int i = 0; i < 20000; ++i) {
    const double z = secure.noise(rng);
    EXPECT_EQ(z, std::round(z));
    sum_abs += std::fabs(z);
    non_integer += textbook.noise(rng) != std::round(textbook.noise(rng));
  }
  // E|Z| of the discrete Laplace with q = e^-1 is 2q / (1 - q^2) = 0.8509; 20,000 draws: sd of the
  // mean ~0.008, so 0.05 is a > 6-sigma band.
  EXPECT_NEAR(sum_abs / 20000, 2 * std::exp(-1.0) / (1 - std::exp(-2.0)), 0.05);
  EXPECT_GT(non_integer, 19000);
  // Tail draws of the secure sampler are integers >= ceil(theta), as Algorithm 2 needs.
  for (int i = 0; i < 1000; ++i) {
    const double t = secure.draw_tail(rng, 3.2);
    EXPECT_GE(t, 4.0);
    EXPECT_EQ(t, std::round(t));
  }
  EXPECT_NEAR(secure.tail_probability(3.2), std::exp(-4.0) / (1 + std::exp(-1.0)), 1e-12);
}

TEST(CountMechanism, NoiseScaleZeroMeansNoNoiseAndHalfMeansHalf) {
  BudgetLedger zero(1.0);
  zero.set_noise_scale(0);
  Rng rng(3);
  const auto m = CountMechanism::laplace(zero, Sampler::secure, 1.0, 1.0, "x");
  for (int i = 0; i < 100; ++i) EXPECT_EQ(m.noisy(rng, 17), 17);
  EXPECT_EQ(m.draw_tail(rng, 2.5), 3.0);
  EXPECT_EQ(zero.to_json()["noise_scale"], 0.0);

  BudgetLedger half(1.0), full(1.0);
  half.set_noise_scale(0.5);
  const auto h = CountMechanism::laplace(half, Sampler::textbook, 1.0, 1.0, "x");
  const auto f = CountMechanism::laplace(full, Sampler::textbook, 1.0, 1.0, "x");
  double sh = 0, sf = 0;
  Rng r1(5), r2(5);
  for (int i = 0; i < 10000; ++i) {
    sh += std::fabs(h.noise(r1));
    sf += std::fabs(f.noise(r2));
  }
  EXPECT_NEAR(sh / sf, 0.5, 1e-12);                  // same stream, half the scale
  EXPECT_DOUBLE_EQ(half.entries()[0].epsilon, 1.0);  // the ledger still claims the full epsilon
}

TEST(CountMechanism, DrawingWritesNothingSoThreadsCanShareIt) {
  // The exact parameter was cached lazily in mutable fields by the first draw, while the
  // histograms share one const mechanism between OpenMP threads (a data race). Built eagerly, a draw
  // leaves the mechanism's bytes as they were, for every kind and entry point.
  BudgetLedger ledger(3.0, 1e-6);
  const auto laplace = CountMechanism::laplace(ledger, Sampler::secure, 1.0, 0.7, "counts");
  const auto gaussian = CountMechanism::gaussian(ledger, Sampler::secure, 1.0, 0.5, 1e-6, "counts (gaussian)");
  for (const CountMechanism* m : {&laplace, &gaussian}) {
    unsigned char before[sizeof(CountMechanism)], after[sizeof(CountMechanism)];
    std::memcpy(before, static_cast<const void*>(m), sizeof before);
    Rng rng(3);
    (void)m->noise(rng);
    (void)m->draw_tail(rng, 2.5);
    std::memcpy(after, static_cast<const void*>(m), sizeof after);
    EXPECT_EQ(std::memcmp(before, after, sizeof before), 0) << m->describe();
  }
  // Shared by four threads (each with its own generator): the draws equal the same streams drawn alone.
  std::vector<std::vector<double>> alone(4), shared(4);
  for (std::uint64_t t = 0; t < 4; ++t) {
    Rng rng(100 + t);
    for (int i = 0; i < 2000; ++i) alone[t].push_back(laplace.noise(rng));
  }
  std::vector<std::thread> threads;
  for (std::uint64_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      Rng rng(100 + t);
      for (int i = 0; i < 2000; ++i) shared[t].push_back(laplace.noise(rng));
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(alone, shared);
  // A scale beyond the exact samplers' range still builds (and charges); the first secure draw says why.
  BudgetLedger wide(1.0);
  const auto huge = CountMechanism::laplace(wide, Sampler::secure, 1e30, 1.0, "huge");
  Rng rng(1);
  EXPECT_THROW((void)huge.noise(rng), std::invalid_argument);
}

TEST(CountMechanism, GaussianIsApproximateAndNeedsDelta) {
  BudgetLedger pure(0.5);
  EXPECT_THROW(CountMechanism::gaussian(pure, Sampler::secure, 1.0, 0.5, 1e-5, "g"), std::logic_error);
  BudgetLedger approx(0.5, 1e-5);
  const auto g = CountMechanism::gaussian(approx, Sampler::secure, 1.0, 0.5, 1e-5, "g");
  EXPECT_NEAR(g.scale(), std::sqrt(2 * std::log(1.25 / 1e-5)) / 0.5, 1e-12);
  EXPECT_EQ(approx.entries()[0].measure, PrivacyMeasure::approximate);
  EXPECT_EQ(approx.entries()[0].sensitivity_norm, "l2");
  EXPECT_NO_THROW(approx.verify());
  EXPECT_THROW(CountMechanism::gaussian(approx, Sampler::secure, 1.0, 0.5, 0.0, "g"), std::invalid_argument);
  EXPECT_THROW(CountMechanism::laplace(approx, Sampler::secure, 1.0, 0.0, "zero eps"), std::invalid_argument);
}

TEST(Ledger, RefusesWhatItCannotCompose) {
  BudgetLedger bounded(1.0, 0.0, NeighbourRelation::replace_one);
  BudgetEntry e;
  e.step = "add/remove sensitivity";
  e.epsilon = 0.5;
  e.relation = NeighbourRelation::add_remove;
  EXPECT_THROW(bounded.charge(e), std::logic_error);
  // A mechanism built on the ledger takes the ledger's relation.
  (void)CountMechanism::laplace(bounded, Sampler::secure, 2.0, 1.0, "replace-one counts");
  EXPECT_EQ(bounded.entries()[0].relation, NeighbourRelation::replace_one);

  BudgetLedger local(1.0, 0.0, NeighbourRelation::add_remove, PrivacyMeasure::local);
  EXPECT_THROW(CountMechanism::laplace(local, Sampler::secure, 1.0, 1.0, "central count"), std::logic_error);
  charge(local, "planar Laplace", 1.0, "planar_laplace", 1.0, "metric");
  EXPECT_EQ(local.entries()[0].measure, PrivacyMeasure::local);
  EXPECT_NO_THROW(local.verify());

  BudgetLedger nonprivate;
  EXPECT_THROW(charge(nonprivate, "x", 1.0, "laplace", 1.0, "l1"), std::logic_error);
}

TEST(RealMechanism, SnappingReleasesInsideTheRangeOnItsGrid) {
  BudgetLedger ledger(1.0);
  const auto m = RealMechanism::laplace(ledger, Sampler::secure, 1.0, 1.0, 100.0, "sum");
  EXPECT_EQ(ledger.entries()[0].mechanism, "snapping_laplace");
  EXPECT_GT(m.scale(), 1.0);  // lambda includes Mironov's slack: slightly above l1/eps
  EXPECT_LT(m.scale(), 1.0 + 1e-9);
  Rng rng(11);
  for (int i = 0; i < 2000; ++i) {
    const double v = m.noisy(rng, 1e6);  // clamped to the range first
    EXPECT_LE(std::fabs(v), 100.0);
    EXPECT_EQ(std::ldexp(v, 1), std::round(std::ldexp(v, 1)));  // a multiple of the grid 2^0 or coarser
  }
  BudgetLedger zero(1.0);
  zero.set_noise_scale(0);
  EXPECT_EQ(RealMechanism::laplace(zero, Sampler::secure, 1.0, 1.0, 100.0, "s").noisy(rng, 250.0), 100.0);
}

TEST(Sampler, OneParameterDeclaredOnce) {
  const ParamSpec p = sampler_param();
  EXPECT_EQ(p.name, "sampler");
  EXPECT_EQ(p.choices, (std::vector<std::string>{"secure", "textbook"}));
  ParamSet ps;
  EXPECT_EQ(sampler_of(ps), Sampler::secure);
  ps.set("sampler", std::string("textbook"));
  EXPECT_EQ(sampler_of(ps), Sampler::textbook);
}

// The exact samplers' parameters are never below the calibrated value. The discrete Laplace scale was the
// quotient l1 / eps rounded to nearest (below l1 / eps for one eps in two), then rounded up to a rational,
// which still left it below for about one eps in four (eps = 0.009: by 5.2e-15); now checked exactly (MPFR
// products of the rational's parts with the doubles): num >= den * l1 / eps, and the Gaussian's
// sigma^2 >= 2 ln(1.25 / delta) l2^2 / eps^2.
TEST(CountMechanism, ExactParameterIsNeverBelowTheCalibratedScale) {
  auto scale_at_least_exact = [](Rational r, double l1, double eps) {  // num * eps >= den * l1, exactly
    mpfr_t a, b;
    mpfr_inits2(256, a, b, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_ui(a, r.num, MPFR_RNDN);
    mpfr_mul_d(a, a, eps, MPFR_RNDN);
    mpfr_set_ui(b, r.den, MPFR_RNDN);
    mpfr_mul_d(b, b, l1, MPFR_RNDN);
    const bool ok = mpfr_cmp(a, b) >= 0;
    mpfr_clears(a, b, static_cast<mpfr_ptr>(nullptr));
    return ok;
  };
  BudgetLedger ledger(1e9);
  const auto m = CountMechanism::laplace(ledger, Sampler::secure, 1.0, 0.009, "counts");
  EXPECT_TRUE(scale_at_least_exact(m.exact_parameter(), 1.0, 0.009));
  EXPECT_FALSE(scale_at_least_exact(rational_at_least(1.0 / 0.009), 1.0, 0.009));  // the rounded quotient's
  Rng rng(3);
  int below = 0;
  for (int i = 0; i < 4000; ++i) {
    const double eps = 1e-3 + 10 * rng.uniform();
    for (double l1 : {1.0, 2.0, 3.0}) {
      below += !scale_at_least_exact(rational_at_least(l1 / eps), l1, eps);
      EXPECT_TRUE(scale_at_least_exact(CountMechanism::laplace(ledger, Sampler::secure, l1, eps, "c").exact_parameter(),
                                       l1, eps))
          << "l1 " << l1 << " eps " << eps;
    }
  }
  EXPECT_GT(below, 1000);  // the case is common: the test exercises it
  // sigma^2 against a 256-bit value of 2 ln(1.25 / delta) l2^2 / eps^2 rounded down.
  for (int i = 0; i < 2000; ++i) {
    const double eps = 0.01 + 0.98 * rng.uniform(), delta = std::pow(10.0, -2 - 8 * rng.uniform());
    const double l2 = i % 2 ? 1.0 : std::sqrt(2.0);
    BudgetLedger approx(eps, delta);
    const Rational s2 = CountMechanism::gaussian(approx, Sampler::secure, l2, eps, delta, "g").exact_parameter();
    mpfr_t x, e, lhs;
    mpfr_inits2(256, x, e, lhs, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_d(x, 1.25, MPFR_RNDN);
    mpfr_div_d(x, x, delta, MPFR_RNDD);
    mpfr_log(x, x, MPFR_RNDD);
    mpfr_mul_ui(x, x, 2, MPFR_RNDD);
    mpfr_mul_d(x, x, l2, MPFR_RNDD);
    mpfr_mul_d(x, x, l2, MPFR_RNDD);
    mpfr_set_d(e, eps, MPFR_RNDN);
    mpfr_sqr(e, e, MPFR_RNDU);
    mpfr_div(x, x, e, MPFR_RNDD);  // a lower bound of the exact sigma^2
    mpfr_set_ui(lhs, s2.num, MPFR_RNDN);
    mpfr_div_ui(lhs, lhs, s2.den, MPFR_RNDN);  // exact: den is a power of two
    EXPECT_GE(mpfr_cmp(lhs, x), 0) << "eps " << eps << " delta " << delta;
    mpfr_clears(x, e, lhs, static_cast<mpfr_ptr>(nullptr));
  }
}

namespace dpclust::privacy {
namespace {

// An accountant-calibrated Gaussian (gaussian_tight: the zCDP sigma in secure mode) draws with the square of
// its own sigma, not with the classic formula's (which is smaller whenever eps > 1 or delta is tiny).
TEST(CountMechanismGaussianTight, ExactParameterIsTheSquareOfItsOwnSigma) {
  for (double eps : {0.6, 1.0, 2.0}) {
    BudgetLedger ledger(eps, 1e-6);
    const CountMechanism m = CountMechanism::gaussian_tight(ledger, Sampler::secure, 3.0, eps, 1e-6, "g");
    const Rational s2 = m.exact_parameter();
    const double drawn = static_cast<double>(s2.num) / static_cast<double>(s2.den);
    EXPECT_GE(drawn, m.scale() * m.scale() * (1 - 1e-15)) << eps;
    EXPECT_LE(drawn, m.scale() * m.scale() * (1 + 1e-12)) << eps;
  }
}

}  // namespace
}  // namespace dpclust::privacy
