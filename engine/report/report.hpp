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
// The tolerance verdict alone (holds / differs) stays visible beside it. A value or claim may carry
// a reason (and a link) that the report prints when it differs or is within seed variance.
// Claims stated in words are checked where they can be computed: orderings between series,
// thresholds, and which parameter value is best; orderings and thresholds use the same machinery.
// Published running times (DP-DBSCAN Table 3) are compared, not judged.
// Values with `authors_code:` are also checked against an experiment run with the authors' own seeds
// (exact at the published value's printed decimals, or the difference) or code options (by tolerance):
// the section "The authors' own seeds" (evaluate_authors).
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/seed_variance.hpp"

namespace dpclust::report {

// Which cells a value or claim is about.
struct Query {
  std::string experiment, dataset, series, metric;
  std::map<std::string, double> params;                         // exact numeric matches (1e-9)
  std::map<std::string, std::pair<double, double>> where;       // inclusive ranges
};

// `authors_code:` of a value or table: an experiment run with the authors' own random stream and
// seeds (compare: seeds; its trials carry "seed": 0, 1, 2, ...), or with the authors' code options but
// our seeds (compare: tolerance). Shown in the report's section "The authors' own seeds".
struct AuthorsCode {
  std::string experiment;
  std::vector<std::string> series;  // the table's series it covers (empty: all)
  std::string label;                // "the authors' own seeds" unless given
  bool by_seeds = true;             // compare: seeds (exact at printed precision) | tolerance (the usual verdicts)
  std::string note;                 // e.g. "em_repeats is flagged non_private"
};

struct PublishedValue {
  std::string id, paper, source, setting;
  double value = 0;
  std::string value_text;       // the number as written in the reference file ("0.50"): its decimals are the printed precision
  double tolerance = 0;         // absolute
  bool relative = false;        // tolerance is relative to |value|
  Query query;
  Protocol protocol;            // how the paper obtained the value (required in the reference file)
  std::string reason, see;      // why it differs (printed when it does), and a link or anchor
  std::optional<AuthorsCode> authors_code;
};

enum class ClaimKind { ordering, threshold, best_at };

struct Claim {
  std::string id, paper, source, text;
  ClaimKind kind = ClaimKind::ordering;
  Query query;                          // experiment, metric, where/params filters (series unused for ordering)
  bool lower_is_better = true;
  std::vector<std::string> winners, losers;   // ordering: every winner better than every loser
  std::vector<std::string> group_by;          // ordering: compare within groups (e.g. dataset, epsilon)
  std::string op;                             // threshold: "<", "<=", ">", ">="
  double bound = 0;                           // threshold value
  std::string over;                           // best_at: the parameter whose best value is claimed (the metric
                                              // is averaged over the cells sharing each value)
  double expected = 0, expected_tolerance = 0;  // best_at: claimed best value (+- tolerance)
  Protocol protocol;                            // how the paper's numbers behind the claim were obtained
  std::string reason, see;
};

// One published running time (DP-DBSCAN Table 3): compared with ours, never judged (other hardware,
// other language).
struct PublishedTiming {
  std::string id, paper, source, machine;
  std::string column;              // the paper's column (a series name, e.g. dp_dbscan_naive)
  std::optional<double> seconds;   // absent when the paper prints "-"
  std::string note;                // the paper's remark, e.g. "out of memory"
  Query query;                     // experiment, dataset, series; metric: the trial `timing` field
};

// Top-level `verdicts:` of the reference file.
struct VerdictSettings {
  std::size_t min_trials_for_variance = 10;  // below this (or below 2k) no variance verdict
  double coverage = 0.95;                    // the central interval of the k-seed statistic
  ResampleSettings resample;
};

struct Reference {
  std::map<std::string, std::string> papers;  // key -> citation
  std::vector<PublishedValue> values;
  std::vector<Claim> claims;
  std::vector<PublishedTiming> timings;
  VerdictSettings verdicts;
};

Reference load_reference(const std::filesystem::path& file);

// Every results.json under a results directory, by experiment name.
class Results {
 public:
  explicit Results(const std::filesystem::path& dir);
  Results(std::map<std::string, nlohmann::json> experiments) : experiments_(std::move(experiments)) {}
  // Cells matching the query's experiment, dataset (if set), series (if set), params and where.
  std::vector<const nlohmann::json*> cells(const Query& q) const;
  const std::map<std::string, nlohmann::json>& experiments() const { return experiments_; }
  // Experiments `dpclust run --skip-missing-data` skipped, with the reason (e.g. a dataset that could
  // not be fetched) and the command that fixes it: RESULTS_DIR/<experiment>/skipped.json.
  const std::map<std::string, nlohmann::json>& skipped() const { return skipped_; }
  // Privacy audits (`dpclust audit`): RESULTS_DIR/<experiment>/audit.json, schema dpclust.audit/1.
  const std::map<std::string, nlohmann::json>& audits() const { return audits_; }
  void add_audit(const std::string& experiment, nlohmann::json audit) { audits_[experiment] = std::move(audit); }

 private:
  std::map<std::string, nlohmann::json> experiments_;
  std::map<std::string, nlohmann::json> skipped_;
  std::map<std::string, nlohmann::json> audits_;
};

// The "Privacy audit" section of the report (empty when there is no audit): one row per audited cell
// and pair, eps_lower next to the claimed epsilon, the verdict and the event that shows it.
std::string audit_section(const Results& results);

// The aggregate of a metric (or, failing that, a numeric diagnostic, an evaluation statistic, a
// `timing` field) in a cell; null when absent.
const nlohmann::json* statistic(const nlohmann::json& cell, const std::string& metric);

// The per-trial values behind statistic(): from the same part of each trial (metrics, diagnostics,
// evaluation, timing), in trial order; trials without a number (NaN is stored as null) are skipped.
std::vector<double> trial_values(const nlohmann::json& cell, const std::string& metric);

enum class Verdict { holds, within_seed_variance, differs, not_run };
const char* to_string(Verdict v);

struct ValueOutcome {
  Verdict verdict = Verdict::not_run;            // by the paper's protocol (see the top of this file)
  Verdict tolerance_verdict = Verdict::not_run;  // |mean - published| <= tolerance alone
  std::optional<double> mean;
  std::optional<std::pair<double, double>> ci95;
  std::size_t trials = 0;
  std::optional<double> percentile;                  // of the published value in the k-seed statistic
  std::optional<std::pair<double, double>> band;     // central interval of the k-seed statistic
  bool band_exact = true;                            // every k-subset enumerated (else resampled)
  std::string note;  // e.g. "3 cells match: add a parameter filter", "too few trials for a variance verdict (n < 10)"
};

// The tolerance rule, on its own so that it can be tested on fixture numbers.
Verdict judge(double published, double tolerance, bool relative, std::optional<double> reproduced);

// The seed-variance rule: given the tolerance verdict and the per-trial values, the verdict by
// protocol (percentile, band and note filled in `out`). Needs n >= max(min_trials_for_variance, 2k)
// trials; with fewer it keeps the tolerance verdict and says so in out.note.
Verdict judge_seed_variance(Verdict tolerance_verdict, double published, const std::vector<double>& trials, const Protocol& p,
                            const VerdictSettings& s, ValueOutcome& out);

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
  bool run = false;                                   // a cell of the authors' experiment was found
  std::optional<double> reproduced;                   // the protocol's statistic (seeds) or the mean (tolerance)
  std::vector<std::pair<std::uint64_t, double>> per_seed;  // every seeded trial of the cell, by seed
  std::vector<std::uint64_t> missing_seeds;           // of 0..K-1
  std::optional<bool> exact;                          // compare: seeds, when reproduced
  double difference = 0;                              // reproduced - published
  ValueOutcome tolerance;                             // compare: tolerance
  std::string status;  // "exact", "differs by -0.034", "missing seeds 1, 2", "not run (configs/paper/E.yaml)", a verdict
};
AuthorsOutcome evaluate_authors(const PublishedValue& v, const Results& results, const VerdictSettings& s = {});

// `dpclust report --min-trials-for-variance N`: an integer >= 2 (InputError naming the option otherwise).
std::size_t parse_min_trials_for_variance(const std::string& text);

struct ReportOptions {
  std::filesystem::path figures_dir;  // thumbnails: every PNG here, linked relative to the report
  std::filesystem::path report_path;  // where REPORT.md goes (links are made relative to it)
  std::optional<std::size_t> min_trials_for_variance = std::nullopt;  // overrides the reference file's setting
};

// The whole report as Markdown.
std::string write_markdown(const Reference& ref, const Results& results, const ReportOptions& opts);

}  // namespace dpclust::report
