#pragma once
// The reference file (reference/published.yaml) as typed entries: published values, claims, running
// times and the verdict settings. load_reference() is the only reader of YAML in the report (reference.cpp).
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/seed_variance.hpp"

namespace dpclust::report {

// Which cells a value or claim is about.
struct Query {
  std::string experiment, dataset, series, metric;
  std::map<std::string, double> params;                    // exact numeric matches (1e-9)
  std::map<std::string, std::pair<double, double>> where;  // inclusive ranges
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
  std::string id, paper, source;
  // The report's setting column: the entry's `setting:` (a table's may be one per dataset); a table entry
  // that expands into several values appends what tells them apart (see load_reference). Empty: the
  // report names the query (row_setting).
  std::string setting;
  std::string label;  // the series as a reader names it (a table's `labels:`), e.g. "RP1, orthonormal"
  double value = 0;
  std::string
      value_text;        // the number as written in the reference file ("0.50"): its decimals are the printed precision
  double tolerance = 0;  // absolute
  bool relative = false;  // tolerance is relative to |value|
  Query query;
  Protocol protocol;        // how the paper obtained the value (required in the reference file)
  std::string reason, see;  // why it differs (printed when it does), and a link or anchor
  std::optional<AuthorsCode> authors_code;
  // Where the paper prints its numbers in figures only, the reference is its authors' code run here: `authors_run:`
  // says how (the script, its options, the code's version). The report marks such a value "(authors' code)" and
  // prints the run under the paper's table; empty: a number printed in the paper.
  std::string authors_run;
};

enum class ClaimKind { ordering, threshold, best_at, gap_reduction, auc_reduction };

struct Claim {
  std::string id, paper, source, text;
  ClaimKind kind = ClaimKind::ordering;
  Query query;  // experiment, metric, where/params filters (series unused for ordering)
  bool lower_is_better = true;
  std::vector<std::string> winners, losers;     // ordering: every winner better than every loser
  std::vector<std::string> group_by;            // ordering: compare within groups (e.g. dataset, epsilon)
  std::string op;                               // threshold: "<", "<=", ">", ">="
  double bound = 0;                             // threshold value
  std::string over;                             // best_at: the parameter whose best value is claimed (the metric
                                                // is averaged over the cells sharing each value)
  double expected = 0, expected_tolerance = 0;  // best_at: claimed best value (+- tolerance); gap_reduction: the
                                                // claimed largest reduction (+- tolerance)
  // gap_reduction: how much of the gap between `against` and `baseline` the claim's series (query.series)
  // closes, 1 - (m_series - m_baseline) / (m_against - m_baseline) on the means of the metric, per group
  // (group_by, default dataset); "up to `expected`" is judged on the largest group (judge_claims.cpp).
  std::string baseline, against;
  // auc_reduction (FastLloyd's "up to 88% lower clustering error" than SuLloyd): per group (group_by, default the
  // dataset), the area under the metric's mean over the parameter `over` (trapezoids over the values both series ran),
  // 1 - area(series) / area(against); "up to `expected`" judged on the largest group (judge_claims.cpp).
  Protocol protocol;  // how the paper's numbers behind the claim were obtained
  std::string reason, see;
};

// One published running time (DP-DBSCAN Table 3): compared with ours, never judged (other hardware,
// other language).
struct PublishedTiming {
  std::string id, paper, source, machine;
  std::string column;             // the paper's column (a series name, e.g. dp_dbscan_naive)
  std::optional<double> seconds;  // absent when the paper prints "-"
  std::string note;               // the paper's remark, e.g. "out of memory"
  Query query;                    // experiment, dataset, series; metric: the trial `timing` field
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

// The text of a published value's setting column: its setting, else "dataset, series, metric,
// param=value, ..." (the series by its label when it has one).
std::string row_setting(const PublishedValue& v);

// Whether an `authors_code:` entry covers a series (an empty series list covers all).
bool covers(const AuthorsCode& a, const std::string& series);

}  // namespace dpclust::report
