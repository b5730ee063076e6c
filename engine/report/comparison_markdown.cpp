// The comparison section as Markdown; see comparison_markdown.hpp.
#include "report/comparison_markdown.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "report/comparison_export.hpp"
#include "report/format.hpp"

namespace dpclust::report {
namespace fs = std::filesystem;
using json = nlohmann::json;

// Named, not anonymous: the report room is a unity build (markdown.cpp has file-local helpers too).
namespace comparison_md_detail {

std::string escape_cell(const std::string& text) {  // a '|' would end the Markdown table cell
  std::string out;
  for (char ch : text) {
    if (ch == '|') out += '\\';
    out += ch;
  }
  return out;
}

std::string short_number(double x) {
  std::ostringstream o;
  o << x;  // 0.25, 1, 4: as a config writes an epsilon
  return o.str();
}

std::string p_text(double p) { return p < 0.001 ? "p < 0.001" : "p = " + fmt(p, 3); }

// The notes under a table: each skip reason and each reason a cell is not a private release, said once and
// referred to from the cells ("skipped (S1)", "‡1").
struct TableNotes {
  std::vector<std::string> skipped, not_private;
  static std::size_t index_of(std::vector<std::string>& list, const std::string& text) {
    const auto it = std::find(list.begin(), list.end(), text);
    if (it != list.end()) return static_cast<std::size_t>(it - list.begin()) + 1;
    list.push_back(text);
    return list.size();
  }
};

// A cell: "median [interval] · mean m (n)", the median ranked (bold when best), the mean beside it.
std::string cell_markdown(const std::string& metric, const std::optional<ComparisonCell>& c, bool ranked,
                          TableNotes& notes) {
  if (!c) return "";
  if (c->skipped) return "skipped (S" + std::to_string(TableNotes::index_of(notes.skipped, *c->skipped)) + ")";
  if (c->sample.n == 0) return "- (no value in " + std::to_string(c->trials) + " trials)";
  std::string median = fmt_value(metric, c->sample.median);
  if (c->best) median = "**" + median + "**";
  std::string s = median + " " +
                  (c->sample.n >= 2 ? "[" + fmt_value(metric, c->sample.median_ci.first) + ", " +
                                          fmt_value(metric, c->sample.median_ci.second) + "]"
                                    : std::string("[-]")) +
                  " · mean " + fmt_value(metric, c->sample.mean) + " (" +
                  (c->sample.n == c->trials ? std::to_string(c->sample.n)
                                            : std::to_string(c->sample.n) + " of " + std::to_string(c->trials)) +
                  ")";
  if (ranked && !c->ranked) s += ", not ranked (fewer than half of the trials valid)";
  else if (c->p_holm) s += ", " + p_text(*c->p_holm) + (c->significant ? " †" : "");
  else if (ranked && !c->best) s += ", not tested";
  if (c->baseline_tested && !c->beats_baseline) s += " ▼";
  if (!c->not_private.empty()) {
    std::string why;
    for (const auto& n : c->not_private) why += (why.empty() ? "" : "; ") + n;
    s += " ‡" + std::to_string(TableNotes::index_of(notes.not_private, why));
  }
  return s;
}

// The spread table's cell: the mean's t-interval, the 10th and 90th percentiles, the failures, the gap to the
// counterpart (medians).
std::string spread_markdown(const std::string& metric, const std::optional<ComparisonCell>& c,
                            const std::string& counterpart) {
  if (!c || c->skipped || !c->spread) return "";
  std::string s = "mean " +
                  (c->sample.ci95 ? "[" + fmt_value(metric, c->sample.ci95->first) + ", " +
                                        fmt_value(metric, c->sample.ci95->second) + "]"
                                  : std::string("[-]")) +
                  ", p10-p90 [" + fmt_value(metric, c->spread->p10) + ", " + fmt_value(metric, c->spread->p90) + "]";
  if (c->trials > 0) {
    const double rate = 100.0 * static_cast<double>(c->failures) / static_cast<double>(c->trials);
    s += ", fail " + fmt(rate, 0) + "%";
  }
  if (c->counterpart_gap) {
    s += ", Δ " + counterpart + " " + (*c->counterpart_gap >= 0 ? "+" : "") + fmt_value(metric, *c->counterpart_gap);
    if (c->counterpart_p_holm)
      s += " (" + p_text(*c->counterpart_p_holm) + (c->counterpart_significant ? " †" : "") + ")";
  }
  return s;
}

std::string radii_text(const std::vector<double>& radii) {
  std::string r;
  for (double x : radii) r += (r.empty() ? "" : ", ") + short_number(x);
  return r;
}

// The table's heading, and what sets it apart: several deltas, a local axis.
void table_heading(std::ostream& md, const ComparisonTable& t) {
  const bool local = t.axis == PrivacyAxis::local;
  md << "#### " << t.dataset << " · " << t.metric << " (" << to_string(t.traits.better) << ")"
     << (local ? " · local DP" : "") << "\n\n";
  if (!t.delta_groups.empty()) {
    md << "**δ differs between the (ε, δ) rows of this table:**";
    for (std::size_t g = 0; g < t.delta_groups.size(); ++g) {
      std::string rows;
      for (const auto& l : t.delta_groups[g].rows) rows += (rows.empty() ? "" : ", ") + l;
      md << (g ? ";" : "") << " δ = " << t.delta_groups[g].description << " (" << escape_cell(rows) << ")";
    }
    md << ". One ε column then compares unlike guarantees: give the dataset one delta (`params: {delta: ...}` of the "
          "dataset or the experiment; docs/benchmark.md).\n\n";
  }
  if (local)
    md << "Local differential privacy (geo-indistinguishability, each record perturbed on its own): ε is the level "
          "reached at distance `radius` (r = "
       << radii_text(t.radii)
       << "; ε / r per unit of distance), not comparable with a central ε, so these methods have their own "
          "columns.\n\n";
}

// The column headers (shared by the main table and the spread table).
void column_headers(std::ostream& md, const ComparisonTable& t) {
  const bool local = t.axis == PrivacyAxis::local;
  md << "| method |";
  for (const auto& c : t.columns)
    md << " " << (c ? std::string(local ? "local ε = " : "ε = ") + short_number(*c) : std::string("non-private (no ε)"))
       << " |";
  md << "\n|---|";
  for (std::size_t i = 0; i < t.columns.size(); ++i) md << "---|";
  md << "\n";
}

// The notes under the table: the releases that are not private, oracle-tuned rows.
void release_notes(std::ostream& md, const ComparisonTable& t, const TableNotes& notes) {
  if (!notes.not_private.empty()) {
    md << "\n‡ not a private release (a private method run in a non-private setting; results.json `non_private`):\n";
    for (std::size_t i = 0; i < notes.not_private.size(); ++i)
      md << "- ‡" << i + 1 << ": " << escape_cell(notes.not_private[i]) << "\n";
  }
  // Oracle-tuned rows: what was taken from the private data (results.json `tuning`).
  bool any_oracle = false;
  for (const auto& r : t.rows) any_oracle = any_oracle || !r.oracle.empty();
  if (any_oracle) {
    md << "\n° oracle-tuned (an input or parameter taken from the private data; no private search was run, "
          "docs/benchmark.md):\n";
    for (const auto& r : t.rows) {
      if (r.oracle.empty()) continue;
      std::string why;
      for (const auto& x : r.oracle) why += (why.empty() ? "" : "; ") + x;
      md << "- " << escape_cell(r.label) << ": " << escape_cell(why) << "\n";
    }
  }
}

// What differs in side information, the trivial baseline's verdicts, the skipped cells.
void side_and_baseline_notes(std::ostream& md, const ComparisonTable& t, const TableNotes& notes) {
  // Side information: what differs between the private rows and the trivial baseline (results.json `side_information`).
  if (!t.side_differences.empty()) {
    md << "\n◇ given different side information (◇ rows are outside the largest group of an input below, or every row "
          "of an input without one largest group):\n";
    for (const auto& d : t.side_differences) {
      md << "- " << d.input << ":";
      for (std::size_t g = 0; g < d.groups.size(); ++g) {
        std::string rows;
        if (!d.groups[g].rows_in_description)
          for (const auto& l : d.groups[g].rows) rows += (rows.empty() ? "" : ", ") + l;
        md << (g ? ";" : "") << " " << escape_cell(d.groups[g].description)
           << (rows.empty() ? "" : " (" + escape_cell(rows) + ")");
      }
      md << "\n";
    }
  } else if (t.side_not_recorded.empty() && std::count_if(t.rows.begin(), t.rows.end(), [](const ComparisonRow& r) {
                                              return r.role != RowRole::reference;
                                            }) > 1) {
    md << "\nSide information: the same for every private row" << (t.baseline_row ? " and the trivial baseline" : "")
       << ".\n";
  }
  if (!t.side_not_recorded.empty() && !t.side_differences.empty()) {
    std::string rows;
    for (const auto& l : t.side_not_recorded) rows += (rows.empty() ? "" : ", ") + l;
    md << "- not recorded (results without side information): " << escape_cell(rows) << "\n";
  }
  if (t.baseline_row && t.baseline_compared > 0)
    md << "\n▼ not significantly better than the trivial baseline (" << escape_cell(t.rows[*t.baseline_row].label)
       << ": " << t.baseline_compared - t.below_baseline << " of " << t.baseline_compared
       << " private cells beat it: a better median and the rank-sum test against it, Holm-adjusted over the "
       << t.baseline_tests << " tests of this table, p < 0.05).\n";
  if (!notes.skipped.empty()) {
    md << "\nSkipped cells (they have no value, and no figure draws them):\n";
    for (std::size_t i = 0; i < notes.skipped.size(); ++i)
      md << "- S" << i + 1 << ": " << escape_cell(notes.skipped[i]) << "\n";
  }
}

// The rows significantly worse with more epsilon.
void decline_notes(std::ostream& md, const ComparisonTable& t) {
  if (t.declining_rows == 0) return;
  md << "\n⤓ significantly worse with more ε (one-sided Wilcoxon-Mann-Whitney test of each pair of a row's ε columns, "
        "the larger ε worse; Holm over the table's "
     << t.decline_tests << " pairs, p < 0.05):\n";
  for (const auto& r : t.rows) {
    if (r.declines.empty()) continue;
    std::string pairs;
    const std::size_t shown = std::min<std::size_t>(r.declines.size(), 4);
    for (std::size_t i = 0; i < shown; ++i) {
      const auto& d = r.declines[i];
      // The medians beside the test: a significant decline may be a large one or a hair's breadth (0.996 to 0.995).
      pairs += (i ? "; " : "") + std::string("ε = ") + short_number(*t.columns[d.to]) + " (median " +
               fmt_value(t.metric, r.cells[d.to]->sample.median) +
               ") worse than ε = " + short_number(*t.columns[d.from]) + " (" +
               fmt_value(t.metric, r.cells[d.from]->sample.median) + "), " + p_text(d.p_holm);
    }
    if (r.declines.size() > shown) pairs += "; and " + std::to_string(r.declines.size() - shown) + " more pairs";
    md << "- " << escape_cell(r.label) << ": " << pairs << "\n";
  }
}

// Spread, failures and the gap to each private row's non-private counterpart.
void spread_table(std::ostream& md, const ComparisonTable& t) {
  bool any_spread = false;
  for (const auto& r : t.rows)
    for (const auto& c : r.cells) any_spread = any_spread || (c && c->spread);
  if (any_spread && t.traits.better != Better::none) {
    md << "\nSpread: the mean's Student-t 95% interval, the 10th and 90th percentiles of the trials; fail = trials "
          "with no value "
          "(undefined included), no cluster found"
       << (t.baseline_row ? ", or (private rows) no better than the trivial baseline's median" : "") << ";"
       << " Δ = median minus the non-private counterpart's (rank-sum test, Holm over the table's "
       << t.counterpart_tests << " counterpart tests, " << t.counterpart_significant << " significant †).\n\n";
    column_headers(md, t);
    for (const auto& r : t.rows) {
      md << "| " << escape_cell(r.label) << " |";
      for (const auto& c : r.cells) md << " " << escape_cell(spread_markdown(t.metric, c, r.counterpart_label)) << " |";
      md << "\n";
    }
  }
}

}  // namespace comparison_md_detail

std::string comparison_table_markdown(const ComparisonTable& t) {
  using namespace comparison_md_detail;
  std::ostringstream md;
  table_heading(md, t);
  column_headers(md, t);
  TableNotes notes;
  for (const auto& r : t.rows) {
    const bool any_not_private =
        std::any_of(r.cells.begin(), r.cells.end(), [](const auto& c) { return c && !c->not_private.empty(); });
    const char* role = r.role == RowRole::trivial_baseline ? " *(trivial baseline, 0-DP)*"
                       : r.reference                       ? " *(reference)*"
                                                           : "";
    md << "| " << escape_cell(r.label) << role << (any_not_private ? " ‡" : "") << (r.oracle.empty() ? "" : " °")
       << (r.side_differs ? " ◇" : "") << (r.declines.empty() ? "" : " ⤓") << " |";
    for (const auto& c : r.cells)
      md << " " << cell_markdown(t.metric, c, t.traits.better != Better::none, notes) << " |";
    md << "\n";
  }
  release_notes(md, t, notes);
  side_and_baseline_notes(md, t, notes);
  decline_notes(md, t);
  if (t.unranked_cells > 0 && t.traits.better != Better::none)
    md << "\n"
       << t.unranked_cells << " cell" << (t.unranked_cells == 1 ? " is" : "s are")
       << " not ranked: fewer than half of the trials have a value (an undefined value, e.g. the silhouette of one "
          "cluster, "
          "counts as none, and as a failure); no bold, no test.\n";
  if (t.traits.better == Better::none)
    md << "\nNot ranked: `" << t.metric << "` has no better direction (a count or a diagnostic).\n";
  else
    md << "\n"
       << t.tests << " test" << (t.tests == 1 ? "" : "s") << " against the column's best median, " << t.significant
       << " significant (†).\n";
  spread_table(md, t);
  return md.str();
}

namespace {

// An experiment none of whose cells ran (run --keep-going skipped them all): the reasons, each once with the rows it
// stopped. False when it has no skipped cells either.
bool skipped_experiment(std::ostream& body, const std::string& name, const nlohmann::json& doc) {
  const std::vector<SkippedCell> skipped = skipped_cells(doc);
  if (skipped.empty()) return false;
  std::vector<std::pair<std::string, std::vector<std::string>>> reasons;
  for (const auto& c : skipped) {
    const std::string why = c.reason + (c.fix.empty() ? "" : " (fix: " + c.fix + ")");
    auto it = std::find_if(reasons.begin(), reasons.end(), [&](const auto& r) { return r.first == why; });
    if (it == reasons.end()) it = reasons.insert(reasons.end(), {why, {}});
    if (std::find(it->second.begin(), it->second.end(), c.series) == it->second.end()) it->second.push_back(c.series);
  }
  body << "\n### " << name << "\n\nNo cell ran: all " << skipped.size() << " were skipped.\n\n";
  for (const auto& [why, series] : reasons) {
    std::string rows;
    for (const auto& x : series) rows += (rows.empty() ? "" : ", ") + x;
    body << "- " << comparison_md_detail::escape_cell(why) << " (" << rows << ")\n";
  }
  return true;
}

// After the last table of a (dataset, metric): its CSV and LaTeX tables and its figure, central and local panels
// together.
void table_links(std::ostream& body, const std::string& name, const ComparisonTable& t,
                 const ComparisonSectionOptions& opts, const fs::path& base) {
  if (!opts.tables_dir.empty()) {
    const auto link = [&](const char* ext) {
      return fs::relative(fs::absolute(opts.tables_dir / comparison_table_file(name, t.dataset, t.metric, ext)), base)
          .generic_string();
    };
    body << "\nTables for a paper: [CSV](" << link("csv") << "), [LaTeX](" << link("tex") << ") (booktabs).\n";
  }
  if (!opts.figures_dir.empty()) {
    const fs::path png = opts.figures_dir / "comparison" / figure_name_part(name) /
                         (figure_name_part(t.dataset) + "__" + figure_name_part(t.metric) + ".png");
    std::error_code ec;
    if (fs::is_regular_file(png, ec)) {
      const std::string rel = fs::relative(fs::absolute(png), base).generic_string();
      body << "\n[<img src=\"" << rel << "\" width=\"480\" alt=\"" << name << ": " << t.dataset << ", " << t.metric
           << "\">](" << rel << ")\n";
    }
  }
}

// What the section's tables show and how they rank, said once above them.
std::string comparison_intro() {
  std::ostringstream md;
  md << "\n## Comparison of methods\n\n"
        "For every experiment, per dataset and metric: the methods (rows: the config's series with the parameters that "
        "tell its rows apart) against epsilon (columns). A cell is `median [interval] · mean m (n)`: the **median** of "
        "the "
        "cell's trials with its distribution-free 95% interval (order statistics: [x_(2), x_(9)] for 10 trials), the "
        "mean "
        "beside it, and the number of trials, from the per-trial values of results.json. The tables **rank by the "
        "median**, "
        "which a few wild trials cannot move (the mean can: one released centre far outside the domain). The best "
        "median of "
        "each column is in **bold** (the direction is the metric's: higher for ARI, AMI, NMI, F-measure; lower for "
        "DSG_C, "
        "OCM, 2CE, relative errors, stress, k-means costs). A cell with fewer than half of its trials valid (an "
        "undefined "
        "value, e.g. the silhouette of one cluster, is not valid) is **not ranked** and says so. Every other ranked "
        "cell "
        "of the column is compared with the best by the **Wilcoxon-Mann-Whitney rank-sum test** (two-sided; exact for "
        "up "
        "to 40 trials without ties): trials of different cells are drawn with independent seeds (each trial's seed is "
        "derived from its own cell's key), so they are independent samples, not pairs. The p-values shown are "
        "**Holm-adjusted** within the table (family-wise error rate 5%); † marks a difference significant at that "
        "level. "
        "**⤓** marks a private row significantly worse at a larger ε than at a smaller one (one-sided rank-sum test of "
        "each pair of its ε columns, Holm over the table's pairs). Non-private methods have no epsilon: they are "
        "reference "
        "rows, in a column of their own in every table of their dataset. Local-DP methods (nD-Laplace, whose epsilon "
        "is a "
        "geo-indistinguishability level per record at distance `radius`) get a table of their own, never the central "
        "epsilon's columns. A cell recorded as skipped shows a reference (S1, ...) to its reason under the table. "
        "**‡** marks a private method's cell that is not a private release, a setting that is not private (n treated "
        "as "
        "public, a range taken from the true data, the textbook floating-point sampler, bounds from the data): it is "
        "ranked with the others but its privacy is not the column's epsilon; the notes under the table say why. A "
        "table "
        "whose (ε, δ) rows run at different δ says so above it. Each (dataset, metric) links its figure "
        "(plots/make_figures.py writes them to `comparison/<experiment>/` under the figures directory) and its CSV and "
        "LaTeX (booktabs) tables (`tables/<experiment>/` beside this report). Experiments the "
        "paper sections above judge, and those of `configs/paper/`, are folded. "
        "Benchmarks (docs/benchmark.md): the trivial baseline (uniform_centres, k centres drawn from the public "
        "domain, 0-DP) "
        "is a row of the no-ε column; **▼** marks a private cell not significantly better than it (a better median and "
        "the rank-sum test, Holm over the table's baseline tests); **°** marks an oracle-tuned row (an input taken "
        "from "
        "the private data); **◇** a row given other side information than most (what differs is listed under the "
        "table); under each ranked table, the spread (the mean's interval, 10th and 90th percentiles), the failure "
        "rate "
        "and the gap to the row's non-private counterpart.\n";
  return md.str();
}

}  // namespace

std::string comparison_section(const Results& results, const ComparisonSectionOptions& opts) {
  std::ostringstream body;
  std::size_t experiments = 0;
  const fs::path base = opts.report_path.empty() ? fs::current_path() : fs::absolute(opts.report_path).parent_path();
  for (const auto& [name, doc] : results.experiments()) {
    const std::vector<ComparisonTable> tables = compare_methods(name, doc, opts.stats);
    if (tables.empty()) {  // no cell ran
      experiments += skipped_experiment(body, name, doc);
      continue;
    }
    ++experiments;
    std::size_t tests = 0, significant = 0, declining = 0;
    for (const auto& t : tables) tests += t.tests, significant += t.significant, declining += t.declining_rows;
    const std::string description = doc.is_object() && doc.contains("description") && doc["description"].is_string()
                                        ? doc["description"].get<std::string>()
                                        : "";
    const std::string counts =
        std::to_string(tables.size()) + " table" + (tables.size() == 1 ? "" : "s") + ", " +
        std::to_string(significant) + " of " + std::to_string(tests) + " differences from a column's best significant" +
        (declining ? ", " + std::to_string(declining) + " row" + (declining == 1 ? "" : "s") + " worse with more ε (⤓)"
                   : "");
    // Folded: what the paper sections judge, and every experiment of a paper config (figure data included).
    std::string config_file;
    if (doc.is_object() && doc.contains("provenance") && doc["provenance"].is_object() &&
        doc["provenance"].contains("config_file") && doc["provenance"]["config_file"].is_string())
      config_file = doc["provenance"]["config_file"].get<std::string>();
    const bool folded = opts.folded.count(name) > 0 || config_file.find("configs/paper/") != std::string::npos;
    body << "\n### " << name << "\n\n";
    if (!description.empty()) body << description << "\n\n";
    if (folded)
      body << "<details><summary>" << counts
           << " (judged against the paper above; unfold for the tables)</summary>\n\n";
    else body << counts << ".\n\n";
    for (std::size_t i = 0; i < tables.size(); ++i) {
      const auto& t = tables[i];
      body << comparison_table_markdown(t);
      const bool last =
          i + 1 == tables.size() || tables[i + 1].dataset != t.dataset || tables[i + 1].metric != t.metric;
      if (last) table_links(body, name, t, opts, base);
      body << "\n";
    }
    if (folded) body << "</details>\n";
  }
  if (experiments == 0) return "";
  std::ostringstream md;
  md << comparison_intro() << body.str();
  return md.str();
}

}  // namespace dpclust::report
