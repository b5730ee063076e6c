// The method comparison's tables; see comparison.hpp.
#include "report/comparison.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

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
  std::string series, method;
  bool baseline = false;  // the trivial baseline (role trivial_baseline; uniform_centres in older results)
  json params;            // without epsilon
  std::optional<double> epsilon;
  bool reference = false, local = false;
  const json* cell = nullptr;  // null for a skipped cell
  std::string skipped;
};

bool same_column(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return !a && !b;
  return std::fabs(*a - *b) <= 1e-12 * std::max(1.0, std::fabs(*b));
}

// The trials of a cell that failed: no value of the metric (an undefined value included: NaN is stored as null),
// no cluster found (n_clusters 0 when recorded), or, with a baseline median, a value no better than it in the
// metric's direction.
std::size_t count_failures(const json& cell, const std::string& metric, Better better,
                           std::optional<double> baseline_median) {
  const char* part = trial_part(cell, metric);
  if (!part || !cell.contains("trials") || !cell["trials"].is_array()) return 0;
  std::size_t failed = 0;
  for (const auto& t : cell["trials"]) {
    const json* v = t.contains(part) && t[part].is_object() && t[part].contains(metric) ? &t[part][metric] : nullptr;
    bool fail = !v || !v->is_number();
    if (!fail && t.contains("metrics") && t["metrics"].is_object() && t["metrics"].contains("n_clusters") &&
        t["metrics"]["n_clusters"].is_number())
      fail = t["metrics"]["n_clusters"].get<double>() == 0;
    if (!fail && baseline_median) fail = no_better_than(v->get<double>(), *baseline_median, better);
    failed += fail;
  }
  return failed;
}

// What a row was told of one input, as the comparison tells rows apart: "given 3" (a public value), "taken from
// the data: how" (flagged), or "not given" -- estimated privately (charged), set by a rule from the other
// public inputs, or not used -- which adds no information about the data beyond the public inputs. `detail`
// says which of the three "not given" kinds it is.
std::string side_class(const json* record, std::string* detail) {
  const std::string source = record ? text_of(*record, "source") : "";
  if (source == "public") {
    const json& v = record->contains("value") ? (*record)["value"] : json(nullptr);
    return "given" + (v.is_null() ? std::string(" (") + text_of(*record, "how") + ")"
                                  : " " + (v.is_string() ? v.get<std::string>() : v.dump()));
  }
  if (source == "data") return "taken from the data: " + text_of(*record, "how");
  *detail = source == "private" ? "estimated privately" : source == "rule" ? "a rule on the public inputs" : "not used";
  return "not given";
}

// The side-information differences between the comparable rows (private rows and the trivial baseline): per
// input, the distinct descriptions and their rows. A row outside the input's largest group is marked; when two
// or more groups are the largest (no majority to compare with), every row of the input is marked.
void compare_side_information(ComparisonTable& t) {
  std::vector<ComparisonRow*> rows;
  for (auto& r : t.rows) {
    if (r.role == RowRole::reference) continue;
    if (!r.side_information.is_array()) {
      t.side_not_recorded.push_back(r.label);
      continue;
    }
    rows.push_back(&r);
  }
  std::set<std::string> inputs;
  for (const ComparisonRow* r : rows)
    for (const auto& rec : r->side_information) inputs.insert(text_of(rec, "input"));
  for (const auto& input : inputs) {
    ComparisonTable::SideDifference diff;
    diff.input = input;
    std::vector<std::vector<std::pair<std::string, std::string>>> kinds_of;  // per group: (kind of "not given", row)
    for (ComparisonRow* r : rows) {
      const json* rec = nullptr;
      for (const auto& x : r->side_information)
        if (text_of(x, "input") == input) rec = &x;
      std::string detail;
      const std::string d = side_class(rec, &detail);
      auto g = std::find_if(diff.groups.begin(), diff.groups.end(), [&](const auto& x) { return x.description == d; });
      if (g == diff.groups.end()) {
        g = diff.groups.insert(diff.groups.end(), {d, {}, false});
        kinds_of.emplace_back();
      }
      g->rows.push_back(r->label);
      if (!detail.empty()) kinds_of[static_cast<std::size_t>(g - diff.groups.begin())].emplace_back(detail, r->label);
    }
    if (diff.groups.size() < 2) continue;
    std::size_t largest = 0, tied = 0;
    for (std::size_t i = 0; i < diff.groups.size(); ++i) {
      if (diff.groups[i].rows.size() > diff.groups[largest].rows.size()) largest = i, tied = 0;
      else if (i != largest && diff.groups[i].rows.size() == diff.groups[largest].rows.size()) ++tied;
    }
    for (std::size_t i = 0; i < diff.groups.size(); ++i)
      if (i != largest || tied > 0)
        for (ComparisonRow* r : rows)
          if (std::find(diff.groups[i].rows.begin(), diff.groups[i].rows.end(), r->label) !=
              diff.groups[i].rows.end()) {
            r->side_differs = true;
            diff.marked.push_back(r->label);
          }
    // A "not given" group says which kind each of its rows is: "not given (estimated privately: dpm; not used:
    // dp_kmeans)".
    for (std::size_t i = 0; i < diff.groups.size(); ++i) {
      if (kinds_of[i].empty()) continue;
      std::vector<std::pair<std::string, std::string>> kinds;  // kind -> its rows
      for (const auto& [kind, row] : kinds_of[i]) {
        auto k = std::find_if(kinds.begin(), kinds.end(), [&kind = kind](const auto& x) { return x.first == kind; });
        if (k == kinds.end()) kinds.push_back({kind, row});
        else k->second += ", " + row;
      }
      std::string text;
      for (const auto& [kind, names] : kinds) text += (text.empty() ? "" : "; ") + kind + ": " + names;
      diff.groups[i].description += " (" + text + ")";
      diff.groups[i].rows_in_description = true;
    }
    t.side_differences.push_back(std::move(diff));
  }
}

// The delta of every (eps, delta) row: a private row whose side information gives delta a public value. When the
// rows differ, the table lists each delta with its rows (a column of one epsilon then holds unlike guarantees).
void compare_deltas(ComparisonTable& t) {
  std::vector<ComparisonTable::SideGroup> groups;
  for (const auto& r : t.rows) {
    if (r.role != RowRole::private_method || !r.side_information.is_array()) continue;
    for (const auto& rec : r.side_information) {
      if (text_of(rec, "input") != "delta" || text_of(rec, "source") != "public" || !rec.contains("value") ||
          !rec["value"].is_number())
        continue;
      std::ostringstream v;
      v << rec["value"].get<double>();
      auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.description == v.str(); });
      if (g == groups.end()) g = groups.insert(groups.end(), {v.str(), {}, false});
      g->rows.push_back(r.label);
    }
  }
  if (groups.size() > 1) t.delta_groups = std::move(groups);
}

// A private row that gets worse with more epsilon: for every pair of its central epsilon columns i < j whose
// cells are ranked (two values at least), the one-sided rank-sum test of "the trials at epsilon_j are worse than
// those at epsilon_i" in the metric's direction; Holm over every pair of every private row of the table. A row
// with a significant pair is marked, with its pairs.
void check_monotonicity(ComparisonTable& t, double alpha) {
  if (t.traits.better == Better::none || t.axis != PrivacyAxis::central) return;
  struct Pair {
    std::size_t row, from, to;
    double p;
  };
  std::vector<Pair> pairs;
  for (std::size_t ri = 0; ri < t.rows.size(); ++ri) {
    const ComparisonRow& r = t.rows[ri];
    if (r.role != RowRole::private_method) continue;
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      for (std::size_t j = i + 1; j < r.cells.size(); ++j) {
        const auto &a = r.cells[i], &b = r.cells[j];
        if (!t.columns[i] || !t.columns[j] || !a || !b || a->skipped || b->skipped || !a->ranked || !b->ranked)
          continue;
        if (a->values.size() < 2 || b->values.size() < 2) continue;
        const auto test = rank_sum_test(b->values, a->values,
                                        t.traits.better == Better::higher ? Alternative::less : Alternative::greater);
        if (test) pairs.push_back({ri, i, j, test->p});
      }
  }
  std::vector<double> ps;
  for (const auto& x : pairs) ps.push_back(x.p);
  const std::vector<double> adj = holm_adjust(ps);
  t.decline_tests = pairs.size();
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (adj[k] < alpha) t.rows[pairs[k].row].declines.push_back({pairs[k].from, pairs[k].to, adj[k]});
  for (const auto& r : t.rows) t.declining_rows += !r.declines.empty();
}

// Is `reference` the counterpart run on the same public inputs as the private row: the parameters the private
// row's side information names as given (k = 3, alpha, min_pts, g, p) equal where the reference has them?
// Without a record (older results): k, alpha, min_pts, g and p.
bool compatible(const ComparisonRow& row, const json& reference) {
  std::vector<std::string> keys;
  if (row.side_information.is_array()) {
    for (const auto& rec : row.side_information)
      if (text_of(rec, "source") == "public" && rec.contains("params") && rec["params"].is_array())
        for (const auto& p : rec["params"])
          if (p.is_string()) keys.push_back(p.get<std::string>());
  } else {
    keys = {"k", "alpha", "min_pts", "g", "p"};
  }
  for (const auto& k : keys)
    if (row.params.contains(k) && reference.contains(k) && row.params[k] != reference[k]) return false;
  return true;
}

// The benchmark's part of a table: spread and failures of every cell, the tests against the trivial baseline
// and against each private row's non-private counterpart (two Holm families of their own), the side
// information compared between rows.
void annotate_benchmark(ComparisonTable& t, const std::vector<std::vector<const json*>>& cells_of,
                        const std::string& metric, double alpha) {
  const bool ranked = t.traits.better != Better::none;
  const std::size_t none_col = t.columns.empty() || t.columns.back() ? t.columns.size() : t.columns.size() - 1;
  const ComparisonCell* base = nullptr;
  for (std::size_t i = 0; i < t.rows.size() && !base; ++i)
    if (t.rows[i].role == RowRole::trivial_baseline && none_col < t.columns.size() && t.rows[i].cells[none_col] &&
        !t.rows[i].cells[none_col]->skipped && t.rows[i].cells[none_col]->ranked) {
      t.baseline_row = i;
      base = &*t.rows[i].cells[none_col];
    }
  const std::optional<double> base_median = base && ranked ? std::optional<double>(base->sample.median) : std::nullopt;
  std::vector<ComparisonCell*> base_tested, part_tested;
  std::vector<double> base_p, part_p;
  for (std::size_t ri = 0; ri < t.rows.size(); ++ri) {
    ComparisonRow& r = t.rows[ri];
    // The counterpart's row: the declared method, parameters agreeing on the keys both have.
    const ComparisonCell* part = nullptr;
    if (r.role == RowRole::private_method && !r.counterpart.empty() && none_col < t.columns.size())
      for (const auto& o : t.rows)
        if (o.role == RowRole::reference && o.method == r.counterpart && compatible(r, o.params) && o.cells[none_col] &&
            !o.cells[none_col]->skipped && o.cells[none_col]->ranked) {
          part = &*o.cells[none_col];
          r.counterpart_label = o.label;
          break;
        }
    for (std::size_t col = 0; col < r.cells.size(); ++col) {
      auto& c = r.cells[col];
      if (!c || c->skipped) continue;
      c->spread = spread(c->values);
      if (ranked && cells_of[ri][col] && ri != t.baseline_row) {
        c->failures = count_failures(*cells_of[ri][col], metric, t.traits.better,
                                     r.role == RowRole::private_method ? base_median : std::nullopt);
        c->failure_against_baseline = base_median && r.role == RowRole::private_method;
      }
      if (!ranked || r.role != RowRole::private_method || !c->ranked) continue;
      if (base) {
        c->baseline_tested = true;
        ++t.baseline_compared;
        c->vs_baseline = rank_sum_test(c->values, base->values);
        if (c->vs_baseline) {
          base_tested.push_back(&*c);
          base_p.push_back(c->vs_baseline->p);
        }
      }
      if (part) {
        c->counterpart_gap = c->sample.median - part->sample.median;
        c->vs_counterpart = rank_sum_test(c->values, part->values);
        if (c->vs_counterpart) {
          part_tested.push_back(&*c);
          part_p.push_back(c->vs_counterpart->p);
        }
      }
    }
  }
  const std::vector<double> base_adj = holm_adjust(base_p), part_adj = holm_adjust(part_p);
  for (std::size_t i = 0; i < base_tested.size(); ++i) base_tested[i]->baseline_p_holm = base_adj[i];
  for (std::size_t i = 0; i < part_tested.size(); ++i) {
    part_tested[i]->counterpart_p_holm = part_adj[i];
    part_tested[i]->counterpart_significant = part_adj[i] < alpha;
    t.counterpart_significant += part_tested[i]->counterpart_significant;
  }
  t.baseline_tests = base_tested.size();
  t.counterpart_tests = part_tested.size();
  if (base)
    for (auto& r : t.rows) {
      if (r.role != RowRole::private_method) continue;
      for (auto& c : r.cells) {
        if (!c || !c->baseline_tested) continue;
        const bool better = t.traits.better == Better::higher ? c->sample.median > base->sample.median
                                                              : c->sample.median < base->sample.median;
        c->beats_baseline = better && c->baseline_p_holm && *c->baseline_p_holm < alpha;
        t.below_baseline += !c->beats_baseline;
      }
    }
  compare_side_information(t);
  compare_deltas(t);
  check_monotonicity(t, alpha);
}

// The results' cells (and the records of skipped ones) as entries, by dataset, in the order the results name the
// datasets.
struct Entries {
  std::vector<std::string> datasets;
  std::map<std::string, std::vector<Entry>> by_dataset;
};

Entries collect_entries(const json& results_of_cells) {
  const json& cells = results_of_cells["cells"];
  Entries out;
  std::vector<std::string>& datasets = out.datasets;
  std::map<std::string, std::vector<Entry>>& entries = out.by_dataset;
  std::map<std::string, bool> local_series;  // series seen with a local privacy measure
  for (const auto& c : cells) {
    if (!c.is_object()) continue;
    if ((c.contains("skipped") && c["skipped"].is_object()) || text_of(c, "status") == "skipped") continue;  // below
    Entry e;
    e.series = text_of(c, "series");
    e.method = text_of(c, "method");
    if (e.series.empty()) e.series = e.method;
    const std::string role = text_of(c, "role");
    e.baseline = role == "trivial_baseline" || (role.empty() && e.method == "uniform_centres");
    const std::string ds = text_of(c, "dataset");
    const json params = c.value("params", json::object());
    e.epsilon = epsilon_of(params);
    e.params = without_epsilon(params);
    // Results written before `private` existed: a cell with an epsilon is taken as private.
    const bool priv =
        c.contains("private") && c["private"].is_boolean() ? c["private"].get<bool>() : e.epsilon.has_value();
    if (!priv || e.baseline) e.epsilon.reset();  // a non-private method's epsilon, if any, is not a privacy level
    e.reference = !priv || e.baseline;           // the baseline (0-DP, no epsilon) sits in the no-epsilon column
    e.local = priv && c.contains("privacy_spent") && c["privacy_spent"].is_object() &&
              text_of(c["privacy_spent"], "measure") == "local";
    if (e.local) local_series[e.series] = true;
    e.cell = &c;
    if (!entries.count(ds)) datasets.push_back(ds);
    entries[ds].push_back(std::move(e));
  }
  for (auto& s : skipped_cells(results_of_cells)) {
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
  return out;
}

// The entries of a table: its axis's private cells and every reference; a results cell only when it holds the
// metric (a metric may apply to some methods only, e.g. DSG_C). has_private: whether a private one is among them.
std::vector<const Entry*> table_entries(const std::vector<Entry>& es, const std::string& metric, PrivacyAxis axis,
                                        bool& has_private) {
  std::vector<const Entry*> in;
  has_private = false;
  for (const auto& e : es) {
    if (!e.reference && e.local != (axis == PrivacyAxis::local)) continue;
    if (e.cell && !statistic(*e.cell, metric)) continue;
    if (e.cell && !trial_part(*e.cell, metric)) continue;
    in.push_back(&e);
    has_private = has_private || !e.reference;
  }
  return in;
}

// Columns: the epsilons ascending, then "no epsilon".
void add_columns(ComparisonTable& t, const std::vector<const Entry*>& in) {
  std::vector<double> eps;
  bool none_column = false;
  for (const Entry* e : in) {
    if (!e->epsilon) none_column = true;
    else if (std::none_of(eps.begin(), eps.end(), [&](double x) { return same_column(x, e->epsilon); }))
      eps.push_back(*e->epsilon);
  }
  std::sort(eps.begin(), eps.end());
  for (double x : eps) t.columns.emplace_back(x);
  if (none_column) t.columns.emplace_back(std::nullopt);
}

// One entry's cell of a table: its trials' values of the metric and their summary, or the reason it was skipped.
ComparisonCell table_cell(const Entry& entry, ComparisonTable& t, const std::string& metric) {
  const Entry* e = &entry;
  ComparisonCell cc;
  if (e->cell) {
    cc.values = trial_values(*e->cell, metric);
    cc.trials =
        e->cell->contains("trials") && (*e->cell)["trials"].is_array() ? (*e->cell)["trials"].size() : cc.values.size();
    cc.sample = summarize(cc.values, t.traits);
    cc.ranked = cc.sample.n > 0 && 2 * cc.sample.n >= cc.trials;
    t.unranked_cells += !cc.ranked;
    if (!e->reference && e->cell->contains("non_private") && (*e->cell)["non_private"].is_array())
      for (const auto& note : (*e->cell)["non_private"])
        if (note.is_string()) cc.not_private.push_back(note.get<std::string>());
  } else {
    cc.skipped = e->skipped;
  }
  return cc;
}

// Rows: one per (series, parameters without epsilon); private rows first, references last. cells_of: the results
// cell behind each row's cell.
std::vector<std::vector<const json*>> add_rows(ComparisonTable& t, const std::vector<const Entry*>& in,
                                               const std::string& metric) {
  std::vector<std::vector<const json*>> cells_of;
  for (bool ref : {false, true}) {
    for (const Entry* e : in) {
      if (e->reference != ref) continue;
      auto row = std::find_if(t.rows.begin(), t.rows.end(),
                              [&](const ComparisonRow& r) { return r.series == e->series && r.params == e->params; });
      if (row == t.rows.end()) {
        ComparisonRow r;
        r.series = e->series;
        r.method = e->method;
        r.reference = e->reference;
        r.role = e->baseline ? RowRole::trivial_baseline : e->reference ? RowRole::reference : RowRole::private_method;
        r.params = e->params;
        r.cells.resize(t.columns.size());
        t.rows.push_back(std::move(r));
        cells_of.emplace_back(t.columns.size(), nullptr);
        row = t.rows.end() - 1;
      }
      if (e->cell) {
        if (row->counterpart.empty()) row->counterpart = text_of(*e->cell, "counterpart");
        if (row->side_information.is_null() && e->cell->contains("side_information"))
          row->side_information = (*e->cell)["side_information"];
        if (row->oracle.empty() && e->cell->contains("tuning") && (*e->cell)["tuning"].is_object() &&
            (*e->cell)["tuning"].value("oracle", false) && (*e->cell)["tuning"].contains("reasons"))
          for (const auto& why : (*e->cell)["tuning"]["reasons"])
            if (why.is_string()) row->oracle.push_back(why.get<std::string>());
      }
      const std::size_t col = static_cast<std::size_t>(
          std::find_if(t.columns.begin(), t.columns.end(),
                       [&](const std::optional<double>& c) { return same_column(c, e->epsilon); }) -
          t.columns.begin());
      if (row->cells[col] && !e->cell) continue;  // a cell that ran wins over a skipped record of it
      if (e->cell) cells_of[static_cast<std::size_t>(row - t.rows.begin())][col] = e->cell;
      row->cells[col] = table_cell(*e, t, metric);
    }
  }
  return cells_of;
}

// Labels: the series, with the parameters that differ between its rows in this table; and the radii of a local
// table's private rows.
void label_rows(ComparisonTable& t, PrivacyAxis axis) {
  for (auto& r : t.rows) {
    std::vector<std::string> differ;
    for (const auto& o : t.rows) {
      if (&o == &r || o.series != r.series) continue;
      for (const auto& [k, v] : r.params.items())
        if ((!o.params.contains(k) || o.params[k] != v) && std::find(differ.begin(), differ.end(), k) == differ.end())
          differ.push_back(k);
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
}

// Best median of each column among the ranked cells, and the rank-sum tests against it (Holm-adjusted).
void test_against_best(ComparisonTable& t, double alpha) {
  if (t.traits.better != Better::none) {
    std::vector<ComparisonCell*> tested;
    std::vector<double> ps;
    for (std::size_t col = 0; col < t.columns.size(); ++col) {
      ComparisonCell* best = nullptr;
      for (auto& r : t.rows) {
        auto& c = r.cells[col];
        if (!c || c->skipped || !c->ranked) continue;
        const bool better = !best || (t.traits.better == Better::higher ? c->sample.median > best->sample.median
                                                                        : c->sample.median < best->sample.median);
        if (better) best = &*c;
      }
      if (!best) continue;
      for (auto& r : t.rows) {
        auto& c = r.cells[col];
        if (!c || c->skipped || !c->ranked) continue;
        if (c->sample.median == best->sample.median) {
          c->best = true;
          continue;
        }
        c->test = rank_sum_test(best->values, c->values);
        if (c->test) {
          tested.push_back(&*c);
          ps.push_back(c->test->p);
        }
      }
    }
    const std::vector<double> adj = holm_adjust(ps);
    for (std::size_t i = 0; i < tested.size(); ++i) {
      tested[i]->p_holm = adj[i];
      tested[i]->significant = adj[i] < alpha;
      t.significant += tested[i]->significant;
    }
    t.tests = tested.size();
  }
}

// One table: a dataset's entries for one metric on one privacy axis (nullopt when nothing belongs in it).
std::optional<ComparisonTable> one_table(const std::string& experiment, const std::string& ds,
                                         const std::vector<Entry>& es, const std::string& metric, PrivacyAxis axis,
                                         const ComparisonOptions& opts) {
  ComparisonTable t;
  t.experiment = experiment;
  t.dataset = ds;
  t.metric = metric;
  t.axis = axis;
  t.traits = metric_traits(metric);
  bool has_private = false;
  const std::vector<const Entry*> in = table_entries(es, metric, axis, has_private);
  if (in.empty() || (axis == PrivacyAxis::local && !has_private)) return std::nullopt;
  add_columns(t, in);
  const std::vector<std::vector<const json*>> cells_of = add_rows(t, in, metric);
  label_rows(t, axis);
  test_against_best(t, opts.alpha);
  annotate_benchmark(t, cells_of, metric, opts.alpha);
  return t;
}

}  // namespace comparison_detail

const char* to_string(PrivacyAxis a) { return a == PrivacyAxis::local ? "local" : "central"; }

std::string figure_name_part(const std::string& name) {
  std::string out;
  for (char c : name)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
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
      if (c.is_object() && ((c.contains("skipped") && c["skipped"].is_object()) || text_of(c, "status") == "skipped"))
        add(c);
  return out;
}

std::vector<ComparisonTable> compare_methods(const std::string& experiment, const json& results,
                                             const ComparisonOptions& opts) {
  using namespace comparison_detail;
  std::vector<ComparisonTable> tables;
  auto cells_it = results.find("cells");
  if (cells_it == results.end() || !cells_it->is_array()) return tables;
  const Entries entries = collect_entries(results);
  for (const auto& ds : entries.datasets) {
    const auto& es = entries.by_dataset.at(ds);
    std::set<std::string> metrics;
    for (const auto& e : es)
      if (e.cell && e.cell->contains("aggregates") && (*e.cell)["aggregates"].is_object())
        for (const auto& [m, _] : (*e.cell)["aggregates"].items()) metrics.insert(m);
    bool any_local = false;
    for (const auto& e : es) any_local = any_local || e.local;
    for (const auto& metric : metrics)
      for (PrivacyAxis axis : {PrivacyAxis::central, PrivacyAxis::local}) {
        if (axis == PrivacyAxis::local && !any_local) continue;
        if (auto t = one_table(experiment, ds, es, metric, axis, opts)) tables.push_back(std::move(*t));
      }
  }
  return tables;
}

}  // namespace dpclust::report
