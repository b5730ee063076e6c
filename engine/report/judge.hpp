#pragma once
// The reproduction report: published numbers and claims (reference/published.yaml) side by side with
// the reproduced values found in results/<experiment>/results.json, each with a verdict.
//
// A published value names where to find its reproduction (experiment, dataset, series, parameter
// filter, metric or diagnostic) and the protocol by which the paper obtained it (a mean over k seeds,
// a single run, a median). Its verdict:
//   holds                 |mean of our trials - published| <= tolerance (absolute, or relative);
//   within seed variance  else, the published value lies inside the central 95% of the distribution
//                         of the paper's statistic over k of our trials (seed_variance.hpp);
//   differs               else (also when there are too few trials to judge the variance:
//                         n < max(min_trials_for_variance, 2k), said in the note);
//   not run               no result covers it.
// The tolerance verdict alone (holds / differs) stays visible beside it, and a verdict whose two rules
// disagree says so: "holds (within tolerance; the published value lies outside our k-seed band,
// percentile 0.0)", or "within seed variance (outside tolerance; ... inside our k-seed band ...)". A value or claim may
// carry a reason (and a link) that the report prints when it differs or is within seed variance. Claims stated in words
// are checked where they can be computed: orderings between series, thresholds, and which parameter value is best;
// orderings and thresholds use the same machinery. Published running times (DP-DBSCAN Table 3) are compared, not
// judged. Values with `authors_code:` are also checked against an experiment run with the authors' own seeds (exact at
// the published value's printed decimals, or the difference) or code options (by tolerance):
//
// Each judge returns an outcome struct and renders nothing: markdown.hpp turns outcomes into text.
//   judge_values.cpp   published values (tolerance and seed variance)
//   judge_claims.cpp   claims in words (orderings, thresholds, best values)
//   judge_timings.cpp  running times (compared, not judged)
//   judge_authors.cpp  values against the authors' own seeds or code options
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/reference.hpp"
#include "report/results_index.hpp"

namespace dpclust::report {

enum class Verdict { holds, within_seed_variance, differs, not_run };
const char* to_string(Verdict v);

// Where the tolerance rule and the k-seed band disagree about a value (none: they agree, or there is no band).
enum class BandDisagreement {
  none,
  holds_outside_band,   // within tolerance, but the published value lies outside our k-seed band: verdict holds
  differs_inside_band,  // outside tolerance, but the published value lies inside the band: within seed variance
};

struct ValueOutcome {
  Verdict verdict = Verdict::not_run;                      // by the paper's protocol (see the top of this file)
  Verdict tolerance_verdict = Verdict::not_run;            // |mean - published| <= tolerance alone
  BandDisagreement disagreement = BandDisagreement::none;  // the report says so beside the verdict
  std::optional<double> mean;
  std::optional<std::pair<double, double>> ci95;
  std::size_t trials = 0;
  std::optional<double> percentile;               // of the published value in the k-seed statistic
  std::optional<std::pair<double, double>> band;  // central interval of the k-seed statistic
  bool band_exact = true;                         // every k-subset enumerated (else resampled)
  std::string note;  // e.g. "3 cells match: add a parameter filter", "too few trials for a variance verdict (n < 10)"
};

// The tolerance rule, on its own so that it can be tested on fixture numbers.
Verdict judge(double published, double tolerance, bool relative, std::optional<double> reproduced);

// The seed-variance rule: given the tolerance verdict and the per-trial values, the verdict by
// protocol (percentile, band, note and disagreement filled in `out`). Needs n >= max(min_trials_for_variance,
// 2k) trials; with fewer it keeps the tolerance verdict and says so in out.note. `printed_half_width`:
// half a unit of the published value's last printed decimal (0.005 for 0.95), so that a value that holds
// is said to lie outside the band only when every number printed as it does (a deterministic 0.947
// is printed 0.95).
Verdict judge_seed_variance(Verdict tolerance_verdict, double published, const std::vector<double>& trials,
                            const Protocol& p, const VerdictSettings& s, ValueOutcome& out,
                            double printed_half_width = 0);

// The fewest trials that allow a variance verdict for a protocol: max(min_trials_for_variance, 2k).
std::size_t min_trials_for(const Protocol& p, const VerdictSettings& s);

ValueOutcome evaluate(const PublishedValue& v, const Results& results, const VerdictSettings& s = {});

struct ClaimOutcome {
  Verdict verdict = Verdict::not_run;            // by protocol: holds, within seed variance, differs
  Verdict tolerance_verdict = Verdict::not_run;  // the means alone: holds or differs
  std::size_t checked = 0, satisfied = 0;        // groups or cells (satisfied by the means)
  std::size_t within = 0;                        // violations inside the seed band
  std::string detail;                            // the first violations, or the best value found
};
ClaimOutcome evaluate(const Claim& c, const Results& results, const VerdictSettings& s = {});

// The reduction of an inertia-like gap (DPM's abstract: "reduces the inertia gap to KMeans++ by up to 50%
// against LSH-splits"): 1 - (mean(series) - mean(baseline)) / (mean(against) - mean(baseline)), 1 when the
// series matches the baseline, 0 when it matches `against`; NaN when against's mean equals the baseline's.
// `interval`: the central `coverage` interval of the same quantity over bootstrap resamples (each series'
// trials drawn with replacement, independently, `resamples` times from the seeded stream of `rs`); absent
// when a series has fewer than 2 trials.
struct GapReduction {
  double value = 0;
  std::optional<std::pair<double, double>> interval;
};
GapReduction gap_reduction(const std::vector<double>& series, const std::vector<double>& baseline,
                           const std::vector<double>& against, const ResampleSettings& rs = {}, double coverage = 0.95);

// The reduction of the area under a curve (FastLloyd's "up to 88% reduction in clustering error" against SuLloyd, as
// its plots/synthetic_bar.py computes it: the area under the NICV-over-eps curve by the trapezoid rule, over
// SuLloyd's): 1 - area(series) / area(against), each curve the means of its trials at the points `x` (ascending;
// series[i] and against[i] are the trials at x[i]). NaN when against's area is 0 or fewer than two points. `interval`:
// the central `coverage` interval of the same quantity over bootstrap resamples (every point's trials drawn with
// replacement, independently, from the seeded stream of `rs`); absent when a point has fewer than 2 trials.
GapReduction auc_reduction(const std::vector<double>& x, const std::vector<std::vector<double>>& series,
                           const std::vector<std::vector<double>>& against, const ResampleSettings& rs = {},
                           double coverage = 0.95);

// Our running time of one published timing: the median over trials of the trial's timing field.
struct TimingOutcome {
  std::optional<double> median_seconds;
  std::size_t trials = 0;
  std::string note;  // why there is no time ("experiment 'x' not in the results", ...)
};
TimingOutcome evaluate(const PublishedTiming& t, const Results& results);

// The decimals of a number as written ("0.94" -> 2, "0.50" -> 2, "284" -> 0, "1.5e-2" -> 3).
int printed_decimals(const std::string& text);

// A published value against its `authors_code` experiment.
//   compare: seeds      the paper's protocol on the trials whose record carries "seed" 0..K-1 (mean or
//                       median of all K, which must all be present; single: seed 0), rounded to the
//                       published value's printed decimals: exact, or differs by (reproduction - published);
//   compare: tolerance  evaluate() on the authors' experiment (mean over all trials, the usual verdicts).
struct AuthorsOutcome {
  bool run = false;                                        // a cell of the authors' experiment was found
  std::optional<double> reproduced;                        // the protocol's statistic (seeds) or the mean (tolerance)
  std::vector<std::pair<std::uint64_t, double>> per_seed;  // every seeded trial of the cell, by seed
  std::vector<std::uint64_t> missing_seeds;                // of 0..K-1
  std::optional<bool> exact;                               // compare: seeds, when reproduced
  double difference = 0;                                   // reproduced - published
  ValueOutcome tolerance;                                  // compare: tolerance
  std::string
      status;  // "exact", "differs by -0.034", "missing seeds 1, 2", "not run (configs/paper/E.yaml)", a verdict
};
AuthorsOutcome evaluate_authors(const PublishedValue& v, const Results& results, const VerdictSettings& s = {});

// `dpclust report --min-trials-for-variance N`: an integer >= 2 (InputError naming the option otherwise).
std::size_t parse_min_trials_for_variance(const std::string& text);

}  // namespace dpclust::report
