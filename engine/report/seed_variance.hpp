#pragma once
// Seed variance: how far a published statistic over k seeds may fall from our mean by chance alone.
//
// A paper reports, per value, a statistic of k runs (the mean of seeds 0, 1, 2; one run; a median).
// From our n >= k trials of the same cell we estimate the distribution of that statistic: every
// k-subset of distinct trials is one run of the paper's protocol, so the statistic's distribution is
// the distribution of the statistic over all n-choose-k subsets (exact when there are at most
// `max_exact` subsets, else a deterministic seeded resample of `resamples` subsets, each drawn
// without replacement). A published value inside the central `coverage` interval of that
// distribution is "within seed variance".
//
// The subsets are drawn from a finite set of trials, so the spread of the k-subset mean is the
// population spread times sqrt((n - k) / (n - 1)): 0.96 for n = 30, k = 3, but 0.83 for k = 10 -
// the band is slightly narrow, never wide (a conservative "within seed variance").
//
// Pure functions of numbers, tested on hand-computed fixtures (tests/report/seed_variance_test.cpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dpclust::report {

// How the paper obtained a published value.
enum class SeedStatistic { mean, median, single };
const char* to_string(SeedStatistic s);

struct Protocol {
  SeedStatistic statistic = SeedStatistic::mean;
  std::size_t seeds = 1;  // k (1 for single)
  std::string note;       // e.g. why a value is one run although its table says "average of three"
};
std::string describe(const Protocol& p);  // "mean of 3 seeds", "single run", "median of 5 seeds"

struct ResampleSettings {
  std::size_t max_exact = 200000;  // enumerate every k-subset up to this many
  std::size_t resamples = 100000;  // else draw this many random k-subsets
  std::uint64_t seed = 20240916;   // of the resampling stream (results do not depend on the run order)
};

// The statistic of the k-subsets of `trials`, sorted ascending. `exact` says whether every subset was
// enumerated. Empty when trials.size() < k or k == 0.
struct SeedDistribution {
  std::vector<double> values;
  bool exact = true;
};

// Number of k-subsets of n, saturated at SIZE_MAX.
std::size_t choose(std::size_t n, std::size_t k);

SeedDistribution k_seed_distribution(const std::vector<double>& trials, const Protocol& p,
                                     const ResampleSettings& rs = {});

// The distribution of a - b for independent draws a from `a` and b from `b` (both sorted): every pair
// when |a| |b| <= max_exact, else `resamples` seeded random pairs. Used for ordering claims.
SeedDistribution difference_distribution(const SeedDistribution& a, const SeedDistribution& b,
                                         const ResampleSettings& rs = {});

// Percentile of x in the distribution (mid-rank: 100 (#below + #equal / 2) / N), in [0, 100].
double percentile(const SeedDistribution& d, double x);

// The central `coverage` interval: [Q((1 - c)/2), Q((1 + c)/2)] with the inverse CDF
// Q(p) = smallest value v with P(X <= v) >= p (no interpolation: the ends are attained values).
std::pair<double, double> central_interval(const SeedDistribution& d, double coverage = 0.95);

// x inside the closed central interval (a value exactly on an end is inside; 1e-12 slack).
bool inside_central(const SeedDistribution& d, double x, double coverage = 0.95);

}  // namespace dpclust::report
