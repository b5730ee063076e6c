// Reading a results directory and finding cells and their numbers; see results_index.hpp.
#include "report/results_index.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/files.hpp"
#include "report/results_reader.hpp"

namespace dpclust::report {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {
bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }
}  // namespace

Results::Results(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError(dir.string(), "not a results directory", "pass the --out directory of `dpclust run`");
  for (const auto& e : fs::directory_iterator(dir)) {
    const fs::path audit = e.path() / "audit.json";
    if (fs::exists(audit)) {
      json a = json::parse(read_text_file(audit));
      if (a.value("schema", "") != "dpclust.audit/1")
        throw InputError(audit.string(), "not a dpclust audit (schema dpclust.audit/1)",
                         "rerun `dpclust audit` or remove the file");
      const std::string name = a.value("experiment", e.path().filename().string());  // before `a` is moved
      audits_[name] = std::move(a);
    }
    // skipped.json: the experiment did not run for missing data, or ran without some of its datasets
    // ("partial": true, "datasets": the missing ones).
    if (const fs::path skip = e.path() / "skipped.json"; fs::exists(skip)) {
      try {
        skipped_[e.path().filename().string()] = json::parse(read_text_file(skip));
      } catch (const std::exception&) {
        // A damaged note only loses the reason; the value is reported as not run either way.
      }
    }
    const fs::path f = e.path() / "results.json";
    if (!fs::exists(f)) continue;
    json j = read_report_results(f);  // without the trials' releases and labels (results_reader.hpp)
    const std::string name = j.value("experiment", e.path().filename().string());
    experiments_[name] = std::move(j);
  }
}

std::vector<const json*> Results::cells(const Query& q) const {
  std::vector<const json*> out;
  auto it = experiments_.find(q.experiment);
  if (it == experiments_.end()) return out;
  for (const auto& cell : it->second["cells"]) {
    if (!q.dataset.empty() && cell["dataset"] != q.dataset) continue;
    if (!q.series.empty() && cell["series"] != q.series) continue;
    bool ok = true;
    for (const auto& [k, v] : q.params)
      ok = ok && cell["params"].contains(k) && cell["params"][k].is_number() &&
           close(cell["params"][k].get<double>(), v);
    for (const auto& [k, r] : q.where) {
      ok = ok && cell["params"].contains(k) && cell["params"][k].is_number();
      if (ok) {
        const double x = cell["params"][k].get<double>();
        ok = x >= r.first - 1e-12 && x <= r.second + 1e-12;
      }
    }
    if (ok) out.push_back(&cell);
  }
  return out;
}

namespace {
// Where a cell keeps a number, in the order statistic() looks: the aggregate and the per-trial part.
constexpr std::pair<const char*, const char*> kSources[] = {{"aggregates", "metrics"},
                                                            {"diagnostics_aggregates", "diagnostics"},
                                                            {"evaluation_aggregates", "evaluation"},
                                                            {"timing", "timing"}};
}  // namespace

const json* statistic(const json& cell, const std::string& metric) {
  for (const auto& [where, _] : kSources)
    if (cell.contains(where) && cell[where].is_object() && cell[where].contains(metric)) return &cell[where][metric];
  return nullptr;
}

std::vector<double> trial_values(const json& cell, const std::string& metric) {
  std::vector<double> out;
  for (const auto& [where, part] : kSources) {
    if (!cell.contains(where) || !cell[where].is_object() || !cell[where].contains(metric)) continue;
    if (!cell.contains("trials") || !cell["trials"].is_array()) return out;
    for (const auto& t : cell["trials"])
      if (t.contains(part) && t[part].is_object() && t[part].contains(metric) && t[part][metric].is_number())
        out.push_back(t[part][metric].get<double>());
    return out;
  }
  return out;
}

const char* trial_part(const json& cell, const std::string& metric) {
  for (const auto& [where, part] : kSources)
    if (cell.contains(where) && cell[where].is_object() && cell[where].contains(metric)) return part;
  return nullptr;
}

double mean_of(const json& cell, const std::string& metric) {
  const json* s = statistic(cell, metric);
  return s && s->contains("mean") ? (*s)["mean"].get<double>() : std::nan("");
}

std::string group_key(const json& cell, const std::vector<std::string>& by) {
  std::string k;
  for (const auto& g : by) {
    k += (k.empty() ? "" : ", ");
    if (g == "dataset") k += cell["dataset"].get<std::string>();
    else k += g + "=" + (cell["params"].contains(g) ? cell["params"][g].dump() : "?");
  }
  return k;
}

}  // namespace dpclust::report
