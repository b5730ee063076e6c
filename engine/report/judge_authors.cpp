// Judging a published value against the authors' own seeds or code options (judge.hpp, evaluate_authors).
#include "report/judge.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <set>
#include <sstream>

#include "report/format.hpp"

namespace dpclust::report {
using json = nlohmann::json;

namespace {

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
    out.status = std::to_string(cells.size()) + " cells of " + a.experiment +
                 " match: the reference entry needs a parameter filter";
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
      if (!t.contains(part) || !t[part].is_object() || !t[part].contains(v.query.metric) ||
          !t[part][v.query.metric].is_number())
        continue;
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
    for (std::size_t i = 0; i < out.missing_seeds.size(); ++i)
      out.status += (i ? ", " : "") + std::to_string(out.missing_seeds[i]);
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

}  // namespace dpclust::report
