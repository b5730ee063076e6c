// The comparison's statistics; see comparison_stats.hpp.
#include "report/comparison_stats.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <map>
#include <numeric>

namespace dpclust::report {

const char* to_string(Better b) {
  return b == Better::higher ? "higher is better" : b == Better::lower ? "lower is better" : "no better direction";
}

MetricTraits metric_traits(const std::string& metric) {
  constexpr auto none = std::nullopt;
  // Utility and error measures of the engine's metrics (`dpclust list`, "metrics:"). Ranges as in
  // plots/plot_results.py METRIC_RANGE: ARI >= -0.5 (scikit-learn's adjusted_rand_score), AMI <= 1,
  // shares and F-measures in [0, 1], errors and counts >= 0.
  static const std::map<std::string, MetricTraits> table = {
      {"ari", {Better::higher, -0.5, 1.0}},
      {"ami", {Better::higher, none, 1.0}},
      {"nmi", {Better::higher, 0.0, 1.0}},
      {"f_measure", {Better::higher, 0.0, 1.0}},  // DP WaveCluster Sec. 7
      {"overall_f_measure", {Better::higher, 0.0, 1.0}},
      {"of", {Better::higher, 0.0, 1.0}},                // DRBT Eq. 14
      {"ari_vs_original", {Better::higher, -0.5, 1.0}},  // nD-Laplace thesis Sec. 5.3.2
      {"ami_vs_original", {Better::higher, none, 1.0}},
      {"dsg_c", {Better::lower, 0.0, none}},               // DP WaveCluster Sec. 6.1 (cell distances per true cell)
      {"ocm", {Better::lower, 0.0, 1.0}},                  // Sec. 6.2 (1 - matched share)
      {"two_ce", {Better::lower, 0.0, 1.0}},               // Sec. 6.2 (share of inconsistent pairs)
      {"kprime_rel_error", {Better::lower, 0.0, none}},    // |k' - k| / k, Sec. 7
      {"stress", {Better::lower, 0.0, none}},              // DRBT Eq. 6
      {"centroid_rel_error", {Better::lower, 0.0, none}},  // thesis Sec. 2.2.2
      // The k-means measures (metrics/kmeans_measures.hpp): costs and distances lower, agreements higher.
      {"inertia", {Better::lower, 0.0, none}},
      {"inertia_per_point", {Better::lower, 0.0, none}},
      {"normalized_kmeans_cost", {Better::lower, 0.0, none}},
      {"centre_distance", {Better::lower, 0.0, none}},
      {"silhouette", {Better::higher, -1.0, 1.0}},
      {"accuracy", {Better::higher, 0.0, 1.0}},
      {"purity", {Better::higher, 0.0, 1.0}},
      // Google's demo's pair counts and FastLloyd's validity indices (metrics/paper_measures.hpp).
      {"false_match_fraction", {Better::lower, 0.0, 1.0}},
      {"true_non_match_fraction", {Better::lower, 0.0, 1.0}},
      {"nicv", {Better::lower, 0.0, none}},
      {"bcss", {Better::higher, 0.0, none}},
      {"davies_bouldin", {Better::lower, 0.0, none}},
      {"calinski_harabasz", {Better::higher, 0.0, none}},
      {"dunn", {Better::higher, 0.0, none}},
      // Counts and shares with no better direction: tabled, not ranked.
      {"noise_fraction", {Better::none, 0.0, 1.0}},
      {"n_clusters", {Better::none, 0.0, none}},
      {"k_true", {Better::none, 0.0, none}},
      {"kprime", {Better::none, 0.0, none}},
      {"wc_clusters", {Better::none, 0.0, none}},
      {"significant_grids", {Better::none, 0.0, none}},
  };
  auto it = table.find(metric);
  return it == table.end() ? MetricTraits{} : it->second;
}

Sample summarize(const std::vector<double>& v, const MetricTraits& range) {
  Sample s;
  s.n = v.size();
  if (v.empty()) return s;
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  s.median = quantile(v, 0.5);
  const MedianInterval mi = *median_interval(v);
  s.median_ci = {mi.lo, mi.hi};
  s.median_coverage = mi.coverage;
  if (v.size() < 2) return s;
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.sd = std::sqrt(ss / static_cast<double>(v.size() - 1));
  // The same interval as the runner's aggregates (run/aggregate.cpp), then cut to the metric's range:
  // a t-interval over a few trials can leave it (ARI up to 2.1 with 3 trials).
  const boost::math::students_t t(static_cast<double>(v.size() - 1));
  const double half =
      boost::math::quantile(boost::math::complement(t, 0.025)) * s.sd / std::sqrt(static_cast<double>(v.size()));
  double lo = s.mean - half, hi = s.mean + half;
  if (range.lo) lo = std::max(lo, *range.lo);
  if (range.hi) hi = std::min(hi, *range.hi);
  s.ci95 = std::make_pair(lo, hi);
  return s;
}

std::optional<MedianInterval> median_interval(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  // P(B <= j) for B ~ Binomial(n, 1/2), accumulated in log space (n may be large).
  std::size_t k = 0;  // 1-based order statistic; 0: none reaches 95%
  double cdf = 0;
  for (std::size_t j = 0; 2 * j < n; ++j) {
    const double log_pmf = std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(j) + 1) -
                           std::lgamma(static_cast<double>(n - j) + 1) - static_cast<double>(n) * std::log(2.0);
    cdf += std::exp(log_pmf);
    if (2 * cdf > 0.05) break;
    k = j + 1;  // 2 P(B <= k - 1) <= 0.05
  }
  MedianInterval m;
  if (k == 0) {
    m.lo = v.front();
    m.hi = v.back();
    m.coverage = 1 - std::pow(2.0, 1 - static_cast<double>(n));
    return m;
  }
  m.lo = v[k - 1];
  m.hi = v[n - k];
  double tail = 0;
  for (std::size_t j = 0; j < k; ++j)
    tail += std::exp(std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(j) + 1) -
                     std::lgamma(static_cast<double>(n - j) + 1) - static_cast<double>(n) * std::log(2.0));
  m.coverage = 1 - 2 * tail;
  return m;
}

std::optional<RankSumTest> rank_sum_test(const std::vector<double>& a, const std::vector<double>& b,
                                         Alternative alternative) {
  if (a.empty() || b.empty()) return std::nullopt;
  const std::size_t na = a.size(), nb = b.size(), N = na + nb;
  // Mid-ranks of the pooled sample; tie groups for the variance.
  std::vector<std::pair<double, bool>> pooled;  // (value, from a)
  pooled.reserve(N);
  for (double x : a) pooled.emplace_back(x, true);
  for (double x : b) pooled.emplace_back(x, false);
  std::sort(pooled.begin(), pooled.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  double rank_sum_a = 0, tie_term = 0;
  bool ties = false;
  for (std::size_t i = 0; i < N;) {
    std::size_t j = i;
    while (j < N && pooled[j].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i), mid = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t r = i; r < j; ++r)
      if (pooled[r].second) rank_sum_a += mid;
    if (j - i > 1) {
      ties = true;
      tie_term += t * t * t - t;
    }
    i = j;
  }
  const double dna = static_cast<double>(na), dnb = static_cast<double>(nb), dN = static_cast<double>(N);
  RankSumTest r;
  r.u = rank_sum_a - dna * (dna + 1) / 2;
  const double mu = dna * dnb / 2;
  if (!ties && N <= 40) {
    // counts[i][j][u]: arrangements of i a's and j b's with U = u; f(i, j) = f(i - 1, j) shifted by j + f(i, j - 1).
    std::vector<std::vector<std::vector<double>>> f(na + 1, std::vector<std::vector<double>>(nb + 1));
    for (std::size_t i = 0; i <= na; ++i)
      for (std::size_t j = 0; j <= nb; ++j) {
        f[i][j].assign(i * j + 1, 0.0);
        if (i == 0 || j == 0) {
          f[i][j][0] = 1;
          continue;
        }
        for (std::size_t u = 0; u < f[i - 1][j].size(); ++u) f[i][j][u + j] += f[i - 1][j][u];
        for (std::size_t u = 0; u < f[i][j - 1].size(); ++u) f[i][j][u] += f[i][j - 1][u];
      }
    const std::vector<double>& dist = f[na][nb];
    double total = 0, below = 0, above = 0;        // P(U <= u), P(U >= u) as counts
    const auto u = static_cast<std::size_t>(r.u);  // whole without ties
    for (std::size_t x = 0; x < dist.size(); ++x) {
      total += dist[x];
      if (x <= u) below += dist[x];
      if (x >= u) above += dist[x];
    }
    r.exact = true;
    r.p = alternative == Alternative::less      ? below / total
          : alternative == Alternative::greater ? above / total
                                                : std::min(1.0, 2 * std::min(below, above) / total);
    return r;
  }
  const double var = dna * dnb / 12 * ((dN + 1) - tie_term / (dN * (dN - 1)));
  if (!(var > 0)) {  // every value the same
    r.p = 1;
    return r;
  }
  const double sd = std::sqrt(var);
  const boost::math::normal normal;
  if (alternative == Alternative::less) r.p = boost::math::cdf(normal, (r.u - mu + 0.5) / sd);
  else if (alternative == Alternative::greater)
    r.p = boost::math::cdf(boost::math::complement(normal, (r.u - mu - 0.5) / sd));
  else r.p = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(normal, (std::fabs(r.u - mu) - 0.5) / sd)));
  return r;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const double h = (static_cast<double>(v.size()) - 1) * std::clamp(q, 0.0, 1.0);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

std::optional<Spread> spread(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  return Spread{quantile(v, 0.5), quantile(v, 0.1), quantile(v, 0.9)};
}

bool no_better_than(double value, double reference, Better better) {
  if (std::isnan(value)) return true;
  if (better == Better::higher) return !(value > reference);
  if (better == Better::lower) return !(value < reference);
  return false;
}

std::vector<double> holm_adjust(const std::vector<double>& p) {
  const std::size_t m = p.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Stable: equal p-values keep their input order, so the adjustment is deterministic.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return p[i] < p[j]; });
  std::vector<double> adj(m);
  double running = 0;
  for (std::size_t r = 0; r < m; ++r) {
    running = std::max(running, std::min(1.0, static_cast<double>(m - r) * p[order[r]]));
    adj[order[r]] = running;
  }
  return adj;
}

}  // namespace dpclust::report
