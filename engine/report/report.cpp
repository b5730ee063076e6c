#include "report/report.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <iomanip>
#include <sstream>

#include "core/error.hpp"
#include "core/files.hpp"

namespace dpclust::report {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string at(const std::string& file, const YAML::Node& n) {
  return n && n.Mark().line >= 0 ? file + ":" + std::to_string(n.Mark().line + 1) : file;
}

std::string str(const YAML::Node& n, const char* key, const std::string& def = "") {
  return n[key] ? n[key].as<std::string>() : def;
}

Query parse_query(const YAML::Node& n, const std::string& file) {
  Query q;
  q.experiment = str(n, "experiment");
  q.dataset = str(n, "dataset");
  q.series = str(n, "series");
  q.metric = str(n, "metric");
  if (q.experiment.empty()) throw InputError(at(file, n), "a query needs 'experiment'");
  if (n["params"])
    for (const auto& kv : n["params"]) q.params[kv.first.as<std::string>()] = kv.second.as<double>();
  if (n["where"])
    for (const auto& kv : n["where"]) {
      const YAML::Node r = kv.second;
      if (!r.IsSequence() || r.size() != 2) throw InputError(at(file, r), "a 'where' range is [lo, hi]");
      q.where[kv.first.as<std::string>()] = {r[0].as<double>(), r[1].as<double>()};
    }
  return q;
}

void read_tolerance(const YAML::Node& n, double& tol, bool& relative, const std::string& file) {
  if (n["tolerance_relative"]) {
    tol = n["tolerance_relative"].as<double>();
    relative = true;
  } else if (n["tolerance"]) {
    tol = n["tolerance"].as<double>();
  } else {
    throw InputError(at(file, n), "a published value needs 'tolerance' or 'tolerance_relative'");
  }
}

// Every key of a map node must be one of `allowed`; the error names the entry and suggests the closest key.
void check_keys(const YAML::Node& n, std::initializer_list<const char*> allowed, const std::string& file, const std::string& what) {
  if (!n.IsMap()) throw InputError(at(file, n), what + ": expected a map");
  std::vector<std::string> names(allowed.begin(), allowed.end());
  for (const auto& kv : n) {
    const std::string key = kv.first.as<std::string>();
    if (std::find(names.begin(), names.end(), key) != names.end()) continue;
    const std::string near = closest_match(key, names);
    throw InputError(at(file, kv.first), what + ": unknown key '" + key + "'", near.empty() ? "" : "did you mean '" + near + "'?");
  }
}

constexpr const char* kProtocolForms =
    "protocol: {statistic: mean, seeds: K} (mean over K seeds), {statistic: median, seeds: K} or {statistic: single} (one run)";

// `protocol: {statistic: mean | median | single, seeds: K, note: "..."}`; `what` names the entry.
Protocol parse_protocol(const YAML::Node& n, const YAML::Node& owner, const std::string& file, const std::string& what) {
  if (!n) throw InputError(at(file, owner), what + ": needs a 'protocol' (how the paper obtained the value)", kProtocolForms);
  check_keys(n, {"statistic", "seeds", "note"}, file, what + " protocol");
  Protocol p;
  const std::string stat = n["statistic"] ? n["statistic"].as<std::string>() : "";
  if (stat == "mean") p.statistic = SeedStatistic::mean;
  else if (stat == "median") p.statistic = SeedStatistic::median;
  else if (stat == "single") p.statistic = SeedStatistic::single;
  else throw InputError(at(file, n), what + ": protocol statistic '" + stat + "' is not one of mean, median, single", kProtocolForms);
  if (p.statistic == SeedStatistic::single) {
    if (n["seeds"] && n["seeds"].as<long long>() != 1)
      throw InputError(at(file, n["seeds"]), what + ": a single-run protocol has no 'seeds' (or seeds: 1)", kProtocolForms);
    p.seeds = 1;
  } else {
    if (!n["seeds"]) throw InputError(at(file, n), what + ": protocol '" + stat + "' needs 'seeds' (how many runs the paper combined)", kProtocolForms);
    const long long k = n["seeds"].as<long long>();
    if (k < 1 || k > 10000) throw InputError(at(file, n["seeds"]), what + ": protocol seeds must be in [1, 10000], got " + std::to_string(k));
    p.seeds = static_cast<std::size_t>(k);
  }
  p.note = str(n, "note");
  return p;
}

constexpr const char* kAuthorsForm =
    "authors_code: {experiment: E, series: [s1, ...], label: \"...\", compare: seeds | tolerance, note: \"...\"} (all but experiment optional)";

// `authors_code: {experiment, series, label, compare, note}` of a value or a table.
AuthorsCode parse_authors_code(const YAML::Node& n, const std::string& file, const std::string& what) {
  check_keys(n, {"experiment", "series", "label", "compare", "note"}, file, what + " authors_code");
  AuthorsCode a;
  a.experiment = str(n, "experiment");
  if (a.experiment.empty()) throw InputError(at(file, n), what + ": authors_code needs 'experiment'", kAuthorsForm);
  if (n["series"]) {
    if (!n["series"].IsSequence() || n["series"].size() == 0)
      throw InputError(at(file, n["series"]), what + ": authors_code series must be a non-empty list", kAuthorsForm);
    a.series = n["series"].as<std::vector<std::string>>();
  }
  a.label = str(n, "label", "the authors' own seeds");
  const std::string compare = str(n, "compare", "seeds");
  if (compare != "seeds" && compare != "tolerance")
    throw InputError(at(file, n["compare"]), what + ": authors_code compare '" + compare + "' is not one of seeds, tolerance", kAuthorsForm);
  a.by_seeds = compare == "seeds";
  a.note = str(n, "note");
  return a;
}

bool covers(const AuthorsCode& a, const std::string& series) {
  return a.series.empty() || std::find(a.series.begin(), a.series.end(), series) != a.series.end();
}

VerdictSettings parse_verdict_settings(const YAML::Node& n, const std::string& file) {
  VerdictSettings s;
  if (!n) return s;
  check_keys(n, {"min_trials_for_variance", "coverage", "max_exact_subsets", "resamples", "resample_seed"}, file, "verdicts");
  if (n["min_trials_for_variance"]) {
    const long long m = n["min_trials_for_variance"].as<long long>();
    if (m < 2) throw InputError(at(file, n["min_trials_for_variance"]), "verdicts: min_trials_for_variance must be >= 2");
    s.min_trials_for_variance = static_cast<std::size_t>(m);
  }
  if (n["coverage"]) {
    s.coverage = n["coverage"].as<double>();
    if (!(s.coverage > 0 && s.coverage < 1)) throw InputError(at(file, n["coverage"]), "verdicts: coverage must be in (0, 1), e.g. 0.95");
  }
  if (n["max_exact_subsets"]) s.resample.max_exact = n["max_exact_subsets"].as<std::size_t>();
  if (n["resamples"]) {
    s.resample.resamples = n["resamples"].as<std::size_t>();
    if (s.resample.resamples < 100) throw InputError(at(file, n["resamples"]), "verdicts: resamples must be >= 100");
  }
  if (n["resample_seed"]) s.resample.seed = n["resample_seed"].as<std::uint64_t>();
  return s;
}

bool is_timing_metric(const std::string& m) { return m == "method_seconds" || m == "metrics_seconds"; }

bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

std::string fmt(double x, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

std::string fmt_time(double seconds) {
  char buf[64];
  if (seconds >= 1) std::snprintf(buf, sizeof buf, "%.3g s", seconds);
  else if (seconds >= 1e-3) std::snprintf(buf, sizeof buf, "%.3g ms", seconds * 1e3);
  else std::snprintf(buf, sizeof buf, "%.3g us", seconds * 1e6);
  return buf;
}

// A value of `metric` for the report: times with their unit, everything else with 3 decimals.
std::string fmt_value(const std::string& metric, double x) { return is_timing_metric(metric) ? fmt_time(x) : fmt(x); }

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

}  // namespace

Reference load_reference(const fs::path& file) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(file.string());
  } catch (const YAML::BadFile&) {
    throw InputError(file.string(), "cannot open the published-values file", "pass --published FILE");
  } catch (const YAML::ParserException& e) {
    throw InputError(file.string() + ":" + std::to_string(e.mark.line + 1), "malformed YAML: " + e.msg);
  }
  const std::string f = file.string();
  Reference ref;
  try {
    if (root["papers"])
      for (const auto& kv : root["papers"]) ref.papers[kv.first.as<std::string>()] = kv.second.as<std::string>();
    ref.verdicts = parse_verdict_settings(root["verdicts"], f);
    for (const auto& n : root["values"]) {
      PublishedValue v;
      v.id = str(n, "id");
      const std::string what = "published value '" + v.id + "'";
      check_keys(n, {"id", "paper", "source", "setting", "value", "tolerance", "tolerance_relative", "query", "protocol", "reason", "see",
                     "authors_code"},
                 f, what);
      v.paper = str(n, "paper");
      v.source = str(n, "source");
      v.setting = str(n, "setting");
      if (!n["value"]) throw InputError(at(f, n), what + ": needs 'value'");
      v.value = n["value"].as<double>();
      v.value_text = n["value"].Scalar();
      read_tolerance(n, v.tolerance, v.relative, f);
      v.query = parse_query(n["query"], f);
      v.protocol = parse_protocol(n["protocol"], n, f, what);
      v.reason = str(n, "reason");
      v.see = str(n, "see");
      if (n["authors_code"]) {
        v.authors_code = parse_authors_code(n["authors_code"], f, what);
        if (!covers(*v.authors_code, v.query.series))
          throw InputError(at(f, n["authors_code"]), what + ": authors_code series do not include the value's series '" + v.query.series + "'",
                           "drop 'series' (a single value has one series)");
      }
      ref.values.push_back(v);
    }
    // Compact tables: values[metric][dataset][series] = number (null = not published). protocol,
    // reason and see apply to every value of the table; `overrides` change them for the values
    // matching {metric, dataset, series} (each optional).
    for (const auto& t : root["tables"]) {
      const std::string tid = str(t, "id");
      const std::string what = "table '" + tid + "'";
      check_keys(t, {"id", "paper", "source", "setting", "experiment", "params", "where", "tolerance", "tolerance_relative", "values", "protocol",
                     "reason", "see", "overrides", "authors_code"},
                 f, what);
      double tol = 0;
      bool rel = false;
      read_tolerance(t, tol, rel, f);
      Query base = parse_query(t, f);
      const Protocol protocol = parse_protocol(t["protocol"], t, f, what);
      std::optional<AuthorsCode> authors;
      if (t["authors_code"]) authors = parse_authors_code(t["authors_code"], f, what);
      std::set<std::string> authors_series_seen;
      const std::size_t first = ref.values.size();
      for (const auto& m : t["values"])
        for (const auto& d : m.second)
          for (const auto& s : d.second) {
            if (!s.second.IsScalar() || s.second.Scalar() == "null" || s.second.Scalar() == "~") continue;
            PublishedValue v;
            v.paper = str(t, "paper");
            v.source = str(t, "source");
            v.query = base;
            v.query.metric = m.first.as<std::string>();
            v.query.dataset = d.first.as<std::string>();
            v.query.series = s.first.as<std::string>();
            v.id = tid + "." + v.query.metric + "." + v.query.dataset + "." + v.query.series;
            v.setting = str(t, "setting");
            v.value = s.second.as<double>();
            v.value_text = s.second.Scalar();
            if (authors && covers(*authors, v.query.series)) {
              v.authors_code = authors;
              authors_series_seen.insert(v.query.series);
            }
            v.tolerance = tol;
            v.relative = rel;
            v.protocol = protocol;
            v.reason = str(t, "reason");
            v.see = str(t, "see");
            ref.values.push_back(v);
          }
      if (authors)
        for (const auto& sr : authors->series)
          if (!authors_series_seen.count(sr))
            throw InputError(at(f, t["authors_code"]), what + ": authors_code series '" + sr + "' is not a series of the table's values",
                             "name series of the table's values (or drop 'series' for all)");
      for (const auto& o : t["overrides"]) {
        const std::string owhat = what + " override";
        check_keys(o, {"metric", "dataset", "series", "protocol", "reason", "see"}, f, owhat);
        const std::string om = str(o, "metric"), od = str(o, "dataset"), os = str(o, "series");
        std::size_t matched = 0;
        for (std::size_t i = first; i < ref.values.size(); ++i) {
          PublishedValue& v = ref.values[i];
          if ((!om.empty() && om != v.query.metric) || (!od.empty() && od != v.query.dataset) || (!os.empty() && os != v.query.series)) continue;
          ++matched;
          if (o["protocol"]) v.protocol = parse_protocol(o["protocol"], o, f, "published value '" + v.id + "'");
          if (o["reason"]) v.reason = str(o, "reason");
          if (o["see"]) v.see = str(o, "see");
        }
        if (matched == 0)
          throw InputError(at(f, o), owhat + " {metric: '" + om + "', dataset: '" + od + "', series: '" + os + "'} matches no published value",
                           "name a metric, dataset and series of the table's values");
      }
    }
    for (const auto& n : root["claims"]) {
      Claim c;
      c.id = str(n, "id");
      const std::string what = "claim '" + c.id + "'";
      c.paper = str(n, "paper");
      c.source = str(n, "source");
      c.text = str(n, "text");
      const std::string kind = str(n, "kind", "ordering");
      if (kind == "ordering") c.kind = ClaimKind::ordering;
      else if (kind == "threshold") c.kind = ClaimKind::threshold;
      else if (kind == "best_at") c.kind = ClaimKind::best_at;
      else throw InputError(at(f, n["kind"]), "unknown claim kind '" + kind + "'", "one of: ordering, threshold, best_at");
      c.query = parse_query(n, f);
      c.lower_is_better = str(n, "better", "lower") == "lower";
      if (n["winners"]) c.winners = n["winners"].as<std::vector<std::string>>();
      if (n["losers"]) c.losers = n["losers"].as<std::vector<std::string>>();
      if (n["group_by"]) c.group_by = n["group_by"].as<std::vector<std::string>>();
      c.op = str(n, "op", "<");
      if (c.op != "<" && c.op != "<=" && c.op != ">" && c.op != ">=")
        throw InputError(at(f, n["op"]), what + ": op '" + c.op + "' is not one of <, <=, >, >=");
      if (n["bound"]) c.bound = n["bound"].as<double>();
      c.over = str(n, "over");
      if (n["expected"]) c.expected = n["expected"].as<double>();
      if (n["expected_tolerance"]) c.expected_tolerance = n["expected_tolerance"].as<double>();
      c.protocol = parse_protocol(n["protocol"], n, f, what);
      c.reason = str(n, "reason");
      c.see = str(n, "see");
      ref.claims.push_back(c);
    }
    // Published running times: seconds[dataset][column] = a number, or a string for the paper's "-"
    // (with its remark); `series_for` maps a column to the series name of the results where they differ.
    for (const auto& t : root["timings"]) {
      const std::string tid = str(t, "id");
      const std::string what = "timing table '" + tid + "'";
      check_keys(t, {"id", "paper", "source", "machine", "experiment", "metric", "params", "where", "series_for", "seconds"}, f, what);
      Query base = parse_query(t, f);
      if (base.metric.empty()) base.metric = "method_seconds";
      if (!is_timing_metric(base.metric))
        throw InputError(at(f, t["metric"]), what + ": metric '" + base.metric + "' is not a timing field", "method_seconds or metrics_seconds");
      std::map<std::string, std::string> series_for;
      if (t["series_for"])
        for (const auto& kv : t["series_for"]) series_for[kv.first.as<std::string>()] = kv.second.as<std::string>();
      if (!t["seconds"] || !t["seconds"].IsMap()) throw InputError(at(f, t), what + ": needs 'seconds: {dataset: {column: seconds}}'");
      for (const auto& d : t["seconds"])
        for (const auto& c : d.second) {
          PublishedTiming pt;
          pt.paper = str(t, "paper");
          pt.source = str(t, "source");
          pt.machine = str(t, "machine");
          pt.column = c.first.as<std::string>();
          pt.query = base;
          pt.query.dataset = d.first.as<std::string>();
          pt.query.series = series_for.count(pt.column) ? series_for.at(pt.column) : pt.column;
          pt.id = tid + "." + pt.query.dataset + "." + pt.column;
          if (!c.second.IsScalar()) throw InputError(at(f, c.second), "timing '" + pt.id + "': expected seconds or a remark");
          double x = 0;
          if (YAML::convert<double>::decode(c.second, x)) {
            if (!(x > 0)) throw InputError(at(f, c.second), "timing '" + pt.id + "': seconds must be > 0");
            pt.seconds = x;
          } else {
            pt.note = c.second.Scalar();
          }
          ref.timings.push_back(pt);
        }
    }
  } catch (const YAML::Exception& e) {
    throw InputError(f + ":" + std::to_string(e.mark.line + 1), std::string("bad entry: ") + e.what());
  }
  return ref;
}

Results::Results(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir.string(), "not a results directory", "pass the --out directory of `dpclust run`");
  for (const auto& e : fs::directory_iterator(dir)) {
    const fs::path audit = e.path() / "audit.json";
    if (fs::exists(audit)) {
      json a = json::parse(read_text_file(audit));
      if (a.value("schema", "") != "dpclust.audit/1")
        throw InputError(audit.string(), "not a dpclust audit (schema dpclust.audit/1)", "rerun `dpclust audit` or remove the file");
      const std::string name = a.value("experiment", e.path().filename().string());  // before `a` is moved
      audits_[name] = std::move(a);
    }
    const fs::path f = e.path() / "results.json";
    if (!fs::exists(f)) {
      const fs::path skip = e.path() / "skipped.json";
      if (fs::exists(skip)) {
        try {
          skipped_[e.path().filename().string()] = json::parse(read_text_file(skip));
        } catch (const std::exception&) {
          // A damaged note only loses the reason; the value is reported as not run either way.
        }
      }
      continue;
    }
    json j = json::parse(read_text_file(f));
    const std::string name = j.value("experiment", e.path().filename().string());
    experiments_[name] = std::move(j);
  }
}

std::string audit_section(const Results& results) {
  if (results.audits().empty()) return "";
  std::ostringstream md;
  std::size_t cells = 0, violations = 0;
  for (const auto& [name, a] : results.audits())
    for (const auto& c : a["cells"]) ++cells, violations += c.value("verdict", "") == "violation";
  md << "\n## Privacy audit\n\n"
     << "`dpclust audit` (README \"Privacy audit\") runs each private method many times on neighbouring datasets D, D' "
        "(one record added, removed or replaced) and turns the frequencies of one output event into a lower bound on "
        "epsilon: the event is chosen on half of the runs, Clopper-Pearson bounds on the other half give eps_lower = "
        "ln((p_lo - delta) / p_hi) at the stated confidence (Bonferroni over a cell's pairs). *consistent*: eps_lower <= "
        "the claimed epsilon (for a local guarantee, eps per unit distance times d(x, x')); *violation*: the mechanism "
        "spends more than it claims, shown by the event. A consistent verdict is evidence, not a proof.\n\n"
     << cells << " cells audited, " << violations << " violation" << (violations == 1 ? "" : "s") << ".\n\n"
     << "| experiment | series | dataset | parameters | pair | claimed eps | eps_lower | estimate | verdict | event | runs/side | non-private conditions |\n"
     << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  auto num = [](const json& v) {
    if (v.is_string()) return v.get<std::string>();
    std::ostringstream o;
    o << std::setprecision(3) << v.get<double>();
    return o.str();
  };
  for (const auto& [name, a] : results.audits()) {
    for (const auto& c : a["cells"]) {
      std::string params;
      for (const auto& [k, v] : c["params"].items())
        if (k == "histogram" || k == "noise" || k == "variant" || k == "sensitivity" || k == "em_upper" || k == "resampling_budget" ||
            k == "epsilon" || k == "delta")
          params += (params.empty() ? "" : ", ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
      std::string flags;
      for (const auto& f : c["non_private"]) flags += (flags.empty() ? "" : "; ") + f.get<std::string>();
      for (const auto& p : c["pairs"]) {
        const json& ev = p["event"];
        std::string event = ev.value("feature", "");
        if (ev.contains("kind")) {
          event += " " + ev["kind"].get<std::string>();
          if (ev.contains("threshold")) event += " " + num(ev["threshold"]);
          event += " (more often on " + ev.value("numerator", std::string("?")) + ")";
        }
        const bool violation = p.value("verdict", "") == "violation";
        md << "| " << name << " | " << c.value("series", "") << " | " << c.value("dataset", "") << " | " << params << " | "
           << p.value("pair", "") << " | " << num(p["eps_claimed"]) << " | " << num(p["eps_lower"]) << " | " << num(p["eps_estimate"])
           << " | " << (violation ? "**violation**" : "consistent") << " | `" << event << "` | " << c.value("runs_per_side", 0) << " | "
           << (flags.empty() ? "-" : flags) << " |\n";
      }
    }
  }
  return md.str();
}

std::vector<const json*> Results::cells(const Query& q) const {
  std::vector<const json*> out;
  auto it = experiments_.find(q.experiment);
  if (it == experiments_.end()) return out;
  for (const auto& cell : it->second["cells"]) {
    if (!q.dataset.empty() && cell["dataset"] != q.dataset) continue;
    if (!q.series.empty() && cell["series"] != q.series) continue;
    bool ok = true;
    for (const auto& [k, v] : q.params) ok = ok && cell["params"].contains(k) && cell["params"][k].is_number() && close(cell["params"][k].get<double>(), v);
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
constexpr std::pair<const char*, const char*> kSources[] = {
    {"aggregates", "metrics"}, {"diagnostics_aggregates", "diagnostics"}, {"evaluation_aggregates", "evaluation"}, {"timing", "timing"}};
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
      if (t.contains(part) && t[part].is_object() && t[part].contains(metric) && t[part][metric].is_number()) out.push_back(t[part][metric].get<double>());
    return out;
  }
  return out;
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::holds: return "holds";
    case Verdict::within_seed_variance: return "within seed variance";
    case Verdict::differs: return "differs";
    case Verdict::not_run: return "not run";
  }
  return "?";
}

Verdict judge(double published, double tolerance, bool relative, std::optional<double> reproduced) {
  if (!reproduced || !std::isfinite(*reproduced)) return Verdict::not_run;
  const double tol = relative ? tolerance * std::fabs(published) : tolerance;
  return std::fabs(*reproduced - published) <= tol + 1e-12 ? Verdict::holds : Verdict::differs;
}

std::size_t min_trials_for(const Protocol& p, const VerdictSettings& s) {
  // 2k: with fewer trials the k-subsets overlap so much that their statistic hardly varies (n = k
  // gives a single subset, the mean itself).
  const std::size_t k = p.statistic == SeedStatistic::single ? 1 : p.seeds;
  return std::max(s.min_trials_for_variance, 2 * k);
}

Verdict judge_seed_variance(Verdict tolerance_verdict, double published, const std::vector<double>& trials, const Protocol& p,
                            const VerdictSettings& s, ValueOutcome& out) {
  if (tolerance_verdict == Verdict::not_run) return Verdict::not_run;
  const std::size_t need = min_trials_for(p, s);
  if (trials.size() < need) {
    if (tolerance_verdict != Verdict::holds)
      out.note = "too few trials for a variance verdict (n < " + std::to_string(need) + "); tolerance verdict";
    return tolerance_verdict;
  }
  const SeedDistribution d = k_seed_distribution(trials, p, s.resample);
  out.percentile = percentile(d, published);
  out.band = central_interval(d, s.coverage);
  out.band_exact = d.exact;
  if (tolerance_verdict == Verdict::holds) return Verdict::holds;
  return inside_central(d, published, s.coverage) ? Verdict::within_seed_variance : Verdict::differs;
}

ValueOutcome evaluate(const PublishedValue& v, const Results& results, const VerdictSettings& s) {
  ValueOutcome out;
  auto cells = results.cells(v.query);
  if (cells.empty()) {
    if (results.experiments().count(v.query.experiment)) {
      out.note = "no matching cell";
    } else if (auto sk = results.skipped().find(v.query.experiment); sk != results.skipped().end()) {
      out.note = "skipped: " + sk->second.value("reason", std::string("data missing"));
      if (sk->second.contains("fix")) out.note += "; fix: " + sk->second["fix"].get<std::string>();
    } else {
      out.note = "experiment '" + v.query.experiment + "' not in the results";
    }
    return out;
  }
  if (cells.size() > 1) {
    out.note = std::to_string(cells.size()) + " cells match: the reference entry needs a parameter filter";
    return out;
  }
  const json* st = statistic(*cells[0], v.query.metric);
  if (!st || !st->contains("mean") || !(*st)["mean"].is_number()) {
    out.note = "metric '" + v.query.metric + "' not computed";
    return out;
  }
  out.mean = (*st)["mean"].get<double>();
  out.trials = st->value("n", std::size_t{0});
  if (st->contains("ci95") && (*st)["ci95"].is_array()) out.ci95 = std::make_pair((*st)["ci95"][0].get<double>(), (*st)["ci95"][1].get<double>());
  out.tolerance_verdict = judge(v.value, v.tolerance, v.relative, out.mean);
  out.verdict = judge_seed_variance(out.tolerance_verdict, v.value, trial_values(*cells[0], v.query.metric), v.protocol, s, out);
  return out;
}

int printed_decimals(const std::string& text) {
  std::string t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
  int exponent = 0;
  const auto e = t.find_first_of("eE");
  if (e != std::string::npos) {
    try {
      exponent = std::stoi(t.substr(e + 1));
    } catch (const std::exception&) {
      exponent = 0;
    }
    t = t.substr(0, e);
  }
  const auto dot = t.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(t.size() - dot - 1);
  return std::clamp(decimals - exponent, 0, 17);
}

std::size_t parse_min_trials_for_variance(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return InputError("--min-trials-for-variance", why + ", got '" + text + "'",
                      "give an integer >= 2: the fewest trials of a cell that allow a variance verdict (the reference file's "
                      "verdicts.min_trials_for_variance otherwise)");
  };
  if (text.empty() || text.size() > 7 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw bad("must be an integer >= 2 and <= 1000000");
  const std::size_t n = std::stoul(text);
  if (n < 2 || n > 1000000) throw bad("must be an integer >= 2 and <= 1000000");
  return n;
}

namespace {

// The part of each trial (metrics, diagnostics, evaluation, timing) that holds `metric`, as statistic() finds it.
const char* trial_part(const json& cell, const std::string& metric) {
  for (const auto& [where, part] : kSources)
    if (cell.contains(where) && cell[where].is_object() && cell[where].contains(metric)) return part;
  return nullptr;
}

// x rounded to `decimals` as printed ("-0.00" printed as "0.00").
std::string rounded(double x, int decimals) {
  std::string r = fmt(x, decimals);
  if (!r.empty() && r[0] == '-' && r.find_first_not_of("-0.") == std::string::npos) r.erase(0, 1);
  return r;
}

std::string signed_fmt(double x, int digits) { return (x >= 0 ? "+" : "") + fmt(x, digits); }

}  // namespace

AuthorsOutcome evaluate_authors(const PublishedValue& v, const Results& results, const VerdictSettings& s) {
  AuthorsOutcome out;
  if (!v.authors_code) {
    out.status = "no authors_code";
    return out;
  }
  const AuthorsCode& a = *v.authors_code;
  Query q = v.query;
  q.experiment = a.experiment;
  if (!results.experiments().count(a.experiment)) {
    out.status = "not run (configs/paper/" + a.experiment + ".yaml)";
    if (auto sk = results.skipped().find(a.experiment); sk != results.skipped().end())
      out.status += "; skipped: " + sk->second.value("reason", std::string("data missing"));
    return out;
  }
  if (!a.by_seeds) {  // the authors' code options with our seeds: the usual verdicts
    PublishedValue w = v;
    w.query = q;
    out.tolerance = evaluate(w, results, s);
    out.reproduced = out.tolerance.mean;
    out.run = out.reproduced.has_value();
    if (out.reproduced) out.difference = *out.reproduced - v.value;
    out.status = to_string(out.tolerance.verdict);
    if (out.tolerance.verdict != out.tolerance.tolerance_verdict && out.tolerance.tolerance_verdict != Verdict::not_run)
      out.status += std::string(" (tolerance alone: ") + to_string(out.tolerance.tolerance_verdict) + ")";
    if (!out.tolerance.note.empty()) out.status += " (" + out.tolerance.note + ")";
    return out;
  }
  const auto cells = results.cells(q);
  if (cells.empty()) {
    out.status = "no matching cell in " + a.experiment;
    return out;
  }
  if (cells.size() > 1) {
    out.status = std::to_string(cells.size()) + " cells of " + a.experiment + " match: the reference entry needs a parameter filter";
    return out;
  }
  const json& cell = *cells[0];
  out.run = true;
  const char* part = trial_part(cell, v.query.metric);
  if (!part) {
    out.status = "metric '" + v.query.metric + "' not computed";
    return out;
  }
  std::map<std::uint64_t, double> by_seed;  // seeded trials with a number (NaN is stored as null)
  if (cell.contains("trials") && cell["trials"].is_array())
    for (const auto& t : cell["trials"]) {
      if (!t.contains("seed") || !t["seed"].is_number_integer()) continue;  // unsigned counts as integer too
      if (!t["seed"].is_number_unsigned() && t["seed"].get<long long>() < 0) continue;
      if (!t.contains(part) || !t[part].is_object() || !t[part].contains(v.query.metric) || !t[part][v.query.metric].is_number()) continue;
      by_seed.emplace(t["seed"].get<std::uint64_t>(), t[part][v.query.metric].get<double>());
    }
  out.per_seed.assign(by_seed.begin(), by_seed.end());
  const std::size_t k = v.protocol.statistic == SeedStatistic::single ? 1 : v.protocol.seeds;
  std::vector<double> xs;
  for (std::uint64_t seed = 0; seed < k; ++seed) {
    auto it = by_seed.find(seed);
    if (it == by_seed.end()) out.missing_seeds.push_back(seed);
    else xs.push_back(it->second);
  }
  if (!out.missing_seeds.empty()) {
    out.status = "missing seeds ";
    for (std::size_t i = 0; i < out.missing_seeds.size(); ++i) out.status += (i ? ", " : "") + std::to_string(out.missing_seeds[i]);
    return out;
  }
  if (v.protocol.statistic == SeedStatistic::median) {
    std::sort(xs.begin(), xs.end());
    out.reproduced = xs.size() % 2 ? xs[xs.size() / 2] : 0.5 * (xs[xs.size() / 2 - 1] + xs[xs.size() / 2]);
  } else {
    double sum = 0;
    for (double x : xs) sum += x;
    out.reproduced = sum / static_cast<double>(xs.size());
  }
  std::string text = v.value_text;
  if (text.empty()) {  // a value built in code: its shortest decimal form
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.12g", v.value);
    text = buf;
  }
  const int decimals = printed_decimals(text);
  out.difference = *out.reproduced - v.value;
  out.exact = rounded(*out.reproduced, decimals) == rounded(v.value, decimals);
  out.status = *out.exact ? "exact" : "differs by " + signed_fmt(out.difference, decimals + 1);
  return out;
}

namespace {

// The k-seed statistic of a cell's metric; empty when the cell has fewer trials than the protocol needs.
SeedDistribution k_seed(const json& cell, const Claim& c, const VerdictSettings& s) {
  const std::vector<double> t = trial_values(cell, c.query.metric);
  if (t.size() < min_trials_for(c.protocol, s)) return {};
  return k_seed_distribution(t, c.protocol, s.resample);
}

std::string too_few(const Claim& c, const VerdictSettings& s) {
  return "too few trials for a variance verdict (n < " + std::to_string(min_trials_for(c.protocol, s)) + ")";
}

}  // namespace

// Claims use the seed-variance machinery where they compare a mean against a bound:
//   threshold  a cell whose mean violates the bound is "within seed variance" when the bound lies
//              inside the central 95% of the cell's k-seed statistic (k runs of the paper could have
//              landed on the claimed side), else it differs;
//   ordering   a group whose means violate "winner better than loser" is "within seed variance" when
//              0 lies inside the central 95% of the difference of the two k-seed statistics (winner
//              minus loser, independent k-subsets of each series' trials), else it differs;
//   best_at    compares averages over cells, judged on the means alone.
// The claim holds when every cell or group satisfies it on the means; it is within seed variance when
// every violation is; it differs when one violation is outside its band (or cannot be judged for too
// few trials).
ClaimOutcome evaluate(const Claim& c, const Results& results, const VerdictSettings& s) {
  ClaimOutcome out;
  std::vector<std::string> violations;
  const auto better = [&](double a, double b) { return c.lower_is_better ? a < b : a > b; };
  if (c.kind == ClaimKind::ordering) {
    Query q = c.query;
    q.series.clear();
    std::map<std::string, std::map<std::string, const json*>> groups;  // group -> series -> cell
    for (const json* cell : results.cells(q)) groups[group_key(*cell, c.group_by)][(*cell)["series"].get<std::string>()] = cell;
    for (const auto& [g, cells] : groups) {
      std::map<std::string, double> means;
      for (const auto& [series, cell] : cells) means[series] = mean_of(*cell, c.query.metric);
      bool complete = true;
      for (const auto& sr : c.winners) complete = complete && means.count(sr) && std::isfinite(means.at(sr));
      for (const auto& sr : c.losers) complete = complete && means.count(sr) && std::isfinite(means.at(sr));
      if (!complete) continue;
      ++out.checked;
      bool ok = true, all_within = true;
      for (const auto& w : c.winners)
        for (const auto& l : c.losers) {
          if (better(means.at(w), means.at(l))) continue;
          ok = false;
          std::string why;
          const SeedDistribution a = k_seed(*cells.at(w), c, s), b = k_seed(*cells.at(l), c, s);
          if (a.values.empty() || b.values.empty()) {
            all_within = false;
            why = too_few(c, s);
          } else {
            const SeedDistribution d = difference_distribution(a, b, s.resample);
            const bool within = inside_central(d, 0.0, s.coverage);
            all_within = all_within && within;
            why = "0 at percentile " + fmt(percentile(d, 0.0), 1) + " of the k-seed difference: " +
                  (within ? "within seed variance" : "differs");
          }
          if (violations.size() < 4)
            violations.push_back(g + ": " + w + " " + fmt_value(c.query.metric, means.at(w)) + " vs " + l + " " +
                                 fmt_value(c.query.metric, means.at(l)) + " (" + why + ")");
        }
      out.satisfied += ok;
      out.within += !ok && all_within;
    }
  } else if (c.kind == ClaimKind::threshold) {
    for (const json* cell : results.cells(c.query)) {
      const double m = mean_of(*cell, c.query.metric);
      if (!std::isfinite(m)) continue;
      ++out.checked;
      bool ok = c.op == "<" ? m < c.bound : c.op == "<=" ? m <= c.bound : c.op == ">" ? m > c.bound : m >= c.bound;
      out.satisfied += ok;
      if (ok) continue;
      std::string why;
      const SeedDistribution d = k_seed(*cell, c, s);
      if (d.values.empty()) {
        why = too_few(c, s);
      } else {
        const bool within = inside_central(d, c.bound, s.coverage);
        out.within += within;
        why = "bound at percentile " + fmt(percentile(d, c.bound), 1) + " of the k-seed statistic: " + (within ? "within seed variance" : "differs");
      }
      if (violations.size() < 4) {
        // Name the cell by the parameters the claim filters on (the others are fixed).
        std::string at_params;
        for (const auto& [k, r] : c.query.where) at_params += " " + k + "=" + (*cell)["params"][k].dump();
        violations.push_back((*cell)["dataset"].get<std::string>() + " " + (*cell)["series"].get<std::string>() + at_params + ": " + fmt_value(c.query.metric, m) + " (" +
                             why + ")");
      }
    }
  } else {  // best_at: the metric averaged over the other parameters, for each value of `over`
    std::map<double, std::pair<double, std::size_t>> by_value;  // value -> (sum of means, cells)
    for (const json* cell : results.cells(c.query)) {
      const double m = mean_of(*cell, c.query.metric);
      if (!std::isfinite(m) || !(*cell)["params"].contains(c.over)) continue;
      ++out.checked;
      auto& acc = by_value[(*cell)["params"][c.over].get<double>()];
      acc.first += m;
      ++acc.second;
    }
    double best = std::nan(""), best_at = std::nan("");
    for (const auto& [value, acc] : by_value) {
      const double avg = acc.first / static_cast<double>(acc.second);
      if (!std::isfinite(best) || better(avg, best)) {
        best = avg;
        best_at = value;
      }
    }
    if (out.checked > 0) {
      out.satisfied = std::fabs(best_at - c.expected) <= c.expected_tolerance + 1e-12 ? out.checked : 0;
      out.detail = "best mean " + c.query.metric + " " + fmt(best) + " at " + c.over + " = " + fmt(best_at, 2);
    }
  }
  if (out.checked == 0) {
    out.verdict = out.tolerance_verdict = Verdict::not_run;
    if (out.detail.empty()) out.detail = "no results cover it";
  } else {
    out.tolerance_verdict = out.satisfied == out.checked ? Verdict::holds : Verdict::differs;
    out.verdict = out.satisfied == out.checked                ? Verdict::holds
                  : out.satisfied + out.within == out.checked ? Verdict::within_seed_variance
                                                              : Verdict::differs;
  }
  for (const auto& v : violations) out.detail += (out.detail.empty() ? "" : "; ") + v;
  return out;
}

TimingOutcome evaluate(const PublishedTiming& t, const Results& results) {
  TimingOutcome out;
  const auto cells = results.cells(t.query);
  if (cells.empty()) {
    if (!results.experiments().count(t.query.experiment))
      out.note = results.skipped().count(t.query.experiment) ? "skipped (data missing)" : "experiment '" + t.query.experiment + "' not in the results";
    else
      out.note = "no matching cell";
    return out;
  }
  if (cells.size() > 1) {
    out.note = std::to_string(cells.size()) + " cells match";
    return out;
  }
  std::vector<double> v = trial_values(*cells[0], t.query.metric);
  if (v.empty()) {
    out.note = "no '" + t.query.metric + "' recorded";
    return out;
  }
  std::sort(v.begin(), v.end());
  out.trials = v.size();
  out.median_seconds = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  return out;
}

namespace {

std::string show(Verdict v) {
  return v == Verdict::differs ? std::string("**differs**") : v == Verdict::within_seed_variance ? std::string("*within seed variance*") : to_string(v);
}

// Text for a Markdown table cell: a '|' would end the cell.
std::string cell_text(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|') out += '\\';
    out += ch;
  }
  return out;
}

// Markdown-safe anchor for an entry id.
std::string anchor(const std::string& id) {
  std::string a = "why-";
  for (char ch : id) a += std::isalnum(static_cast<unsigned char>(ch)) ? static_cast<char>(std::tolower(static_cast<unsigned char>(ch))) : '-';
  return a;
}

std::string reason_line(const std::string& id, const std::string& reason, const std::string& see, Verdict v) {
  std::string line = "- <a id=\"" + anchor(id) + "\"></a>`" + id + "` (" + to_string(v) + "): " + reason;
  if (!see.empty()) line += " (see " + (see.find("://") != std::string::npos ? "<" + see + ">" : see) + ")";
  return line + "\n";
}

// The match column of the authors' section: "differs by ..." in bold, a verdict as show() writes it.
std::string show_status(const AuthorsOutcome& o, const AuthorsCode& a) {
  if (a.by_seeds) return o.exact && !*o.exact ? "**" + o.status + "**" : o.status;
  const std::string v = to_string(o.tolerance.verdict);
  return o.status.compare(0, v.size(), v) == 0 ? show(o.tolerance.verdict) + o.status.substr(v.size()) : o.status;
}

// "[lo, hi]" of an interval (a 95% CI, a k-seed band), "-" when there is none.
std::string interval(const std::optional<std::pair<double, double>>& r) {
  return r ? "[" + fmt(r->first) + ", " + fmt(r->second) + "]" : std::string("-");
}

// One row of a claims table (per paper, or about running time); the claim's reason goes to `reasons`
// when it differs or is within seed variance.
void claim_row(std::ostream& md, const Claim& c, const ClaimOutcome& o, std::string& reasons) {
  const bool explain = !c.reason.empty() && (o.verdict == Verdict::differs || o.verdict == Verdict::within_seed_variance);
  if (explain) reasons += reason_line(c.id, c.reason, c.see, o.verdict);
  md << "| " << cell_text(c.text) << " | " << c.source << " | " << describe(c.protocol) << " | " << o.satisfied << "/" << o.checked << " | "
     << to_string(o.tolerance_verdict) << " | " << show(o.verdict) << (explain ? " ([why](#" + anchor(c.id) + "))" : "") << " | "
     << cell_text(o.detail) << " |\n";
}

constexpr const char* kClaimsHeader = "| claim | source | protocol | checked | tolerance | verdict | detail |\n|---|---|---|---|---|---|---|\n";

// Threads of the runs that produced an experiment (provenance.runs[].threads), or "not recorded".
std::string threads_of(const json& experiment) {
  std::set<long long> threads;
  bool missing = false;
  const json prov = experiment.value("provenance", json::object());
  for (const auto& run : prov.value("runs", json::array())) {
    if (run.contains("threads") && run["threads"].is_number()) threads.insert(run["threads"].get<long long>());
    else missing = true;
  }
  if (threads.empty()) return "not recorded";
  std::string out;
  for (long long t : threads) out += (out.empty() ? "" : ", ") + std::to_string(t);
  return out + (missing ? " (some runs not recorded)" : "");
}

}  // namespace

std::string write_markdown(const Reference& ref, const Results& results, const ReportOptions& opts) {
  VerdictSettings settings = ref.verdicts;
  if (opts.min_trials_for_variance) settings.min_trials_for_variance = *opts.min_trials_for_variance;
  std::ostringstream md;
  std::map<Verdict, int> vcount, ccount, vtol, ctol;
  std::vector<ValueOutcome> vout;
  std::vector<ClaimOutcome> cout_;
  for (const auto& v : ref.values) {
    const auto& o = vout.emplace_back(evaluate(v, results, settings));
    vcount[o.verdict]++;
    vtol[o.tolerance_verdict]++;
  }
  for (const auto& c : ref.claims) {
    const auto& o = cout_.emplace_back(evaluate(c, results, settings));
    ccount[o.verdict]++;
    ctol[o.tolerance_verdict]++;
  }
  const auto pct = [](double c) { return fmt(100 * c, 0) + "%"; };

  md << "# dpclust reproduction report\n\n"
     << "Generated " << utc_now_iso8601() << " by dpclust " << build_info().version << " (git " << build_info().git_commit.substr(0, 12)
     << ") from " << results.experiments().size() << " experiment results.\n\n"
     << "| | holds | within seed variance | differs | not run | tolerance alone: holds / differs |\n|---|---|---|---|---|---|\n"
     << "| published values | " << vcount[Verdict::holds] << " | " << vcount[Verdict::within_seed_variance] << " | " << vcount[Verdict::differs]
     << " | " << vcount[Verdict::not_run] << " | " << vtol[Verdict::holds] << " / " << vtol[Verdict::differs] << " |\n"
     << "| claims | " << ccount[Verdict::holds] << " | " << ccount[Verdict::within_seed_variance] << " | " << ccount[Verdict::differs] << " | "
     << ccount[Verdict::not_run] << " | " << ctol[Verdict::holds] << " / " << ctol[Verdict::differs] << " |\n\n"
     << "Each published value was obtained by a protocol (a mean over k seeds, a single run, a median), stated in "
        "`reference/published.yaml`. A value *holds* when our mean over all trials is within the stated tolerance of the "
        "published one (column *tolerance*, the verdict alone); otherwise it is *within seed variance* when the published "
        "value lies inside the central "
     << pct(settings.coverage)
     << " of the distribution of the paper's statistic over k of our trials (column *k-seed band*: every k-subset of the "
        "trials, or "
     << settings.resample.resamples << " seeded random k-subsets when there are more than " << settings.resample.max_exact
     << "; *percentile*: where the published value falls in it), and *differs* when it lies outside. With fewer than max("
     << settings.min_trials_for_variance
     << ", 2k) trials there is no variance verdict and the tolerance verdict stands (run more trials: `--trials 30`). "
        "Claims use the same bands (see the README). *not run*: no result covers it (e.g. its data is absent).\n";

  std::vector<std::string> papers;
  for (const auto& v : ref.values)
    if (std::find(papers.begin(), papers.end(), v.paper) == papers.end()) papers.push_back(v.paper);
  for (const auto& c : ref.claims)
    if (!is_timing_metric(c.query.metric) && std::find(papers.begin(), papers.end(), c.paper) == papers.end()) papers.push_back(c.paper);
  for (const auto& p : papers) {
    md << "\n## " << (ref.papers.count(p) ? ref.papers.at(p) : p) << "\n\n";
    std::string reasons;
    bool header = false;
    for (std::size_t i = 0; i < ref.values.size(); ++i) {
      const auto& v = ref.values[i];
      if (v.paper != p) continue;
      if (!header) {
        md << "| source | setting | protocol | published | reproduced | 95% CI | trials | ± | tolerance | k-seed band | percentile | verdict |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
        header = true;
      }
      const auto& o = vout[i];
      std::string setting = v.setting;
      if (setting.empty()) {
        setting = v.query.dataset + (v.query.series.empty() ? "" : ", " + v.query.series) + ", " + v.query.metric;
        for (const auto& [k, x] : v.query.params) setting += ", " + k + "=" + fmt(x, 2);
      }
      const bool explain = !v.reason.empty() && (o.verdict == Verdict::differs || o.verdict == Verdict::within_seed_variance);
      const bool protocol_note = !v.protocol.note.empty();
      if (explain) reasons += reason_line(v.id, v.reason, v.see, o.verdict);
      if (protocol_note) reasons += "- `" + v.id + "` (protocol " + describe(v.protocol) + "): " + v.protocol.note + "\n";
      md << "| " << v.source << " | " << cell_text(setting) << " | " << describe(v.protocol) << " | " << fmt(v.value) << " | " << (o.mean ? fmt(*o.mean) : "-")
         << " | " << interval(o.ci95) << " | " << (o.trials ? std::to_string(o.trials) : "-")
         << " | " << (v.relative ? fmt(100 * v.tolerance, 0) + "%" : fmt(v.tolerance, 2)) << " | " << to_string(o.tolerance_verdict) << " | "
         << interval(o.band) << " | " << (o.percentile ? fmt(*o.percentile, 1) : "-")
         << " | " << show(o.verdict) << (explain ? " ([why](#" + anchor(v.id) + "))" : "") << (o.note.empty() ? "" : " (" + cell_text(o.note) + ")") << " |\n";
    }
    header = false;
    for (std::size_t i = 0; i < ref.claims.size(); ++i) {
      const auto& c = ref.claims[i];
      if (c.paper != p || is_timing_metric(c.query.metric)) continue;
      if (!header) {
        md << "\n" << kClaimsHeader;
        header = true;
      }
      claim_row(md, c, cout_[i], reasons);
    }
    if (!reasons.empty()) md << "\nReasons and notes:\n\n" << reasons;
  }

  // Published values with an `authors_code` experiment: the paper's protocol on the authors' own seeds.
  {
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < ref.values.size(); ++i)
      if (ref.values[i].authors_code) idx.push_back(i);
    if (!idx.empty()) {
      std::vector<AuthorsOutcome> ao;
      std::map<std::string, int> tally;
      for (std::size_t i : idx) {
        const auto& o = ao.emplace_back(evaluate_authors(ref.values[i], results, settings));
        const bool by_seeds = ref.values[i].authors_code->by_seeds;
        const std::string key = o.exact                                                 ? (*o.exact ? "exact" : "differ")
                                : !o.missing_seeds.empty()                              ? "missing seeds"
                                : by_seeds || o.tolerance.verdict == Verdict::not_run ? "not run"
                                                                                        : std::string("judged by tolerance: ") + to_string(o.tolerance.verdict);
        tally[key]++;
      }
      md << "\n## The authors' own seeds\n\n"
            "Published values whose `authors_code:` (`reference/published.yaml`) names an experiment run with the authors' own "
            "random stream and seeds: the paper's protocol recomputed on the trials whose record carries `\"seed\"` 0..K-1 (the "
            "mean of all K for a mean over K seeds, seed 0 for a single run; all K must be present), rounded to the published "
            "value's printed decimals: *exact* when it equals the published value, else the difference (reproduction - "
            "published). Entries marked `compare: tolerance` run the authors' code options with our seeds and are judged like "
            "the values above (tolerance, then seed variance). *ours (default config)* is the mean shown in the paper's table "
            "above, with its verdict.\n\n";
      std::string summary;
      for (const auto& [k, n] : tally) summary += (summary.empty() ? "" : ", ") + std::to_string(n) + " " + k;
      md << idx.size() << " values: " << summary << ".\n\n"
         << "| paper | source | dataset | series | metric | published | protocol | ours (default config) | verdict | authors' run | reproduction "
            "| per seed | match |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
      std::string notes;
      std::set<std::string> noted;
      for (std::size_t j = 0; j < idx.size(); ++j) {
        const PublishedValue& v = ref.values[idx[j]];
        const ValueOutcome& ours = vout[idx[j]];
        const AuthorsOutcome& o = ao[j];
        const AuthorsCode& a = *v.authors_code;
        std::string metric = v.query.metric;
        for (const auto& [k, x] : v.query.params) metric += ", " + k + "=" + fmt(x, 2);
        std::string repro = "-";
        if (o.reproduced) {
          repro = fmt_value(v.query.metric, *o.reproduced);
          if (!a.by_seeds)
            repro += " (mean of " + std::to_string(o.tolerance.trials) + " trials)";
          else if (v.protocol.statistic == SeedStatistic::single)
            repro += " (seed 0)";
          else
            repro += std::string(" (") + to_string(v.protocol.statistic) + " of seeds 0.." + std::to_string(v.protocol.seeds - 1) + ")";
        }
        std::string per_seed;
        for (std::size_t i = 0; i < o.per_seed.size() && i < 10; ++i)
          per_seed += (i ? ", " : "") + std::to_string(o.per_seed[i].first) + ": " + fmt_value(v.query.metric, o.per_seed[i].second);
        if (o.per_seed.size() > 10) per_seed += ", ... (" + std::to_string(o.per_seed.size()) + " seeds)";
        const std::string match = show_status(o, a);
        md << "| " << v.paper << " | " << v.source << " | " << v.query.dataset << " | " << v.query.series << " | " << cell_text(metric) << " | "
           << (v.value_text.empty() ? fmt(v.value) : v.value_text) << " | " << describe(v.protocol) << " | " << (ours.mean ? fmt_value(v.query.metric, *ours.mean) : "-")
           << " | " << show(ours.verdict) << " | " << cell_text(a.label) << " (`" << a.experiment << "`) | " << repro << " | "
           << (per_seed.empty() ? "-" : per_seed) << " | " << cell_text(match) << " |\n";
        if (!a.note.empty() && noted.insert(a.experiment + "\n" + a.note).second) notes += "- `" + a.experiment + "`: " + a.note + "\n";
      }
      if (!notes.empty()) md << "\nNotes:\n\n" << notes;
    }
  }

  // Running times: a comparison, not a verdict (other hardware, other language).
  if (!ref.timings.empty()) {
    md << "\n## Running times\n\n";
    std::set<std::string> machines, experiments;
    for (const auto& t : ref.timings) {
      if (!t.machine.empty()) machines.insert(t.source + " of " + (ref.papers.count(t.paper) ? ref.papers.at(t.paper) : t.paper) + ": " + t.machine);
      experiments.insert(t.query.experiment);
    }
    for (const auto& m : machines) md << "Published: " << m << ".\n";
    md << "\nOurs: the median over the trials of each cell's recorded `timing` field (`method_seconds`: the method "
          "alone, as the runner measured it), C++ "
       << build_info().build_type << " build. Threads of the runs, from each experiment's provenance:";
    for (const auto& e : experiments) {
      auto it = results.experiments().find(e);
      md << " " << e << ": " << (it == results.experiments().end() ? std::string("not in the results") : threads_of(it->second)) << ";";
    }
    md << " with more than one thread, trials of different cells run at the same time and share the machine, so time "
          "with `--threads 1`. The ratio is ours / the paper's.\n\n| source | dataset | method | series | ours (median) | trials | paper | ours / paper |\n"
          "|---|---|---|---|---|---|---|---|\n";
    for (const auto& t : ref.timings) {
      const TimingOutcome o = evaluate(t, results);
      md << "| " << t.source << " | " << t.query.dataset << " | " << t.column << " | " << t.query.series << " | "
         << (o.median_seconds ? fmt_time(*o.median_seconds) : "- (" + o.note + ")") << " | " << (o.trials ? std::to_string(o.trials) : "-") << " | "
         << (t.seconds ? fmt_time(*t.seconds) : t.note.empty() ? std::string("-") : cell_text(t.note)) << " | "
         << (o.median_seconds && t.seconds ? fmt(*o.median_seconds / *t.seconds, 3) : std::string("-")) << " |\n";
    }
    bool header = false;
    std::string reasons;
    for (std::size_t i = 0; i < ref.claims.size(); ++i) {
      const auto& c = ref.claims[i];
      if (!is_timing_metric(c.query.metric)) continue;
      if (!header) {
        md << "\nClaims about running time (checked on our times; the ordering, not the absolute time, is what carries over):\n\n"
           << kClaimsHeader;
        header = true;
      }
      claim_row(md, c, cout_[i], reasons);
    }
    if (!reasons.empty()) md << "\nReasons and notes:\n\n" << reasons;
  }

  if (!opts.figures_dir.empty() && fs::is_directory(opts.figures_dir)) {
    std::vector<fs::path> pngs;
    for (const auto& e : fs::directory_iterator(opts.figures_dir))
      if (e.path().extension() == ".png") pngs.push_back(e.path());
    std::sort(pngs.begin(), pngs.end());
    if (!pngs.empty()) {
      md << "\n## Figures\n\n";
      const fs::path base = opts.report_path.empty() ? fs::current_path() : fs::absolute(opts.report_path).parent_path();
      for (const auto& png : pngs) {
        const std::string rel = fs::relative(fs::absolute(png), base).string();
        md << "[<img src=\"" << rel << "\" width=\"240\" alt=\"" << png.stem().string() << "\">](" << rel << ") ";
      }
      md << "\n";
    }
  }

  md << audit_section(results);

  md << "\n## Provenance\n\n| experiment | config | cells | trials | commit(s) | runs (host, threads, wall s) |\n|---|---|---|---|---|---|\n";
  for (const auto& [name, r] : results.experiments()) {
    const auto& prov = r["provenance"];
    std::string commits, runs;
    for (const auto& c : prov.value("cell_git_commits", json::array())) commits += (commits.empty() ? "" : ", ") + c.get<std::string>().substr(0, 12);
    for (const auto& run : prov.value("runs", json::array()))
      runs += (runs.empty() ? "" : "; ") + run.value("host", "?") + ", " + std::to_string(run.value("threads", 0)) + ", " +
              fmt(run.value("wall_seconds", 0.0), 1);
    md << "| " << name << " | " << prov.value("config_file", "") << " (crc32 " << prov.value("config_crc32", "") << ") | " << r["cells"].size()
       << " | " << r.value("trials", 0) << " | " << commits << " | " << runs << " |\n";
  }
  return md.str();
}

}  // namespace dpclust::report
