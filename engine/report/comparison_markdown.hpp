#pragma once
// The report's "Comparison of methods" section: the tables of comparison.hpp as Markdown,
// for every experiment of a results directory, with a link to each (dataset, metric)'s figure.
#include <filesystem>
#include <set>
#include <string>

#include "report/comparison.hpp"
#include "report/results_index.hpp"

namespace dpclust::report {

struct ComparisonSectionOptions {
  std::filesystem::path figures_dir;  // where plots/make_figures.py wrote comparison/<experiment>/*.png
  std::filesystem::path report_path;  // the report file (links are relative to it)
  std::set<std::string> folded;       // experiments shown folded (<details>): those the paper sections judge
  ComparisonOptions stats;
  std::filesystem::path
      tables_dir;  // where the CSV and LaTeX tables are written (comparison_export.hpp); empty: no link
};

// One table as Markdown (heading, table, notes; no figure link).
std::string comparison_table_markdown(const ComparisonTable& t);

// The whole section ("" when no experiment has a table).
std::string comparison_section(const Results& results, const ComparisonSectionOptions& opts);

}  // namespace dpclust::report
