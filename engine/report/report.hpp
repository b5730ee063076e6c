#pragma once
// The reproduction report: published numbers and claims (reference/published.yaml) side by side with
// the reproduced values found in results/<experiment>/results.json, each with a verdict.
//
// A published value names where to find its reproduction (experiment, dataset, series, parameter
// filter, metric or diagnostic); the verdict is "holds" when |mean - published| <= tolerance
// (absolute, or relative to the published value), "differs" otherwise, "not run" when no result
// covers it. Claims stated in words are checked where they can be computed: orderings between
// series, thresholds, and which parameter value is best.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dpclust::report {

// Which cells a value or claim is about.
struct Query {
  std::string experiment, dataset, series, metric;
  std::map<std::string, double> params;                         // exact numeric matches (1e-9)
  std::map<std::string, std::pair<double, double>> where;       // inclusive ranges
};

struct PublishedValue {
  std::string id, paper, source, setting;
  double value = 0;
  double tolerance = 0;         // absolute
  bool relative = false;        // tolerance is relative to |value|
  Query query;
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
};

struct Reference {
  std::map<std::string, std::string> papers;  // key -> citation
  std::vector<PublishedValue> values;
  std::vector<Claim> claims;
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

 private:
  std::map<std::string, nlohmann::json> experiments_;
  std::map<std::string, nlohmann::json> skipped_;
};

// The aggregate of a metric (or, failing that, a numeric diagnostic) in a cell; null when absent.
const nlohmann::json* statistic(const nlohmann::json& cell, const std::string& metric);

enum class Verdict { holds, differs, not_run };
const char* to_string(Verdict v);

struct ValueOutcome {
  Verdict verdict = Verdict::not_run;
  std::optional<double> mean;
  std::optional<std::pair<double, double>> ci95;
  std::size_t trials = 0;
  std::string note;  // e.g. "3 cells match: add a parameter filter"
};

// The verdict rule, on its own so that it can be tested on fixture numbers.
Verdict judge(double published, double tolerance, bool relative, std::optional<double> reproduced);

ValueOutcome evaluate(const PublishedValue& v, const Results& results);

struct ClaimOutcome {
  Verdict verdict = Verdict::not_run;
  std::size_t checked = 0, satisfied = 0;  // groups or cells
  std::string detail;                      // the first violations, or the best value found
};
ClaimOutcome evaluate(const Claim& c, const Results& results);

struct ReportOptions {
  std::filesystem::path figures_dir;  // thumbnails: every PNG here, linked relative to the report
  std::filesystem::path report_path;  // where REPORT.md goes (links are made relative to it)
};

// The whole report as Markdown.
std::string write_markdown(const Reference& ref, const Results& results, const ReportOptions& opts);

}  // namespace dpclust::report
