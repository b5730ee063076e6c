// The comparison's tables as CSV and LaTeX; see comparison_export.hpp.
#include "report/comparison_export.hpp"

#include <cmath>
#include <sstream>

#include "core/files.hpp"
#include "report/format.hpp"

namespace dpclust::report {
namespace fs = std::filesystem;

// Named, not anonymous: the report room is a unity build.
namespace comparison_export_detail {

std::string number(double x) {  // full precision, as results.json holds it
  if (std::isnan(x)) return "";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::ostringstream o;
  o.precision(17);
  o << x;
  return o.str();
}

std::string csv_field(const std::string& s) {  // RFC 4180: quoted when it holds a comma, a quote or a line break
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string latex_text(const std::string& s) {  // the characters LaTeX treats specially, escaped
  std::string out;
  for (char c : s) {
    switch (c) {
      case '_': out += "\\_"; break;
      case '%': out += "\\%"; break;
      case '&': out += "\\&"; break;
      case '#': out += "\\#"; break;
      case '$': out += "\\$"; break;
      case '{': out += "\\{"; break;
      case '}': out += "\\}"; break;
      case '~': out += "\\textasciitilde{}"; break;
      case '^': out += "\\textasciicircum{}"; break;
      case '\\': out += "\\textbackslash{}"; break;
      default: out += c;
    }
  }
  return out;
}

const char* role_name(RowRole r) {
  return r == RowRole::trivial_baseline ? "trivial_baseline" : r == RowRole::reference ? "non_private" : "private";
}

std::string epsilon_text(const std::optional<double>& e) {
  if (!e) return "";
  std::ostringstream o;
  o << *e;
  return o.str();
}

}  // namespace comparison_export_detail

fs::path comparison_table_file(const std::string& experiment, const std::string& dataset, const std::string& metric,
                               const std::string& extension) {
  return fs::path(figure_name_part(experiment)) /
         (figure_name_part(dataset) + "__" + figure_name_part(metric) + "." + extension);
}

std::string comparison_csv(const std::vector<const ComparisonTable*>& tables) {
  using namespace comparison_export_detail;
  std::ostringstream out;
  out << "experiment,dataset,metric,direction,axis,series,label,role,epsilon,trials,valid,ranked,median,median_lo,"
         "median_hi,"
         "median_coverage,mean,mean_lo,mean_hi,sd,p10,p90,failures,best,p_holm,significant,beats_baseline,baseline_p_"
         "holm,"
         "counterpart,counterpart_gap,counterpart_p_holm,worse_with_more_epsilon,not_private,skipped\n";
  for (const ComparisonTable* t : tables)
    for (const auto& r : t->rows) {
      std::string declines;
      for (const auto& d : r.declines)
        declines += (declines.empty() ? "" : "; ") + epsilon_text(t->columns[d.to]) + " worse than " +
                    epsilon_text(t->columns[d.from]) + " (p_holm " + number(d.p_holm) + ")";
      for (std::size_t col = 0; col < t->columns.size(); ++col) {
        const auto& c = r.cells[col];
        if (!c) continue;
        std::string not_private;
        for (const auto& n : c->not_private) not_private += (not_private.empty() ? "" : "; ") + n;
        const bool has = !c->skipped && c->sample.n > 0;
        const Sample& s = c->sample;
        out << csv_field(t->experiment) << ',' << csv_field(t->dataset) << ',' << csv_field(t->metric) << ','
            << to_string(t->traits.better) << ',' << to_string(t->axis) << ',' << csv_field(r.series) << ','
            << csv_field(r.label) << ',' << role_name(r.role) << ',' << epsilon_text(t->columns[col]) << ','
            << c->trials << ',' << s.n << ',' << (c->ranked ? "true" : "false") << ',' << (has ? number(s.median) : "")
            << ',' << (has && s.n >= 2 ? number(s.median_ci.first) : "") << ','
            << (has && s.n >= 2 ? number(s.median_ci.second) : "") << ','
            << (has && s.n >= 2 ? number(s.median_coverage) : "") << ',' << (has ? number(s.mean) : "") << ','
            << (s.ci95 ? number(s.ci95->first) : "") << ',' << (s.ci95 ? number(s.ci95->second) : "") << ','
            << (has && s.n >= 2 ? number(s.sd) : "") << ',' << (c->spread ? number(c->spread->p10) : "") << ','
            << (c->spread ? number(c->spread->p90) : "") << ','
            << (c->spread && t->traits.better != Better::none ? std::to_string(c->failures) : "") << ','
            << (c->best ? "true" : "false") << ',' << (c->p_holm ? number(*c->p_holm) : "") << ','
            << (c->significant ? "true" : "false") << ','
            << (c->baseline_tested ? (c->beats_baseline ? "true" : "false") : "") << ','
            << (c->baseline_p_holm ? number(*c->baseline_p_holm) : "") << ','
            << csv_field(c->counterpart_gap ? r.counterpart_label : "") << ','
            << (c->counterpart_gap ? number(*c->counterpart_gap) : "") << ','
            << (c->counterpart_p_holm ? number(*c->counterpart_p_holm) : "") << ',' << csv_field(declines) << ','
            << csv_field(not_private) << ',' << csv_field(c->skipped ? *c->skipped : "") << '\n';
      }
    }
  return out.str();
}

std::string comparison_latex(const std::vector<const ComparisonTable*>& tables) {
  using namespace comparison_export_detail;
  std::ostringstream tex;
  if (tables.empty()) return "";
  const ComparisonTable& first = *tables.front();
  tex << "% dpclust report: " << first.experiment << ", " << first.dataset << ", " << first.metric
      << " (needs \\usepackage{booktabs})\n"
      << "\\begin{table}\n\\centering\n\\small\n";
  for (const ComparisonTable* t : tables) {
    const bool local = t->axis == PrivacyAxis::local;
    tex << "\\begin{tabular}{l" << std::string(t->columns.size(), 'c') << "}\n\\toprule\nmethod";
    for (const auto& c : t->columns)
      tex << " & "
          << (c ? std::string(local ? "local $\\varepsilon = " : "$\\varepsilon = ") + epsilon_text(c) + "$"
                : "non-private");
    tex << " \\\\\n\\midrule\n";
    bool references = false;
    for (const auto& r : t->rows) {
      if (r.role != RowRole::private_method && !references) {
        tex << "\\midrule\n";
        references = true;
      }
      tex << latex_text(r.label) << (r.role == RowRole::trivial_baseline ? " (trivial baseline)" : "")
          << (r.declines.empty() ? "" : "$^{\\downarrow}$");
      for (const auto& c : r.cells) {
        tex << " & ";
        if (!c) continue;
        if (c->skipped) {
          tex << "skipped";
          continue;
        }
        if (c->sample.n == 0) {
          tex << "--";
          continue;
        }
        const std::string median = fmt_value(t->metric, c->sample.median);
        tex << (c->best ? "\\textbf{" + median + "}" : median);
        if (c->sample.n >= 2)
          tex << " {\\scriptsize [" << fmt_value(t->metric, c->sample.median_ci.first) << ", "
              << fmt_value(t->metric, c->sample.median_ci.second) << "]}";
        // The cell's marks in one superscript ("$^{\dagger}$$^{b}$" would open display math).
        std::string marks;
        const auto mark = [&](const char* symbol) {
          if (!marks.empty()) marks += ',';
          marks += symbol;
        };
        if (!c->ranked) mark("\\mathrm{nr}");
        else if (c->significant) mark("\\dagger");
        if (c->baseline_tested && !c->beats_baseline) mark("\\mathrm{b}");
        if (!c->not_private.empty()) mark("\\ddagger");
        if (!marks.empty()) tex << "$^{" << marks << "}$";
      }
      tex << " \\\\\n";
    }
    tex << "\\bottomrule\n\\end{tabular}\n";
    if (t != tables.back()) tex << "\\par\\medskip\n";
  }
  tex << "\\caption{" << latex_text(first.dataset) << ", " << latex_text(first.metric) << " ("
      << to_string(first.traits.better)
      << "): the median of each cell's trials with its distribution-free 95\\% interval; the best median of each "
         "column in bold."
      << (first.traits.better == Better::none
              ? ""
              : " $^{\\dagger}$ differs from the column's best (Wilcoxon--Mann--Whitney, Holm-adjusted within the "
                "table, 5\\%);"
                " $^{\\mathrm{b}}$ not significantly better than the trivial baseline; $^{\\mathrm{nr}}$ not ranked "
                "(fewer than half of"
                " the trials valid); $^{\\downarrow}$ significantly worse with more $\\varepsilon$;")
      << " $^{\\ddagger}$ not a private release.}\n"
      << "\\label{tab:" << figure_name_part(first.experiment) << ":" << figure_name_part(first.dataset) << ":"
      << figure_name_part(first.metric) << "}\n"
      << "\\end{table}\n";
  return tex.str();
}

std::vector<fs::path> write_comparison_tables(const Results& results, const fs::path& dir,
                                              const ComparisonOptions& opts) {
  std::vector<fs::path> written;
  for (const auto& [name, doc] : results.experiments()) {
    const std::vector<ComparisonTable> tables = compare_methods(name, doc, opts);
    for (std::size_t i = 0; i < tables.size();) {
      std::vector<const ComparisonTable*> group;  // one (dataset, metric): central, then local
      std::size_t j = i;
      while (j < tables.size() && tables[j].dataset == tables[i].dataset && tables[j].metric == tables[i].metric)
        group.push_back(&tables[j++]);
      for (const char* ext : {"csv", "tex"}) {
        const fs::path file = dir / comparison_table_file(name, tables[i].dataset, tables[i].metric, ext);
        fs::create_directories(file.parent_path());
        write_file_atomic(file, std::string(ext) == "csv" ? comparison_csv(group) : comparison_latex(group));
        written.push_back(file);
      }
      i = j;
    }
  }
  return written;
}

}  // namespace dpclust::report
