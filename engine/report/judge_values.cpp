// Judging a published value: the tolerance rule and the seed-variance rule (judge.hpp).
#include "report/judge.hpp"

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
using json = nlohmann::json;

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

Verdict judge_seed_variance(Verdict tolerance_verdict, double published, const std::vector<double>& trials,
                            const Protocol& p, const VerdictSettings& s, ValueOutcome& out, double printed_half_width) {
  out.disagreement = BandDisagreement::none;
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
  // The tolerance decides first; the band only softens "differs". Where the two disagree the report
  // says so, so that a mean within tolerance of a published value our k-seed runs never reach (DS2
  // Baseline k': 312.1 vs 284, percentile 0.0) does not read as an unqualified "holds".
  const bool inside = inside_central(d, published, s.coverage);
  if (tolerance_verdict == Verdict::holds) {
    const double h = printed_half_width, e = 1e-12 * std::max(1.0, std::fabs(published));
    const bool meets = inside || (published + h >= out.band->first - e && published - h <= out.band->second + e);
    if (!meets) out.disagreement = BandDisagreement::holds_outside_band;
    return Verdict::holds;
  }
  if (inside) out.disagreement = BandDisagreement::differs_inside_band;
  return inside ? Verdict::within_seed_variance : Verdict::differs;
}

ValueOutcome evaluate(const PublishedValue& v, const Results& results, const VerdictSettings& s) {
  ValueOutcome out;
  auto cells = results.cells(v.query);
  if (cells.empty()) {
    const auto sk = results.skipped().find(v.query.experiment);
    const bool dataset_missing =
        sk != results.skipped().end() && sk->second.contains("datasets") && sk->second["datasets"].is_array() &&
        std::find(sk->second["datasets"].begin(), sk->second["datasets"].end(), v.query.dataset) !=
            sk->second["datasets"].end();
    if (dataset_missing) {
      out.note = "skipped: dataset '" + v.query.dataset + "' missing";
      if (sk->second.contains("fix")) out.note += "; fix: " + sk->second["fix"].get<std::string>();
    } else if (results.experiments().count(v.query.experiment)) {
      out.note = "no matching cell";
    } else if (sk != results.skipped().end()) {
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
  if (st->contains("ci95") && (*st)["ci95"].is_array())
    out.ci95 = std::make_pair((*st)["ci95"][0].get<double>(), (*st)["ci95"][1].get<double>());
  out.tolerance_verdict = judge(v.value, v.tolerance, v.relative, out.mean);
  const double half_width = v.value_text.empty() ? 0.0 : 0.5 * std::pow(10.0, -printed_decimals(v.value_text));
  out.verdict = judge_seed_variance(out.tolerance_verdict, v.value, trial_values(*cells[0], v.query.metric), v.protocol,
                                    s, out, half_width);
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
    return InputError(
        "--min-trials-for-variance", why + ", got '" + text + "'",
        "give an integer >= 2: the fewest trials of a cell that allow a variance verdict (the reference file's "
        "verdicts.min_trials_for_variance otherwise)");
  };
  if (text.empty() || text.size() > 7 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw bad("must be an integer >= 2 and <= 1000000");
  const std::size_t n = std::stoul(text);
  if (n < 2 || n > 1000000) throw bad("must be an integer >= 2 and <= 1000000");
  return n;
}

}  // namespace dpclust::report
