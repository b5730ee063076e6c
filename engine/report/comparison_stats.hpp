#pragma once
// The statistics of the report's method comparison (comparison.hpp): a cell's median with its
// distribution-free interval and its mean with its Student-t interval, the Wilcoxon-Mann-Whitney rank-sum test
// between two cells, Holm's step-down correction within a table, and what a metric's better direction and
// range are.
//
// Why the median and a rank test: a private method's trials are far from normal (one trial of DPM releases a
// centre 10^4 domain widths away and its normalised cost is 10^7); the median and the rank-sum test need no
// assumption on the trials' distribution, and a few wild trials move neither. Why not a paired test: the seed
// of a trial is derived from its cell's key (core/rng.hpp derive_seed(base, cell_key, trial)), so trial t of
// one method and trial t of another share nothing; even a config listing `seeds:` gives each method its own
// draws on the same fixed data. The trials of two cells are two independent samples.
//
// Pure functions of numbers, checked against hand-computed distributions (tests/report/comparison_test.cpp).
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dpclust::report {

// Which way a metric improves. `none`: counts and diagnostics (n_clusters, kprime, noise_fraction,
// privacy-attack measures) have no better direction for a utility comparison: they are tabled, not ranked.
enum class Better { higher, lower, none };
const char* to_string(Better b);

// A metric's direction and the values it can take (nullopt: unbounded on that side). One table,
// in comparison_stats.cpp; the figures' METRIC_RANGE (plots/plot_results.py) holds the same ranges
// (tests/report/comparison_test.cpp checks they agree).
struct MetricTraits {
  Better better = Better::none;
  std::optional<double> lo, hi;
};
MetricTraits metric_traits(const std::string& metric);

// The trials of one cell: n values (NaN left out by the caller), their mean, sample standard deviation
// and the Student-t 95% interval of the mean (none for n < 2), cut to the metric's range; their median and its
// distribution-free interval (median_interval below). The comparison ranks by the median: one wild trial (a
// centre released far outside the domain) moves the mean without bound but the median not at all.
struct Sample {
  std::size_t n = 0;
  double mean = 0, sd = 0;
  std::optional<std::pair<double, double>> ci95;
  double median = 0;
  std::pair<double, double> median_ci{0, 0};
  double median_coverage = 0;  // the interval's exact coverage (>= 0.95 from n = 6 on)
};
Sample summarize(const std::vector<double>& values, const MetricTraits& range = {});

// The q-quantile by linear interpolation between order statistics: with the values sorted x_0 <= ... <=
// x_{n-1} and h = (n - 1) q, x_floor(h) + (h - floor(h)) (x_floor(h)+1 - x_floor(h)) -- numpy.percentile's
// default ("linear", type 7 of Hyndman & Fan 1996). NaN for no values.
double quantile(std::vector<double> values, double q);
// A cell's spread beside its mean and interval (docs/benchmark.md): the median and the 10th and 90th percentiles.
struct Spread {
  double median = 0, p10 = 0, p90 = 0;
};
std::optional<Spread> spread(const std::vector<double>& values);
// Is `value` no better than `reference` in the metric's direction (equal counts as no better; NaN, a trial
// without a value, is no better)? False for a metric without a direction.
bool no_better_than(double value, double reference, Better better);

// The distribution-free confidence interval of a median (order statistics; e.g. Hollander, Wolfe & Chicken,
// Nonparametric Statistical Methods, 3rd ed., Sec. 3.6): with the values sorted x_(1) <= ... <= x_(n) and
// B ~ Binomial(n, 1/2), [x_(k), x_(n+1-k)] covers the population median with probability 1 - 2 P(B <= k - 1)
// for any continuous distribution. k is the largest with 2 P(B <= k - 1) <= 0.05 (n = 10: [x_(2), x_(9)],
// coverage 97.9%); for n <= 5 no k reaches 95% and the interval is [min, max] (coverage 1 - 2^(1-n)).
struct MedianInterval {
  double lo = 0, hi = 0, coverage = 0;
};
std::optional<MedianInterval> median_interval(std::vector<double> values);

// The Wilcoxon-Mann-Whitney rank-sum test of two independent samples a and b, the test that goes with ranking
// by the median: U = #{(i, j): a_i > b_j} + #{ties} / 2. `alternative`: two_sided, less (a tends to be smaller
// than b), greater. p is exact (the null distribution of U by the recurrence of Mann & Whitney 1947) when there
// are no ties and n_a + n_b <= 40; otherwise the normal approximation with the tie-corrected variance
// n_a n_b / 12 ((N + 1) - sum(t^3 - t) / (N (N - 1))) and a continuity correction of 1/2 (scipy.stats.
// mannwhitneyu's method="exact" / "asymptotic"). nullopt when either sample is empty; p = 1 when every value
// of both is the same.
enum class Alternative { two_sided, less, greater };
struct RankSumTest {
  double u = 0, p = 1;
  bool exact = false;
};
std::optional<RankSumTest> rank_sum_test(const std::vector<double>& a, const std::vector<double>& b,
                                         Alternative alternative = Alternative::two_sided);

// Holm's step-down adjustment (Holm 1979) of a family of p-values, returned in the input order:
// with p sorted ascending p_(1) <= ... <= p_(m), adjusted p_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)).
// Rejecting where the adjusted p < alpha keeps the family-wise error rate at alpha.
std::vector<double> holm_adjust(const std::vector<double>& p);

}  // namespace dpclust::report
