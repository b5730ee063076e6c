// Rendering the report as Markdown from the judges' outcomes; see markdown.hpp.
#include "report/markdown.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <set>
#include <sstream>

#include "core/files.hpp"
#include "report/comparison_markdown.hpp"
#include "report/format.hpp"
#include "report/win_regions_markdown.hpp"

namespace dpclust::report {
namespace fs = std::filesystem;
using json = nlohmann::json;

std::string audit_section(const Results& results) {
  if (results.audits().empty()) return "";
  std::ostringstream md;
  std::size_t cells = 0, violations = 0;
  for (const auto& [name, a] : results.audits())
    for (const auto& c : a["cells"]) ++cells, violations += c.value("verdict", "") == "violation";
  md << "\n## Privacy audit\n\n"
     << "`dpclust audit` (docs/privacy.md \"Privacy audit\") runs each private method many times on neighbouring "
        "datasets D, D' "
        "(one record added, removed or replaced) and turns the frequencies of one output event into a lower bound on "
        "epsilon: the event is chosen on half of the runs, Clopper-Pearson bounds on the other half give eps_lower = "
        "ln((p_lo - delta) / p_hi) at the stated confidence (Bonferroni over a cell's pairs). *consistent*: eps_lower "
        "<= "
        "the claimed epsilon (for a local guarantee, eps per unit distance times d(x, x')); *violation*: the mechanism "
        "spends more than it claims, shown by the event. A consistent verdict is evidence, not a proof. *accounted "
        "eps*: "
        "what results.json's privacy accounting counts for one trial of the same cell (a declared excess included; "
        "*unbounded* when no finite epsilon is claimed, as for the variants flagged for data-dependent choices).\n\n"
     << cells << " cells audited, " << violations << " violation" << (violations == 1 ? "" : "s") << ".\n\n"
     << "| experiment | series | dataset | parameters | pair | claimed eps | accounted eps | eps_lower | estimate | "
        "verdict | event | runs/side | non-private conditions |\n"
     << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
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
        if (k == "histogram" || k == "noise" || k == "variant" || k == "sensitivity" || k == "em_upper" ||
            k == "resampling_budget" || k == "epsilon" || k == "delta")
          params += (params.empty() ? "" : ", ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
      std::string flags;
      for (const auto& f : c["non_private"]) flags += (flags.empty() ? "" : "; ") + f.get<std::string>();
      for (const auto& p : c["pairs"]) {
        const json& ev = p["event"];
        std::string event = ev.value("feature", "");
        if (ev.contains("description")) {
          // The audit's own words for the event (a support event names the size of its set, a
          // representation its family): "diagnostics.threshold~grain <= -53".
          event = ev["description"].get<std::string>();
          if (ev.contains("family")) event += " [" + ev["family"].get<std::string>() + "]";
          event += " (more often on " + ev.value("numerator", std::string("?")) + ")";
        } else if (ev.contains("kind")) {  // audit files of the older form: an event kind and its threshold
          event += " " + ev["kind"].get<std::string>();
          if (ev.contains("threshold")) event += " " + num(ev["threshold"]);
          event += " (more often on " + ev.value("numerator", std::string("?")) + ")";
        }
        const bool violation = p.value("verdict", "") == "violation";
        // Audits written before the accounting was recorded have none: "-".
        const std::string accounted =
            c.contains("accounting") && c["accounting"].value("unbounded", false) ? "unbounded"
            : p.contains("eps_accounted") && p["eps_accounted"].is_number()       ? num(p["eps_accounted"])
                                                                                  : "-";
        md << "| " << name << " | " << c.value("series", "") << " | " << c.value("dataset", "") << " | " << params
           << " | " << p.value("pair", "") << " | " << num(p["eps_claimed"]) << " | " << accounted << " | "
           << num(p["eps_lower"]) << " | " << num(p["eps_estimate"]) << " | "
           << (violation ? "**violation**" : "consistent") << " | `" << event << "` | " << c.value("runs_per_side", 0)
           << " | " << (flags.empty() ? "-" : flags) << " |\n";
      }
    }
  }
  return md.str();
}

namespace {

std::string show(Verdict v) {
  return v == Verdict::differs                ? std::string("**differs**")
         : v == Verdict::within_seed_variance ? std::string("*within seed variance*")
                                              : to_string(v);
}

}  // namespace

std::string value_verdict_text(const ValueOutcome& o) {
  const std::string pct = o.percentile ? ", percentile " + fmt(*o.percentile, 1) : std::string();
  switch (o.disagreement) {
    case BandDisagreement::holds_outside_band:
      return show(o.verdict) + " (within tolerance; the published value lies outside our k-seed band" + pct + ")";
    case BandDisagreement::differs_inside_band:
      return show(o.verdict) + " (outside tolerance; the published value lies inside our k-seed band" + pct + ")";
    case BandDisagreement::none: break;
  }
  return show(o.verdict);
}

namespace {

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
  for (char ch : id)
    a += std::isalnum(static_cast<unsigned char>(ch)) ? static_cast<char>(std::tolower(static_cast<unsigned char>(ch)))
                                                      : '-';
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
  const bool explain =
      !c.reason.empty() && (o.verdict == Verdict::differs || o.verdict == Verdict::within_seed_variance);
  if (explain) reasons += reason_line(c.id, c.reason, c.see, o.verdict);
  md << "| " << cell_text(c.text) << " | " << c.source << " | " << describe(c.protocol) << " | " << o.satisfied << "/"
     << o.checked << " | " << to_string(o.tolerance_verdict) << " | " << show(o.verdict)
     << (explain ? " ([why](#" + anchor(c.id) + "))" : "") << " | " << cell_text(o.detail) << " |\n";
}

constexpr const char* kClaimsHeader =
    "| claim | source | protocol | checked | tolerance | verdict | detail |\n|---|---|---|---|---|---|---|\n";

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

// Every published value and claim judged, with the counts the overview shows.
struct Judged {
  std::vector<ValueOutcome> values;
  std::vector<ClaimOutcome> claims;
  std::map<Verdict, int> vcount, ccount, vtol, ctol;
  int holds_outside_band = 0;
};

Judged judge_all(const Reference& ref, const Results& results, const VerdictSettings& settings) {
  Judged j;
  for (const auto& v : ref.values) {
    const auto& o = j.values.emplace_back(evaluate(v, results, settings));
    j.vcount[o.verdict]++;
    j.vtol[o.tolerance_verdict]++;
    j.holds_outside_band += o.disagreement == BandDisagreement::holds_outside_band;
  }
  for (const auto& c : ref.claims) {
    const auto& o = j.claims.emplace_back(evaluate(c, results, settings));
    j.ccount[o.verdict]++;
    j.ctol[o.tolerance_verdict]++;
  }
  return j;
}

void fill_summary(const Reference& ref, Judged& j, ReportSummary& summary) {
  summary = ReportSummary{};
  summary.values = ref.values.size();
  summary.holds = static_cast<std::size_t>(j.vcount[Verdict::holds]);
  summary.within = static_cast<std::size_t>(j.vcount[Verdict::within_seed_variance]);
  summary.differs = static_cast<std::size_t>(j.vcount[Verdict::differs]);
  summary.not_run = static_cast<std::size_t>(j.vcount[Verdict::not_run]);
  summary.claims = ref.claims.size();
  summary.claims_not_run = static_cast<std::size_t>(j.ccount[Verdict::not_run]);
  summary.holds_outside_band = static_cast<std::size_t>(j.holds_outside_band);
}

// The verdict counts and how a verdict is reached.
void write_overview(std::ostream& paper, Judged& j, const VerdictSettings& settings) {
  const auto pct = [](double c) { return fmt(100 * c, 0) + "%"; };
  auto& vcount = j.vcount;
  auto& ccount = j.ccount;
  auto& vtol = j.vtol;
  auto& ctol = j.ctol;
  const int holds_outside_band = j.holds_outside_band;
  paper
      << "| | holds | within seed variance | differs | not run | tolerance alone: holds / differs | holds, outside the "
         "k-seed band |\n"
         "|---|---|---|---|---|---|---|\n"
      << "| published values | " << vcount[Verdict::holds] << " | " << vcount[Verdict::within_seed_variance] << " | "
      << vcount[Verdict::differs] << " | " << vcount[Verdict::not_run] << " | " << vtol[Verdict::holds] << " / "
      << vtol[Verdict::differs] << " | " << holds_outside_band << " |\n"
      << "| claims | " << ccount[Verdict::holds] << " | " << ccount[Verdict::within_seed_variance] << " | "
      << ccount[Verdict::differs] << " | " << ccount[Verdict::not_run] << " | " << ctol[Verdict::holds] << " / "
      << ctol[Verdict::differs] << " | - |\n\n"
      << "Each published value was obtained by a protocol (a mean over k seeds, a single run, a median), stated in "
         "`reference/published.yaml`. A value *holds* when our mean over all trials is within the stated tolerance of "
         "the "
         "published one (column *tolerance*, the verdict alone); otherwise it is *within seed variance* when the "
         "published "
         "value lies inside the central "
      << pct(settings.coverage)
      << " of the distribution of the paper's statistic over k of our trials (column *k-seed band*: every k-subset of "
         "the "
         "trials, or "
      << settings.resample.resamples << " seeded random k-subsets when there are more than "
      << settings.resample.max_exact
      << "; *percentile*: where the published value falls in it), and *differs* when it lies outside. With fewer than "
         "max("
      << settings.min_trials_for_variance
      << ", 2k) trials there is no variance verdict and the tolerance verdict stands (run more trials: `--trials 30`). "
         "Claims use the same bands (see docs/report.md). *not run*: no result covers it (e.g. its data is absent). "
         "Where the "
         "two rules disagree the verdict says so: *holds, outside the k-seed band* counts the values within tolerance "
         "whose "
         "published value lies outside the band, taken as every number printed as it is (0.95: [0.945, 0.955]) "
         "(\"holds (within "
         "tolerance; the published value lies outside our k-seed band, percentile ...)\"); the converse, outside "
         "tolerance but "
         "inside the band, is every *within seed variance*.\n";
}

// The papers in the order the reference names them, and those none of whose values and claims the results cover
// (named together in one line rather than given a section of "not run" rows; none when no paper is covered at all).
std::vector<std::string> papers_of(const Reference& ref) {
  std::vector<std::string> papers;
  for (const auto& v : ref.values)
    if (std::find(papers.begin(), papers.end(), v.paper) == papers.end()) papers.push_back(v.paper);
  for (const auto& c : ref.claims)
    if (!is_timing_metric(c.query.metric) && std::find(papers.begin(), papers.end(), c.paper) == papers.end())
      papers.push_back(c.paper);
  return papers;
}

std::vector<std::string> papers_without_results(const Reference& ref, const std::vector<std::string>& papers,
                                                const Judged& j) {
  std::vector<std::string> absent;
  for (const auto& p : papers) {
    std::size_t values = 0, claims = 0, covered = 0;
    for (std::size_t i = 0; i < ref.values.size(); ++i)
      if (ref.values[i].paper == p) ++values, covered += j.values[i].verdict != Verdict::not_run;
    for (std::size_t i = 0; i < ref.claims.size(); ++i)
      if (ref.claims[i].paper == p && !is_timing_metric(ref.claims[i].query.metric))
        ++claims, covered += j.claims[i].verdict != Verdict::not_run;
    if (covered == 0)
      absent.push_back((ref.papers.count(p) ? ref.papers.at(p) : p) + " (" + std::to_string(values) + " values, " +
                       std::to_string(claims) + " claims)");
  }
  if (absent.size() == papers.size()) absent.clear();
  return absent;
}

// One section per paper with results: its values, then its claims, then the reasons and notes.
void write_paper_sections(std::ostream& paper, const Reference& ref, const std::vector<std::string>& papers,
                          const std::vector<std::string>& absent, const Judged& j) {
  const std::vector<ValueOutcome>& vout = j.values;
  const std::vector<ClaimOutcome>& cout_ = j.claims;
  for (const auto& p : papers) {
    const std::string title = ref.papers.count(p) ? ref.papers.at(p) : p;
    if (std::any_of(absent.begin(), absent.end(), [&](const std::string& a) { return a.rfind(title + " (", 0) == 0; }))
      continue;
    paper << "\n## " << title << "\n\n";
    std::string reasons;
    std::vector<std::string> authors_runs;  // how the values marked "(authors' code)" were produced, once each
    bool header = false;
    for (std::size_t i = 0; i < ref.values.size(); ++i) {
      const auto& v = ref.values[i];
      if (v.paper != p) continue;
      if (!v.authors_run.empty() &&
          std::find(authors_runs.begin(), authors_runs.end(), v.authors_run) == authors_runs.end())
        authors_runs.push_back(v.authors_run);
      if (!header) {
        paper << "| source | setting | protocol | published | reproduced | 95% CI | trials | ± | tolerance | k-seed "
                 "band | percentile | verdict |\n"
                 "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
        header = true;
      }
      const auto& o = vout[i];
      const std::string setting = row_setting(v);
      const bool explain =
          !v.reason.empty() && (o.verdict == Verdict::differs || o.verdict == Verdict::within_seed_variance);
      const bool protocol_note = !v.protocol.note.empty();
      if (explain) reasons += reason_line(v.id, v.reason, v.see, o.verdict);
      if (protocol_note)
        reasons += "- `" + v.id + "` (protocol " + describe(v.protocol) + "): " + v.protocol.note + "\n";
      paper << "| " << v.source << (v.authors_run.empty() ? "" : " (authors' code)") << " | " << cell_text(setting)
            << " | " << describe(v.protocol) << " | " << fmt(v.value) << " | " << (o.mean ? fmt(*o.mean) : "-") << " | "
            << interval(o.ci95) << " | " << (o.trials ? std::to_string(o.trials) : "-") << " | "
            << (v.relative ? fmt(100 * v.tolerance, 0) + "%" : fmt(v.tolerance, 2)) << " | "
            << to_string(o.tolerance_verdict) << " | " << interval(o.band) << " | "
            << (o.percentile ? fmt(*o.percentile, 1) : "-") << " | " << value_verdict_text(o)
            << (explain ? " ([why](#" + anchor(v.id) + "))" : "")
            << (o.note.empty() ? "" : " (" + cell_text(o.note) + ")") << " |\n";
    }
    header = false;
    for (std::size_t i = 0; i < ref.claims.size(); ++i) {
      const auto& c = ref.claims[i];
      if (c.paper != p || is_timing_metric(c.query.metric)) continue;
      if (!header) {
        paper << "\n" << kClaimsHeader;
        header = true;
      }
      claim_row(paper, c, cout_[i], reasons);
    }
    if (!authors_runs.empty()) {
      paper << "\nThe paper prints these numbers in figures only: the values marked *(authors' code)* are its authors' "
               "code run "
               "here, not numbers read off the paper:\n\n";
      for (const auto& run : authors_runs) paper << "- " << cell_text(run) << "\n";
    }
    if (!reasons.empty()) paper << "\nReasons and notes:\n\n" << reasons;
  }

  if (!absent.empty()) {
    std::string names;
    for (const auto& a : absent) names += (names.empty() ? "" : "; ") + a;
    paper << "\n## Papers without results\n\nNot run here (no result covers any of their values or claims; `dpclust "
             "run` their "
             "configs under `configs/paper/` to judge them): "
          << names << ".\n";
  }
}

// A published value's row of the authors' seeds table: the reproduction under the protocol, per seed.
struct AuthorsRow {
  std::string repro = "-", per_seed;
};
AuthorsRow authors_row(const PublishedValue& v, const AuthorsOutcome& o) {
  const AuthorsCode& a = *v.authors_code;
  AuthorsRow r;
  if (o.reproduced) {
    r.repro = fmt_value(v.query.metric, *o.reproduced);
    if (!a.by_seeds) r.repro += " (mean of " + std::to_string(o.tolerance.trials) + " trials)";
    else if (v.protocol.statistic == SeedStatistic::single) r.repro += " (seed 0)";
    else
      r.repro += std::string(" (") + to_string(v.protocol.statistic) + " of seeds 0.." +
                 std::to_string(v.protocol.seeds - 1) + ")";
  }
  for (std::size_t i = 0; i < o.per_seed.size() && i < 10; ++i)
    r.per_seed +=
        (i ? ", " : "") + std::to_string(o.per_seed[i].first) + ": " + fmt_value(v.query.metric, o.per_seed[i].second);
  if (o.per_seed.size() > 10) r.per_seed += ", ... (" + std::to_string(o.per_seed.size()) + " seeds)";
  return r;
}

// Published values with an `authors_code` experiment: the paper's protocol on the authors' own seeds.
void write_authors_section(std::ostream& paper, const Reference& ref, const Results& results,
                           const VerdictSettings& settings, const std::vector<ValueOutcome>& vout,
                           ReportSummary* summary) {
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < ref.values.size(); ++i)
    if (ref.values[i].authors_code) idx.push_back(i);
  if (idx.empty()) return;
  std::vector<AuthorsOutcome> ao;
  std::map<std::string, int> tally;
  for (std::size_t i : idx) {
    const auto& o = ao.emplace_back(evaluate_authors(ref.values[i], results, settings));
    if (summary) {
      ++summary->authors;
      summary->authors_exact += o.exact && *o.exact;
    }
    const bool by_seeds = ref.values[i].authors_code->by_seeds;
    const std::string key = o.exact                    ? (*o.exact ? "exact" : "differ")
                            : !o.missing_seeds.empty() ? "missing seeds"
                            : by_seeds || o.tolerance.verdict == Verdict::not_run
                                ? "not run"
                                : std::string("judged by tolerance: ") + to_string(o.tolerance.verdict);
    tally[key]++;
  }
  paper << "\n## The authors' own seeds\n\n"
           "Published values whose `authors_code:` (`reference/published.yaml`) names an experiment run with the "
           "authors' own "
           "random stream and seeds: the paper's protocol recomputed on the trials whose record carries `\"seed\"` "
           "0..K-1 (the "
           "mean of all K for a mean over K seeds, seed 0 for a single run; all K must be present), rounded to the "
           "published "
           "value's printed decimals: *exact* when it equals the published value, else the difference (reproduction - "
           "published). Entries marked `compare: tolerance` run the authors' code options with our seeds and are "
           "judged like "
           "the values above (tolerance, then seed variance). *ours (default config)* is the mean shown in the paper's "
           "table "
           "above, with its verdict.\n\n";
  std::string counts;
  for (const auto& [k, n] : tally) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + k;
  paper << idx.size() << " values: " << counts << ".\n\n"
        << "| paper | source | dataset | series | metric | published | protocol | ours (default config) | verdict | "
           "authors' run | reproduction "
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
    const AuthorsRow row = authors_row(v, o);
    const std::string match = show_status(o, a);
    paper << "| " << v.paper << " | " << v.source << " | " << v.query.dataset << " | " << v.query.series << " | "
          << cell_text(metric) << " | " << (v.value_text.empty() ? fmt(v.value) : v.value_text) << " | "
          << describe(v.protocol) << " | " << (ours.mean ? fmt_value(v.query.metric, *ours.mean) : "-") << " | "
          << value_verdict_text(ours) << " | " << cell_text(a.label) << " (`" << a.experiment << "`) | " << row.repro
          << " | " << (row.per_seed.empty() ? "-" : row.per_seed) << " | " << cell_text(match) << " |\n";
    if (!a.note.empty() && noted.insert(a.experiment + "\n" + a.note).second)
      notes += "- `" + a.experiment + "`: " + a.note + "\n";
  }
  if (!notes.empty()) paper << "\nNotes:\n\n" << notes;
}

// Running times: a comparison, not a verdict (other hardware, other language).
void write_timings_section(std::ostream& paper, const Reference& ref, const Results& results,
                           const std::vector<ClaimOutcome>& cout_) {
  if (ref.timings.empty()) return;
  paper << "\n## Running times\n\n";
  std::set<std::string> machines, experiments;
  for (const auto& t : ref.timings) {
    if (!t.machine.empty())
      machines.insert(t.source + " of " + (ref.papers.count(t.paper) ? ref.papers.at(t.paper) : t.paper) + ": " +
                      t.machine);
    experiments.insert(t.query.experiment);
  }
  for (const auto& m : machines) paper << "Published: " << m << ".\n";
  paper << "\nOurs: the median over the trials of each cell's recorded `timing` field (`method_seconds`: the method "
           "alone, as the runner measured it), C++ "
        << build_info().build_type << " build. Threads of the runs, from each experiment's provenance:";
  for (const auto& e : experiments) {
    auto it = results.experiments().find(e);
    paper << " " << e << ": "
          << (it == results.experiments().end() ? std::string("not in the results") : threads_of(it->second)) << ";";
  }
  paper << " with more than one thread, trials of different cells run at the same time and share the machine, so time "
           "with `--threads 1`. The ratio is ours / the paper's.\n\n| source | dataset | method | series | ours "
           "(median) | trials | paper | ours / paper |\n"
           "|---|---|---|---|---|---|---|---|\n";
  for (const auto& t : ref.timings) {
    const TimingOutcome o = evaluate(t, results);
    paper << "| " << t.source << " | " << t.query.dataset << " | " << t.column << " | " << t.query.series << " | "
          << (o.median_seconds ? fmt_time(*o.median_seconds) : "- (" + o.note + ")") << " | "
          << (o.trials ? std::to_string(o.trials) : "-") << " | "
          << (t.seconds        ? fmt_time(*t.seconds)
              : t.note.empty() ? std::string("-")
                               : cell_text(t.note))
          << " | " << (o.median_seconds && t.seconds ? fmt(*o.median_seconds / *t.seconds, 3) : std::string("-"))
          << " |\n";
  }
  bool header = false;
  std::string reasons;
  for (std::size_t i = 0; i < ref.claims.size(); ++i) {
    const auto& c = ref.claims[i];
    if (!is_timing_metric(c.query.metric)) continue;
    if (!header) {
      paper << "\nClaims about running time (checked on our times; the ordering, not the absolute time, is what "
               "carries over):\n\n"
            << kClaimsHeader;
      header = true;
    }
    claim_row(paper, c, cout_[i], reasons);
  }
  if (!reasons.empty()) paper << "\nReasons and notes:\n\n" << reasons;
}

// The comparison of the methods (comparison_markdown.hpp), with the experiments the paper sections judge folded.
ComparisonSectionOptions comparison_options(const Reference& ref, const ReportOptions& opts) {
  ComparisonSectionOptions copts{opts.figures_dir, opts.report_path, {}, {}, opts.tables_dir};
  for (const auto& v : ref.values) {
    copts.folded.insert(v.query.experiment);
    if (v.authors_code) copts.folded.insert(v.authors_code->experiment);
  }
  for (const auto& c : ref.claims) copts.folded.insert(c.query.experiment);
  for (const auto& t : ref.timings) copts.folded.insert(t.query.experiment);
  return copts;
}

// The figures of the figures folder, as thumbnails that link to them.
void write_figures(std::ostream& md, const ReportOptions& opts) {
  if (opts.figures_dir.empty() || !fs::is_directory(opts.figures_dir)) return;
  std::vector<fs::path> pngs;
  for (const auto& e : fs::directory_iterator(opts.figures_dir))
    if (e.path().extension() == ".png") pngs.push_back(e.path());
  std::sort(pngs.begin(), pngs.end());
  if (pngs.empty()) return;
  md << "\n## Figures\n\n";
  const fs::path base = opts.report_path.empty() ? fs::current_path() : fs::absolute(opts.report_path).parent_path();
  for (const auto& png : pngs) {
    const std::string rel = fs::relative(fs::absolute(png), base).string();
    md << "[<img src=\"" << rel << "\" width=\"240\" alt=\"" << png.stem().string() << "\">](" << rel << ") ";
  }
  md << "\n";
}

void write_provenance(std::ostream& md, const Results& results) {
  md << "\n## Provenance\n\n| experiment | config | cells | trials | commit(s) | runs (host, threads, wall s) "
        "|\n|---|---|---|---|---|---|\n";
  for (const auto& [name, r] : results.experiments()) {
    const auto& prov = r["provenance"];
    std::string commits, runs;
    for (const auto& c : prov.value("cell_git_commits", json::array()))
      commits += (commits.empty() ? "" : ", ") + c.get<std::string>().substr(0, 12);
    for (const auto& run : prov.value("runs", json::array()))
      runs += (runs.empty() ? "" : "; ") + run.value("host", "?") + ", " + std::to_string(run.value("threads", 0)) +
              ", " + fmt(run.value("wall_seconds", 0.0), 1);
    md << "| " << name << " | " << prov.value("config_file", "") << " (crc32 " << prov.value("config_crc32", "")
       << ") | " << r["cells"].size() << " | " << r.value("trials", 0) << " | " << commits << " | " << runs << " |\n";
  }
}

}  // namespace

std::string write_markdown(const Reference& ref, const Results& results, const ReportOptions& opts,
                           ReportSummary* summary) {
  VerdictSettings settings = ref.verdicts;
  if (opts.min_trials_for_variance) settings.min_trials_for_variance = *opts.min_trials_for_variance;
  std::ostringstream md;
  Judged judged = judge_all(ref, results, settings);
  if (summary) fill_summary(ref, judged, *summary);
  // A results directory of one's own sweeps holds no experiment of the papers: every published value and
  // claim is "not run". Its report opens with the comparison of its methods, and says the papers in a line.
  const bool own_sweeps = !results.experiments().empty() &&
                          judged.vcount[Verdict::not_run] == static_cast<int>(ref.values.size()) &&
                          judged.ccount[Verdict::not_run] == static_cast<int>(ref.claims.size());
  md << "# dpclust " << (own_sweeps ? "report" : "reproduction report") << "\n\n";
  md << "Generated " << utc_now_iso8601() << " by dpclust " << build_info().version << " (git "
     << build_info().git_commit.substr(0, 12) << ") from " << results.experiments().size()
     << " experiment results.\n\n";
  std::ostringstream paper;
  write_overview(paper, judged, settings);
  const std::vector<std::string> papers = papers_of(ref);
  write_paper_sections(paper, ref, papers, papers_without_results(ref, papers, judged), judged);
  write_authors_section(paper, ref, results, settings, judged.values, summary);
  write_timings_section(paper, ref, results, judged.claims);
  const ComparisonSectionOptions copts = comparison_options(ref, opts);
  if (own_sweeps) {
    md << comparison_section(results, copts) << win_regions_section(results, copts)
       << "\n## The papers' published values\n\n"
       << "None of these results is an experiment of the papers: their " << ref.values.size()
       << " published values and " << ref.claims.size()
       << " claims are not run here (`dpclust report` on the results of `configs/paper/` judges them).\n";
  } else {
    md << paper.str() << comparison_section(results, copts) << win_regions_section(results, copts);
  }
  write_figures(md, opts);
  md << audit_section(results);
  write_provenance(md, results);
  return md.str();
}

}  // namespace dpclust::report
