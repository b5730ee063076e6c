// Judging the claims stated in words: orderings, thresholds, best values (judge.hpp).
#include "report/judge.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <random>
#include <set>
#include <sstream>

#include "report/format.hpp"

namespace dpclust::report {
using json = nlohmann::json;

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

// A draw in [0, n) from 64 random bits (multiply-shift: the same on every platform).
__extension__ typedef unsigned __int128 uint128;  // GCC/Clang 128-bit integer (__extension__: no -Wpedantic note)
std::size_t draw_index(std::mt19937_64& rng, std::size_t n) {
  return static_cast<std::size_t>((static_cast<uint128>(rng()) * n) >> 64);
}

double resampled_mean(const std::vector<double>& v, std::mt19937_64& rng) {
  double sum = 0;
  for (std::size_t i = 0; i < v.size(); ++i) sum += v[draw_index(rng, v.size())];
  return sum / static_cast<double>(v.size());
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? std::nan("") : sum / static_cast<double>(v.size());
}

double reduction(double series, double baseline, double against) {
  const double gap = against - baseline;
  return gap == 0 ? std::nan("") : 1.0 - (series - baseline) / gap;
}

// The central `coverage` interval of a statistic over rs.resamples bootstrap draws from the seeded stream of `rs`
// (`draw(rng)` computes the statistic on one resample; a non-finite one is left out); absent when none is finite.
template <class Draw>
std::optional<std::pair<double, double>> bootstrap_interval(const ResampleSettings& rs, double coverage, Draw&& draw) {
  std::mt19937_64 rng(rs.seed);
  SeedDistribution d;
  d.exact = false;
  d.values.reserve(rs.resamples);
  for (std::size_t r = 0; r < rs.resamples; ++r) {
    const double g = draw(rng);
    if (std::isfinite(g)) d.values.push_back(g);
  }
  if (d.values.empty()) return std::nullopt;
  std::sort(d.values.begin(), d.values.end());
  return central_interval(d, coverage);
}

}  // namespace

GapReduction gap_reduction(const std::vector<double>& series, const std::vector<double>& baseline,
                           const std::vector<double>& against, const ResampleSettings& rs, double coverage) {
  GapReduction out;
  out.value = reduction(mean(series), mean(baseline), mean(against));
  if (series.size() < 2 || baseline.size() < 2 || against.size() < 2 || rs.resamples == 0) return out;
  out.interval = bootstrap_interval(rs, coverage, [&](std::mt19937_64& rng) {
    const double s = resampled_mean(series, rng), b = resampled_mean(baseline, rng), a = resampled_mean(against, rng);
    return reduction(s, b, a);
  });
  return out;
}

namespace {

double trapezoid_area(const std::vector<double>& x, const std::vector<double>& y) {
  double area = 0;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) area += (x[i + 1] - x[i]) * (y[i] + y[i + 1]) / 2;
  return area;
}

double area_reduction(const std::vector<double>& x, const std::vector<double>& series,
                      const std::vector<double>& against) {
  const double base = trapezoid_area(x, against);
  return base == 0 || x.size() < 2 ? std::nan("") : 1.0 - trapezoid_area(x, series) / base;
}

}  // namespace

GapReduction auc_reduction(const std::vector<double>& x, const std::vector<std::vector<double>>& series,
                           const std::vector<std::vector<double>>& against, const ResampleSettings& rs,
                           double coverage) {
  GapReduction out;
  std::vector<double> s(x.size()), a(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    s[i] = mean(series[i]);
    a[i] = mean(against[i]);
  }
  out.value = area_reduction(x, s, a);
  bool enough = rs.resamples > 0 && x.size() >= 2;
  for (std::size_t i = 0; i < x.size(); ++i) enough = enough && series[i].size() >= 2 && against[i].size() >= 2;
  if (!enough) return out;
  out.interval = bootstrap_interval(rs, coverage, [&](std::mt19937_64& rng) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      s[i] = resampled_mean(series[i], rng);
      a[i] = resampled_mean(against[i], rng);
    }
    return area_reduction(x, s, a);
  });
  return out;
}

namespace {

// The largest of the groups' reductions (gap_reduction and auc_reduction claims say "up to"), and each group's
// value with its bootstrap interval.
struct LargestReduction {
  GapReduction best;
  std::string best_group, per_group;

  void add(const std::string& group, const GapReduction& r, ClaimOutcome& out) {
    if (!std::isfinite(r.value)) return;
    ++out.checked;
    per_group += (per_group.empty() ? "" : "; ") + group + ": " + fmt(100 * r.value, 1) + "%";
    if (r.interval)
      per_group += " [" + fmt(100 * r.interval->first, 1) + "%, " + fmt(100 * r.interval->second, 1) + "%]";
    if (best_group.empty() || r.value > best.value) {
      best_group = group;
      best = r;
    }
  }

  // Holds within expected_tolerance of the claimed value; within seed variance when the claimed value lies inside
  // the largest's bootstrap interval. `head` says what was reduced ("largest ... : ").
  void settle(const Claim& c, const VerdictSettings& s, const std::string& head, ClaimOutcome& out) const {
    if (out.checked == 0) return;
    const bool ok = std::fabs(best.value - c.expected) <= c.expected_tolerance + 1e-12;
    const bool inside =
        best.interval && c.expected >= best.interval->first - 1e-12 && c.expected <= best.interval->second + 1e-12;
    out.satisfied = ok ? out.checked : 0;
    out.within = !ok && inside ? out.checked : 0;
    out.detail = head + fmt(100 * best.value, 1) + "% (" + best_group + "; claimed " + fmt(100 * c.expected, 0) +
                 "% +- " + fmt(100 * c.expected_tolerance, 0) + "%" +
                 (best.interval ? std::string(inside ? ", inside" : ", outside") + " our bootstrap " +
                                      fmt(100 * s.coverage, 0) + "% interval"
                                : std::string(", no interval: fewer than 2 trials")) +
                 "); per group: " + per_group;
  }
};

// ordering: in every group, each winner's mean better than each loser's; a violation within seed variance when 0
// lies inside the k-seed distribution of the difference.
void judge_ordering(const Claim& c, const Results& results, const VerdictSettings& s, ClaimOutcome& out,
                    std::vector<std::string>& violations) {
  const auto better = [&](double a, double b) { return c.lower_is_better ? a < b : a > b; };
  Query q = c.query;
  q.series.clear();
  std::map<std::string, std::map<std::string, const json*>> groups;  // group -> series -> cell
  for (const json* cell : results.cells(q))
    groups[group_key(*cell, c.group_by)][(*cell)["series"].get<std::string>()] = cell;
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
          why = "0 at percentile " + fmt(percentile(d, 0.0), 1) +
                " of the k-seed difference: " + (within ? "within seed variance" : "differs");
        }
        if (violations.size() < 4)
          violations.push_back(g + ": " + w + " " + fmt_value(c.query.metric, means.at(w)) + " vs " + l + " " +
                               fmt_value(c.query.metric, means.at(l)) + " (" + why + ")");
      }
    out.satisfied += ok;
    out.within += !ok && all_within;
  }
}

// threshold: every cell's mean on the right side of the bound; a violation within seed variance when the bound lies
// inside the cell's k-seed distribution.
void judge_threshold(const Claim& c, const Results& results, const VerdictSettings& s, ClaimOutcome& out,
                     std::vector<std::string>& violations) {
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
      why = "bound at percentile " + fmt(percentile(d, c.bound), 1) +
            " of the k-seed statistic: " + (within ? "within seed variance" : "differs");
    }
    if (violations.size() < 4) {
      // Name the cell by the parameters the claim filters on (the others are fixed).
      std::string at_params;
      for (const auto& [k, r] : c.query.where) at_params += " " + k + "=" + (*cell)["params"][k].dump();
      violations.push_back((*cell)["dataset"].get<std::string>() + " " + (*cell)["series"].get<std::string>() +
                           at_params + ": " + fmt_value(c.query.metric, m) + " (" + why + ")");
    }
  }
}

// gap_reduction: the largest reduction over the groups against the claimed value, with its bootstrap interval.
void judge_gap_reduction(const Claim& c, const Results& results, const VerdictSettings& s, ClaimOutcome& out) {
  // Per group: the series, its baseline and the method it is compared against.
  Query q = c.query;
  q.series.clear();
  std::map<std::string, std::map<std::string, const json*>> groups;
  for (const json* cell : results.cells(q))
    groups[group_key(*cell, c.group_by)][(*cell)["series"].get<std::string>()] = cell;
  LargestReduction largest;
  for (const auto& [g, cells] : groups) {
    if (!cells.count(c.query.series) || !cells.count(c.baseline) || !cells.count(c.against)) continue;
    const auto values = [&cells = cells, &c](const std::string& sr) {
      return trial_values(*cells.at(sr), c.query.metric);
    };
    largest.add(g, gap_reduction(values(c.query.series), values(c.baseline), values(c.against), s.resample, s.coverage),
                out);
  }
  largest.settle(c, s,
                 "largest " + c.query.series + " reduction of the " + c.query.metric + " gap between " + c.baseline +
                     " and " + c.against + ": ",
                 out);
}

// auc_reduction: the same rule on the largest reduction of the area under the metric's curve over `over`.
void judge_auc_reduction(const Claim& c, const Results& results, const VerdictSettings& s, ClaimOutcome& out) {
  // Per group: each value of `over` that both series ran, the trials of each series' cell there.
  Query q = c.query;
  q.series.clear();
  std::map<std::string, std::map<double, std::map<std::string, const json*>>> groups;  // group -> x -> series -> cell
  for (const json* cell : results.cells(q)) {
    const std::string series = (*cell)["series"].get<std::string>();
    if (series != c.query.series && series != c.against) continue;
    if (!(*cell)["params"].contains(c.over) || !(*cell)["params"][c.over].is_number()) continue;
    groups[group_key(*cell, c.group_by)][(*cell)["params"][c.over].get<double>()][series] = cell;
  }
  LargestReduction largest;
  for (const auto& [g, by_x] : groups) {
    std::vector<double> xs;
    std::vector<std::vector<double>> series, against;
    for (const auto& [x, cells] : by_x) {
      if (!cells.count(c.query.series) || !cells.count(c.against)) continue;
      xs.push_back(x);
      series.push_back(trial_values(*cells.at(c.query.series), c.query.metric));
      against.push_back(trial_values(*cells.at(c.against), c.query.metric));
    }
    if (xs.size() < 2) continue;
    largest.add(g, auc_reduction(xs, series, against, s.resample, s.coverage), out);
  }
  largest.settle(c, s,
                 "largest reduction of the area under " + c.against + "'s " + c.query.metric + " curve over " + c.over +
                     " by " + c.query.series + ": ",
                 out);
}

// best_at: the metric averaged over the other parameters, for each value of `over`; the best at the claimed value.
void judge_best_at(const Claim& c, const Results& results, ClaimOutcome& out) {
  const auto better = [&](double a, double b) { return c.lower_is_better ? a < b : a > b; };
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

}  // namespace

// Claims use the seed-variance machinery where they compare a mean against a bound:
//   threshold  a cell whose mean violates the bound is "within seed variance" when the bound lies
//              inside the central 95% of the cell's k-seed statistic (k runs of the paper could have
//              landed on the claimed side), else it differs;
//   ordering   a group whose means violate "winner better than loser" is "within seed variance" when
//              0 lies inside the central 95% of the difference of the two k-seed statistics (winner
//              minus loser, independent k-subsets of each series' trials), else it differs;
//   best_at    compares averages over cells, judged on the means alone.
//   gap_reduction  the largest reduction over the groups (the claim says "up to"): holds within
//              expected_tolerance of the claimed value; "within seed variance" when the claimed value
//              lies inside that group's bootstrap interval; else it differs.
//   auc_reduction  the same rule on the largest reduction of the area under the metric's curve over `over`.
// The claim holds when every cell or group satisfies it on the means; it is within seed variance when
// every violation is; it differs when one violation is outside its band (or cannot be judged for too
// few trials).
ClaimOutcome evaluate(const Claim& c, const Results& results, const VerdictSettings& s) {
  ClaimOutcome out;
  std::vector<std::string> violations;
  if (c.kind == ClaimKind::ordering) judge_ordering(c, results, s, out, violations);
  else if (c.kind == ClaimKind::threshold) judge_threshold(c, results, s, out, violations);
  else if (c.kind == ClaimKind::gap_reduction) judge_gap_reduction(c, results, s, out);
  else if (c.kind == ClaimKind::auc_reduction) judge_auc_reduction(c, results, s, out);
  else judge_best_at(c, results, out);
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

}  // namespace dpclust::report
