// Release and evaluation fields of results.json; see release_view.hpp.
#include "store/release_view.hpp"

#include <string>

#include "store/record_sets.hpp"

namespace dpclust {
using json = nlohmann::json;

json field_roles() {
  return {
      {"meaning",
       "release: what the methods publish, under the privacy flags beside it (private_release, non_private); "
       "evaluation: exact "
       "statistics of the true data, computed to judge the release and NOT private (never publish them with it); "
       "configuration: "
       "the public inputs of the run. `dpclust release RESULTS.json` writes the release and configuration fields "
       "only."},
      {"release",
       {"cells[].trials[].release",
        "cells[].trials[].labels (only when the cell's evaluation_only does not list the labels)",
        "cells[].trials[].ledger (without its steps' sensitivity and note when the ledger lists data_derived reasons "
        "or the dataset's domain is derived from the data)",
        "cells[].privacy_spent", "cells[].private_release", "cells[].trials[].private_release", "cells[].non_private",
        "cells[].evaluation_only", "cells[].randomness",
        "privacy_accounting (without record_sets[].records and the file keys of record_sets[].selections[].files)"}},
      {"evaluation",
       {"datasets.*.n", "datasets.*.labels", "datasets.*.bounds (when bounds_source is data)", "datasets.*.provenance",
        "datasets.*.points", "datasets.*.true_labels", "cells[].record_set", "cells[].trials[].metrics",
        "cells[].trials[].evaluation", "cells[].trials[].diagnostics",
        "cells[].trials[].labels (when evaluation_only lists them)",
        "cells[].trials[].ledger.steps[].sensitivity and .note (when the ledger lists data_derived reasons or the "
        "dataset's domain is derived from the data)",
        "cells[].trials[].timing", "cells[].aggregates", "cells[].diagnostics_aggregates",
        "cells[].evaluation_aggregates", "cells[].timing", "privacy_accounting.record_sets[].records",
        "privacy_accounting.record_sets[].selections[].files"}},
      {"configuration",
       // The seeds are named in words: a secure run's file must not mention a seed field at all.
       {"schema",
        "experiment",
        "description",
        "trials",
        "randomness",
        "reproducible",
        "the run's base seed, its scheme and each trial's seed (seeded runs only)",
        "cells[].index",
        "cells[].id",
        "cells[].key",
        "cells[].dataset",
        "cells[].method",
        "cells[].series",
        "cells[].params",
        "cells[].private",
        "cells[].trials[].trial",
        "datasets.*.d",
        "datasets.*.columns",
        "datasets.*.bounds_source",
        "provenance.config_text"}}};
}

namespace {

bool labels_are_evaluation(const json& cell) {
  if (!cell.contains("evaluation_only") || !cell["evaluation_only"].is_array()) return false;
  for (const auto& n : cell["evaluation_only"])
    if (n.is_string() && n.get<std::string>().find("labels") != std::string::npos) return true;
  return false;
}

void copy_keys(const json& from, json& to, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (from.contains(k)) to[k] = from[k];
}

// The dataset's column names as a release may carry them: a name header: auto guessed from the first row
// and the config never typed (provenance.columns[j].name_confirmed == false) may be a record's text, so it is
// replaced by "#<file column index>".
json released_column_names(const json& dataset) {
  json names = dataset.value("columns", json::array());
  const json prov = dataset.value("provenance", json::object()).value("columns", json::array());
  if (!names.is_array() || !prov.is_array() || prov.size() != names.size()) return names;
  for (std::size_t j = 0; j < names.size(); ++j)
    if (prov[j].is_object() && !prov[j].value("name_confirmed", true))
      names[j] = "#" + std::to_string(prov[j].value("index", j));
  return names;
}

// A trial's ledger as a release may carry it. Its entries' sensitivities and notes are computed from the
// mechanism's inputs; when an input is a value of the data (a radius or a centre from the points, the true n, a
// range: the ledger's `data_derived`, or a domain derived from the data: `derived_range`), they carry that value
// (lsh_clustering's sensitivity in units of the data's largest norm, dp_kmeans' (max - min) / 2 of each column,
// DPM's percentile range, a grid size from n). They are withheld, with the reasons; the budget, the steps'
// epsilons, mechanisms and relations stay.
json released_ledger(const json& ledger, const std::string& derived_range) {
  json reasons = ledger.value("data_derived", json::array());
  if (!derived_range.empty()) reasons.push_back(derived_range);
  if (reasons.empty() || !ledger.contains("steps") || !ledger["steps"].is_array()) return ledger;
  json out = ledger;
  for (auto& step : out["steps"]) {
    json withheld = json::array();
    for (const char* field : {"sensitivity", "note"})
      if (step.contains(field)) {
        step.erase(field);
        withheld.push_back(field);
      }
    if (!withheld.empty()) step["withheld"] = std::move(withheld);
  }
  out["withheld_because"] = std::move(reasons);
  return out;
}

}  // namespace

json release_only(const json& results) {
  json out{{"schema", "dpclust.release/1"}, {"field_roles", field_roles()}};
  copy_keys(results, out,
            {"experiment", "description", "trials", "randomness", "reproducible", "base_seed", "seed_scheme"});
  json datasets = json::object();
  if (results.contains("datasets"))
    for (auto it = results["datasets"].begin(); it != results["datasets"].end(); ++it) {
      json d;
      copy_keys(it.value(), d, {"d", "bounds_source"});
      if (it.value().contains("columns")) d["columns"] = released_column_names(it.value());
      // Configured bounds are public; a box derived from the data is not.
      if (it.value().value("bounds_source", std::string()) == "config" && it.value().contains("bounds"))
        d["bounds"] = it.value()["bounds"];
      datasets[it.key()] = std::move(d);
    }
  out["datasets"] = std::move(datasets);
  json cells = json::array();
  for (const auto& c : results.value("cells", json::array())) {
    const std::string dataset = c.value("dataset", std::string());
    const std::string derived_range = results.contains("datasets") && results["datasets"].contains(dataset)
                                          ? data_derived_range(results["datasets"][dataset])
                                          : std::string();
    json cell;
    copy_keys(c, cell,
              {"index", "id", "key", "dataset", "method", "series", "params", "private", "non_private",
               "evaluation_only", "private_release", "randomness", "privacy_spent"});
    const bool labels_eval = labels_are_evaluation(c);
    json trials = json::array();
    for (const auto& t : c.value("trials", json::array())) {
      json trial;
      copy_keys(t, trial, {"trial", "seed", "private_release", "release"});
      if (t.contains("ledger")) trial["ledger"] = released_ledger(t["ledger"], derived_range);
      if (!labels_eval && t.contains("labels")) trial["labels"] = t["labels"];
      trials.push_back(std::move(trial));
    }
    cell["trials"] = std::move(trials);
    cells.push_back(std::move(cell));
  }
  out["cells"] = std::move(cells);
  if (results.contains("privacy_accounting")) {
    json acct = results["privacy_accounting"];
    // The files' sizes and checksums are functions of every record: replaced by the set's number, and each
    // file's key in the selections by the file's number.
    if (acct.contains("record_sets")) {
      json keys = json::object(), files = json::object();
      std::size_t i = 0;
      for (auto& s : acct["record_sets"]) {
        const std::string label = "set " + std::to_string(++i);
        keys[s.value("key", std::string())] = label;
        s["key"] = label;
        s.erase("records");
        for (auto& sel : s["selections"]) {
          sel.erase("transforms");
          if (!sel.contains("files")) continue;
          for (auto& f : sel["files"]) {
            const std::string k = f.is_string() ? f.get<std::string>() : f.dump();
            if (!files.contains(k)) files[k] = "file " + std::to_string(files.size() + 1);
            f = files[k];
          }
        }
      }
      if (acct.contains("datasets"))
        for (auto& v : acct["datasets"]) v = keys.value(v.get<std::string>(), std::string("?"));
    }
    out["privacy_accounting"] = std::move(acct);
  }
  if (results.contains("provenance") && results["provenance"].contains("config_text"))
    out["config_text"] = results["provenance"]["config_text"];
  return out;
}

}  // namespace dpclust
