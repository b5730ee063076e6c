#pragma once
// The reproduction report as Markdown (REPORT.md): the judges' outcomes (judge.hpp) laid out per paper,
// the claims, the authors' code, running times, the privacy audit and the runs' provenance.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "report/judge.hpp"

namespace dpclust::report {

// The "Privacy audit" section of the report (empty when there is no audit): one row per audited cell
// and pair, eps_lower next to the claimed epsilon, the verdict and the event that shows it.
std::string audit_section(const Results& results);

struct ReportOptions {
  std::filesystem::path figures_dir;  // thumbnails: every PNG here, linked relative to the report
  std::filesystem::path report_path;  // where REPORT.md goes (links are made relative to it)
  std::optional<std::size_t> min_trials_for_variance = std::nullopt;  // overrides the reference file's setting
  // Where `dpclust report` writes the comparison's CSV and LaTeX tables (comparison_export.hpp), linked under each
  // table; empty: not written, not linked.
  std::filesystem::path tables_dir;
};

// The verdicts behind a report, for the command's summary line: counted from the outcomes the report
// was written from, so that nothing is judged twice (a k-seed band resamples 100000 subsets).
struct ReportSummary {
  std::size_t values = 0, holds = 0, within = 0, differs = 0, not_run = 0, claims = 0, authors = 0, authors_exact = 0;
  std::size_t claims_not_run = 0;      // claims no result covers
  std::size_t holds_outside_band = 0;  // of `holds`: within tolerance, the published value outside our k-seed band
};

// The verdict of a published value as its row shows it: the verdict ("**differs**", "*within seed
// variance*", "holds", "not run"), with what the tolerance rule and the k-seed band disagree on, e.g.
// "holds (within tolerance; the published value lies outside our k-seed band, percentile 0.0)".
std::string value_verdict_text(const ValueOutcome& o);

// The whole report as Markdown; `summary`, when given, receives its verdict counts.
std::string write_markdown(const Reference& ref, const Results& results, const ReportOptions& opts,
                           ReportSummary* summary = nullptr);

}  // namespace dpclust::report
