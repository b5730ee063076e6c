#pragma once
// The report's "Where each method wins" section: the win tables of win_regions.hpp as Markdown, with a link
// to each table's figure (plots/benchmark_figures.py:
// <figures>/benchmark/<experiment>/wins__<family>__<metric>__<axis>.png).
#include <string>

#include "report/comparison_markdown.hpp"
#include "report/win_regions.hpp"

namespace dpclust::report {

std::string win_table_markdown(const WinTable& w);

// The whole section ("" when no experiment has a family with two sizes or dimensions).
std::string win_regions_section(const Results& results, const ComparisonSectionOptions& opts);

}  // namespace dpclust::report
