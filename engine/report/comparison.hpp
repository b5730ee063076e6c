#pragma once
// The comparison of the methods of one experiment: per dataset and metric, the methods against epsilon, each
// cell's median with its distribution-free 95% interval, its mean beside it and the trial count from the
// per-trial values, the best median of each column, and whether each other cell differs from it (the
// Wilcoxon-Mann-Whitney rank-sum test, Holm-corrected within the table; comparison_stats.hpp says why these).
// A statistic a few wild trials cannot move ranks the methods: the median (a mean of 9,369,525 against a median
// of 28.7 when one trial in ten releases a centre far outside the domain). A cell with fewer than half of its
// trials valid (a value that is undefined, e.g. a silhouette of one cluster, counts as not valid) is not ranked.
// No Markdown here: comparison_markdown.hpp renders it.
//
// What goes where:
//  - a row is a method entry: the cell's series (the config's `as:` name, else the method) with its
//    non-epsilon parameters; the label names the parameters that differ between the rows of one series;
//  - a column is an epsilon value of the private cells, plus a "no epsilon" column for the cells without
//    one (the non-private methods: dbscan, kmeans, wavecluster, affinity_propagation, drbt ...), which are
//    the reference rows of every table of their dataset;
//  - central and local DP do not share columns: a cell whose privacy_spent.measure is "local"
//    (nD-Laplace: epsilon is the geo-indistinguishability level reached at distance `radius`, for each
//    record on its own) goes to a table of its own, with the same reference rows;
//  - cells recorded as skipped (skipped_cells() below) appear as "skipped: reason";
//  - benchmarks (docs/benchmark.md): the trivial baseline (a cell whose role is trivial_baseline:
//    uniform_centres, 0-DP) is a row of the no-epsilon column like the references; every private cell is
//    tested against it (the rank-sum test, Holm over the table's baseline tests) and against its declared non-private
//    counterpart's row (Holm over those tests); each cell has its mean's interval, 10th and 90th percentiles and
//    its failure rate; the rows' side-information records are compared (differences marked, and a delta that
//    differs between the (eps, delta) rows flagged), and oracle-tuned rows (tuning.oracle) say why;
//  - every private row is checked for getting worse with more epsilon: a one-sided rank-sum test of each pair of
//    its epsilon columns (the larger epsilon worse), Holm over the table's pairs.
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/comparison_stats.hpp"

namespace dpclust::report {

// A cell recorded as not run, with why and the fix.
//
// Read from a top-level `skipped_cells` array of results.json whose entries are {dataset, series (or method),
// params (object, may omit epsilon), reason, fix} (`run --keep-going`), and from cells carrying
// `"skipped": {reason, fix}` (or `"status": "skipped"` with `reason`/`fix`).
struct SkippedCell {
  std::string dataset, series, reason, fix;
  nlohmann::json params = nlohmann::json::object();
};
std::vector<SkippedCell> skipped_cells(const nlohmann::json& experiment);

enum class PrivacyAxis { central, local };
const char* to_string(PrivacyAxis a);

struct ComparisonCell {
  std::vector<double> values;  // per-trial values (trials without a number are left out)
  std::size_t trials = 0;      // trials of the cell, with or without a number
  Sample sample;
  // Ranked: at least half of the trials have a value (2 n >= trials). A cell with fewer is shown, not ranked:
  // its median would rest on a minority of its trials (1 of 10 silhouettes defined).
  bool ranked = false;
  bool best = false;                // the best median of its column among the ranked cells (ties: every cell with it)
  std::optional<RankSumTest> test;  // against the column's best (none for the best, or an unranked cell)
  std::optional<double> p_holm;     // the test's p, Holm-adjusted within the table
  bool significant = false;         // p_holm < alpha
  std::optional<std::string> skipped;  // "reason (fix)" of a cell recorded as skipped
  // A private method's cell that is not a private release: its results.json `non_private` notes (n treated
  // as public, a range from the true maximum, the textbook sampler, bounds from the data, ...).
  std::vector<std::string> not_private;
  // Spread and failures (docs/benchmark.md): the median and 10th/90th percentiles of the trial values; the
  // trials that failed -- no value (undefined included), no cluster found (metric n_clusters 0), or no better
  // than the trivial baseline's median in the metric's direction (when the table has a baseline) -- out of
  // `trials`.
  std::optional<Spread> spread;
  std::size_t failures = 0;
  bool failure_against_baseline = false;  // the failures count trials no better than the baseline
  // Against the trivial baseline (private cells of a table that has one): the test, its Holm-adjusted p over
  // the table's baseline tests, and whether the cell beats it (better median, p_holm < alpha).
  std::optional<RankSumTest> vs_baseline;
  std::optional<double> baseline_p_holm;
  bool baseline_tested = false;  // compared with the baseline (a test, or n < 2 on one side)
  bool beats_baseline = false;
  // Against the row's non-private counterpart (its declared counterpart's row in the table): median difference
  // (this minus the counterpart), the test and its Holm-adjusted p over the table's counterpart tests.
  std::optional<double> counterpart_gap;
  std::optional<RankSumTest> vs_counterpart;
  std::optional<double> counterpart_p_holm;
  bool counterpart_significant = false;
};

enum class RowRole { private_method, reference, trivial_baseline };

struct ComparisonRow {
  std::string series, label;
  std::string method;      // the registered method of the row's cells
  bool reference = false;  // a non-private method (no epsilon), or the trivial baseline
  RowRole role = RowRole::private_method;
  std::string counterpart;          // the cells' declared non-private counterpart (a method name)
  std::string counterpart_label;    // the row it is tested against; empty when the table has none
  nlohmann::json side_information;  // the first cell's record (null when not recorded: older results)
  std::vector<std::string> oracle;  // tuning.reasons of an oracle-tuned row (empty: chosen on public information)
  bool side_differs = false;  // given other side information than most comparable rows (see the table's differences)
  nlohmann::json params;      // the row's parameters without epsilon
  std::vector<std::optional<ComparisonCell>> cells;  // one per column
  // Significantly worse with more epsilon (private rows): the pairs of columns (smaller epsilon, larger epsilon)
  // where the larger one's trials are worse (one-sided rank-sum test, Holm over the table's pairs, p_holm < alpha).
  struct Decline {
    std::size_t from = 0, to = 0;  // column indices, from < to
    double p_holm = 1;
  };
  std::vector<Decline> declines;
};

struct ComparisonTable {
  std::string experiment, dataset, metric;
  PrivacyAxis axis = PrivacyAxis::central;
  MetricTraits traits;
  std::vector<std::optional<double>> columns;  // epsilon values ascending, then nullopt = "no epsilon"
  std::vector<ComparisonRow> rows;             // private rows in the results' order, then the references
  std::size_t tests = 0;                       // tests in the Holm family (the table)
  std::size_t significant = 0;
  std::vector<double> radii;  // local tables: the `radius` values of the local rows
  // Benchmarks: the trivial baseline's row (index into rows), the tests against it and against the
  // counterparts, and the side information that differs between the private rows and the baseline.
  std::optional<std::size_t> baseline_row;
  std::size_t baseline_tests = 0, below_baseline = 0, baseline_compared = 0;
  std::size_t counterpart_tests = 0, counterpart_significant = 0;
  struct SideGroup {
    std::string description;  // "given 5", "taken from the data: ...", "not given (estimated privately: dpm; not used:
                              // dp_kmeans)"
    std::vector<std::string> rows;     // the rows' labels
    bool rows_in_description = false;  // a "not given" group names its rows by kind in its description
  };
  struct SideDifference {
    std::string input;
    std::vector<SideGroup> groups;    // one per distinct description, in row order
    std::vector<std::string> marked;  // the rows marked for this input (outside its largest group)
  };
  std::vector<SideDifference> side_differences;
  std::vector<std::string> side_not_recorded;  // comparable rows whose cells carry no side-information record
  // The delta of the (eps, delta) rows (private rows whose side information gives delta a public value), when
  // they differ: one group per delta, in row order. An epsilon column then compares unlike guarantees.
  std::vector<SideGroup> delta_groups;
  // The monotonicity check: the pairs of epsilon columns tested over the table's private rows, and the rows
  // with a significant decline.
  std::size_t decline_tests = 0, declining_rows = 0;
  std::size_t unranked_cells = 0;  // cells with fewer than half of their trials valid
};

struct ComparisonOptions {
  double alpha = 0.05;  // family-wise error rate of each table
};

// Every table of one experiment's results (a results.json document as Results holds it), by dataset
// (in the order the cells name them), metric (sorted), central before local. Metrics are the cells'
// `aggregates` (the metrics part; diagnostics and evaluation statistics are not compared).
std::vector<ComparisonTable> compare_methods(const std::string& experiment, const nlohmann::json& results,
                                             const ComparisonOptions& opts = {});

// File-name-safe form of a dataset or metric name (letters, digits, '.', '-', '_'; anything else '_'),
// as plots/plot_comparison.py names the figure: <figures>/comparison/<experiment>/<dataset>__<metric>.png.
std::string figure_name_part(const std::string& name);

}  // namespace dpclust::report
