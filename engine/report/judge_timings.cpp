// Our running time beside a published one: compared, never judged (judge.hpp).
#include "report/judge.hpp"

#include <algorithm>

namespace dpclust::report {
using json = nlohmann::json;

TimingOutcome evaluate(const PublishedTiming& t, const Results& results) {
  TimingOutcome out;
  const auto cells = results.cells(t.query);
  if (cells.empty()) {
    if (!results.experiments().count(t.query.experiment))
      out.note = results.skipped().count(t.query.experiment)
                     ? "skipped (data missing)"
                     : "experiment '" + t.query.experiment + "' not in the results";
    else out.note = "no matching cell";
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

}  // namespace dpclust::report
