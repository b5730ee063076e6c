#include "scaleout/shard_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <queue>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "loading/cost_model.hpp"
#include "loading/dataset_loading.hpp"

namespace dpclust {

const char* to_string(ShardBy by) { return by == ShardBy::cost ? "cost" : "index"; }

ShardBy parse_shard_by(const std::string& name, const std::string& where) {
  if (name == "cost") return ShardBy::cost;
  if (name == "index") return ShardBy::index;
  throw InputError(where, "unknown shard rule '" + name.substr(0, 40) + "'",
                   "use cost (balance by estimated running time, the default) or index (cell i to shard i % N + 1)");
}

namespace {

// Seconds of one trial (method and metrics) as scale x work^exponent, work being the cost model's
// estimate for the cell (cost_model.hpp), per method (nD-Laplace per clustering algorithm), plus
// kSecondsPerNoiseDraw per draw of a rejection sampler. Fitted once by least squares on log(seconds)
// vs log(work) over the 1864 cells of `./run_all.sh` (configs/builtin/ and configs/paper/ with the data
// present) on the 2-core calibration machine (Debian 12, g++ 12, Release), from each cell's trial
// timings; cells whose time is mostly noise draws were left out of the fits and gave the draw cost
// (0.95 us per 5-D draw). With it, the by-cost plan of those cells is within 1.03x / 1.07x / 1.08x /
// 1.15x of the mean at 4 / 8 / 16 / 32 shards under the measured times, against 1.04x / 1.11x / 1.30x
// / 1.72x by index. `dpclust submit ... --dry-run --timings DIR` shows how well the table ranks the cells
// of DIR. An exponent other than 1 says the work model misstates how running time grows for that
// method (fixed costs such as C4.5 cross-validation on the WaveCluster family; iterations that stop at
// convergence). The factors only have to rank cells: a factor 2x off moves cells between shards, never
// a result. Methods not listed (affinity propagation on its own) use the default, 2 ns per unit of work.
struct MethodSpeed {
  const char* key;  // speed_key(): the method, "nd_laplace:<cluster>"
  double scale;     // seconds at one unit of work
  double exponent;  // of the work
};
constexpr MethodSpeed kDefaultSpeed{"", 2e-9, 1.0};
constexpr MethodSpeed kMethodSpeeds[] = {
    {"dbscan", 1.429e-10, 1.339},
    {"dp_dbscan", 3.259e-08, 0.872},
    {"dp_dbscan_pairwise", 1.193e-08, 1.018},
    {"dp_kmeans", 1.938e-08, 0.847},
    {"drbt", 8.749e-11, 1.135},
    {"kmeans", 2.032e-11, 1.086},
    {"nd_laplace:affinity", 8.723e-09, 0.817},
    {"nd_laplace:dbscan", 2.13e-06, 0.610},
    {"nd_laplace:kmeans", 1.655e-04, 0.166},
    {"privqt", 3.979e-08, 1.0},
    {"privthr", 4.687e-11, 1.5},
    {"privthr_em", 4.064e-11, 1.5},
    {"wavecluster", 2.801e-11, 1.5},
    {"wc_baseline", 1.872e-07, 0.931},
};

const MethodSpeed& speed_of(const std::string& key) {
  for (const auto& s : kMethodSpeeds)
    if (key == s.key) return s;
  return kDefaultSpeed;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::string hex16(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace

double estimate_trial_seconds(const std::string& speed_key, double work) {
  const MethodSpeed& s = speed_of(speed_key);
  return s.scale * std::pow(std::max(work, 1.0), s.exponent);
}

DataShape planning_shape(const DatasetSpec& spec) {
  DataShape s = known_shape(spec);
  if (s.n && s.d && (!s.bounds.empty() || *s.n > 200'000)) return s;
  bool small = false;
  if (!spec.generator.empty()) {
    small = s.n && *s.n <= 200'000;
  } else if (!spec.multi_file && !spec.resolved.empty()) {
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(spec.resolved, ec);
    small = !ec && bytes <= (16u << 20);
  }
  if (!small) return s;
  try {
    return shape_of(materialize_dataset(spec));
  } catch (const std::exception&) {
    return s;  // a file that does not load: the run will say why; the plan keeps the estimate it has
  }
}

std::string speed_key(const Cell& cell) {
  // nD-Laplace's running time is its clustering's (run twice, perturbed and original): one law each.
  if (cell.method == "nd_laplace" && cell.params.has("cluster")) return "nd_laplace:" + cell.params.string("cluster");
  return cell.method;
}

std::vector<double> estimate_cell_seconds(const ExperimentConfig& cfg, const std::vector<Cell>& cells,
                                          ShapeCache* cache) {
  std::vector<DataShape> shapes;
  for (const auto& ds : cfg.datasets) {
    if (!cache) {
      shapes.push_back(planning_shape(ds));
      continue;
    }
    const std::string key = ds.definition.dump();  // the same dataset in several configs is loaded once
    auto it = cache->find(key);
    if (it == cache->end()) it = cache->emplace(key, planning_shape(ds)).first;
    shapes.push_back(it->second);
  }
  const double trials = static_cast<double>(cfg.trials);
  std::vector<double> seconds(cells.size(), -1);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Cell& c = cells[i];
    if (const auto cost = estimate_trial_cost(cfg, c, shapes[c.dataset_index]))
      seconds[i] =
          trials * (estimate_trial_seconds(speed_key(c), cost->work) + kSecondsPerNoiseDraw * cost->noise_draws);
  }
  return seconds;
}

std::vector<std::uint32_t> assign_by_index(std::size_t cells, std::size_t count) {
  std::vector<std::uint32_t> shard(cells);
  for (std::size_t i = 0; i < cells; ++i) shard[i] = static_cast<std::uint32_t>(i % count + 1);
  return shard;
}

std::vector<std::uint32_t> assign_by_cost(const std::vector<double>& costs, std::size_t count) {
  if (count == 0) throw std::invalid_argument("assign_by_cost: count must be >= 1");
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Most expensive first; equal costs keep their list order (stable), so the plan never depends on sort internals.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
  // The least-loaded shard, ties to the lower shard number: a min-heap on (load, shard).
  using Load = std::pair<double, std::uint32_t>;
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> shards;
  for (std::size_t s = 1; s <= count; ++s) shards.emplace(0.0, static_cast<std::uint32_t>(s));
  std::vector<std::uint32_t> shard(costs.size(), 0);
  for (std::size_t i : order) {
    auto [load, s] = shards.top();
    shards.pop();
    shard[i] = s;
    shards.emplace(load + std::max(costs[i], 0.0), s);
  }
  return shard;
}

ShardPlan plan_shards(const std::vector<ExperimentConfig>& cfgs, std::size_t count, ShardBy by,
                      const ShardCosts* measured) {
  ShardPlan plan;
  plan.by = by;
  plan.count = count;
  // Estimates, then the unknown ones (-1: dataset size unknown before loading) from the median of the
  // same method's known cells across every config of the plan, else of all known cells, else 1 s.
  std::vector<std::vector<Cell>> grids;
  std::map<std::string, std::vector<double>> known_by_method;
  std::vector<double> known;
  ShapeCache shapes;
  for (const auto& cfg : cfgs) {
    grids.push_back(expand_grid(cfg));
    plan.seconds.push_back(estimate_cell_seconds(cfg, grids.back(), &shapes));
    for (std::size_t i = 0; i < grids.back().size(); ++i)
      if (plan.seconds.back()[i] >= 0) {
        known_by_method[grids.back()[i].method].push_back(plan.seconds.back()[i] / static_cast<double>(cfg.trials));
        known.push_back(plan.seconds.back()[i] / static_cast<double>(cfg.trials));
      }
  }
  const double per_trial_all = known.empty() ? 1.0 : median(known);
  for (std::size_t k = 0; k < cfgs.size(); ++k)
    for (std::size_t i = 0; i < grids[k].size(); ++i) {
      double& s = plan.seconds[k][i];
      if (s < 0) {
        const auto it = known_by_method.find(grids[k][i].method);
        s = static_cast<double>(cfgs[k].trials) * (it != known_by_method.end() ? median(it->second) : per_trial_all);
      }
      // Measured seconds of an earlier run replace the estimate (a snapshot file every task reads alike).
      if (measured)
        if (const auto e = measured->find(cfgs[k].name); e != measured->end())
          if (const auto c = e->second.find(grids[k][i].id); c != e->second.end() && c->second >= 0) s = c->second;
    }
  std::vector<double> all;
  for (const auto& s : plan.seconds) all.insert(all.end(), s.begin(), s.end());
  if (by == ShardBy::cost) {
    const std::vector<std::uint32_t> shard = assign_by_cost(all, count);
    std::size_t at = 0;
    for (const auto& s : plan.seconds) {
      plan.shard_of.emplace_back(shard.begin() + static_cast<std::ptrdiff_t>(at),
                                 shard.begin() + static_cast<std::ptrdiff_t>(at + s.size()));
      at += s.size();
    }
  } else {
    // By index each config is dealt on its own (cell i of every config to shard i % N + 1): the rule
    // `--shard K/N` always had, kept exactly for scripts that rely on it.
    for (const auto& s : plan.seconds) plan.shard_of.push_back(assign_by_index(s.size(), count));
  }
  std::string text = std::string(to_string(by)) + "/" + std::to_string(count);
  for (const auto& s : plan.shard_of) {
    text += ";";
    for (std::uint32_t x : s) text += std::to_string(x) + ",";
  }
  plan.fingerprint = hex16(fnv1a64(text));
  return plan;
}

ShardBalance shard_balance(const std::vector<double>& seconds, const std::vector<std::uint32_t>& shard_of,
                           std::size_t count) {
  ShardBalance b;
  std::vector<double> load(count + 1, 0.0);
  double total = 0;
  for (std::size_t i = 0; i < seconds.size() && i < shard_of.size(); ++i) {
    if (shard_of[i] >= 1 && shard_of[i] <= count) load[shard_of[i]] += seconds[i];
    total += seconds[i];
    b.largest_cell = std::max(b.largest_cell, seconds[i]);
  }
  b.slowest = *std::max_element(load.begin(), load.end());
  b.mean = count ? total / static_cast<double>(count) : 0;
  return b;
}

std::size_t suggest_task_count(const std::vector<double>& seconds, std::size_t max_tasks, double bound) {
  std::size_t best = 1;
  const std::size_t limit = std::min(max_tasks, seconds.size());
  for (std::size_t n = 2; n <= limit; ++n)
    if (shard_balance(seconds, assign_by_cost(seconds, n), n).ratio() <= bound) best = n;
  return best;
}

ShardCosts measure_shard_costs(const std::filesystem::path& results_dir, const std::vector<ExperimentConfig>& cfgs) {
  ShardCosts costs;
  for (const auto& cfg : cfgs) {
    for (const auto& cell : expand_grid(cfg)) {
      const auto file = results_dir / cfg.name / "cells" / (cell.id + ".json");
      std::ifstream in(file);
      if (!in) continue;
      try {
        const nlohmann::json j = nlohmann::json::parse(in);
        // The same cell of the same config (an edited config's cell of this id would be stale).
        if (j.at("key") != cell.key) continue;
        double total = 0;
        for (const auto& t : j.at("trials")) {
          const auto& timing = t.at("timing");
          total += timing.value("method_seconds", 0.0) + timing.value("metrics_seconds", 0.0);
        }
        costs[cfg.name][cell.id] = total;
      } catch (const std::exception&) {
        // Not a readable cell: its estimate stays.
      }
    }
  }
  return costs;
}

std::string shard_costs_json(const ShardCosts& costs) {
  nlohmann::json j{{"schema", "dpclust.shard_costs/1"}, {"experiments", nlohmann::json::object()}};
  for (const auto& [exp, cells] : costs)
    for (const auto& [id, seconds] : cells) j["experiments"][exp][id] = seconds;
  return j.dump(1) + "\n";
}

ShardCosts read_shard_costs(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in)
    throw InputError(file.string(), "cannot read the shard costs file",
                     "pass the costs.json that `dpclust submit --timings` wrote");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw InputError(file.string(), std::string("not JSON (") + e.what() + ")",
                     "pass the costs.json that `dpclust submit --timings` wrote");
  }
  if (!j.is_object() || j.value("schema", "") != "dpclust.shard_costs/1" || !j.contains("experiments") ||
      !j["experiments"].is_object())
    throw InputError(file.string(),
                     "not a shard costs file (schema dpclust.shard_costs/1 with an `experiments` object)",
                     "pass the costs.json that `dpclust submit --timings` wrote");
  ShardCosts costs;
  for (const auto& [exp, cells] : j["experiments"].items()) {
    if (!cells.is_object())
      throw InputError(file.string() + " experiments." + exp, "expected an object of cell id -> seconds");
    for (const auto& [id, seconds] : cells.items()) {
      if (!seconds.is_number() || !(seconds.get<double>() >= 0) || !std::isfinite(seconds.get<double>()))
        throw InputError(file.string() + " experiments." + exp + "." + id, "expected a number of seconds >= 0");
      costs[exp][id] = seconds.get<double>();
    }
  }
  return costs;
}

}  // namespace dpclust
