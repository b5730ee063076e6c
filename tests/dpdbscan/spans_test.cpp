// Spans: the merge rule, the classifier on hand-made points, the sandwich guarantee (Def. 1.2 /
// Thm 5.2) on small instances with a large epsilon, and dense/sparse storage agreement.
#include "dpdbscan/spans.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "dpdbscan/dp_dbscan.hpp"

namespace dpclust::dpdbscan {
namespace {

// Algorithm 1 with its own ledger (the histogram's one entry).
DpDbscanResult run(const std::vector<double>& p, std::size_t n, const Bounds& b, const DpDbscanOptions& o, Rng& rng) {
  BudgetLedger ledger(o.epsilon, o.delta);
  DpDbscanResult r = dp_dbscan(p.data(), n, b, o, rng, ledger);
  ledger.verify();
  return r;
}

CellGrid unit_grid() { return make_grid(Bounds{{0, 0}, {9.5, 9.5}}, std::sqrt(2.0), 4.0); }  // w = 1, 10 x 10

std::uint64_t code(const CellGrid& g, std::uint64_t i, std::uint64_t j) { return i * g.strides[0] + j; }

TEST(Spans, MergeRuleIsMinimumDistanceBelowAlpha) {
  const CellGrid g = unit_grid();  // alpha = sqrt(2) w
  const Neighbourhood nb = alpha_neighbourhood(2, 4.0);
  for (bool dense : {true, false}) {
    // (0,0)-(2,1): gap (1,0) = w < alpha, merged. (5,5)-(7,7): gap (1,1) = sqrt(2) w = alpha, not merged.
    // (5,0)-(8,0): gap 2w > alpha, not merged.
    std::vector<std::uint64_t> cells{code(g, 0, 0), code(g, 2, 1), code(g, 5, 0),
                                     code(g, 5, 5), code(g, 7, 7), code(g, 8, 0)};
    std::sort(cells.begin(), cells.end());
    const SpanSet s = merge_core_cells(g, nb, cells, dense);
    std::map<std::uint64_t, Label> span;
    for (std::size_t i = 0; i < s.codes.size(); ++i) span[s.codes[i]] = s.span[i];
    EXPECT_EQ(s.n_spans, 5u);
    EXPECT_EQ(span[code(g, 0, 0)], span[code(g, 2, 1)]);
    EXPECT_NE(span[code(g, 5, 5)], span[code(g, 7, 7)]);
    EXPECT_NE(span[code(g, 5, 0)], span[code(g, 8, 0)]);
    EXPECT_EQ(span[code(g, 0, 0)], 0);  // numbered by lowest code
  }
}

TEST(Spans, ClassifierOnHandMadePoints) {
  const CellGrid g = unit_grid();
  const Neighbourhood nb = alpha_neighbourhood(2, 4.0);
  std::vector<std::uint64_t> cells{code(g, 0, 0), code(g, 0, 1), code(g, 5, 5)};
  for (bool dense : {true, false}) {
    const SpanSet s = merge_core_cells(g, nb, cells, dense);
    ASSERT_EQ(s.n_spans, 2u);
    const SpanClassifier c(g, s, dense);
    auto at = [&](double x, double y) {
      const double p[2] = {x, y};
      return c.classify(p);
    };
    EXPECT_EQ(at(0.5, 0.5), 0);
    EXPECT_EQ(at(0.0, 1.99), 0);  // cell (0, 1)
    EXPECT_EQ(at(5.2, 5.9), 1);
    EXPECT_EQ(at(6.0, 5.5), kNoise);  // x = 6 is the next cell
    EXPECT_EQ(at(3.0, 3.0), kNoise);
    EXPECT_EQ(at(-0.1, 0.5), kNoise);  // outside the domain, although clamping would give cell (0, 0)
    EXPECT_EQ(at(9.5, 9.6), kNoise);
    const std::vector<double> pts{0.5, 0.5, 3, 3, 5.5, 5.5};
    EXPECT_EQ(c.classify_all(pts.data(), 3), (Labels{0, kNoise, 1}));
  }
}

// --- the sandwich guarantee --------------------------------------------------------------------

double dist(const double* a, const double* b) { return std::hypot(a[0] - b[0], a[1] - b[1]); }

// Exact DBSCAN in the paper's definition (open balls, the point counted): core flags and the cluster
// (connected component of core points, distance < radius) of each core point, -1 otherwise.
std::vector<int> exact_clusters(const std::vector<double>& p, double radius, double min_pts) {
  const std::size_t n = p.size() / 2;
  std::vector<char> core(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    int c = 0;
    for (std::size_t j = 0; j < n; ++j) c += dist(&p[2 * i], &p[2 * j]) < radius;
    core[i] = c >= min_pts;
  }
  std::vector<int> comp(n, -1);
  int next = 0;
  for (std::size_t s = 0; s < n; ++s) {
    if (!core[s] || comp[s] >= 0) continue;
    std::vector<std::size_t> stack{s};
    comp[s] = next;
    while (!stack.empty()) {
      const std::size_t i = stack.back();
      stack.pop_back();
      for (std::size_t j = 0; j < n; ++j)
        if (core[j] && comp[j] < 0 && dist(&p[2 * i], &p[2 * j]) < radius) {
          comp[j] = next;
          stack.push_back(j);
        }
    }
    ++next;
  }
  return comp;
}

double max_dist_to_cell(const double* p, const CellGrid& g, std::uint64_t cell) {
  std::int64_t idx[2];
  g.decode(cell, idx);
  double s = 0;
  for (std::size_t j = 0; j < 2; ++j) {
    const double t = std::max(std::fabs(p[j] - g.cell_lo(j, idx[j])), std::fabs(p[j] - g.cell_hi(j, idx[j])));
    s += t * t;
  }
  return std::sqrt(s);
}

std::vector<double> blobs(std::uint64_t seed) {
  Rng r(seed);
  std::vector<double> p;
  const double cx[3] = {2, 6, 7}, cy[3] = {2, 7, 2.5}, sd[3] = {0.4, 0.6, 0.3};
  for (int i = 0; i < 700; ++i) {
    const int b = i % 3;
    p.push_back(std::clamp(cx[b] + sd[b] * r.normal(), 0.0, 10.0));
    p.push_back(std::clamp(cy[b] + sd[b] * r.normal(), 0.0, 10.0));
  }
  for (int i = 0; i < 100; ++i) {
    p.push_back(r.uniform(0, 10));
    p.push_back(r.uniform(0, 10));
  }
  return p;
}

void check_sandwich(const std::vector<double>& p, const DpDbscanOptions& o, std::uint64_t seed) {
  const std::size_t n = p.size() / 2;
  Rng rng(seed);
  const DpDbscanResult r = run(p, n, Bounds{{0, 0}, {10, 10}}, o, rng);
  const SpanClassifier cls(r.grid, r.spans, r.dense);
  // Lemma 5.1 / Sec. 7.2: the clusters found for sure are (alpha, MinPts) clusters with the
  // Alg. 1-literal rule and (alpha, MinPts + tau) clusters with MinPts' = MinPts + tau; the spans lie in
  // (rho alpha, MinPts - tau) resp. (rho alpha, MinPts) clusters, rho = 3 + eta (Thm 5.2).
  const double mp = static_cast<double>(o.min_pts);
  const bool literal = o.core_rule == CoreRule::lemma_5_1;
  const double mp_exact = literal ? mp : mp + r.tau;
  const double mp_relaxed = std::max(1.0, literal ? mp - r.tau : mp);
  const double rho = 3 + o.eta;

  // Condition 1: every exact cluster inside one span.
  const std::vector<int> c1 = exact_clusters(p, o.alpha, mp_exact);
  std::map<int, std::set<Label>> spans_of;
  for (std::size_t i = 0; i < n; ++i)
    if (c1[i] >= 0) spans_of[c1[i]].insert(cls.classify(&p[2 * i]));
  ASSERT_FALSE(spans_of.empty());
  for (const auto& [c, s] : spans_of) {
    EXPECT_EQ(s.size(), 1u) << "cluster " << c << " split over spans";
    EXPECT_EQ(s.count(kNoise), 0u) << "cluster " << c << " has a point outside every span";
  }
  // Condition 2: every span inside Span(C2) of one relaxed cluster C2.
  const std::vector<int> c2 = exact_clusters(p, rho * o.alpha, mp_relaxed);
  std::map<Label, std::vector<std::uint64_t>> cells_of;
  for (std::size_t i = 0; i < r.spans.codes.size(); ++i) cells_of[r.spans.span[i]].push_back(r.spans.codes[i]);
  for (const auto& [s, cells] : cells_of) {
    std::set<int> candidates;
    for (std::size_t i = 0; i < n; ++i)
      if (c2[i] >= 0 && max_dist_to_cell(&p[2 * i], r.grid, cells[0]) < rho * o.alpha) candidates.insert(c2[i]);
    bool found = false;
    for (int c : candidates) {
      bool all = true;
      for (std::uint64_t cell : cells) {
        bool covered = false;
        for (std::size_t i = 0; i < n && !covered; ++i)
          covered = c2[i] == c && max_dist_to_cell(&p[2 * i], r.grid, cell) < rho * o.alpha;
        if (!covered) {
          all = false;
          break;
        }
      }
      if (all) {
        found = true;
        break;
      }
    }
    EXPECT_TRUE(found) << "span " << s << " is not inside the span of one relaxed cluster";
  }
}

TEST(Sandwich, LargeEpsilonNaiveAndLinearBothRules) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const std::vector<double> p = blobs(seed);
    for (auto hist : {HistogramChoice::naive, HistogramChoice::linear})
      for (auto rule : {CoreRule::lemma_5_1, CoreRule::minpts_prime}) {
        SCOPED_TRACE("seed " + std::to_string(seed) + (hist == HistogramChoice::naive ? " naive" : " linear") +
                     (rule == CoreRule::lemma_5_1 ? " lemma_5_1" : " minpts_prime"));
        DpDbscanOptions o;
        o.alpha = 0.4;
        o.min_pts = 12;
        o.epsilon = 200;
        o.histogram = hist;
        o.core_rule = rule;
        check_sandwich(p, o, seed * 17);
      }
  }
}

TEST(DpDbscan, DenseAndSparseStorageGiveTheSameSpans) {
  const std::vector<double> p = blobs(9);
  for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
    SCOPED_TRACE(privacy::to_string(s));
    DpDbscanOptions o;
    o.alpha = 0.3;
    o.min_pts = 5;
    o.sampler = s;
    o.histogram = HistogramChoice::linear;
    o.storage = StorageChoice::dense;
    Rng r1(4), r2(4);
    const DpDbscanResult a = run(p, p.size() / 2, Bounds{{0, 0}, {10, 10}}, o, r1);
    o.storage = StorageChoice::sparse;
    const DpDbscanResult b = run(p, p.size() / 2, Bounds{{0, 0}, {10, 10}}, o, r2);
    EXPECT_TRUE(a.dense);
    EXPECT_FALSE(b.dense);
    EXPECT_GT(a.spans.n_spans, 0u);
    EXPECT_EQ(a.spans.codes, b.spans.codes);
    EXPECT_EQ(a.spans.span, b.spans.span);
    EXPECT_EQ(a.core.sums, b.core.sums);  // bit-identical sums
  }
}

TEST(DpDbscan, ZeroNoiseReleasesTheNonPrivateSkeleton) {
  // ledger noise_scale 0: no noise, Gamma = tau = theta = 0, so Algorithm 1 releases the rho-approximate
  // non-private skeleton: the cells with UB(X) = sum of the EXACT counts over NB(X) >= MinPts (eq. 1),
  // merged at distance < alpha. Computed here independently from the exact cell counts.
  const std::vector<double> p = blobs(5);
  const std::size_t n = p.size() / 2;
  const Bounds b{{0, 0}, {10, 10}};
  const double alpha = 0.4;
  const std::int64_t min_pts = 12;
  const CellGrid g = make_grid(b, alpha, 4.0);
  const Neighbourhood nb = alpha_neighbourhood(2, 4.0);
  const CellCounts counts = count_cells(g, p.data(), n, true);
  std::vector<std::uint64_t> skeleton;
  std::int64_t idx[2];
  for (std::uint64_t c = 0; c < g.universe; ++c) {
    g.decode(c, idx);
    double ub = 0;
    for (std::size_t k = 0; k < nb.kappa(); ++k) {
      const std::int64_t i = idx[0] + nb.offset(k)[0], j = idx[1] + nb.offset(k)[1];
      if (i < 0 || j < 0 || i >= static_cast<std::int64_t>(g.dims[0]) || j >= static_cast<std::int64_t>(g.dims[1]))
        continue;
      ub += counts.dense_counts[static_cast<std::uint64_t>(i) * g.strides[0] + static_cast<std::uint64_t>(j)];
    }
    if (ub >= static_cast<double>(min_pts)) skeleton.push_back(c);
  }
  ASSERT_FALSE(skeleton.empty());
  const SpanSet expected = merge_core_cells(g, nb, skeleton, true);
  ASSERT_GE(expected.n_spans, 3u);
  for (auto hist : {HistogramChoice::naive, HistogramChoice::linear})
    for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook})
      for (auto rule : {CoreRule::minpts_prime, CoreRule::lemma_5_1})
        for (std::uint64_t seed : {1u, 2u}) {
          SCOPED_TRACE(std::string(hist == HistogramChoice::naive ? "naive " : "linear ") + privacy::to_string(s) +
                       " seed " + std::to_string(seed));
          DpDbscanOptions o;
          o.alpha = alpha;
          o.min_pts = min_pts;
          o.epsilon = 1.0;
          o.histogram = hist;
          o.sampler = s;
          o.core_rule = rule;
          BudgetLedger ledger(1.0);
          ledger.set_noise_scale(0.0);
          Rng rng(seed);
          const DpDbscanResult r = dp_dbscan(p.data(), n, b, o, rng, ledger);
          EXPECT_EQ(r.gamma, 0.0);
          EXPECT_EQ(r.tau, 0.0);
          EXPECT_EQ(r.theta, 0.0);
          EXPECT_EQ(r.threshold, static_cast<double>(min_pts));
          EXPECT_EQ(r.core.codes, skeleton);
          EXPECT_EQ(r.spans.codes, expected.codes);
          EXPECT_EQ(r.spans.span, expected.span);
        }
}

TEST(DpDbscan, ThreeDimensionalSparse) {
  // HAR70+-like: 3-D, kappa = 117, a universe far beyond dense storage.
  Rng g(2);
  std::vector<double> p;
  for (int i = 0; i < 4000; ++i)
    for (int j = 0; j < 3; ++j) p.push_back(std::clamp((i % 2 ? 0.5 : -0.5) + 0.02 * g.normal(), -3.0, 3.0));
  DpDbscanOptions o;
  o.alpha = 0.01;
  o.min_pts = 5;
  o.epsilon = 50;  // kappa theta = 117 ln(|X|/n) / eps dominates Gamma in 3-D (the paper's HAR70+ remark)
  Rng rng(1);
  const DpDbscanResult r = run(p, 4000, Bounds{{-3, -3, -3}, {3, 3, 3}}, o, rng);
  EXPECT_EQ(r.kappa, 117u);
  EXPECT_TRUE(r.linear);
  EXPECT_FALSE(r.dense);
  EXPECT_GT(r.grid.universe, std::uint64_t{1} << 30);
  EXPECT_EQ(r.spans.n_spans, 2u);
}

}  // namespace
}  // namespace dpclust::dpdbscan
