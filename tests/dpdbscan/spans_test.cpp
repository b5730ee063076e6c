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

CellGrid unit_grid() { return make_grid(Bounds{{0, 0}, {9.5, 9.5}}, std::sqrt(2.0), 4.0); }  // w = 1, 10 x 10

std::uint64_t code(const CellGrid& g, std::uint64_t i, std::uint64_t j) { return i * g.strides[0] + j; }

TEST(Spans, MergeRuleIsMinimumDistanceBelowAlpha) {
  const CellGrid g = unit_grid();  // alpha = sqrt(2) w
  const Neighbourhood nb = alpha_neighbourhood(2, 4.0);
  for (bool dense : {true, false}) {
    // (0,0)-(2,1): gap (1,0) = w < alpha, merged. (5,5)-(7,7): gap (1,1) = sqrt(2) w = alpha, not merged.
    // (5,0)-(8,0): gap 2w > alpha, not merged.
    std::vector<std::uint64_t> cells{code(g, 0, 0), code(g, 2, 1), code(g, 5, 0), code(g, 5, 5), code(g, 7, 7), code(g, 8, 0)};
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
    EXPECT_EQ(at(0.0, 1.99), 0);   // cell (0, 1)
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
  const DpDbscanResult r = dp_dbscan(p.data(), n, Bounds{{0, 0}, {10, 10}}, o, rng, nullptr);
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
  DpDbscanOptions o;
  o.alpha = 0.3;
  o.min_pts = 5;
  o.histogram = HistogramChoice::linear;
  o.storage = StorageChoice::dense;
  Rng r1(4), r2(4);
  const DpDbscanResult a = dp_dbscan(p.data(), p.size() / 2, Bounds{{0, 0}, {10, 10}}, o, r1, nullptr);
  o.storage = StorageChoice::sparse;
  const DpDbscanResult b = dp_dbscan(p.data(), p.size() / 2, Bounds{{0, 0}, {10, 10}}, o, r2, nullptr);
  EXPECT_TRUE(a.dense);
  EXPECT_FALSE(b.dense);
  EXPECT_GT(a.spans.n_spans, 0u);
  EXPECT_EQ(a.spans.codes, b.spans.codes);
  EXPECT_EQ(a.spans.span, b.spans.span);
  EXPECT_EQ(a.core.sums, b.core.sums);  // bit-identical sums
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
  const DpDbscanResult r = dp_dbscan(p.data(), 4000, Bounds{{-3, -3, -3}, {3, 3, 3}}, o, rng, nullptr);
  EXPECT_EQ(r.kappa, 117u);
  EXPECT_TRUE(r.linear);
  EXPECT_FALSE(r.dense);
  EXPECT_GT(r.grid.universe, std::uint64_t{1} << 30);
  EXPECT_EQ(r.spans.n_spans, 2u);
}

}  // namespace
}  // namespace dpclust::dpdbscan
