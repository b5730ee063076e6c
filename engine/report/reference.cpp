// Reading the reference file (reference/published.yaml) into typed entries; see reference.hpp.
// The only file of the report that includes yaml-cpp (tests/report/layering_test.cpp checks it).
#include "report/reference.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "report/format.hpp"

namespace dpclust::report {
namespace fs = std::filesystem;

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
void check_keys(const YAML::Node& n, std::initializer_list<const char*> allowed, const std::string& file,
                const std::string& what) {
  if (!n.IsMap()) throw InputError(at(file, n), what + ": expected a map");
  std::vector<std::string> names(allowed.begin(), allowed.end());
  for (const auto& kv : n) {
    const std::string key = kv.first.as<std::string>();
    if (std::find(names.begin(), names.end(), key) != names.end()) continue;
    const std::string near = closest_match(key, names);
    throw InputError(at(file, kv.first), what + ": unknown key '" + key + "'",
                     near.empty() ? "" : "did you mean '" + near + "'?");
  }
}

constexpr const char* kProtocolForms =
    "protocol: {statistic: mean, seeds: K} (mean over K seeds), {statistic: median, seeds: K} or {statistic: single} "
    "(one run)";

// `protocol: {statistic: mean | median | single, seeds: K, note: "..."}`; `what` names the entry.
Protocol parse_protocol(const YAML::Node& n, const YAML::Node& owner, const std::string& file,
                        const std::string& what) {
  if (!n)
    throw InputError(at(file, owner), what + ": needs a 'protocol' (how the paper obtained the value)", kProtocolForms);
  check_keys(n, {"statistic", "seeds", "note"}, file, what + " protocol");
  Protocol p;
  const std::string stat = n["statistic"] ? n["statistic"].as<std::string>() : "";
  if (stat == "mean") p.statistic = SeedStatistic::mean;
  else if (stat == "median") p.statistic = SeedStatistic::median;
  else if (stat == "single") p.statistic = SeedStatistic::single;
  else
    throw InputError(at(file, n), what + ": protocol statistic '" + stat + "' is not one of mean, median, single",
                     kProtocolForms);
  if (p.statistic == SeedStatistic::single) {
    if (n["seeds"] && n["seeds"].as<long long>() != 1)
      throw InputError(at(file, n["seeds"]), what + ": a single-run protocol has no 'seeds' (or seeds: 1)",
                       kProtocolForms);
    p.seeds = 1;
  } else {
    if (!n["seeds"])
      throw InputError(at(file, n), what + ": protocol '" + stat + "' needs 'seeds' (how many runs the paper combined)",
                       kProtocolForms);
    const long long k = n["seeds"].as<long long>();
    if (k < 1 || k > 10000)
      throw InputError(at(file, n["seeds"]), what + ": protocol seeds must be in [1, 10000], got " + std::to_string(k));
    p.seeds = static_cast<std::size_t>(k);
  }
  p.note = str(n, "note");
  return p;
}

constexpr const char* kAuthorsForm =
    "authors_code: {experiment: E, series: [s1, ...], label: \"...\", compare: seeds | tolerance, note: \"...\"} (all "
    "but experiment optional)";

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
    throw InputError(at(file, n["compare"]),
                     what + ": authors_code compare '" + compare + "' is not one of seeds, tolerance", kAuthorsForm);
  a.by_seeds = compare == "seeds";
  a.note = str(n, "note");
  return a;
}

// A table's `source:` or `setting:`: one string for all its values, or a map from each dataset of the
// table's values to its own (DRBT Tables 17-20 are one entry over four datasets, one paper table each).
struct PerDataset {
  std::string all;
  std::map<std::string, std::string> by_dataset;
  bool mapped = false;
  const std::string& of(const std::string& dataset) const { return mapped ? by_dataset.at(dataset) : all; }
};

PerDataset per_dataset(const YAML::Node& t, const char* key, const std::set<std::string>& datasets,
                       const std::string& file, const std::string& what) {
  PerDataset p;
  const YAML::Node n = t[key];
  if (!n) return p;
  if (n.IsScalar()) {
    p.all = n.Scalar();
    return p;
  }
  const std::string form = std::string("give '") + key + ": \"...\"' for every value, or '" + key +
                           ": {dataset: \"...\", ...}' naming every dataset of the table's values";
  if (!n.IsMap())
    throw InputError(at(file, n), what + ": '" + key + "' must be a string or a map from dataset to string", form);
  p.mapped = true;
  for (const auto& kv : n) {
    const std::string d = kv.first.as<std::string>();
    if (!datasets.count(d)) {
      const std::string near = closest_match(d, std::vector<std::string>(datasets.begin(), datasets.end()));
      throw InputError(at(file, kv.first),
                       what + ": " + key + " names dataset '" + d + "', which has no value in the table",
                       near.empty() ? form : "did you mean '" + near + "'?");
    }
    if (!kv.second.IsScalar())
      throw InputError(at(file, kv.second), what + ": " + key + " of dataset '" + d + "' must be a string", form);
    p.by_dataset[d] = kv.second.Scalar();
  }
  for (const auto& d : datasets)
    if (!p.by_dataset.count(d))
      throw InputError(at(file, n), what + ": " + key + " has no entry for dataset '" + d + "'", form);
  return p;
}

VerdictSettings parse_verdict_settings(const YAML::Node& n, const std::string& file) {
  VerdictSettings s;
  if (!n) return s;
  check_keys(n, {"min_trials_for_variance", "coverage", "max_exact_subsets", "resamples", "resample_seed"}, file,
             "verdicts");
  if (n["min_trials_for_variance"]) {
    const long long m = n["min_trials_for_variance"].as<long long>();
    if (m < 2)
      throw InputError(at(file, n["min_trials_for_variance"]), "verdicts: min_trials_for_variance must be >= 2");
    s.min_trials_for_variance = static_cast<std::size_t>(m);
  }
  if (n["coverage"]) {
    s.coverage = n["coverage"].as<double>();
    if (!(s.coverage > 0 && s.coverage < 1))
      throw InputError(at(file, n["coverage"]), "verdicts: coverage must be in (0, 1), e.g. 0.95");
  }
  if (n["max_exact_subsets"]) s.resample.max_exact = n["max_exact_subsets"].as<std::size_t>();
  if (n["resamples"]) {
    s.resample.resamples = n["resamples"].as<std::size_t>();
    if (s.resample.resamples < 100) throw InputError(at(file, n["resamples"]), "verdicts: resamples must be >= 100");
  }
  if (n["resample_seed"]) s.resample.seed = n["resample_seed"].as<std::uint64_t>();
  return s;
}

// One setting for several values would print rows a reader cannot tell apart (DRBT Tables 12-16:
// RP1 and RP2 of one d_r): each row names what varies among the table's values and its setting
// does not already say (a per-dataset setting names the dataset). An empty setting is named by
// its query in the report (row_setting), which names all of them.
void table_settings_apart(std::vector<PublishedValue>& values, std::size_t first, bool per_dataset_setting) {
  std::set<std::string> ds, ss, ms;
  for (std::size_t i = first; i < values.size(); ++i) {
    ds.insert(values[i].query.dataset);
    ss.insert(values[i].query.series);
    ms.insert(values[i].query.metric);
  }
  for (std::size_t i = first; i < values.size() && values.size() - first > 1; ++i) {
    PublishedValue& v = values[i];
    if (v.setting.empty()) continue;
    if (ds.size() > 1 && !per_dataset_setting) v.setting = v.query.dataset + ", " + v.setting;
    if (ss.size() > 1) v.setting += ", " + (v.label.empty() ? v.query.series : v.label);
    if (ms.size() > 1) v.setting += ", " + v.query.metric;
  }
}

// One entry of `values`.
PublishedValue parse_value(const YAML::Node& n, const std::string& f) {
  PublishedValue v;
  v.id = str(n, "id");
  const std::string what = "published value '" + v.id + "'";
  check_keys(n,
             {"id", "paper", "source", "setting", "value", "tolerance", "tolerance_relative", "query", "protocol",
              "reason", "see", "authors_code", "authors_run"},
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
  v.authors_run = str(n, "authors_run");
  if (n["authors_code"]) {
    v.authors_code = parse_authors_code(n["authors_code"], f, what);
    if (!covers(*v.authors_code, v.query.series))
      throw InputError(at(f, n["authors_code"]),
                       what + ": authors_code series do not include the value's series '" + v.query.series + "'",
                       "drop 'series' (a single value has one series)");
  }
  return v;
}

// A compact table: values[metric][dataset][series] = number (null = not published). protocol,
// reason and see apply to every value of the table; `overrides` change them for the values
// matching {metric, dataset, series} (each optional). Appends the table's values to `values`; returns the index of its
// first.
std::size_t parse_table_values(const YAML::Node& t, const std::string& f, std::vector<PublishedValue>& values) {
  const std::string tid = str(t, "id");
  const std::string what = "table '" + tid + "'";
  check_keys(t,
             {"id", "paper", "source", "setting", "labels", "experiment", "params", "where", "tolerance",
              "tolerance_relative", "values", "protocol", "reason", "see", "overrides", "authors_code", "authors_run"},
             f, what);
  double tol = 0;
  bool rel = false;
  read_tolerance(t, tol, rel, f);
  Query base = parse_query(t, f);
  const Protocol protocol = parse_protocol(t["protocol"], t, f, what);
  std::optional<AuthorsCode> authors;
  if (t["authors_code"]) authors = parse_authors_code(t["authors_code"], f, what);
  std::set<std::string> authors_series_seen;
  const std::size_t first = values.size();
  const auto published = [](const YAML::Node& x) { return x.IsScalar() && x.Scalar() != "null" && x.Scalar() != "~"; };
  std::set<std::string> datasets;  // those with a published value
  for (const auto& m : t["values"])
    for (const auto& d : m.second)
      for (const auto& s : d.second)
        if (published(s.second)) datasets.insert(d.first.as<std::string>());
  const PerDataset source = per_dataset(t, "source", datasets, f, what),
                   setting = per_dataset(t, "setting", datasets, f, what);
  // `labels: {series: "RP1, orthonormal"}`: how the setting column names a series (unused ones allowed,
  // so that one anchored map serves a family of tables).
  std::map<std::string, std::string> labels;
  if (t["labels"]) {
    if (!t["labels"].IsMap())
      throw InputError(at(f, t["labels"]), what + ": 'labels' must be a map from series to its name in the report");
    for (const auto& kv : t["labels"]) labels[kv.first.as<std::string>()] = kv.second.as<std::string>();
  }
  for (const auto& m : t["values"])
    for (const auto& d : m.second)
      for (const auto& s : d.second) {
        if (!published(s.second)) continue;
        PublishedValue v;
        v.paper = str(t, "paper");
        v.query = base;
        v.query.metric = m.first.as<std::string>();
        v.query.dataset = d.first.as<std::string>();
        v.query.series = s.first.as<std::string>();
        v.id = tid + "." + v.query.metric + "." + v.query.dataset + "." + v.query.series;
        v.source = source.of(v.query.dataset);
        v.setting = setting.of(v.query.dataset);
        if (auto l = labels.find(v.query.series); l != labels.end()) v.label = l->second;
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
        v.authors_run = str(t, "authors_run");
        values.push_back(v);
      }
  table_settings_apart(values, first, setting.mapped);
  if (authors)
    for (const auto& sr : authors->series)
      if (!authors_series_seen.count(sr))
        throw InputError(at(f, t["authors_code"]),
                         what + ": authors_code series '" + sr + "' is not a series of the table's values",
                         "name series of the table's values (or drop 'series' for all)");
  return first;
}

// `overrides`: protocol, reason and see for the table's values matching {metric, dataset, series} (each optional).
void apply_table_overrides(const YAML::Node& t, const std::string& f, const std::string& what,
                           std::vector<PublishedValue>& values, std::size_t first) {
  for (const auto& o : t["overrides"]) {
    const std::string owhat = what + " override";
    check_keys(o, {"metric", "dataset", "series", "protocol", "reason", "see"}, f, owhat);
    const std::string om = str(o, "metric"), od = str(o, "dataset"), os = str(o, "series");
    std::size_t matched = 0;
    for (std::size_t i = first; i < values.size(); ++i) {
      PublishedValue& v = values[i];
      if ((!om.empty() && om != v.query.metric) || (!od.empty() && od != v.query.dataset) ||
          (!os.empty() && os != v.query.series))
        continue;
      ++matched;
      if (o["protocol"]) v.protocol = parse_protocol(o["protocol"], o, f, "published value '" + v.id + "'");
      if (o["reason"]) v.reason = str(o, "reason");
      if (o["see"]) v.see = str(o, "see");
    }
    if (matched == 0)
      throw InputError(
          at(f, o),
          owhat + " {metric: '" + om + "', dataset: '" + od + "', series: '" + os + "'} matches no published value",
          "name a metric, dataset and series of the table's values");
  }
}

// One entry of `claims`.
Claim parse_claim(const YAML::Node& n, const std::string& f) {
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
  else if (kind == "gap_reduction") c.kind = ClaimKind::gap_reduction;
  else if (kind == "auc_reduction") c.kind = ClaimKind::auc_reduction;
  else
    throw InputError(at(f, n["kind"]), "unknown claim kind '" + kind + "'",
                     "one of: ordering, threshold, best_at, gap_reduction, auc_reduction");
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
  c.baseline = str(n, "baseline");
  c.against = str(n, "against");
  if (c.kind == ClaimKind::gap_reduction) {
    if (c.query.series.empty() || c.baseline.empty() || c.against.empty() || c.query.metric.empty())
      throw InputError(at(f, n), what + ": a gap_reduction claim needs series, baseline, against and metric",
                       "e.g. {series: dpm, baseline: kmeans, against: lsh_splits, metric: inertia}");
    if (c.group_by.empty()) c.group_by = {"dataset"};
  }
  if (c.kind == ClaimKind::auc_reduction) {
    if (c.query.series.empty() || c.against.empty() || c.query.metric.empty() || c.over.empty())
      throw InputError(at(f, n), what + ": an auc_reduction claim needs series, against, metric and over",
                       "e.g. {series: fastlloyd, against: sulloyd, metric: nicv, over: epsilon}");
    if (c.group_by.empty()) c.group_by = {"dataset"};
  }
  c.protocol = parse_protocol(n["protocol"], n, f, what);
  c.reason = str(n, "reason");
  c.see = str(n, "see");
  return c;
}

// Published running times: seconds[dataset][column] = a number, or a string for the paper's "-"
// (with its remark); `series_for` maps a column to the series name of the results where they differ.
void parse_timing_table(const YAML::Node& t, const std::string& f, std::vector<PublishedTiming>& timings) {
  const std::string tid = str(t, "id");
  const std::string what = "timing table '" + tid + "'";
  check_keys(t,
             {"id", "paper", "source", "machine", "experiment", "metric", "params", "where", "series_for", "seconds"},
             f, what);
  Query base = parse_query(t, f);
  if (base.metric.empty()) base.metric = "method_seconds";
  if (!is_timing_metric(base.metric))
    throw InputError(at(f, t["metric"]), what + ": metric '" + base.metric + "' is not a timing field",
                     "method_seconds or metrics_seconds");
  std::map<std::string, std::string> series_for;
  if (t["series_for"])
    for (const auto& kv : t["series_for"]) series_for[kv.first.as<std::string>()] = kv.second.as<std::string>();
  if (!t["seconds"] || !t["seconds"].IsMap())
    throw InputError(at(f, t), what + ": needs 'seconds: {dataset: {column: seconds}}'");
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
      if (!c.second.IsScalar())
        throw InputError(at(f, c.second), "timing '" + pt.id + "': expected seconds or a remark");
      double x = 0;
      if (YAML::convert<double>::decode(c.second, x)) {
        if (!(x > 0)) throw InputError(at(f, c.second), "timing '" + pt.id + "': seconds must be > 0");
        pt.seconds = x;
      } else {
        pt.note = c.second.Scalar();
      }
      timings.push_back(pt);
    }
}

}  // namespace

std::string row_setting(const PublishedValue& v) {
  if (!v.setting.empty()) return v.setting;
  const std::string& series = v.label.empty() ? v.query.series : v.label;
  std::string s = v.query.dataset + (series.empty() ? "" : ", " + series) + ", " + v.query.metric;
  for (const auto& [k, x] : v.query.params) s += ", " + k + "=" + fmt(x, 2);
  return s;
}

bool covers(const AuthorsCode& a, const std::string& series) {
  return a.series.empty() || std::find(a.series.begin(), a.series.end(), series) != a.series.end();
}

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
    for (const auto& n : root["values"]) ref.values.push_back(parse_value(n, f));
    for (const auto& t : root["tables"]) {
      const std::size_t first = parse_table_values(t, f, ref.values);
      apply_table_overrides(t, f, "table '" + str(t, "id") + "'", ref.values, first);
    }
    for (const auto& n : root["claims"]) ref.claims.push_back(parse_claim(n, f));
    for (const auto& t : root["timings"]) parse_timing_table(t, f, ref.timings);
  } catch (const YAML::Exception& e) {
    throw InputError(f + ":" + std::to_string(e.mark.line + 1), std::string("bad entry: ") + e.what());
  }
  return ref;
}

}  // namespace dpclust::report
