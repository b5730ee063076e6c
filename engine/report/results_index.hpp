#pragma once
// The results a report reads: every results.json (and skipped.json, audit.json) under a results
// directory, the cells a query selects, and where a cell keeps a number.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/reference.hpp"

namespace dpclust::report {

// Every results.json under a results directory, by experiment name. Read from a directory, each trial
// holds only what the report reads (results_reader.hpp: its index, seed and the scalar numbers of
// metrics, diagnostics, evaluation and timing); built from a map, the documents are kept as given.
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

// The aggregate of a metric (or, failing that, a numeric diagnostic, an evaluation statistic, a
// `timing` field) in a cell; null when absent.
const nlohmann::json* statistic(const nlohmann::json& cell, const std::string& metric);

// The per-trial values behind statistic(): from the same part of each trial (metrics, diagnostics,
// evaluation, timing), in trial order; trials without a number (NaN is stored as null) are skipped.
std::vector<double> trial_values(const nlohmann::json& cell, const std::string& metric);

// The part of each trial ("metrics", "diagnostics", "evaluation", "timing") that holds `metric`, as
// statistic() finds it; null when no aggregate holds it.
const char* trial_part(const nlohmann::json& cell, const std::string& metric);

// The mean of statistic(cell, metric); NaN when absent.
double mean_of(const nlohmann::json& cell, const std::string& metric);

// "ds1, epsilon=0.1": the values of `by` (dataset or a parameter) of a cell, for grouping claims.
std::string group_key(const nlohmann::json& cell, const std::vector<std::string>& by);

}  // namespace dpclust::report
