// The win regions as Markdown; see win_regions_markdown.hpp.
#include "report/win_regions_markdown.hpp"

#include <map>
#include <sstream>

namespace dpclust::report {
namespace fs = std::filesystem;

namespace win_md_detail {  // named: the report room is a unity build

std::string number(double x) {
  std::ostringstream o;
  o << x;
  return o.str();
}

std::string size_text(std::uint64_t n) {  // 1000 -> "10^3", 25000 -> "25000"
  std::uint64_t p = 1;
  for (int e = 0; e <= 18; ++e, p *= 10)
    if (n == p) return "10^" + std::to_string(e);
  return std::to_string(n);
}

}  // namespace win_md_detail

std::string win_table_markdown(const WinTable& w) {
  using namespace win_md_detail;
  std::ostringstream md;
  const bool by_n = w.axis == "n";
  md << "#### " << w.family << " · " << w.metric << " · (" << w.axis << ", ε)\n\n| " << (by_n ? "n" : "d") << " |";
  for (double e : w.epsilons) md << " ε = " << number(e) << " |";
  md << "\n|---|";
  for (std::size_t i = 0; i < w.epsilons.size(); ++i) md << "---|";
  md << "\n";
  std::map<std::string, std::size_t> wins;
  std::size_t cells = 0, undecided = 0;
  for (const auto& r : w.rows) {
    md << "| "
       << (by_n ? size_text(r.n) + " (d = " + std::to_string(r.d) + ")"
                : std::to_string(r.d) + " (n = " + size_text(r.n) + ")")
       << " |";
    for (const auto& c : r.cells) {
      if (!c) {
        md << " |";
        continue;
      }
      ++cells;
      if (c->significant) {
        ++wins[c->best];
        md << " **" << c->best << "** |";
      } else {
        ++undecided;
        md << " (" << c->best << (c->competitors < 2 ? ", alone" : "") << ") |";
      }
    }
    md << "\n";
  }
  md << "\n";
  std::string counts;
  for (const auto& [name, k] : wins) counts += (counts.empty() ? "" : ", ") + name + " " + std::to_string(k);
  md << "Significant winners in " << cells - undecided << " of " << cells << " cells"
     << (counts.empty() ? "" : " (" + counts + ")")
     << "; in parentheses the best median where no method is significantly best.\n";
  return md.str();
}

std::string win_regions_section(const Results& results, const ComparisonSectionOptions& opts) {
  std::ostringstream body;
  const fs::path base = opts.report_path.empty() ? fs::current_path() : fs::absolute(opts.report_path).parent_path();
  for (const auto& [name, doc] : results.experiments()) {
    const auto tables = compare_methods(name, doc, opts.stats);
    const auto wins = win_regions(doc, tables, opts.stats.alpha);
    if (wins.empty()) continue;
    body << "\n### " << name << "\n\n";
    for (const auto& w : wins) {
      body << win_table_markdown(w);
      if (!opts.figures_dir.empty()) {
        const fs::path png =
            opts.figures_dir / "benchmark" / figure_name_part(name) /
            ("wins__" + figure_name_part(w.family) + "__" + figure_name_part(w.metric) + "__" + w.axis + ".png");
        std::error_code ec;
        if (fs::is_regular_file(png, ec)) {
          const std::string rel = fs::relative(fs::absolute(png), base).generic_string();
          body << "\n[<img src=\"" << rel << "\" width=\"480\" alt=\"" << name << ": " << w.family << ", " << w.metric
               << "\">](" << rel << ")\n";
        }
      }
      body << "\n";
    }
  }
  const std::string b = body.str();
  if (b.empty()) return "";
  return "\n## Where each method wins\n\n"
         "Per dataset family (datasets that differ in size n or dimension d; results.json `datasets.*.family`) and "
         "ranked metric: "
         "the best private method of every (n, ε) and (d, ε) cell in **bold** where it is significantly better than "
         "every "
         "other private method of that column (the rank-sum test of the best median, Holm-adjusted over all such tests "
         "of its "
         "dataset and metric, 5%), else the best median in parentheses. The trivial baseline and the non-private "
         "methods do not compete. Time "
         "against n and d: `benchmark/<experiment>/time__<family>__n.png` and `time__<family>__d.png` "
         "(plots/benchmark_figures.py).\n" +
         b;
}

}  // namespace dpclust::report
