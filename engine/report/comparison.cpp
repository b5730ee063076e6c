// The method comparison's tables; see comparison.hpp.
#include "report/comparison.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "report/results_index.hpp"

namespace dpclust::report {
using json = nlohmann::json;

// Named (not anonymous): the report room is a unity build, and another file's file-local helper of
// the same name would clash in the shared translation unit.
namespace comparison_detail {

std::string text_of(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<double> epsilon_of(const json& params) {
  auto it = params.find("epsilon");
  if (it == params.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

json without_epsilon(const json& params) {
  json p = params.is_object() ? params : json::object();
  p.erase("epsilon");
  return p;
}

// "a=1, b=x" of the parameters listed (string values unquoted).
std::string param_text(const json& params, const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) {
    auto it = params.find(n);
    std::string v = it == params.end() ? "-" : it->is_string() ? it->get<std::string>() : it->dump();
    out += (out.empty() ? "" : ", ") + n + "=" + v;
  }
  return out;
}

struct Entry {  // one results cell (or skipped cell) placed in a table
  std::string series;
  json params;  // without epsilon
  std::optional<double> epsilon;
  bool reference = false, local = false;
  const json* cell = nullptr;  // null for a skipped cell
  std::string skipped;
};

bool same_column(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return !a && !b;
  return std::fabs(*a - *b) <= 1e-12 * std::max(1.0, std::fabs(*b));
}

}  // namespace comparison_detail

const char* to_string(PrivacyAxis a) { return a == PrivacyAxis::local ? "local" : "central"; }

std::string figure_name_part(const std::string& name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  return out.empty() ? "_" : out;
}

std::vector<SkippedCell> skipped_cells(const json& experiment) {
  using comparison_detail::text_of;
  std::vector<SkippedCell> out;
  auto add = [&](const json& e) {
    SkippedCell s;
    s.dataset = text_of(e, "dataset");
    s.series = text_of(e, "series");
    if (s.series.empty()) s.series = text_of(e, "method");
    if (auto p = e.find("params"); p != e.end() && p->is_object()) s.params = *p;
    const json* why = &e;
    if (auto k = e.find("skipped"); k != e.end() && k->is_object()) why = &*k;
    s.reason = text_of(*why, "reason");
    s.fix = text_of(*why, "fix");
    if (s.reason.empty()) s.reason = "no reason recorded";
    if (!s.dataset.empty() && !s.series.empty()) out.push_back(std::move(s));
  };
  if (auto it = experiment.find("skipped_cells"); it != experiment.end() && it->is_array())
    for (const auto& e : *it)
      if (e.is_object()) add(e);
  if (auto it = experiment.find("cells"); it != experiment.end() && it->is_array())
    for (const auto& c : *it)
      if (c.is_object() && ((c.contains("skipped") && c["skipped"].is_object()) || text_of(c, "status") == "skipped")) add(c);
  return out;
}

std::vector<ComparisonTable> compare_methods(const std::string& experiment, const json& results, const ComparisonOptions& opts) {
  using namespace comparison_detail;
  std::vector<ComparisonTable> tables;
  auto cells_it = results.find("cells");
  if (cells_it == results.end() || !cells_it->is_array()) return tables;

  // Entries by dataset, in the order the results name the datasets.
  std::vector<std::string> datasets;
  std::map<std::string, std::vector<Entry>> entries;
  std::map<std::string, bool> local_series;  // series seen with a local privacy measure
  for (const auto& c : *cells_it) {
    if (!c.is_object()) continue;
    if ((c.contains("skipped") && c["skipped"].is_object()) || text_of(c, "status") == "skipped") continue;  // below
    Entry e;
    e.series = text_of(c, "series");
    if (e.series.empty()) e.series = text_of(c, "method");
    const std::string ds = text_of(c, "dataset");
    const json params = c.value("params", json::object());
    e.epsilon = epsilon_of(params);
    e.params = without_epsilon(params);
    // Results written before `private` existed: a cell with an epsilon is taken as private.
    const bool priv = c.contains("private") && c["private"].is_boolean() ? c["private"].get<bool>() : e.epsilon.has_value();
    if (!priv) e.epsilon.reset();  // a non-private method's epsilon, if any, is not a privacy level
    e.reference = !priv;
    e.local = priv && c.contains("privacy_spent") && c["privacy_spent"].is_object() && text_of(c["privacy_spent"], "measure") == "local";
    if (e.local) local_series[e.series] = true;
    e.cell = &c;
    if (!entries.count(ds)) datasets.push_back(ds);
    entries[ds].push_back(std::move(e));
  }
  for (auto& s : skipped_cells(results)) {
    Entry e;
    e.series = s.series;
    e.epsilon = epsilon_of(s.params);
    e.params = without_epsilon(s.params);
    e.reference = !e.epsilon;
    e.local = local_series.count(s.series) > 0;  // the measure of a cell that never ran is its series' measure
    e.skipped = s.reason + (s.fix.empty() ? "" : " (fix: " + s.fix + ")");
    if (!entries.count(s.dataset)) datasets.push_back(s.dataset);
    entries[s.dataset].push_back(std::move(e));
  }

  for (const auto& ds : datasets) {
    const auto& es = entries[ds];
    std::set<std::string> metrics;
    for (const auto& e : es)
      if (e.cell && e.cell->contains("aggregates") && (*e.cell)["aggregates"].is_object())
        for (const auto& [m, _] : (*e.cell)["aggregates"].items()) metrics.insert(m);
    bool any_local = false;
    for (const auto& e : es) any_local = any_local || e.local;
    for (const auto& metric : metrics) {
      for (PrivacyAxis axis : {PrivacyAxis::central, PrivacyAxis::local}) {
        if (axis == PrivacyAxis::local && !any_local) continue;
        ComparisonTable t;
        t.experiment = experiment;
        t.dataset = ds;
        t.metric = metric;
        t.axis = axis;
        t.traits = metric_traits(metric);
        // The entries of this table: its axis's private cells and every reference; a results cell
        // only when it holds the metric (a metric may apply to some methods only, e.g. DSG_C).
        std::vector<const Entry*> in;
        bool has_private = false;
        for (const auto& e : es) {
          if (!e.reference && e.local != (axis == PrivacyAxis::local)) continue;
          if (e.cell && !statistic(*e.cell, metric)) continue;
          if (e.cell && !trial_part(*e.cell, metric)) continue;
          in.push_back(&e);
          has_private = has_private || !e.reference;
        }
        if (in.empty() || (axis == PrivacyAxis::local && !has_private)) continue;
        // Columns: the epsilons ascending, then "no epsilon".
        std::vector<double> eps;
        bool none_column = false;
        for (const Entry* e : in) {
          if (!e->epsilon) none_column = true;
          else if (std::none_of(eps.begin(), eps.end(), [&](double x) { return same_column(x, e->epsilon); })) eps.push_back(*e->epsilon);
        }
        std::sort(eps.begin(), eps.end());
        for (double x : eps) t.columns.emplace_back(x);
        if (none_column) t.columns.emplace_back(std::nullopt);
        // Rows: one per (series, parameters without epsilon); private rows first, references last.
        for (bool ref : {false, true}) {
          for (const Entry* e : in) {
            if (e->reference != ref) continue;
            auto row = std::find_if(t.rows.begin(), t.rows.end(), [&](const ComparisonRow& r) { return r.series == e->series && r.params == e->params; });
            if (row == t.rows.end()) {
              ComparisonRow r;
              r.series = e->series;
              r.reference = e->reference;
              r.params = e->params;
              r.cells.resize(t.columns.size());
              t.rows.push_back(std::move(r));
              row = t.rows.end() - 1;
            }
            const std::size_t col = static_cast<std::size_t>(
                std::find_if(t.columns.begin(), t.columns.end(), [&](const std::optional<double>& c) { return same_column(c, e->epsilon); }) - t.columns.begin());
            if (row->cells[col] && !e->cell) continue;  // a cell that ran wins over a skipped record of it
            ComparisonCell cc;
            if (e->cell) {
              cc.values = trial_values(*e->cell, metric);
              cc.trials = e->cell->contains("trials") && (*e->cell)["trials"].is_array() ? (*e->cell)["trials"].size() : cc.values.size();
              cc.sample = summarize(cc.values, t.traits);
              if (!e->reference && e->cell->contains("non_private") && (*e->cell)["non_private"].is_array())
                for (const auto& note : (*e->cell)["non_private"])
                  if (note.is_string()) cc.not_private.push_back(note.get<std::string>());
            } else {
              cc.skipped = e->skipped;
            }
            row->cells[col] = std::move(cc);
          }
        }
        // Labels: the series, with the parameters that differ between its rows in this table.
        for (auto& r : t.rows) {
          std::vector<std::string> differ;
          for (const auto& o : t.rows) {
            if (&o == &r || o.series != r.series) continue;
            for (const auto& [k, v] : r.params.items())
              if ((!o.params.contains(k) || o.params[k] != v) && std::find(differ.begin(), differ.end(), k) == differ.end()) differ.push_back(k);
            for (const auto& [k, v] : o.params.items())
              if (!r.params.contains(k) && std::find(differ.begin(), differ.end(), k) == differ.end()) differ.push_back(k);
          }
          std::sort(differ.begin(), differ.end());
          r.label = r.series + (differ.empty() ? "" : " (" + param_text(r.params, differ) + ")");
          if (axis == PrivacyAxis::local && !r.reference) {
            auto rad = r.params.find("radius");
            const double radius = rad != r.params.end() && rad->is_number() ? rad->get<double>() : 1.0;
            if (std::find(t.radii.begin(), t.radii.end(), radius) == t.radii.end()) t.radii.push_back(radius);
          }
        }
        std::sort(t.radii.begin(), t.radii.end());
        // Best of each column and the tests against it.
        if (t.traits.better != Better::none) {
          std::vector<ComparisonCell*> tested;
          std::vector<double> ps;
          for (std::size_t col = 0; col < t.columns.size(); ++col) {
            ComparisonCell* best = nullptr;
            for (auto& r : t.rows) {
              auto& c = r.cells[col];
              if (!c || c->skipped || c->sample.n == 0) continue;
              const bool better = !best || (t.traits.better == Better::higher ? c->sample.mean > best->sample.mean : c->sample.mean < best->sample.mean);
              if (better) best = &*c;
            }
            if (!best) continue;
            for (auto& r : t.rows) {
              auto& c = r.cells[col];
              if (!c || c->skipped || c->sample.n == 0) continue;
              if (c->sample.mean == best->sample.mean) {
                c->best = true;
                continue;
              }
              c->test = welch_test(best->values, c->values);
              if (c->test) {
                tested.push_back(&*c);
                ps.push_back(c->test->p);
              }
            }
          }
          const std::vector<double> adj = holm_adjust(ps);
          for (std::size_t i = 0; i < tested.size(); ++i) {
            tested[i]->p_holm = adj[i];
            tested[i]->significant = adj[i] < opts.alpha;
            t.significant += tested[i]->significant;
          }
          t.tests = tested.size();
        }
        tables.push_back(std::move(t));
      }
    }
  }
  return tables;
}

}  // namespace dpclust::report
