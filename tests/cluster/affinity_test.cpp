#include "cluster/affinity/affinity_propagation.hpp"
#include "cluster/affinity/register.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

namespace dpclust {
namespace {

// One iteration of sklearn's loop body, one numpy statement at a time on an n x n tmp.
void reference_iteration(const std::vector<double>& S, std::size_t n, double damping, std::vector<double>& A,
                         std::vector<double>& R) {
  const double damp = damping, undamp = 1.0 - damping;
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> tmp(n * n);
  for (std::size_t x = 0; x < n * n; ++x) tmp[x] = A[x] + S[x];  // np.add(A, S, tmp)
  std::vector<std::size_t> I(n);
  std::vector<double> Y(n), Y2(n);
  for (std::size_t i = 0; i < n; ++i) {  // I = argmax; Y = tmp[ind, I]; tmp[ind, I] = -inf; Y2 = max
    for (std::size_t k = 1; k < n; ++k)
      if (tmp[i * n + k] > tmp[i * n + I[i]]) I[i] = k;
    Y[i] = tmp[i * n + I[i]];
    tmp[i * n + I[i]] = -inf;
    Y2[i] = tmp[i * n];
    for (std::size_t k = 1; k < n; ++k) Y2[i] = std::max(Y2[i], tmp[i * n + k]);
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) tmp[i * n + k] = S[i * n + k] - Y[i];
  for (std::size_t i = 0; i < n; ++i) tmp[i * n + I[i]] = S[i * n + I[i]] - Y2[i];
  for (double& v : tmp) v *= undamp;
  for (double& v : R) v *= damp;
  for (std::size_t x = 0; x < n * n; ++x) R[x] += tmp[x];
  for (std::size_t x = 0; x < n * n; ++x) tmp[x] = std::max(R[x], 0.0);  // np.maximum(R, 0, tmp)
  for (std::size_t i = 0; i < n; ++i) tmp[i * n + i] = R[i * n + i];
  std::vector<double> colsum(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) colsum[k] += tmp[i * n + k];
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) tmp[i * n + k] -= colsum[k];
  std::vector<double> dA(n);
  for (std::size_t i = 0; i < n; ++i) dA[i] = tmp[i * n + i];
  for (double& v : tmp) v = std::max(v, 0.0);  // tmp.clip(0, inf)
  for (std::size_t i = 0; i < n; ++i) tmp[i * n + i] = dA[i];
  for (double& v : tmp) v *= undamp;
  for (double& v : A) v *= damp;
  for (std::size_t x = 0; x < n * n; ++x) A[x] -= tmp[x];
}

// A straightforward transcription of sklearn's _affinity_propagation (n x n tmp, one numpy statement
// per loop, the order of operations of sklearn): the reference the
// fused row-wise loops of affinity_propagation.cpp must reproduce bit for bit (labels, exemplars,
// iterations, preference).
AffinityResult reference_affinity(std::vector<double> S, std::size_t n, const AffinityOptions& o) {
  AffinityResult res;
  std::vector<double> sorted = S;
  std::sort(sorted.begin(), sorted.end());
  res.preference = o.preference == "minimum" ? sorted.front()
                   : n * n % 2 == 1          ? sorted[n * n / 2]
                                             : (sorted[n * n / 2 - 1] + sorted[n * n / 2]) / 2.0;
  for (std::size_t i = 0; i < n; ++i) S[i * n + i] = res.preference;
  if (o.tie_noise) {
    Rng noise(o.noise_seed);
    for (double& s : S)
      s += (std::numeric_limits<double>::epsilon() * s + std::numeric_limits<double>::min() * 100.0) * noise.normal();
  }
  const auto conv = static_cast<std::size_t>(o.convergence_iter);
  std::vector<double> A(n * n, 0.0), R(n * n, 0.0);
  std::vector<std::vector<int>> e(n, std::vector<int>(conv, 0));
  std::vector<int> E(n, 0);
  bool never_converged = true;
  std::int64_t it = 0;
  for (; it < o.max_iter; ++it) {
    reference_iteration(S, n, o.damping, A, R);
    std::size_t K = 0;
    for (std::size_t k = 0; k < n; ++k) {
      E[k] = A[k * n + k] + R[k * n + k] > 0;
      e[k][static_cast<std::size_t>(it) % conv] = E[k];
      K += static_cast<std::size_t>(E[k]);
    }
    if (static_cast<std::size_t>(it) >= conv) {
      std::size_t stable = 0;
      for (std::size_t k = 0; k < n; ++k) {
        std::size_t se = 0;
        for (int v : e[k]) se += static_cast<std::size_t>(v);
        stable += se == conv || se == 0;
      }
      if (stable == n && K > 0) {
        never_converged = false;
        break;
      }
    }
  }
  res.n_iter = never_converged ? o.max_iter : it + 1;
  std::vector<std::size_t> I;
  for (std::size_t k = 0; k < n; ++k)
    if (E[k]) I.push_back(k);
  if (I.empty() || never_converged) {
    res.labels.assign(n, kNoise);
    return res;
  }
  res.converged = true;
  std::vector<std::size_t> c(n);
  auto assign = [&] {
    for (std::size_t i = 0; i < n; ++i) {
      c[i] = 0;
      for (std::size_t j = 1; j < I.size(); ++j)
        if (S[i * n + I[j]] > S[i * n + I[c[i]]]) c[i] = j;
    }
    for (std::size_t j = 0; j < I.size(); ++j) c[I[j]] = j;
  };
  assign();
  for (std::size_t k = 0; k < I.size(); ++k) {
    std::vector<std::size_t> ii;
    for (std::size_t i = 0; i < n; ++i)
      if (c[i] == k) ii.push_back(i);
    std::size_t best = 0;
    double best_sum = 0;
    for (std::size_t col = 0; col < ii.size(); ++col) {
      double sum = 0.0;
      for (std::size_t row : ii) sum += S[row * n + ii[col]];
      if (col == 0 || sum > best_sum) best = col, best_sum = sum;
    }
    I[k] = ii[best];
  }
  assign();
  std::vector<std::size_t> ex(I);
  std::sort(ex.begin(), ex.end());
  ex.erase(std::unique(ex.begin(), ex.end()), ex.end());
  res.labels.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    res.labels[i] = static_cast<Label>(std::lower_bound(ex.begin(), ex.end(), I[c[i]]) - ex.begin());
  res.exemplars = ex;
  return res;
}

std::vector<double> similarities(const std::vector<double>& X, std::size_t n, std::size_t d) {
  std::vector<double> S(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = i + 1; k < n; ++k) {
      double s = 0.0;
      for (std::size_t j = 0; j < d; ++j) s += (X[i * d + j] - X[k * d + j]) * (X[i * d + j] - X[k * d + j]);
      S[i * n + k] = S[k * n + i] = -s;
    }
  return S;
}

// The fused row-wise message passing equals the reference on random data: Gaussian blobs (distinct
// similarities), and points on a small integer grid without the tie-breaking noise (exact ties, zero
// maxima of both signs, the paths where the order of comparisons matters), at several damping values.
TEST(AffinityPropagation, EqualsStraightforwardReference) {
  Rng rng(2024);
  int converged = 0, cases = 0;
  for (const std::size_t n : {2u, 3u, 7u, 30u, 61u, 150u})
    for (const double damping : {0.5, 0.7, 0.9})
      for (const bool grid : {false, true}) {
        const std::size_t d = 2 + (n % 3);
        std::vector<double> X(n * d);
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < d; ++j)
            X[i * d + j] = grid ? static_cast<double>(rng.below(4)) : rng.normal() + 5.0 * static_cast<double>(i % 3);
        AffinityOptions o;
        o.damping = damping;
        o.max_iter = 400;
        o.tie_noise = !grid;
        o.preference = n % 2 == 0 ? "median" : "minimum";
        const std::vector<double> S = similarities(X, n, d);
        const AffinityResult got = affinity_propagation(S, n, o);
        const AffinityResult want = reference_affinity(S, n, o);
        const std::string what =
            "n=" + std::to_string(n) + " damping=" + std::to_string(damping) + " grid=" + std::to_string(grid);
        EXPECT_EQ(got.labels, want.labels) << what;
        EXPECT_EQ(got.exemplars, want.exemplars) << what;
        EXPECT_EQ(got.converged, want.converged) << what;
        EXPECT_EQ(got.preference, want.preference) << what;
        // The degenerate branch (all similarities equal) returns before any iteration.
        if (got.n_iter != 0) {
          EXPECT_EQ(got.n_iter, want.n_iter) << what;
        }
        converged += got.converged;
        ++cases;
      }
  EXPECT_GE(converged, cases / 2);  // the comparison covers the refinement and labelling, not only -1s
}

// The messages themselves, bit for bit, over 60 iterations: the row-wise loops against sklearn's
// statements, on tie-free similarities and on integer-grid ones (exact ties; and signed zeros in S and
// in the starting messages, so that zero maxima of both signs occur).
TEST(AffinityPropagation, IterationEqualsReferenceBitForBit) {
  Rng rng(77);
  for (const std::size_t n : {2u, 5u, 33u, 120u})
    for (const bool grid : {false, true})
      for (const double damping : {0.5, 0.9}) {
        std::vector<double> X(n * 3);
        for (double& x : X) x = grid ? static_cast<double>(rng.below(3)) : rng.normal();
        std::vector<double> S = similarities(X, n, 3);
        for (std::size_t i = 0; i < n; ++i) S[i * n + i] = grid ? -1.0 : -2.5;
        std::vector<double> A(n * n, 0.0), R(n * n, 0.0), colsum(n);
        if (grid)  // start from signed zeros: row maxima of +0 and -0 together, where order decides the sign
          for (std::size_t x = 0; x < n * n; ++x) {
            A[x] = rng.below(16) == 0 ? 1.0 : rng.below(2) ? -0.0 : 0.0;  // some rows: one positive, signed zeros
            R[x] = rng.below(2) ? -0.0 : 0.0;
            if (S[x] == 0.0 && rng.below(2)) S[x] = -S[x];
          }
        std::vector<double> A2 = A, R2 = R;
        for (int it = 0; it < 60; ++it) {
          detail::affinity_iteration(S.data(), n, damping, A.data(), R.data(), colsum.data());
          reference_iteration(S, n, damping, A2, R2);
          ASSERT_EQ(std::memcmp(A.data(), A2.data(), n * n * sizeof(double)), 0) << "A, n=" << n << " it=" << it;
          ASSERT_EQ(std::memcmp(R.data(), R2.data(), n * n * sizeof(double)), 0) << "R, n=" << n << " it=" << it;
        }
      }
}

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
    const auto spec =
        std::find_if(info.params.begin(), info.params.end(), [&](const ParamSpec& p) { return p.name == name; });
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
