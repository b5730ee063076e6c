#include "store/span_release.hpp"

#include <cmath>

#include "core/error.hpp"
#include "core/files.hpp"

namespace dpclust {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

json read_json(const fs::path& file, const std::string& fix) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) throw InputError(file.string(), "not found", fix);
  try {
    return json::parse(read_text_file(file));
  } catch (const json::exception& e) {
    throw InputError(file.string(), std::string("not valid JSON: ") + e.what(), "rerun the experiment to rewrite it");
  }
}

// A parameter value as written on the command line against the cell's JSON value: numbers compare as
// numbers (0.05 = 5e-2), anything else as text.
bool value_matches(const json& v, const std::string& text) {
  if (v.is_number()) {
    try {
      std::size_t used = 0;
      const double x = std::stod(text, &used);
      return used == text.size() && x == v.get<double>();
    } catch (const std::exception&) {
      return false;
    }
  }
  if (v.is_string()) return v.get<std::string>() == text;
  return v.dump() == text;
}

bool cell_matches(const json& c, const SpanReleaseQuery& q) {
  if (!q.cell_id.empty()) return c.value("id", "") == q.cell_id;
  if (!q.dataset.empty() && c.value("dataset", "") != q.dataset) return false;
  if (!q.series.empty() && c.value("series", "") != q.series) return false;
  for (const auto& [name, value] : q.params) {
    const json params = c.value("params", json::object());
    if (!params.contains(name) || !value_matches(params[name], value)) return false;
  }
  return true;
}

}  // namespace

SpanRelease find_span_release(const SpanReleaseQuery& q) {
  if (q.cell_id.empty() && q.dataset.empty() && q.series.empty())
    throw InputError("classify", "no cell selected",
                     "give --cell ID, or --dataset NAME (and --series, --param name=value)");
  const fs::path dir = q.results_dir / q.experiment;
  const fs::path results = dir / "results.json";
  json doc;
  std::vector<json> cells;
  std::error_code ec;
  fs::path source = results;
  if (fs::is_regular_file(results, ec)) {
    doc = read_json(results, "");
    if (doc.contains("cells") && doc["cells"].is_array())
      for (const json& c : doc["cells"]) cells.push_back(c);
  } else if (!q.cell_id.empty() && fs::is_regular_file(dir / "cells" / (q.cell_id + ".json"), ec)) {
    source = dir / "cells" / (q.cell_id + ".json");
    cells.push_back(read_json(source, ""));
  } else {
    throw InputError(
        results.string(), "no results of experiment '" + q.experiment + "' here",
        "run it first (dpclust run CONFIG --out " + q.results_dir.string() + "), or check --results and --experiment");
  }
  std::vector<const json*> found;
  for (const json& c : cells)
    if (cell_matches(c, q)) found.push_back(&c);
  if (found.empty()) {
    std::string keys;
    for (const json& c : cells)
      if (c.value("method", "") == "dp_dbscan") keys += "\n  " + c.value("id", "?") + "  " + c.value("key", "?");
    throw InputError(source.string(), "no cell matches the selection",
                     "choose one of the dp_dbscan cells (id and key):" + (keys.empty() ? std::string(" none") : keys));
  }
  if (found.size() > 1) {
    std::string keys;
    for (const json* c : found) keys += "\n  " + c->value("id", "?") + "  " + c->value("key", "?");
    throw InputError(source.string(), std::to_string(found.size()) + " cells match the selection",
                     "add --series or --param name=value, or give --cell ID of one of:" + keys);
  }
  const json& cell = *found.front();
  SpanRelease out;
  out.cell_id = cell.value("id", "");
  out.key = cell.value("key", "");
  out.dataset = cell.value("dataset", "");
  out.series = cell.value("series", "");
  if (cell.value("method", "") != "dp_dbscan")
    throw InputError(source.string(),
                     "cell " + out.cell_id + " (" + out.key + ") is a '" + cell.value("method", "?") +
                         "' cell; only dp_dbscan releases spans",
                     "select a dp_dbscan cell (--series)");
  const json trials = cell.value("trials", json::array());
  if (q.trial >= trials.size())
    throw InputError(source.string(),
                     "cell " + out.cell_id + " has " + std::to_string(trials.size()) + " trials; trial " +
                         std::to_string(q.trial) + " does not exist",
                     "use --trial between 0 and " + std::to_string(trials.empty() ? 0 : trials.size() - 1));
  const json& t = trials[q.trial];
  if (!t.contains("release") || !t["release"].is_object() || !t["release"].contains("spans"))
    throw InputError(source.string(),
                     "trial " + std::to_string(q.trial) + " of cell " + out.cell_id + " kept no release",
                     "rerun the experiment with output: {release: true} (the default) in its config");
  out.release = t["release"];
  out.seed = t.value("seed", std::uint64_t{0});
  out.where = source.string() + " cell " + out.cell_id + " trial " + std::to_string(q.trial);
  if (doc.contains("datasets") && doc["datasets"].contains(out.dataset)) {
    const json& ds = doc["datasets"][out.dataset];
    if (ds.contains("columns") && ds["columns"].is_array())
      for (const json& c : ds["columns"])
        if (c.is_string()) out.columns.push_back(c.get<std::string>());
  }
  return out;
}

}  // namespace dpclust
