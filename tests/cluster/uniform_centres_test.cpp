// The trivial baseline (cluster/uniform_centres): k centres uniform in the public box, the same whatever the
// data (0-DP), each point labelled with its nearest centre (the first of equal distances), nothing charged.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cluster/uniform_centres/register.hpp"
#include "cluster/uniform_centres/uniform_centres.hpp"
#include "core/error.hpp"
#include "core/ledger.hpp"
#include "core/params.hpp"

using namespace dpclust;

namespace uniform_centres_test {  // named: the cluster tests are a unity build

Dataset points(std::vector<double> coords, std::size_t d) {
  Dataset ds;
  ds.name = "pts";
  ds.d = d;
  ds.n = coords.size() / d;
  ds.coords = std::move(coords);
  ds.bounds = Bounds{{0.0, -5.0}, {1.0, 5.0}};
  ds.bounds_source = BoundsSource::config;
  return ds;
}

}  // namespace uniform_centres_test

using namespace uniform_centres_test;

TEST(UniformCentres, CentresDoNotDependOnTheData) {
  const Dataset a = points({0.1, 0.2, 0.9, -4.0, 0.5, 3.0}, 2);
  const Dataset b = points({0.7, 4.9, 0.3, 0.0, 0.2, -1.0, 0.8, 2.5, 0.6, 0.6}, 2);  // other points, another n
  Rng ra(11), rb(11);
  const UniformCentres ua = uniform_centres(a, a.bounds, 4, ra);
  const UniformCentres ub = uniform_centres(b, b.bounds, 4, rb);
  ASSERT_EQ(ua.centres.rows(), 4);
  ASSERT_EQ(ua.centres.cols(), 2);
  EXPECT_TRUE(ua.centres == ub.centres);
  for (Eigen::Index c = 0; c < 4; ++c) {
    EXPECT_GE(ua.centres(c, 0), 0.0);
    EXPECT_LT(ua.centres(c, 0), 1.0);
    EXPECT_GE(ua.centres(c, 1), -5.0);
    EXPECT_LT(ua.centres(c, 1), 5.0);
  }
}

TEST(UniformCentres, LabelsAreTheNearestCentre) {
  const Dataset b = points({0.7, 4.9, 0.3, 0.0, 0.2, -1.0, 0.8, 2.5, 0.6, 0.6}, 2);
  Rng r(3);
  const UniformCentres u = uniform_centres(b, b.bounds, 3, r);
  ASSERT_EQ(u.labels.size(), 5u);
  for (std::size_t i = 0; i < b.n; ++i) {
    int best = -1;
    double best_d = std::numeric_limits<double>::infinity();
    for (int c = 0; c < 3; ++c) {
      const double dx = b.point(i)[0] - u.centres(c, 0), dy = b.point(i)[1] - u.centres(c, 1);
      if (dx * dx + dy * dy < best_d) best_d = dx * dx + dy * dy, best = c;
    }
    EXPECT_EQ(u.labels[i], best) << "point " << i;
  }
}

// Fixed seed: 20000 one-dimensional centres in [2, 4) have mean 3 within 5 standard errors (0.577 / sqrt(20000)).
TEST(UniformCentres, UniformOverTheBox) {
  Dataset one;
  one.name = "one";
  one.d = 1;
  one.n = 1;
  one.coords = {3.0};
  Rng r(2026);
  const UniformCentres u = uniform_centres(one, Bounds{{2.0}, {4.0}}, 20000, r);
  const double mean = u.centres.col(0).mean();
  EXPECT_NEAR(mean, 3.0, 5 * (2.0 / std::sqrt(12.0)) / std::sqrt(20000.0));
  const double below = static_cast<double>((u.centres.col(0).array() < 2.5).count()) / 20000.0;
  EXPECT_NEAR(below, 0.25, 5 * std::sqrt(0.25 * 0.75 / 20000.0));
}

TEST(UniformCentres, MethodChargesNothingAndNeedsBounds) {
  const MethodInfo& info = uniform_centres_method_info();
  EXPECT_TRUE(info.trivial_baseline);
  EXPECT_TRUE(info.differentially_private);
  ParamSet p;
  p.set("k", std::int64_t{2});
  const Dataset a = points({0.1, 0.2, 0.9, -4.0, 0.5, 3.0}, 2);
  BudgetLedger ledger = BudgetLedger::data_independent();
  Rng r(1);
  const MethodResult res = info.make()->run(a, p, r, ledger);
  EXPECT_EQ(res.centres.rows(), 2);
  EXPECT_FALSE(res.labels_are_release);
  EXPECT_EQ(res.release["centers"].size(), 2u);
  EXPECT_TRUE(ledger.entries().empty());
  EXPECT_EQ(ledger.spent_epsilon(), 0.0);
  EXPECT_EQ(ledger.total_epsilon(), 0.0);
  Dataset no_box = a;
  no_box.bounds = Bounds{};
  EXPECT_THROW(info.make()->run(no_box, p, r, ledger), InputError);
}
