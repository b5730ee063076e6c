// The checks of cost_model.hpp against the run's limits: a trial over the memory limit or past a method's own limits
// (MethodInfo::cost.limits) is refused with the parameter and the value that fit; a slow trial gets a note; the whole
// run's memory and work are checked before any work. What fits is searched with the methods' own estimates
// (cost_model.cpp), never on the data.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "core/error.hpp"
#include "loading/cost_model.hpp"
#include "loading/dataset_loading.hpp"

namespace dpclust {
namespace {

double trial_memory(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape) {
  const auto t = estimate_trial_cost(cfg, cell, shape);
  return t ? t->memory : 0;
}

// The cell with a method's suggested parameter values.
Cell with_change(const Cell& cell, const ParamChange& change) {
  Cell c = cell;
  for (const auto& [name, value] : change.set) c.params.set(name, value);
  return c;
}

// The method's advice for this cell (nothing when the method has none).
CostAdvice advice_for(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape) {
  const MethodInfo* info = find_method(cell.method);
  if (!info || !info->cost.advice) return {};
  return info->cost.advice(CostInputs{cell.params, shape, cfg.metrics});
}

std::string joined_fixes(const std::vector<std::string>& fixes) {
  std::string fix;
  for (std::size_t i = 0; i < fixes.size(); ++i) fix += (i ? "; or " : "") + fixes[i];
  return fix;
}

// What brings one trial of `cell` under `budget` bytes: from each group of the method's changes the first that
// fits, then fewer points (max_rows, or sample:) for any method.
std::vector<std::string> memory_fixes(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape,
                                      const CostAdvice& advice, double budget) {
  std::vector<std::string> fixes;
  for (const auto& group : advice.memory_fixes)
    for (const ParamChange& change : group)
      if (trial_memory(cfg, with_change(cell, change), shape) <= budget) {
        fixes.push_back(change.offer);
        break;
      }
  const std::uint64_t rows = largest_fitting(1, *shape.n, [&](std::uint64_t m) {
    DataShape s = shape;
    s.n = m;
    return trial_memory(cfg, cell, s) <= budget;
  });
  if (rows > 0 && rows < *shape.n)
    fixes.push_back("max_rows: " + std::to_string(rows) + " (or sample: " + std::to_string(rows) + ") on this dataset");
  return fixes;
}

// A trial over the memory limit whose estimate counts the private number of points: the limit and the fixes
// that do not depend on that number (a fix chosen by searching at the true n would tell it).
InputError private_memory_problem(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape,
                                  const CostAdvice& advice, double max_memory, int parallel) {
  const std::string problem =
      "method '" + cell.method_label + "' on dataset '" + cell.dataset + "' (d = " + std::to_string(*shape.d) +
      "): one trial is estimated to need more than the memory limit of " + format_bytes(max_memory) +
      (parallel > 1 ? " allows for " + std::to_string(parallel) + " trials at once" : std::string(" allows")) +
      " (the estimate counts the points read, which are private to this method: no number computed from them is shown)";
  // The parameters that size the method's largest structures besides the points.
  std::vector<std::string> fixes = advice.private_memory_fixes;
  fixes.push_back("fewer points (max_rows: N or sample: N on this dataset)");
  if (parallel > 1) fixes.push_back("--threads 1 (one trial at a time)");
  fixes.push_back("--max-memory SIZE if the machine has it");
  return InputError(cfg.methods[cell.method_index].where, problem, joined_fixes(fixes));
}

// "method 'm' on dataset 'x' (n = .., d = ..): ", the head of a cell's problem.
std::string cell_head(const Cell& cell, const DataShape& shape) {
  return "method '" + cell.method_label + "' on dataset '" + cell.dataset + "' (n = " + std::to_string(*shape.n) +
         ", d = " + std::to_string(*shape.d) + "): ";
}

// The whole run's estimated work against --max-work.
void check_work(const ExperimentConfig& cfg, const RunCost& cost, const RunLimits& limits) {
  if (cost.work <= limits.max_work) return;
  throw InputError(
      cfg.file.string(),
      describe_cost(cost) + ". This exceeds the work limit of " + format_count(limits.max_work) +
          " operations (about a day of computing)",
      "sweep fewer values, run fewer trials or smaller datasets, lower iteration counts, or raise the limit with "
      "--max-work N (e.g. --max-work 1e17)");
}

}  // namespace

std::optional<InputError> cell_cost_problem(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape,
                                            double max_memory, int parallel, double data_memory,
                                            double max_trial_seconds) {
  if (!shape.n || !shape.d) return std::nullopt;
  const double mem = trial_memory(cfg, cell, shape);
  const double budget = (max_memory - kProcessMemory - data_memory) / std::max(1, parallel);
  const std::string where = cfg.methods[cell.method_index].where;
  const MethodInfo* info = find_method(cell.method);
  if (info && info->cost.limits)
    if (auto p = info->cost.limits(CostInputs{cell.params, shape, cfg.metrics}, max_trial_seconds))
      return InputError(where, cell_head(cell, shape) + p->problem, p->fix);
  if (mem <= budget) return std::nullopt;
  const CostAdvice advice = advice_for(cfg, cell, shape);
  if (info && n_is_private(*info, shape)) return private_memory_problem(cfg, cell, shape, advice, max_memory, parallel);
  std::string problem = "method '" + cell.method_label + "' on dataset '" + cell.dataset +
                        "' (n = " + std::to_string(*shape.n) + ", d = " + std::to_string(*shape.d) +
                        "): one trial needs about " + format_bytes(mem) + advice.memory_detail;
  problem += ", over the memory limit of " + format_bytes(max_memory) +
             (parallel > 1 ? " for " + std::to_string(parallel) + " trials at once" : std::string());
  std::vector<std::string> fixes = memory_fixes(cfg, cell, shape, advice, budget);
  if (parallel > 1 && mem <= max_memory - data_memory) fixes.push_back("--threads 1 (one trial at a time)");
  fixes.push_back("--max-memory SIZE above " + format_bytes(data_memory + std::max(1, parallel) * mem) +
                  " if the machine has it");
  return InputError(where, problem, joined_fixes(fixes));
}

std::string slow_trial_note(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape, double seconds) {
  // The note and its numbers are functions of n: none for a cell whose n is private (cost_model.hpp).
  if (const MethodInfo* info = find_method(cell.method); info && n_is_private(*info, shape)) return "";
  const auto t = estimate_trial_cost(cfg, cell, shape);
  // About 1e9 basic operations a second on one core, plus a rejection sampler's draws.
  const double trial_seconds = t ? t->work / 1e9 + t->noise_draws * kSecondsPerNoiseDraw : 0;
  if (!t || trial_seconds <= seconds) return "";
  std::string note = "method '" + cell.method_label + "' on dataset '" + cell.dataset + "': about " +
                     format_count(trial_seconds) + " s a trial (" +
                     format_count(trial_seconds * static_cast<double>(cfg.trials)) + " s for its " +
                     std::to_string(cfg.trials) + " trials)";
  const CostAdvice advice = advice_for(cfg, cell, shape);
  note += advice.time_detail;
  for (const ParamChange& change : advice.speedups) {
    const auto faster = estimate_trial_cost(cfg, with_change(cell, change), shape);
    if (faster && faster->work / 1e9 <= seconds) {
      note += "; " + change.offer + " brings it under " + format_count(seconds) + " s";
      break;
    }
  }
  return note;
}

RunCost check_run_cost(const ExperimentConfig& cfg, const RunLimits& limits, bool cells_may_be_skipped) {
  // 1. The grid, counted before it is expanded.
  count_cells(cfg, limits.max_cells);
  const std::vector<Cell> cells = expand_grid(cfg, limits.max_cells);
  // 2. Every cell's parameters against what the config says of its dataset's shape, and its memory: every
  //    problem of the config in one pass, each said once.
  std::vector<DataShape> shapes;
  for (const auto& ds : cfg.datasets) shapes.push_back(known_shape(ds));
  RunCost cost = estimate_run_cost(cfg, cells, limits.threads);
  const double max_memory = static_cast<double>(limits.max_memory ? limits.max_memory : default_max_memory());
  ProblemList problems;
  std::vector<Cell> runnable;
  for (const auto& c : cells) {
    if (!problems.collect([&] { check_cell_shape(cfg, c, shapes[c.dataset_index]); })) continue;
    if (auto p = cell_cost_problem(cfg, c, shapes[c.dataset_index], max_memory, cost.parallel, cost.data_memory,
                                   limits.max_trial_seconds))
      problems.add(*p);
    else runnable.push_back(c);
  }
  if (cells_may_be_skipped) {
    // run --keep-going: the cells with a problem will be skipped (and recorded) by the run; the work limit
    // applies to the others. Their memory is checked per cell, against the same limit, once loaded.
    cost = estimate_run_cost(cfg, runnable, limits.threads);
    check_work(cfg, cost, limits);
    return cost;
  }
  problems.throw_if_any();
  // 3. The whole run's memory and work.
  if (cost.peak_memory > max_memory)
    throw InputError(
        cost.largest_where.empty() ? cfg.file.string() : cost.largest_where,
        describe_cost(cost) + "; the largest trial is " + cost.largest_trial + ". This exceeds the memory limit of " +
            format_bytes(max_memory) + (limits.max_memory ? "" : " (default: half of the physical memory)"),
        "lower the sizes that dominate (grid sizes g, the number of points via sample:, k, ...), run fewer trials "
        "at once (--threads 1), or raise the limit with --max-memory SIZE (e.g. --max-memory 64G)");
  check_work(cfg, cost, limits);
  return cost;
}

}  // namespace dpclust
