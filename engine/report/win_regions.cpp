// The win regions; see win_regions.hpp.
#include "report/win_regions.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace dpclust::report {
using json = nlohmann::json;

std::vector<std::optional<WinCell>> column_winners(const ComparisonTable& t, double alpha) {
  std::vector<std::optional<WinCell>> out(t.columns.size());
  if (t.traits.better == Better::none) return out;
  struct Test {
    std::size_t col;
    double p;
  };
  std::vector<Test> tests;
  std::vector<const ComparisonRow*> best_of(t.columns.size(), nullptr);
  std::vector<bool> untestable(t.columns.size(), false);
  for (std::size_t col = 0; col < t.columns.size(); ++col) {
    if (!t.columns[col]) continue;  // the no-epsilon column: references and the baseline only
    std::vector<const ComparisonRow*> rows;
    for (const auto& r : t.rows)
      if (r.role == RowRole::private_method && r.cells[col] && !r.cells[col]->skipped && r.cells[col]->ranked)
        rows.push_back(&r);
    if (rows.empty()) continue;
    const ComparisonRow* best = rows.front();
    for (const ComparisonRow* r : rows) {
      const double m = r->cells[col]->sample.median, b = best->cells[col]->sample.median;
      if (t.traits.better == Better::higher ? m > b : m < b) best = r;
    }
    WinCell w;
    w.best = best->label;
    w.competitors = rows.size();
    out[col] = w;
    best_of[col] = best;
    if (rows.size() < 2) {
      untestable[col] = true;  // nothing to beat: no winner by significance
      continue;
    }
    for (const ComparisonRow* r : rows) {
      if (r == best) continue;
      if (r->cells[col]->sample.median == best->cells[col]->sample.median) {
        untestable[col] = true;  // a tie
        continue;
      }
      const auto wt = rank_sum_test(best->cells[col]->values, r->cells[col]->values);
      if (!wt) {
        untestable[col] = true;  // n < 2 on one side
        continue;
      }
      tests.push_back({col, wt->p});
    }
  }
  std::vector<double> ps;
  for (const auto& x : tests) ps.push_back(x.p);
  const std::vector<double> adj = holm_adjust(ps);
  std::vector<bool> all_reject(t.columns.size(), true);
  for (std::size_t i = 0; i < tests.size(); ++i)
    if (!(adj[i] < alpha)) all_reject[tests[i].col] = false;
  for (std::size_t col = 0; col < t.columns.size(); ++col)
    if (out[col]) out[col]->significant = !untestable[col] && all_reject[col] && out[col]->competitors >= 2;
  return out;
}

std::vector<WinTable> win_regions(const json& results, const std::vector<ComparisonTable>& tables, double alpha) {
  std::vector<WinTable> out;
  const json datasets = results.is_object() && results.contains("datasets") && results["datasets"].is_object()
                            ? results["datasets"]
                            : json::object();
  auto family_of = [&](const std::string& ds) {
    if (datasets.contains(ds) && datasets[ds].is_object()) {
      const json& d = datasets[ds];
      if (d.contains("family") && d["family"].is_string()) return d["family"].get<std::string>();
      if (d.contains("provenance") && d["provenance"].is_object() && d["provenance"].contains("generator") &&
          d["provenance"]["generator"].is_object() && d["provenance"]["generator"].contains("type") &&
          d["provenance"]["generator"]["type"].is_string())
        return d["provenance"]["generator"]["type"].get<std::string>();
    }
    return ds;
  };
  auto size_of = [&](const std::string& ds, const char* key) -> std::uint64_t {
    if (datasets.contains(ds) && datasets[ds].is_object() && datasets[ds].contains(key) &&
        datasets[ds][key].is_number())
      return static_cast<std::uint64_t>(datasets[ds][key].get<double>());
    return 0;
  };
  // (family, metric) -> the tables of its datasets, in the results' order.
  std::vector<std::pair<std::string, std::string>> keys;
  std::map<std::pair<std::string, std::string>, std::vector<const ComparisonTable*>> groups;
  std::string experiment;
  for (const auto& t : tables) {
    if (t.axis != PrivacyAxis::central || t.traits.better == Better::none) continue;
    experiment = t.experiment;
    const auto key = std::make_pair(family_of(t.dataset), t.metric);
    if (!groups.count(key)) keys.push_back(key);
    groups[key].push_back(&t);
  }
  for (const auto& key : keys) {
    const auto& ts = groups[key];
    std::set<std::uint64_t> ns, ds;
    std::set<double> eps;
    for (const ComparisonTable* t : ts) {
      ns.insert(size_of(t->dataset, "n"));
      ds.insert(size_of(t->dataset, "d"));
      for (const auto& c : t->columns)
        if (c) eps.insert(*c);
    }
    for (const char* axis : {"n", "d"}) {
      if ((axis[0] == 'n' ? ns.size() : ds.size()) < 2) continue;
      WinTable w;
      w.experiment = experiment;
      w.family = key.first;
      w.metric = key.second;
      w.axis = axis;
      w.epsilons.assign(eps.begin(), eps.end());
      for (const ComparisonTable* t : ts) {
        WinRow r;
        r.dataset = t->dataset;
        r.n = size_of(t->dataset, "n");
        r.d = size_of(t->dataset, "d");
        r.cells.resize(w.epsilons.size());
        const auto winners = column_winners(*t, alpha);
        for (std::size_t col = 0; col < t->columns.size(); ++col) {
          if (!t->columns[col]) continue;
          const auto at = std::find_if(w.epsilons.begin(), w.epsilons.end(), [&](double e) {
            return std::fabs(e - *t->columns[col]) <= 1e-12 * std::max(1.0, e);
          });
          if (at != w.epsilons.end()) r.cells[static_cast<std::size_t>(at - w.epsilons.begin())] = winners[col];
        }
        w.rows.push_back(std::move(r));
      }
      const bool by_n = w.axis == "n";
      std::stable_sort(w.rows.begin(), w.rows.end(), [&](const WinRow& a, const WinRow& b) {
        return by_n ? std::tie(a.n, a.d) < std::tie(b.n, b.d) : std::tie(a.d, a.n) < std::tie(b.d, b.n);
      });
      out.push_back(std::move(w));
    }
  }
  return out;
}

}  // namespace dpclust::report
