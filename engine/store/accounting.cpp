#include "store/accounting.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace dpclust {
using json = nlohmann::json;

namespace {

constexpr const char* kMeaning =
    "Sequential composition (basic: the epsilons add up, and the deltas) of every trial of every cell of this file, per "
    "dataset: each trial is a separate release computed on the same records, so a reader of the whole file learns about "
    "one record at most what these totals allow. Central notions of one neighbouring relation are summed into "
    "(epsilon, delta)-DP (pure entries have delta 0); local guarantees (per record, per unit distance) and other "
    "relations are listed apart and never added to them; non-private methods spend nothing private and are listed "
    "apart, since no total bounds what they reveal. The totals count the ledgers only: whether each release is "
    "private is said by its cell's non_private notes.";
constexpr const char* kNonPrivateNote =
    "the method is not differentially private: it spends no privacy budget, and its output carries no guarantee that a "
    "total could bound";

double number_or(const json& obj, const char* key, double fallback) {
  const auto it = obj.find(key);
  return it != obj.end() && it->is_number() ? it->get<double>() : fallback;
}

// The notion of an entry in words, as core/method.cpp privacy_notion says it of a method.
std::string notion_of(const std::string& measure, const std::string& relation) {
  if (measure == "local") return "eps-geo-indistinguishability (local: per record, eps per unit distance)";
  const std::string rel = relation == "replace_one" ? "replace one record" : "add/remove one record";
  return (measure == "approximate" ? "(eps, delta)-DP (" : "eps-DP (") + rel + ")";
}

// One group of a sum: the spend of the trials of one notion.
struct Sum {
  double epsilon = 0, delta = 0;
  std::uint64_t trials = 0, uncalibrated = 0;
  std::set<std::uint64_t> cells;  // indexes into the cell list
  void add(const json& spent, std::uint64_t cell) {
    epsilon += spent["epsilon"].get<double>();
    delta += number_or(spent, "delta", 0.0);
    ++trials;
    if (!spent.value("calibrated", true)) ++uncalibrated;
    cells.insert(cell);
  }
};

}  // namespace

json trial_privacy_spent(const json& ledger) {
  if (!ledger.is_object()) throw std::logic_error("trial_privacy_spent: a ledger is a JSON object");
  if (!ledger.value("private", false)) return json{{"private", false}};
  const double delta_total = number_or(ledger, "delta_total", 0.0);
  // Ledgers written before the typed entries have no measure or relation: pure unless they carry a delta,
  // under the harness default relation (core/ledger.hpp).
  const std::string measure = ledger.contains("measure") ? ledger["measure"].get<std::string>() : delta_total > 0 ? "approximate" : "pure";
  const std::string relation = ledger.value("relation", std::string("add_remove"));
  // What was spent: the configured total plus any declared excess, which BudgetLedger::verify checked the
  // entries add up to (relative tolerance 1e-9). The totals rather than the sum of the entries, so that a
  // budget split into parts (eps / T per iteration) counts exactly as configured; a ledger without totals
  // is counted by its entries.
  double epsilon = 0, delta = 0;
  if (ledger.contains("epsilon_total")) {
    epsilon = number_or(ledger, "epsilon_total", 0.0) + number_or(ledger, "epsilon_excess", 0.0);
    delta = delta_total;
  } else if (ledger.contains("steps") && ledger["steps"].is_array()) {
    for (const auto& s : ledger["steps"]) {
      epsilon += number_or(s, "epsilon", 0.0);
      delta += number_or(s, "delta", 0.0);
    }
  }
  json out{{"private", true}, {"measure", measure}, {"relation", relation}, {"notion", notion_of(measure, relation)}, {"epsilon", epsilon}};
  if (delta > 0) out["delta"] = delta;
  if (ledger.contains("epsilon_excess")) out["epsilon_excess"] = ledger["epsilon_excess"];
  if (number_or(ledger, "noise_scale", 1.0) != 1.0) out["calibrated"] = false;
  return out;
}

json cell_privacy_spent(const json& cell) {
  const json& trials = cell.at("trials");
  std::vector<json> spent;
  for (const auto& t : trials) spent.push_back(trial_privacy_spent(t.contains("ledger") ? t["ledger"] : json::object()));
  bool any_private = false;
  for (const auto& s : spent) any_private = any_private || s["private"].get<bool>();
  if (!any_private)
    return json{{"private", false}, {"trials", trials.size()}, {"epsilon", 0.0}, {"note", kNonPrivateNote}};
  // One method, one parameter set: every trial's ledger has the same measure and relation.
  const json& first = spent.front();
  Sum sum;
  bool uniform = true;
  for (const auto& s : spent) {
    if (!s["private"].get<bool>() || s["measure"] != first["measure"] || s["relation"] != first["relation"])
      throw std::logic_error("cell_privacy_spent: the trials of cell '" + cell.value("id", std::string("?")) + "' have ledgers of different notions");
    uniform = uniform && s["epsilon"] == first["epsilon"] && s.value("delta", 0.0) == first.value("delta", 0.0);
    sum.add(s, 0);
  }
  json out{{"private", true},         {"measure", first["measure"]}, {"relation", first["relation"]},
           {"notion", first["notion"]}, {"trials", sum.trials},       {"epsilon", sum.epsilon}};
  if (uniform) out["epsilon_per_trial"] = first["epsilon"];
  if (sum.delta > 0) {
    out["delta"] = sum.delta;
    if (uniform) out["delta_per_trial"] = first["delta"];
  }
  if (first.contains("epsilon_excess")) out["includes_declared_excess"] = true;
  if (sum.uncalibrated > 0) out["uncalibrated_trials"] = sum.uncalibrated;
  return out;
}

json privacy_accounting(const json& cells) {
  struct Dataset {
    std::map<std::tuple<std::string, std::string>, Sum> by_notion;  // (measure, relation)
    std::map<std::string, Sum> central;                              // by relation
    Sum local;
    Sum non_private;
    std::set<std::string> non_private_series;
    std::uint64_t uncalibrated = 0;
  };
  std::map<std::string, Dataset> datasets;
  for (std::uint64_t i = 0; i < cells.size(); ++i) {
    const json& cell = cells[i];
    Dataset& ds = datasets[cell.at("dataset").get<std::string>()];
    for (const auto& t : cell.at("trials")) {
      const json spent = trial_privacy_spent(t.contains("ledger") ? t["ledger"] : json::object());
      if (!spent["private"].get<bool>()) {
        ds.non_private.add(json{{"epsilon", 0.0}}, i);
        ds.non_private_series.insert(cell.value("series", cell.value("method", std::string("?"))));
        continue;
      }
      const std::string measure = spent["measure"], relation = spent["relation"];
      ds.by_notion[{measure, relation}].add(spent, i);
      if (measure == "local") ds.local.add(spent, i);
      else ds.central[relation].add(spent, i);
      if (!spent.value("calibrated", true)) ++ds.uncalibrated;
    }
  }
  json out_datasets = json::object();
  for (const auto& [name, ds] : datasets) {
    json d;
    std::set<std::uint64_t> private_cells;
    std::uint64_t private_trials = 0;
    json notions = json::array();
    for (const auto& [key, s] : ds.by_notion) {
      const auto& [measure, relation] = key;
      json n{{"measure", measure}, {"relation", relation}, {"notion", notion_of(measure, relation)},
             {"cells", s.cells.size()}, {"trials", s.trials}, {"epsilon", s.epsilon}};
      if (s.delta > 0) n["delta"] = s.delta;
      notions.push_back(std::move(n));
      private_cells.insert(s.cells.begin(), s.cells.end());
      private_trials += s.trials;
    }
    d["private_cells"] = private_cells.size();
    d["private_trials"] = private_trials;
    d["notions"] = std::move(notions);
    // The central guarantee of the whole file on this dataset, per neighbouring relation: pure and
    // approximate entries compose into (sum eps, sum delta)-DP.
    json central = json::array();
    for (const auto& [relation, s] : ds.central) {
      json c{{"relation", relation}, {"guarantee", notion_of(s.delta > 0 ? "approximate" : "pure", relation)},
             {"cells", s.cells.size()}, {"trials", s.trials}, {"epsilon", s.epsilon}, {"delta", s.delta}};
      central.push_back(std::move(c));
    }
    d["central"] = std::move(central);
    if (ds.local.trials > 0)
      d["local"] = {{"guarantee", notion_of("local", "")}, {"cells", ds.local.cells.size()}, {"trials", ds.local.trials},
                    {"epsilon", ds.local.epsilon}};
    if (!ds.non_private_series.empty())
      d["non_private"] = {{"cells", ds.non_private.cells.size()}, {"trials", ds.non_private.trials},
                          {"series", std::vector<std::string>(ds.non_private_series.begin(), ds.non_private_series.end())},
                          {"note", kNonPrivateNote}};
    if (ds.uncalibrated > 0) d["uncalibrated_trials"] = ds.uncalibrated;
    out_datasets[name] = std::move(d);
  }
  return json{{"meaning", kMeaning},
              {"composition", "basic sequential composition (Dwork & Roth 2014, Thm 3.16; Thm B.1 for delta)"},
              {"datasets", std::move(out_datasets)}};
}

}  // namespace dpclust
