#include "store/accounting.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "store/record_sets.hpp"

namespace dpclust {
using json = nlohmann::json;

namespace {

constexpr const char* kMeaning =
    "Sequential composition (basic: the epsilons add up, and the deltas) of every trial of every cell of this file, "
    "per set "
    "of records (each file's content, or the generator: one file configured under several names or selections is one "
    "set, "
    "and datasets that share a file are one set): "
    "each trial is a separate release computed on the same people, so a reader of the whole file learns about one of "
    "them "
    "at most what these totals allow. Central notions of one neighbouring relation are summed into (epsilon, "
    "delta)-DP; "
    "local guarantees are composed per unit distance; other relations are listed apart. Epsilons spent on one secure "
    "Poisson sample are summed and then amplified once; max_rows counts add/remove trials twice; ledgers that declare "
    "their true cost are counted at it, and unbounded ones (or data-derived ranges) make the total unbounded. A total "
    "is "
    "a guarantee (holds: true) only when every trial in it is a secure private release without non_private notes; "
    "otherwise it says what the total would be, and why it does not hold. Each notion's guarantee covers the cells "
    "listed "
    "in its `covers`; whole_file states one guarantee for every release of the set only when a single notion produced "
    "them all, and otherwise none, with the reasons.";
constexpr const char* kNonPrivateNote =
    "the method is not differentially private: it spends no privacy budget, and its output carries no guarantee that a "
    "total could bound";
constexpr const char* kLocalUnits = "eps-geo-indistinguishability (local: per record, eps per unit distance)";

double number_or(const json& obj, const char* key, double fallback) {
  if (!obj.is_object()) return fallback;
  const auto it = obj.find(key);
  return it != obj.end() && it->is_number() ? it->get<double>() : fallback;
}

// The notion of an entry in words, as core/method.cpp privacy_notion says it of a method.
std::string notion_of(const std::string& measure, const std::string& relation) {
  if (measure == "local") return kLocalUnits;
  const std::string rel = relation == "replace_one" ? "replace one record" : "add/remove one record";
  return (measure == "approximate" ? "(eps, delta)-DP (" : "eps-DP (") + rel + ")";
}

// The central spend of one neighbouring relation within a set of records.
struct Central {
  double eps_direct = 0, delta_direct = 0;
  struct Sample {
    double eps = 0, delta = 0, q = 1;
  };
  std::map<std::string, Sample> samples;  // by sample_id
  std::uint64_t trials = 0, seeded = 0, flagged = 0, uncalibrated = 0, unbounded = 0, doubled = 0, subsampled = 0;
  std::set<std::uint64_t> cells;
  std::set<std::string> unbounded_reasons;
};

struct Local {
  double rate = 0;
  std::map<double, std::pair<double, std::uint64_t>> levels;  // distance -> (sum of levels, trials)
  std::uint64_t trials = 0, seeded = 0, flagged = 0, uncalibrated = 0, unbounded = 0, distance_unrecorded = 0;
  std::set<std::uint64_t> cells;
  std::set<std::string> unbounded_reasons;
};

struct RecordSet {
  std::set<std::string> datasets;
  json records;
  std::vector<json> selections;
  std::map<std::string, Central> central;  // by relation
  Local local;
  std::set<std::uint64_t> non_private_cells;
  std::uint64_t non_private_trials = 0;
  std::set<std::string> non_private_series;
};

// Why a total is not a guarantee, from its counts (empty when it is one).
template <class T>
json reasons_not_held(const T& s) {
  json r = json::array();
  if (s.unbounded > 0) r.push_back(std::to_string(s.unbounded) + " trial(s) have no finite bound (unbounded)");
  if (s.flagged > 0)
    r.push_back(std::to_string(s.flagged) + " trial(s) belong to cells with non_private notes (see each cell)");
  if (s.uncalibrated > 0)
    r.push_back(std::to_string(s.uncalibrated) + " trial(s) ran with scaled noise (uncalibrated)");
  if (s.seeded > 0)
    r.push_back(
        std::to_string(s.seeded) +
        " trial(s) ran with randomness: seeded (the seed regenerates the noise): no guarantee holds for this file");
  return r;
}

// The guarantee fields of a total: "holds" and "guarantee" when every trial is a secure private release;
// otherwise "holds": false, "not_a_guarantee_because", and (when only the seeded randomness stands in the way)
// "if_run_secure": what the same cells would guarantee with randomness: secure.
template <class T>
void state_guarantee(json& out, const T& s, const std::string& notion) {
  const json why = reasons_not_held(s);
  if (why.empty()) {
    out["holds"] = true;
    out["guarantee"] = notion;
    return;
  }
  out["holds"] = false;
  out["guarantee"] = nullptr;
  out["not_a_guarantee_because"] = why;
  if (s.unbounded == 0 && s.flagged == 0 && s.uncalibrated == 0)
    out["if_run_secure"] =
        notion +
        " with these totals, if the same cells were run with randomness: secure (it does not hold for "
        "this file)";
}

}  // namespace

json trial_privacy_spent(const json& ledger) {
  if (!ledger.is_object()) throw std::logic_error("trial_privacy_spent: a ledger is a JSON object");
  if (!ledger.value("private", false)) return json{{"private", false}};
  const double delta_total = number_or(ledger, "delta_total", 0.0);
  // Ledgers written before the typed entries have no measure or relation: pure unless they carry a delta,
  // under the harness default relation (core/ledger.hpp).
  const std::string measure = ledger.contains("measure") ? ledger["measure"].get<std::string>()
                              : delta_total > 0          ? "approximate"
                                                         : "pure";
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
  json out{{"private", true}, {"measure", measure}, {"relation", relation}, {"notion", notion_of(measure, relation)}};
  if (measure == "local") {
    // The level is reached at distance `distance`; what composes is level / distance.
    const double distance = number_or(ledger, "distance", 0.0);
    out["level_epsilon"] = epsilon;
    out["distance"] = distance > 0 ? distance : 1.0;
    if (!(distance > 0)) out["distance_recorded"] = false;
    out["epsilon"] = distance > 0 ? epsilon / distance : epsilon;
  } else {
    out["epsilon"] = epsilon;
  }
  if (delta > 0) out["delta"] = delta;
  if (ledger.contains("epsilon_excess")) out["epsilon_excess"] = ledger["epsilon_excess"];
  if (number_or(ledger, "noise_scale", 1.0) != 1.0) out["calibrated"] = false;
  if (ledger.value("unbounded", false)) {
    out["unbounded"] = true;
    out["unbounded_reasons"] = ledger.value("unbounded_reasons", json::array());
  }
  return out;
}

json trial_privacy_spent_on(const json& ledger, const json& data_summary) {
  json out = trial_privacy_spent(ledger);
  if (!out.value("private", false)) return out;
  if (const std::string why = data_derived_range(data_summary); !why.empty()) {
    json reasons = out.value("unbounded_reasons", json::array());
    reasons.push_back(why);
    out["unbounded"] = true;
    out["unbounded_reasons"] = std::move(reasons);
  }
  return out;
}

json cell_privacy_spent(const json& cell) {
  const json& trials = cell.at("trials");
  std::vector<json> spent;
  for (const auto& t : trials)
    spent.push_back(trial_privacy_spent(t.contains("ledger") ? t["ledger"] : json::object()));
  bool any_private = false;
  for (const auto& s : spent) any_private = any_private || s["private"].get<bool>();
  if (!any_private)
    return json{{"private", false}, {"trials", trials.size()}, {"epsilon", 0.0}, {"note", kNonPrivateNote}};
  // One method, one parameter set: every trial's ledger has the same measure and relation.
  const json& first = spent.front();
  double epsilon = 0, delta = 0;
  std::uint64_t uncalibrated = 0, unbounded = 0;
  bool uniform = true;
  for (const auto& s : spent) {
    if (!s["private"].get<bool>() || s["measure"] != first["measure"] || s["relation"] != first["relation"])
      throw std::logic_error("cell_privacy_spent: the trials of cell '" + cell.value("id", std::string("?")) +
                             "' have ledgers of different notions");
    uniform = uniform && s["epsilon"] == first["epsilon"] && s.value("delta", 0.0) == first.value("delta", 0.0);
    epsilon += s["epsilon"].get<double>();
    delta += number_or(s, "delta", 0.0);
    uncalibrated += !s.value("calibrated", true);
    unbounded += s.value("unbounded", false);
  }
  json out{{"private", true},           {"measure", first["measure"]}, {"relation", first["relation"]},
           {"notion", first["notion"]}, {"trials", spent.size()},      {"epsilon", epsilon}};
  if (uniform) out["epsilon_per_trial"] = first["epsilon"];
  if (first["measure"] == "local" && uniform) {
    out["level_epsilon_per_trial"] = first["level_epsilon"];
    out["distance"] = first["distance"];
  }
  if (delta > 0) {
    out["delta"] = delta;
    if (uniform) out["delta_per_trial"] = first["delta"];
  }
  if (first.contains("epsilon_excess")) out["includes_declared_excess"] = true;
  if (uncalibrated > 0) out["uncalibrated_trials"] = uncalibrated;
  // Ranges derived from the data (record_set_of): no epsilon prices them, whatever the ledger says.
  const std::string derived = cell.contains("record_set") && cell["record_set"].is_object()
                                  ? cell["record_set"].value("data_derived_range", std::string())
                                  : "";
  if (unbounded > 0 || !derived.empty()) {
    out["unbounded"] = true;
    json reasons = unbounded > 0 ? first.value("unbounded_reasons", json::array()) : json::array();
    if (!derived.empty()) reasons.push_back(derived);
    out["unbounded_reasons"] = std::move(reasons);
  }
  return out;
}

namespace {

std::string cell_name(const json& cell, std::uint64_t i) {
  return cell.is_object() && cell.contains("id") && cell["id"].is_string() ? cell["id"].get<std::string>()
                                                                           : "cell " + std::to_string(i);
}

// The cells a total covers, named as results.json names them.
json covers(const json& cells, const std::set<std::uint64_t>& which) {
  json ids = json::array();
  std::set<std::string> series;
  for (std::uint64_t i : which) {
    ids.push_back(cell_name(cells[i], i));
    series.insert(cells[i].value("series", cells[i].value("method", std::string("?"))));
  }
  return {{"cells", std::move(ids)}, {"series", std::vector<std::string>(series.begin(), series.end())}};
}

// One notion's guarantee, scoped: alone in its set it speaks for every release of the set; beside other
// notions (or non-private outputs) only for the cells it covers.
std::string scoped(const std::string& notion, bool alone) {
  return alone
             ? notion
             : notion +
                   ", for the releases of the cells in `covers` only (the file holds other releases of these records: "
                   "see whole_file)";
}

// What one trial of a cell adds: the conditions every trial of the cell shares, and the trial's own spend.
struct TrialContext {
  std::uint64_t cell;
  bool seeded, flagged, max_rows;
  std::string derived;  // the data-derived range that makes the cell's trials unbounded (empty: none)
};

// The counts a guarantee is stated from (Central and Local alike).
template <class T>
void count_trial(T& s, const TrialContext& t, bool uncalibrated, bool unbounded, const std::set<std::string>& reasons) {
  ++s.trials;
  s.cells.insert(t.cell);
  s.seeded += t.seeded;
  s.flagged += t.flagged;
  s.uncalibrated += uncalibrated;
  s.unbounded += unbounded;
  s.unbounded_reasons.insert(reasons.begin(), reasons.end());
}

void add_local_trial(Local& l, const json& spent, const TrialContext& t, bool uncalibrated, bool unbounded,
                     const std::set<std::string>& reasons) {
  count_trial(l, t, uncalibrated, unbounded, reasons);
  l.distance_unrecorded += spent.contains("distance_recorded");
  l.rate += spent["epsilon"].get<double>();
  auto& level = l.levels[spent["distance"].get<double>()];
  level.first += spent["level_epsilon"].get<double>();
  ++level.second;
}

void add_central_trial(Central& c, const std::string& relation, const json& spent, const json& ledger,
                       const TrialContext& t, bool uncalibrated, bool unbounded, const std::set<std::string>& reasons) {
  count_trial(c, t, uncalibrated, unbounded, reasons);
  double eps = spent["epsilon"].get<double>(), delta = number_or(spent, "delta", 0.0);
  if (t.max_rows && relation == "add_remove") {
    // One added record can push another out: the rows change by a replacement, group privacy for two.
    delta = 2 * std::exp(eps) * delta;
    eps *= 2;
    ++c.doubled;
  }
  const json sub = ledger.contains("subsampled") ? ledger["subsampled"] : json();
  if (sub.is_object() && sub.value("amplified", false)) {
    auto& smp = c.samples[sub.value("sample_id", std::string())];
    smp.eps += eps;
    smp.delta += delta;
    smp.q = number_or(sub, "rate", 1.0);
    ++c.subsampled;
  } else {
    c.eps_direct += eps;
    c.delta_direct += delta;
  }
}

void add_trial(RecordSet& set, const json& cell, const json& trial, const TrialContext& t) {
  const json ledger = trial.contains("ledger") ? trial["ledger"] : json::object();
  const json spent = trial_privacy_spent(ledger);
  if (!spent["private"].get<bool>()) {
    set.non_private_cells.insert(t.cell);
    ++set.non_private_trials;
    set.non_private_series.insert(cell.value("series", cell.value("method", std::string("?"))));
    return;
  }
  const bool unbounded = spent.value("unbounded", false) || !t.derived.empty();
  std::set<std::string> reasons;
  if (spent.contains("unbounded_reasons"))
    for (const auto& r : spent["unbounded_reasons"]) reasons.insert(r.get<std::string>());
  if (!t.derived.empty()) reasons.insert(t.derived);
  const bool uncalibrated = !spent.value("calibrated", true);
  if (spent["measure"] == "local") {
    add_local_trial(set.local, spent, t, uncalibrated, unbounded, reasons);
    return;
  }
  const std::string relation = spent["relation"];
  add_central_trial(set.central[relation], relation, spent, ledger, t, uncalibrated, unbounded, reasons);
}

// A cell into its set: the set's records (the union of its cells' files, or the generator, and the rows each
// dataset read), its selections, and every trial.
void add_cell(RecordSet& set, const json& cell, std::uint64_t i, const json& rs) {
  const std::string dataset = cell.at("dataset").get<std::string>();
  set.datasets.insert(dataset);
  const json& rec = rs["records"];
  if (rec.contains("files")) {
    if (!set.records.contains("files")) set.records["files"] = json::array();
    for (const auto& f : rec["files"])
      if (std::find(set.records["files"].begin(), set.records["files"].end(), f) == set.records["files"].end())
        set.records["files"].push_back(f);
    if (rec.contains("rows_read")) set.records["rows_read"][dataset] = rec["rows_read"];
  } else {
    for (auto it = rec.begin(); it != rec.end(); ++it) set.records[it.key()] = it.value();
  }
  if (std::find(set.selections.begin(), set.selections.end(), rs["selection"]) == set.selections.end())
    set.selections.push_back(rs["selection"]);
  TrialContext t;
  t.cell = i;
  t.seeded = cell.contains("randomness") && cell["randomness"].is_object()
                 ? cell["randomness"].value("mode", std::string("seeded")) != "secure"
                 : true;
  t.flagged = cell.contains("non_private") && cell["non_private"].is_array() && !cell["non_private"].empty();
  t.max_rows = rs.contains("max_rows");
  t.derived = rs.value("data_derived_range", std::string());
  for (const auto& trial : cell.at("trials")) add_trial(set, cell, trial, t);
}

// One central relation's total: the direct spends plus each sample's amplified one (Balle, Barthe & Gaboardi 2018:
// the releases on one sample together are (E, D)-DP on it, so (ln(1 + q (e^E - 1)), q D)-DP on the data).
json central_total(const std::string& relation, const Central& c, const json& cells, bool alone) {
  double eps = c.eps_direct, delta = c.delta_direct;
  json samples = json::array();
  for (const auto& [id, smp] : c.samples) {
    const double amplified = std::log1p(smp.q * std::expm1(smp.eps));
    eps += amplified;
    delta += smp.q * smp.delta;
    samples.push_back(
        {{"sample_id", id}, {"rate", smp.q}, {"epsilon_on_sample", smp.eps}, {"epsilon_amplified", amplified}});
  }
  const bool pure = delta == 0;
  json e{{"relation", relation}, {"cells", c.cells.size()}, {"trials", c.trials}, {"covers", covers(cells, c.cells)}};
  if (c.unbounded > 0) {
    e["epsilon"] = nullptr;
    e["delta"] = nullptr;
    e["unbounded"] = true;
    e["unbounded_reasons"] = std::vector<std::string>(c.unbounded_reasons.begin(), c.unbounded_reasons.end());
  } else {
    e["epsilon"] = eps;
    e["delta"] = delta;
  }
  if (!samples.empty()) e["subsamples"] = std::move(samples);
  if (c.doubled > 0) e["max_rows_doubled_trials"] = c.doubled;
  state_guarantee(e, c, scoped(notion_of(pure ? "pure" : "approximate", relation), alone));
  return e;
}

// The local (geo-indistinguishability) total, per unit distance.
json local_total(const Local& l, const json& cells, bool alone) {
  json levels = json::array();
  for (const auto& [distance, v] : l.levels)
    levels.push_back({{"distance", distance},
                      {"level_epsilon", v.first},
                      {"trials", v.second},
                      {"epsilon_per_unit_distance", v.first / distance}});
  json e{{"cells", l.cells.size()},
         {"trials", l.trials},
         {"levels", std::move(levels)},
         {"covers", covers(cells, l.cells)}};
  if (l.unbounded > 0) {
    e["epsilon_per_unit_distance"] = nullptr;
    e["unbounded"] = true;
    e["unbounded_reasons"] = std::vector<std::string>(l.unbounded_reasons.begin(), l.unbounded_reasons.end());
  } else {
    e["epsilon_per_unit_distance"] = l.rate;
  }
  if (l.distance_unrecorded > 0) e["distance_unrecorded_trials"] = l.distance_unrecorded;
  state_guarantee(e, l, scoped(kLocalUnits, alone));
  return e;
}

// Why the notions present do not add up to one guarantee for the file.
json whole_file_reasons(const RecordSet& set) {
  json whole_reasons = json::array();
  const bool add_remove = set.central.count("add_remove") > 0;
  if (!set.non_private_series.empty())
    whole_reasons.push_back(
        std::to_string(set.non_private_cells.size()) +
        " cell(s) of non-private methods release functions of these records without noise: no guarantee "
        "bounds what the file reveals of them");
  if (set.local.trials > 0 && !set.central.empty())
    whole_reasons.push_back("the file holds " + std::to_string(set.local.cells.size()) +
                            " local (geo-indistinguishability) release(s) of these records: every record perturbed and "
                            "published, which reveals "
                            "the exact number of records" +
                            std::string(add_remove ? ", protected by the add/remove guarantee" : "") +
                            "; local and central guarantees do not compose into one");
  if (add_remove && set.central.count("replace_one") > 0)
    whole_reasons.push_back(
        "the file holds replace-one releases of these records, which treat the number of records as "
        "public and reveal it, protected by the add/remove guarantee; the relations do not compose "
        "into one");
  else if (set.central.size() > 1)
    whole_reasons.push_back(
        "the file holds releases under different neighbouring relations, which do not compose into one");
  return whole_reasons;
}

// The file's guarantee for the set: the one total when a notion is alone and holds, else why there is none.
json whole_file(const RecordSet& set, std::size_t notions, bool alone, const json& only) {
  json whole{{"notions", notions}};
  if (alone && only.is_object() && only.value("holds", false)) {
    whole["holds"] = true;
    whole["guarantee"] = only["guarantee"];
    if (only.contains("epsilon")) {
      whole["epsilon"] = only["epsilon"];
      whole["delta"] = only["delta"];
    }
    if (only.contains("epsilon_per_unit_distance"))
      whole["epsilon_per_unit_distance"] = only["epsilon_per_unit_distance"];
  } else {
    whole["holds"] = false;
    whole["guarantee"] = nullptr;
    if (alone && only.is_object()) {
      whole["not_a_guarantee_because"] = json::array({"the one total does not hold (see its not_a_guarantee_because)"});
      if (only.contains("if_run_secure")) whole["if_run_secure"] = only["if_run_secure"];
    } else {
      whole["not_a_guarantee_because"] = alone ? json::array() : whole_file_reasons(set);
    }
  }
  return whole;
}

// One set of records in results.json: its datasets and records, one guarantee per notion, and the whole file's. A
// notion alone in its set (no other relation, no local releases, no non-private outputs) speaks for the whole
// file; otherwise each speaks for its cells only, and whole_file says why no single guarantee bounds what the file
// reveals.
json set_summary(const std::string& key, const RecordSet& set, const json& cells) {
  json d{{"key", key},
         {"datasets", std::vector<std::string>(set.datasets.begin(), set.datasets.end())},
         {"records", set.records},
         {"selections", set.selections}};
  const std::size_t notions = set.central.size() + (set.local.trials > 0 ? 1 : 0);
  const bool alone = notions == 1 && set.non_private_series.empty();
  std::uint64_t private_trials = set.local.trials;
  std::set<std::uint64_t> private_cells(set.local.cells);
  json central = json::array();
  json only = nullptr;  // the one total when the notion is alone
  for (const auto& [relation, c] : set.central) {
    private_trials += c.trials;
    private_cells.insert(c.cells.begin(), c.cells.end());
    json e = central_total(relation, c, cells, alone);
    if (alone) only = e;
    central.push_back(std::move(e));
  }
  d["private_cells"] = private_cells.size();
  d["private_trials"] = private_trials;
  if (set.local.trials > 0) {
    json e = local_total(set.local, cells, alone);
    if (alone) only = e;
    d["local"] = std::move(e);
  }
  if (!set.non_private_series.empty())
    d["non_private"] = {
        {"cells", set.non_private_cells.size()},
        {"trials", set.non_private_trials},
        {"series", std::vector<std::string>(set.non_private_series.begin(), set.non_private_series.end())},
        {"note", kNonPrivateNote}};
  d["central"] = std::move(central);
  d["whole_file"] = whole_file(set, notions, alone, only);
  return d;
}

}  // namespace

json privacy_accounting(const json& cells) {
  // 1. Which cells read the same records (record_sets.hpp): cells sharing a file (or a generator) are one set.
  std::vector<json> rs(cells.size());
  for (std::uint64_t i = 0; i < cells.size(); ++i)
    // Cells assembled before record sets existed carry none: keyed by their dataset name.
    rs[i] = cells[i].contains("record_set") ? cells[i]["record_set"]
                                            : record_set_of(json::object(), cells[i].at("dataset").get<std::string>());
  const std::vector<std::string> set_key = merged_record_set_keys(rs);
  std::map<std::string, RecordSet> sets;
  json by_dataset = json::object();
  for (std::uint64_t i = 0; i < cells.size(); ++i) {
    by_dataset[cells[i].at("dataset").get<std::string>()] = set_key[i];
    add_cell(sets[set_key[i]], cells[i], i, rs[i]);
  }
  // 2. One guarantee per notion, for the cells it covers, and the whole file's.
  json out_sets = json::array();
  for (const auto& [key, set] : sets) out_sets.push_back(set_summary(key, set, cells));
  return json{{"meaning", kMeaning},
              {"composition", "basic sequential composition (Dwork & Roth 2014, Thm 3.16; Thm B.1 for delta)"},
              {"record_sets", std::move(out_sets)},
              {"datasets", std::move(by_dataset)}};
}

}  // namespace dpclust
