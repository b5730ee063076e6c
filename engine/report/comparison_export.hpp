#pragma once
// The comparison's tables as files for a paper: per experiment, dataset and metric, a CSV (one line per cell, every
// statistic the Markdown shows, at full precision) and a LaTeX table (booktabs: \toprule, \midrule, \bottomrule;
// methods against epsilon, the median with its interval, the best in bold). Written by `dpclust report` from the
// JSON results alone, beside the report: <dir>/<experiment>/<dataset>__<metric>.csv and .tex (the names as the
// figures', figure_name_part). The central and local tables of one (dataset, metric) share the files (the CSV's
// `axis` column; one LaTeX tabular each).
#include <filesystem>
#include <string>
#include <vector>

#include "report/comparison.hpp"
#include "report/results_index.hpp"

namespace dpclust::report {

// The CSV of the tables of one (dataset, metric) (central first, then local): a header line, then one line per cell.
std::string comparison_csv(const std::vector<const ComparisonTable*>& tables);
// The LaTeX of the same tables (a `table` environment with a caption and a label, one tabular per table).
std::string comparison_latex(const std::vector<const ComparisonTable*>& tables);

// <dir>/<experiment>/<dataset>__<metric>.{csv,tex} for every (dataset, metric) of every experiment; returns the
// files written (none when no experiment has a table).
std::vector<std::filesystem::path> write_comparison_tables(const Results& results, const std::filesystem::path& dir,
                                                           const ComparisonOptions& opts = {});
// The two files' paths of one (dataset, metric), relative to `dir`.
std::filesystem::path comparison_table_file(const std::string& experiment, const std::string& dataset,
                                            const std::string& metric, const std::string& extension);

}  // namespace dpclust::report
