// The private coreset: the grid and its sensitivity, zero noise gives the non-private coreset exactly, and
// fixed-seed statistical tests of the noise against its calibrated scale (private_coreset.hpp).
#include "lsh_clustering/private_coreset.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lsh_clustering/lsh_tree.hpp"
#include "privacy/joint_account.hpp"

namespace dpclust::lsh {
namespace {

TEST(SumGrid, FinestGridWithinTheSamplersLimit) {
  // r = 100 (ceil log2 = 7), d = 10, sigma / Delta = 4.33: 2^30 units would need sigma = 4.65e9 > 2^20; the
  // finest grid with 4.33 (R (1 + 2^-30) + sqrt(10) / 2) <= 2^20 - 1 is R in (2^17, 2^18]: 100 * 2^11 = 204800.
  const SumGrid g = sum_grid(100.0, 10, 4.33);
  EXPECT_EQ(g.units_radius, 204800.0);
  EXPECT_EQ(g.exponent, 7 - 18);
  EXPECT_DOUBLE_EQ(g.spacing(), 100.0 / 204800.0);
  const double delta0 = 204800.0 * (1 + 0x1p-30) + std::sqrt(10.0) / 2;
  EXPECT_NEAR(g.sensitivity, delta0, 1e-5);  // sqrt(floor(delta0^2)) is within 1 / (2 delta0) below delta0
  EXPECT_GE(g.sensitivity * g.sensitivity, g.norm2_bound);
  EXPECT_LE(4.33 * g.sensitivity, 1048575.0);
  EXPECT_GT(4.33 * (2 * 204800.0 + std::sqrt(10.0) / 2), 1048575.0);  // the next finer grid would not fit
  // Small noise: the grid stops at R = 2^30.
  EXPECT_EQ(sum_grid(1.0, 2, 1e-4).units_radius, 0x1p30);
  // Noise beyond the sampler even on the coarsest grid.
  EXPECT_THROW(sum_grid(1.0, 2, 1e7), std::invalid_argument);
}

TEST(SumGrid, RoundedPointsStayWithinTheSensitivity) {
  const std::size_t d = 7;
  const SumGrid g = sum_grid(3.0, d, 2.0);
  Rng rng(11);
  std::vector<double> x(d);
  std::vector<std::int64_t> z(d);
  for (int trial = 0; trial < 2000; ++trial) {
    double s = 0;
    for (auto& v : x) {
      v = rng.normal();
      s += v * v;
    }
    // On the sphere of radius 3 (the worst case), rescaled as clip_to_radius does.
    for (auto& v : x) v *= 3.0 / std::sqrt(s);
    grid_point(x.data(), d, g, z.data());
    double n2 = 0;
    for (std::size_t j = 0; j < d; ++j) {
      n2 += static_cast<double>(z[j]) * static_cast<double>(z[j]);
      EXPECT_LE(std::fabs(static_cast<double>(z[j]) - std::ldexp(x[j], -g.exponent)), 0.5);
    }
    EXPECT_LE(n2, g.norm2_bound);
  }
}

struct Fixture {
  std::vector<double> x;
  std::size_t n = 0, d = 3;
  Fixture() {
    Rng r(5);
    for (int i = 0; i < 600; ++i) {
      const double c = (i % 3) - 1.0;
      for (std::size_t j = 0; j < d; ++j) x.push_back(0.5 * c + 0.2 * r.normal());
      ++n;
    }
    clip_to_radius(x.data(), n, d, 1.0);
  }
};

LshTree noiseless_tree(const Fixture& f, BudgetLedger& ledger, Rng& rng) {
  const privacy::JointAccount account(ledger, "tree", "joint account: test", 1.0, 1e-6, "");
  const privacy::JointCountNoise counts(account, 50.0, 1.0, "counts", "");
  const RowMatrix proj = simhash_projections(f.d, 6, rng);
  return build_lsh_tree(f.x.data(), f.n, f.d, proj, TreeParams{30, 10, 6}, static_cast<std::int64_t>(f.n), counts, rng);
}

TEST(PrivateCoreset, ZeroNoiseIsTheNonPrivateCoresetExactly) {
  const Fixture f;
  for (privacy::Sampler sampler : {privacy::Sampler::textbook, privacy::Sampler::secure}) {
    BudgetLedger ledger(2.0, 1e-6);
    ledger.set_noise_scale(0);
    Rng rng(7);
    const LshTree tree = noiseless_tree(f, ledger, rng);
    ASSERT_GT(tree.leaves.size(), 2u);
    const privacy::JointAccount account(ledger, "sums", "joint account: test", 1.0, 0.0, "");
    const SumGrid grid = sum_grid(1.0, f.d, 4.0);
    const bool secure = sampler == privacy::Sampler::secure;
    const privacy::JointGaussianNoise noise(account, sampler, secure ? 4.0 * grid.sensitivity : 4.0,
                                            secure ? grid.sensitivity : 1.0, "sums", "");
    const PrivateCoreset c = private_coreset(f.x.data(), f.n, f.d, tree, 1.0, secure ? &grid : nullptr, noise, rng);
    ASSERT_EQ(static_cast<std::size_t>(c.points.rows()), tree.leaves.size());
    std::size_t total = 0;
    for (std::size_t l = 0; l < tree.leaves.size(); ++l) {
      const LshNode& leaf = tree.leaves[l];
      EXPECT_EQ(c.weights[l], static_cast<double>(leaf.size()));  // the counts are exact
      total += leaf.size();
      std::vector<double> sum(f.d, 0.0);
      std::vector<std::int64_t> isum(f.d, 0), z(f.d);
      for (std::size_t t = leaf.begin; t < leaf.end; ++t) {
        const double* p = f.x.data() + tree.order[t] * f.d;
        grid_point(p, f.d, grid, z.data());
        for (std::size_t j = 0; j < f.d; ++j) {
          sum[j] += p[j];
          isum[j] += z[j];
        }
      }
      std::vector<double> avg(f.d);
      double norm2 = 0;
      for (std::size_t j = 0; j < f.d; ++j) {
        const double s = secure ? std::ldexp(static_cast<double>(isum[j]), grid.exponent) : sum[j];
        EXPECT_EQ(c.noisy_sums(static_cast<Eigen::Index>(l), static_cast<Eigen::Index>(j)), s);
        avg[j] = s / static_cast<double>(leaf.size());
        norm2 += avg[j] * avg[j];
      }
      // An average of points in the unit ball is in it (up to rounding); the clip leaves it.
      for (std::size_t j = 0; j < f.d; ++j)
        EXPECT_NEAR(c.points(static_cast<Eigen::Index>(l), static_cast<Eigen::Index>(j)), avg[j],
                    norm2 > 1 ? 1e-9 : 0.0);
    }
    EXPECT_EQ(c.points_in_leaves, total);
    EXPECT_NO_THROW(ledger.verify());
  }
}

// The empirical variance of the released sums around the exact ones, over many releases of one tree, is
// the calibrated sigma^2: 600 releases x 3 coordinates x leaves samples; a Gaussian mis-scaled by 10% in
// sigma (21% in variance) fails the 6% band (the band is 6 standard errors of a sample variance).
TEST(PrivateCoreset, NoiseHasTheCalibratedVariance) {
  const Fixture f;
  for (privacy::Sampler sampler : {privacy::Sampler::textbook, privacy::Sampler::secure}) {
    BudgetLedger tree_ledger(2.0, 1e-6);
    tree_ledger.set_noise_scale(0);
    Rng rng(13);
    const LshTree tree = noiseless_tree(f, tree_ledger, rng);
    const bool secure = sampler == privacy::Sampler::secure;
    const double multiplier = 4.3334419302790765;
    const SumGrid grid = sum_grid(1.0, f.d, multiplier);
    BudgetLedger zero(1.0, 1e-6);
    zero.set_noise_scale(0);
    BudgetLedger calibrated(1.0, 1e-6);
    const privacy::JointAccount za(zero, "sums", "joint account: test", 1.0, 1e-6, ""),
        ca(calibrated, "sums", "joint account: test", 1.0, 1e-6, "");
    const double sigma_units = secure ? multiplier * grid.sensitivity : multiplier;
    const double sensitivity = secure ? grid.sensitivity : 1.0;
    const privacy::JointGaussianNoise none(za, sampler, sigma_units, sensitivity, "sums", "");
    const privacy::JointGaussianNoise noise(ca, sampler, sigma_units, sensitivity, "sums", "");
    const PrivateCoreset exact = private_coreset(f.x.data(), f.n, f.d, tree, 1.0, secure ? &grid : nullptr, none, rng);
    double s2 = 0;
    std::size_t m = 0;
    for (int rep = 0; rep < 600; ++rep) {
      const PrivateCoreset c = private_coreset(f.x.data(), f.n, f.d, tree, 1.0, secure ? &grid : nullptr, noise, rng);
      const RowMatrix diff = c.noisy_sums - exact.noisy_sums;
      s2 += diff.squaredNorm();
      m += static_cast<std::size_t>(diff.size());
    }
    const double expected = multiplier * multiplier * (secure ? std::pow(grid.sensitivity * grid.spacing(), 2) : 1.0);
    const double ratio = s2 / static_cast<double>(m) / expected;
    EXPECT_GT(m, 5000u);
    EXPECT_NEAR(ratio, 1.0, 0.06) << (secure ? "secure" : "textbook") << " variance ratio " << ratio;
    EXPECT_NEAR(noise.sigma(), sigma_units, 1e-9 * sigma_units);
  }
}

TEST(ClipToRadius, RescalesOnlyPointsOutsideTheBall) {
  std::vector<double> x = {3, 4, 0.3, 0.4, 0, 0};
  EXPECT_EQ(clip_to_radius(x.data(), 3, 2, 1.0), 1u);
  EXPECT_DOUBLE_EQ(x[0], 0.6);
  EXPECT_DOUBLE_EQ(x[1], 0.8);
  EXPECT_EQ(x[2], 0.3);
  EXPECT_EQ(x[3], 0.4);
  EXPECT_EQ(x[4], 0.0);
}

}  // namespace
}  // namespace dpclust::lsh
