// The cost model of cost_model.hpp: each cell's trial from its method's own estimate (MethodInfo::cost) and the
// metrics it computes, the whole run from the cells; sizes from the parameters and the dataset's known shape, never
// from the data. The refusals and notes built on the estimates are in cost_checks.cpp.
#include "loading/cost_model.hpp"

#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "catalog/catalog.hpp"
#include "core/error.hpp"
#include "loading/dataset_loading.hpp"
#include "metrics/kmeans_measures_cost.hpp"

namespace dpclust {

std::uint64_t default_max_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  std::uint64_t limit = pages <= 0 || page <= 0
                            ? std::uint64_t{4} << 30
                            : static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 2;
  // A process address-space limit (ulimit -v, prlimit --as, a batch system's) is a harder bound than the
  // RAM: an allocation over it fails. Keep 3/4 of it for the estimate (the rest: libraries, threads'
  // stacks, the allocator's slack).
  struct rlimit as {};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    limit = std::min<std::uint64_t>(limit, static_cast<std::uint64_t>(as.rlim_cur) / 4 * 3);
  return limit;
}

double parse_count(const std::string& text, const std::string& option) {
  const std::string fix = "write a positive whole number, e.g. " + option + " 5000000 or " + option + " 5e6";
  bool ok = !text.empty() && text.size() <= 30;
  for (char c : text)
    ok = ok && (std::isdigit(static_cast<unsigned char>(c)) || c == 'e' || c == 'E' || c == '.' || c == '+');
  char* end = nullptr;
  const double v = ok ? std::strtod(text.c_str(), &end) : 0;
  if (!ok || end != text.c_str() + text.size() || !(v >= 1) || v != std::floor(v) || v > 1.8e19)
    throw InputError(option, "expected a positive whole number, got '" + text.substr(0, 40) + "'", fix);
  return v;
}

std::optional<TrialCost> estimate_trial_cost(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape) {
  if (!shape.n || !shape.d) return std::nullopt;
  const CostInputs in{cell.params, shape, cfg.metrics};
  const MethodInfo* info = find_method(cell.method);
  // A method without an estimate of its own (one a config defines: `method: python`): its labels and a pass over
  // the data.
  TrialCost s{16 * in.n(), in.n() * in.d()};
  if (info && info->cost.trial) s = info->cost.trial(in);
  const TrialCost measures =
      kmeans_measures_cost(in, info && info->releases_centres, cfg.trials, cfg.evaluation.silhouette_sample);
  return TrialCost{s.memory + measures.memory, s.work + measures.work, s.noise_draws};
}

RunCost estimate_run_cost(const ExperimentConfig& cfg, const std::vector<Cell>& cells, int threads,
                          const std::vector<DataShape>* given) {
  RunCost r;
  r.cells = cells.size();
  std::vector<DataShape> shapes;
  for (std::size_t i = 0; i < cfg.datasets.size(); ++i) {
    const auto& ds = cfg.datasets[i];
    shapes.push_back(given && i < given->size() ? (*given)[i] : known_shape(ds));
    const DataShape& s = shapes.back();
    if (s.n && s.d) r.data_memory += 2 * kBytesPerDouble * static_cast<double>(*s.n) * static_cast<double>(*s.d + 1);
    else r.unknown.push_back(ds.name);
  }
  for (const auto& c : cells) {
    const auto t = estimate_trial_cost(cfg, c, shapes[c.dataset_index]);
    if (!t) continue;
    if (const MethodInfo* info = find_method(c.method); info && n_is_private(*info, shapes[c.dataset_index]))
      r.private_sizes = true;
    r.work += t->work * static_cast<double>(cfg.trials);
    if (t->memory > r.trial_memory) {
      r.trial_memory = t->memory;
      r.largest_trial = "method '" + c.method_label + "' on dataset '" + c.dataset + "'";
      r.largest_where = cfg.methods[c.method_index].where;
    }
  }
  int workers = threads > 0 ? threads : omp_get_max_threads();
  if (cfg.threads > 0) workers = std::min(workers, cfg.threads);  // the config's cap (runner.cpp)
  const double tasks = static_cast<double>(cells.size()) * static_cast<double>(cfg.trials);
  r.parallel = static_cast<int>(std::max(1.0, std::min(static_cast<double>(workers), tasks)));
  // The process itself (binary, libraries, OpenMP's threads): about 18.5 MiB measured (bench/dpdbscan_memory.py).
  r.peak_memory = kProcessMemory + r.data_memory + r.parallel * r.trial_memory;
  return r;
}

std::string describe_cost(const RunCost& c) {
  if (c.private_sizes)
    return "cost of the loaded data not shown: it counts the number of points, which a private method keeps private (a "
           "size the config declares, a generator's n_samples or a registry file's rows, gives a public estimate)";
  if (c.data_memory == 0 && c.trial_memory == 0 && !c.unknown.empty()) {
    std::string s = "cost not estimated: the size of";
    for (std::size_t i = 0; i < c.unknown.size() && i < 5; ++i) s += (i ? ", " : " ") + c.unknown[i];
    return s + (c.unknown.size() > 5 ? ", ..." : "") + " is known only once loaded";
  }
  std::string s = "estimated peak memory " + format_bytes(c.peak_memory) + " (datasets " + format_bytes(c.data_memory) +
                  " + " + std::to_string(c.parallel) + " parallel trial" + (c.parallel == 1 ? "" : "s") + " x " +
                  format_bytes(c.trial_memory) + "), work ~" + format_count(c.work) + " operations";
  if (!c.unknown.empty()) {
    s += "; not counted (size known only once loaded):";
    for (std::size_t i = 0; i < c.unknown.size() && i < 5; ++i) s += (i ? ", " : " ") + c.unknown[i];
    if (c.unknown.size() > 5) s += ", ...";
  }
  return s;
}

}  // namespace dpclust
