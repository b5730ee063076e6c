#include "report/report.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
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

bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

std::string fmt(double x, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
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
    for (const auto& n : root["values"]) {
      PublishedValue v;
      v.id = str(n, "id");
      v.paper = str(n, "paper");
      v.source = str(n, "source");
      v.setting = str(n, "setting");
      v.value = n["value"].as<double>();
      read_tolerance(n, v.tolerance, v.relative, f);
      v.query = parse_query(n["query"], f);
      ref.values.push_back(v);
    }
    // Compact tables: values[metric][dataset][series] = number (null = not published).
    for (const auto& t : root["tables"]) {
      double tol = 0;
      bool rel = false;
      read_tolerance(t, tol, rel, f);
      Query base = parse_query(t, f);
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
            v.id = str(t, "id") + "." + v.query.metric + "." + v.query.dataset + "." + v.query.series;
            v.setting = str(t, "setting");
            v.value = s.second.as<double>();
            v.tolerance = tol;
            v.relative = rel;
            ref.values.push_back(v);
          }
    }
    for (const auto& n : root["claims"]) {
      Claim c;
      c.id = str(n, "id");
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
      if (n["bound"]) c.bound = n["bound"].as<double>();
      c.over = str(n, "over");
      if (n["expected"]) c.expected = n["expected"].as<double>();
      if (n["expected_tolerance"]) c.expected_tolerance = n["expected_tolerance"].as<double>();
      ref.claims.push_back(c);
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

const json* statistic(const json& cell, const std::string& metric) {
  for (const char* where : {"aggregates", "diagnostics_aggregates", "evaluation_aggregates"})
    if (cell.contains(where) && cell[where].contains(metric)) return &cell[where][metric];
  return nullptr;
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::holds: return "holds";
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

ValueOutcome evaluate(const PublishedValue& v, const Results& results) {
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
  const json* s = statistic(*cells[0], v.query.metric);
  if (!s || !s->contains("mean")) {
    out.note = "metric '" + v.query.metric + "' not computed";
    return out;
  }
  out.mean = (*s)["mean"].get<double>();
  out.trials = (*s)["n"].get<std::size_t>();
  if (s->contains("ci95") && (*s)["ci95"].is_array()) out.ci95 = std::make_pair((*s)["ci95"][0].get<double>(), (*s)["ci95"][1].get<double>());
  out.verdict = judge(v.value, v.tolerance, v.relative, out.mean);
  return out;
}

ClaimOutcome evaluate(const Claim& c, const Results& results) {
  ClaimOutcome out;
  std::vector<std::string> violations;
  const auto better = [&](double a, double b) { return c.lower_is_better ? a < b : a > b; };
  if (c.kind == ClaimKind::ordering) {
    Query q = c.query;
    q.series.clear();
    std::map<std::string, std::map<std::string, double>> groups;  // group -> series -> mean
    for (const json* cell : results.cells(q)) groups[group_key(*cell, c.group_by)][(*cell)["series"].get<std::string>()] = mean_of(*cell, c.query.metric);
    for (const auto& [g, means] : groups) {
      bool complete = true;
      for (const auto& s : c.winners) complete = complete && means.count(s) && std::isfinite(means.at(s));
      for (const auto& s : c.losers) complete = complete && means.count(s) && std::isfinite(means.at(s));
      if (!complete) continue;
      ++out.checked;
      bool ok = true;
      for (const auto& w : c.winners)
        for (const auto& l : c.losers)
          if (!better(means.at(w), means.at(l))) {
            ok = false;
            if (violations.size() < 4) violations.push_back(g + ": " + w + " " + fmt(means.at(w)) + " vs " + l + " " + fmt(means.at(l)));
          }
      out.satisfied += ok;
    }
  } else if (c.kind == ClaimKind::threshold) {
    for (const json* cell : results.cells(c.query)) {
      const double m = mean_of(*cell, c.query.metric);
      if (!std::isfinite(m)) continue;
      ++out.checked;
      bool ok = c.op == "<" ? m < c.bound : c.op == "<=" ? m <= c.bound : c.op == ">" ? m > c.bound : m >= c.bound;
      out.satisfied += ok;
      if (!ok && violations.size() < 4) {
        // Name the cell by the parameters the claim filters on (the others are fixed).
        std::string at_params;
        for (const auto& [k, r] : c.query.where) at_params += " " + k + "=" + (*cell)["params"][k].dump();
        violations.push_back((*cell)["dataset"].get<std::string>() + " " + (*cell)["series"].get<std::string>() + at_params + ": " + fmt(m));
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
    out.verdict = Verdict::not_run;
    if (out.detail.empty()) out.detail = "no results cover it";
  } else {
    out.verdict = out.satisfied == out.checked ? Verdict::holds : Verdict::differs;
  }
  for (const auto& v : violations) out.detail += (out.detail.empty() ? "" : "; ") + v;
  return out;
}

std::string write_markdown(const Reference& ref, const Results& results, const ReportOptions& opts) {
  std::ostringstream md;
  std::map<Verdict, int> vcount, ccount;
  std::vector<ValueOutcome> vout;
  std::vector<ClaimOutcome> cout_;
  for (const auto& v : ref.values) vcount[(vout.emplace_back(evaluate(v, results))).verdict]++;
  for (const auto& c : ref.claims) ccount[(cout_.emplace_back(evaluate(c, results))).verdict]++;
  const auto show = [](Verdict v) { return v == Verdict::differs ? std::string("**differs**") : std::string(to_string(v)); };

  md << "# dpclust reproduction report\n\n"
     << "Generated " << utc_now_iso8601() << " by dpclust " << build_info().version << " (git " << build_info().git_commit.substr(0, 12)
     << ") from " << results.experiments().size() << " experiment results.\n\n"
     << "| | holds | differs | not run |\n|---|---|---|---|\n"
     << "| published values | " << vcount[Verdict::holds] << " | " << vcount[Verdict::differs] << " | " << vcount[Verdict::not_run] << " |\n"
     << "| claims | " << ccount[Verdict::holds] << " | " << ccount[Verdict::differs] << " | " << ccount[Verdict::not_run] << " |\n\n"
     << "A value *holds* when the reproduced mean is within the stated tolerance of the published one; *not run* when no "
        "result covers it (e.g. its data is absent).\n";

  std::vector<std::string> papers;
  for (const auto& v : ref.values)
    if (std::find(papers.begin(), papers.end(), v.paper) == papers.end()) papers.push_back(v.paper);
  for (const auto& c : ref.claims)
    if (std::find(papers.begin(), papers.end(), c.paper) == papers.end()) papers.push_back(c.paper);
  for (const auto& p : papers) {
    md << "\n## " << (ref.papers.count(p) ? ref.papers.at(p) : p) << "\n\n";
    bool header = false;
    for (std::size_t i = 0; i < ref.values.size(); ++i) {
      const auto& v = ref.values[i];
      if (v.paper != p) continue;
      if (!header) {
        md << "| source | setting | published | reproduced | 95% CI | trials | tolerance | verdict |\n|---|---|---|---|---|---|---|---|\n";
        header = true;
      }
      const auto& o = vout[i];
      std::string setting = v.setting;
      if (setting.empty()) {
        setting = v.query.dataset + (v.query.series.empty() ? "" : ", " + v.query.series) + ", " + v.query.metric;
        for (const auto& [k, x] : v.query.params) setting += ", " + k + "=" + fmt(x, 2);
      }
      md << "| " << v.source << " | " << setting << " | " << fmt(v.value) << " | " << (o.mean ? fmt(*o.mean) : "-") << " | "
         << (o.ci95 ? "[" + fmt(o.ci95->first) + ", " + fmt(o.ci95->second) + "]" : "-") << " | " << (o.trials ? std::to_string(o.trials) : "-")
         << " | " << (v.relative ? fmt(100 * v.tolerance, 0) + "%" : fmt(v.tolerance, 2)) << " | " << show(o.verdict)
         << (o.note.empty() ? "" : " (" + o.note + ")") << " |\n";
    }
    header = false;
    for (std::size_t i = 0; i < ref.claims.size(); ++i) {
      const auto& c = ref.claims[i];
      if (c.paper != p) continue;
      if (!header) {
        md << "\n| claim | source | checked | verdict | detail |\n|---|---|---|---|---|\n";
        header = true;
      }
      const auto& o = cout_[i];
      md << "| " << c.text << " | " << c.source << " | " << o.satisfied << "/" << o.checked << " | " << show(o.verdict) << " | " << o.detail << " |\n";
    }
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
