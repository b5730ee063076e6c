// Every problem of a config before its first trial; see preflight.hpp.
#include "run/preflight.hpp"

#include <algorithm>
#include <exception>
#include <new>

#include "loading/dataset_loading.hpp"
#include "run/cell_trials.hpp"

namespace dpclust {

namespace {
// A trial estimated to take longer than this gets a note before the run (with what would shorten it).
constexpr double kSlowTrialSeconds = 10;
}  // namespace

Preflight preflight(const ExperimentConfig& cfg, const std::vector<const Cell*>& cells, bool load_data,
                    const RunLimits& limits) {
  Preflight pf;
  const std::size_t nd = cfg.datasets.size();
  pf.data.resize(nd);
  std::vector<std::optional<InputError>> dataset_problem(nd);
  std::vector<bool> needed(nd, false);
  for (const Cell* c : cells) needed[c->dataset_index] = true;
  // 1. Each needed dataset: present, and (load_data) loaded with every transform.
  for (std::size_t i = 0; i < nd; ++i) {
    if (!needed[i]) continue;
    const DatasetSpec& spec = cfg.datasets[i];
    try {
      check_dataset_available(spec);
      if (load_data) pf.data[i] = materialize_dataset(spec, cfg.randomness);
    } catch (const InputError& e) {
      dataset_problem[i] = e;
    } catch (const std::bad_alloc&) {
      dataset_problem[i] = InputError(spec.where, "dataset '" + spec.name + "' does not fit in memory while loading",
                                      "select fewer rows (max_rows: N) or columns, or run on a larger machine");
    }
    if (dataset_problem[i]) pf.problems.add(*dataset_problem[i]);
  }
  // 2. The shapes: loaded where loaded, else what the config says.
  std::vector<DataShape> shapes;
  for (std::size_t i = 0; i < nd; ++i)
    shapes.push_back(pf.data[i] ? loaded_shape(cfg.datasets[i], *pf.data[i]) : known_shape(cfg.datasets[i]));
  std::vector<Cell> all;
  all.reserve(cells.size());
  for (const Cell* c : cells) all.push_back(*c);
  pf.cost = estimate_run_cost(cfg, all, limits.threads, &shapes);
  const double max_memory = static_cast<double>(limits.max_memory ? limits.max_memory : default_max_memory());
  // 3. Each cell: parameters against the shape, the metrics' prerequisites, its memory.
  for (const Cell* c : cells) {
    const std::size_t di = c->dataset_index;
    if (dataset_problem[di]) {
      // The data could not be read, but what the config and the registry declare of its shape (a
      // registered file's row count, a sample size) still shows the cell's own problems: every problem
      // at once, so a user who fetches the file is not met by the next one.
      ProblemList declared;
      declared.collect([&] { check_cell_shape(cfg, *c, shapes[di]); });
      for (const auto& p : declared.problems()) pf.problems.add(p);
      pf.blocked.emplace(c->index, *dataset_problem[di]);
      continue;
    }
    ProblemList mine;
    const bool ok = mine.collect([&] {
      if (pf.data[di]) {
        check_prerequisites(cfg, *c, *pf.data[di]);
        pf.metrics.resize(std::max(pf.metrics.size(), c->index + 1));
        pf.metrics[c->index] = resolve_metrics(cfg, *c, *pf.data[di]);
      } else {
        check_cell_shape(cfg, *c, shapes[di]);
      }
    });
    if (ok) {
      if (auto p = cell_cost_problem(cfg, *c, shapes[di], max_memory, pf.cost.parallel, pf.cost.data_memory,
                                     limits.max_trial_seconds))
        mine.add(*p);
      else if (std::string note = slow_trial_note(cfg, *c, shapes[di], kSlowTrialSeconds); !note.empty())
        pf.notes.push_back(note);
    }
    if (mine.empty()) continue;
    pf.blocked.emplace(c->index, mine.problems().front());
    for (const auto& p : mine.problems()) pf.problems.add(p);
  }
  // Slow-trial notes for a sweep repeat per epsilon: each said once.
  std::vector<std::string> unique;
  for (auto& n : pf.notes)
    if (std::find(unique.begin(), unique.end(), n) == unique.end()) unique.push_back(n);
  pf.notes = std::move(unique);
  return pf;
}

}  // namespace dpclust
