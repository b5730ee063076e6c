#include "cluster/affinity/affinity_propagation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "core/error.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpclust {
namespace {

// scikit-learn's own AffinityPropagation example (class docstring): two columns of three points.
// sklearn: labels_ = [0, 0, 0, 1, 1, 1], cluster_centers_ = [[1, 2], [4, 2]] (indices 0 and 3).
TEST(AffinityPropagation, SklearnDocstringExample) {
  const std::vector<double> X = {1, 2, 1, 4, 1, 0, 4, 2, 4, 4, 4, 0};
  AffinityResult r = affinity_propagation(X.data(), 6, 2, AffinityOptions{});
  EXPECT_TRUE(r.converged);
  EXPECT_EQ(r.labels, (Labels{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(r.exemplars, (std::vector<std::size_t>{0, 3}));
  // The preference is np.median over all 36 entries of S, diagonal zeros included: -9 here.
  std::vector<double> s;
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < 6; ++k) {
      const double dx = X[2 * i] - X[2 * k], dy = X[2 * i + 1] - X[2 * k + 1];
      s.push_back(-(dx * dx + dy * dy));
    }
  std::sort(s.begin(), s.end());
  EXPECT_DOUBLE_EQ(r.preference, (s[17] + s[18]) / 2);
  EXPECT_DOUBLE_EQ(r.preference, -9.0);
}

// Three tight, well separated groups: one cluster each, exemplar = the group's middle point (the
// member with the largest summed similarity).
TEST(AffinityPropagation, ThreeSeparatedGroups) {
  std::vector<double> X;
  const double centres[3][2] = {{0, 0}, {10, 0}, {0, 10}};
  for (int g = 0; g < 3; ++g)
    for (int t = -2; t <= 2; ++t) {
      X.push_back(centres[g][0] + 0.1 * t);
      X.push_back(centres[g][1] + 0.05 * t * t);
    }
  AffinityResult r = affinity_propagation(X.data(), 15, 2, AffinityOptions{});
  ASSERT_TRUE(r.converged);
  ASSERT_EQ(r.exemplars.size(), 3u);
  EXPECT_EQ(r.exemplars, (std::vector<std::size_t>{2, 7, 12}));
  for (std::size_t i = 0; i < 15; ++i) EXPECT_EQ(r.labels[i], static_cast<Label>(i / 5)) << i;
}

// sklearn's degenerate branch: all similarities equal -> every point its own exemplar (the preference,
// the median 0, is >= the similarity 0).
TEST(AffinityPropagation, IdenticalPointsAreOwnExemplars) {
  const std::vector<double> X(8, 3.0);  // 4 identical 2-D points
  AffinityResult r = affinity_propagation(X.data(), 4, 2, AffinityOptions{});
  EXPECT_EQ(r.labels, (Labels{0, 1, 2, 3}));
  EXPECT_EQ(r.n_iter, 0);
}

TEST(AffinityPropagation, SinglePoint) {
  const std::vector<double> X = {1.0, 2.0};
  AffinityResult r = affinity_propagation(X.data(), 1, 2, AffinityOptions{});
  EXPECT_EQ(r.labels, (Labels{0}));
}

// Without convergence sklearn (>= 0.23) labels every point -1 and returns no exemplars.
TEST(AffinityPropagation, NoConvergenceGivesNoise) {
  const std::vector<double> X = {1, 2, 1, 4, 1, 0, 4, 2, 4, 4, 4, 0};
  AffinityOptions o;
  o.max_iter = 5;  // fewer than convergence_iter = 15: cannot converge
  AffinityResult r = affinity_propagation(X.data(), 6, 2, o);
  EXPECT_FALSE(r.converged);
  EXPECT_TRUE(r.exemplars.empty());
  EXPECT_EQ(r.labels, Labels(6, kNoise));
}

TEST(AffinityPropagation, MinimumPreferenceGivesFewerClusters) {
  Rng rng(3);
  std::vector<double> X;
  for (int i = 0; i < 120; ++i) {
    X.push_back(rng.normal() + 6.0 * (i % 4));
    X.push_back(rng.normal());
  }
  AffinityOptions med, mn;
  mn.preference = "minimum";
  med.damping = mn.damping = 0.9;  // the low preference oscillates at damping 0.5
  med.max_iter = mn.max_iter = 1000;
  const AffinityResult a = affinity_propagation(X.data(), 120, 2, med);
  const AffinityResult b = affinity_propagation(X.data(), 120, 2, mn);
  ASSERT_TRUE(a.converged);
  ASSERT_TRUE(b.converged);
  EXPECT_LE(b.exemplars.size(), a.exemplars.size());
  EXPECT_GE(b.exemplars.size(), 1u);
  // Deterministic: a fixed function of the data.
  EXPECT_EQ(affinity_propagation(X.data(), 120, 2, med).labels, a.labels);
}

TEST(AffinityPropagation, RejectsBadOptions) {
  const std::vector<double> X = {0, 1};
  AffinityOptions o;
  o.damping = 1.0;
  EXPECT_THROW(affinity_propagation(X.data(), 1, 2, o), std::invalid_argument);
  o.damping = 0.4;
  EXPECT_THROW(affinity_propagation(X.data(), 1, 2, o), std::invalid_argument);
  EXPECT_THROW(affinity_propagation(std::vector<double>(5), 2, AffinityOptions{}), std::invalid_argument);
}

// Regression: convergence_iter = 2^62 passed validation, n * convergence_iter wrapped and the history
// write went out of bounds. Now the spec refuses it (dpclust validate) and the run throws InputError.
TEST(AffinityPropagation, HugeConvergenceIterIsRefusedBeforeAllocating) {
  const MethodInfo& info = affinity_propagation_method_info();
  for (const char* name : {"convergence_iter", "max_iter"}) {
    const auto spec = std::find_if(info.params.begin(), info.params.end(), [&](const ParamSpec& p) { return p.name == name; });
    ASSERT_NE(spec, info.params.end()) << name;
    EXPECT_FALSE(spec->check(ParamValue{std::int64_t{1} << 62}).empty()) << name;
    EXPECT_TRUE(spec->check(ParamValue{std::int64_t{15}}).empty()) << name;
  }
  std::vector<double> X;
  for (int i = 0; i < 6; ++i) X.insert(X.end(), {double(i % 3) * 10.0 + i * 0.1, double(i)});
  for (const bool conv : {true, false}) {
    AffinityOptions o;
    (conv ? o.convergence_iter : o.max_iter) = std::int64_t{1} << 62;
    try {
      affinity_propagation(X.data(), 6, 2, o);
      FAIL() << "expected InputError";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(conv ? "convergence_iter" : "max_iter"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace dpclust
