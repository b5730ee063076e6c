#include "config/grid.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>

#include "catalog/catalog.hpp"
#include "config/param_checks.hpp"
#include "config/param_values.hpp"
#include "config/raw_params.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"

namespace dpclust {

namespace {

struct Axis {
  std::vector<std::string> names;               // one name, or a zip group
  std::vector<std::vector<ParamValue>> values;  // values[row][name index]
};

std::string hex16(std::uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

// Every parameter set at experiment or dataset level must be declared by some listed method.
void check_declared(const RawParams& params, const ExperimentConfig& cfg, const std::string& level) {
  std::set<std::string> declared;
  for (const auto& m : cfg.methods)
    for (const auto& p : find_method(m.method)->params) declared.insert(p.name);
  for (const auto& [name, at] : params) {
    if (declared.count(name)) continue;
    std::string s = closest_match(name, declared);
    yaml::fail(at, "parameter '" + name + "' (" + level + ") is not a parameter of any listed method",
               s.empty() ? "see `dpclust list` for each method's parameters" : "did you mean '" + s + "'?");
  }
}

// The typed source of a parameter for (dataset, method), from whichever level sets it (nullptr: default).
const ParamSource* source_of(const ExperimentConfig& cfg, const DatasetSpec& ds, const MethodSpec& ms,
                             const std::string& name) {
  for (const ParamSources* level : {&ms.params, &ds.params, &cfg.params}) {
    auto it = level->find(name);
    if (it != level->end()) return &it->second;
  }
  return nullptr;
}

// InputError at a stored location, clipped as yaml::fail clips (the same words as when the YAML was at hand).
[[noreturn]] void fail_at(const std::string& where, const std::string& what, const std::string& fix) {
  throw InputError(where, yaml::clip(what, 600), yaml::clip(fix, 2000));
}

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? kSaturated : r;
}

std::string with_commas(std::uint64_t x) {
  const std::string digits = std::to_string(x);
  std::string s;
  s.reserve(digits.size() + digits.size() / 3);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s.push_back(',');  // a comma before each group of three from the right
    s.push_back(digits[i]);
  }
  return s;
}

}  // namespace

std::uint64_t count_method_cells(const ExperimentConfig& cfg, const DatasetSpec& ds, const MethodSpec& ms) {
  const MethodInfo& info = *find_method(ms.method);
  std::set<std::string> zipped;
  std::uint64_t total = 1;
  for (const auto& group : ms.zip) {
    // A zip group is one axis as long as its lists (equal lengths are checked when expanding).
    const ParamSource* src = source_of(cfg, ds, ms, group[0]);
    if (src && src->length.count(ms.method)) total = saturating_mul(total, src->length.at(ms.method));
    for (const auto& name : group) zipped.insert(name);
  }
  for (const auto& spec : info.params) {
    if (zipped.count(spec.name)) continue;
    if (const ParamSource* src = source_of(cfg, ds, ms, spec.name); src && src->length.count(ms.method))
      total = saturating_mul(total, src->length.at(ms.method));
  }
  return total;
}

std::uint64_t count_cells(const ExperimentConfig& cfg, std::uint64_t max_cells) {
  std::uint64_t total = 0, largest = 0;
  const DatasetSpec* big_ds = nullptr;
  const MethodSpec* big_ms = nullptr;
  for (const auto& ds : cfg.datasets)
    for (const auto& ms : cfg.methods) {
      const std::uint64_t c = count_method_cells(cfg, ds, ms);
      total = __builtin_add_overflow(total, c, &total) ? kSaturated : total;
      if (c > largest) {
        largest = c;
        big_ds = &ds;
        big_ms = &ms;
      }
    }
  if (total > max_cells) {
    const std::string n = total == kSaturated ? "more than 1.8e19" : with_commas(total);
    throw InputError(
        cfg.file.string(),
        "the experiment expands to " + n + " cells (datasets x methods x parameter values), more than the limit of " +
            with_commas(max_cells) + "; the largest part is method '" + big_ms->label + "' (" + big_ms->where +
            ") on dataset '" + big_ds->name + "' with " +
            (largest == kSaturated ? "more than 1.8e19" : with_commas(largest)) + " cells",
        "sweep fewer values (or zip lists that vary together), split the experiment into several configs, or "
        "raise the limit with --max-cells N");
  }
  return total;
}

std::vector<Cell> expand_grid(const ExperimentConfig& cfg) { return expand_grid(cfg, cfg.max_cells); }

void type_params(ExperimentConfig& cfg, const RawParamLevels& raw, std::uint64_t max_cells) {
  check_declared(raw.experiment, cfg, "experiment params");
  for (std::size_t di = 0; di < cfg.datasets.size(); ++di)
    check_declared(raw.datasets[di], cfg, "params of dataset '" + cfg.datasets[di].name + "'");
  // Which listed methods each level applies to: the experiment's and a dataset's params to every method
  // that declares them, a method's params to that method.
  auto sources = [&](const RawParams& level, const std::vector<const MethodSpec*>& methods) {
    ParamSources out;
    for (const auto& [name, at] : level) {
      ParamSource& s = out[name];
      s.where = at.where();
      for (const MethodSpec* ms : methods)
        for (const auto& spec : find_method(ms->method)->params)
          if (spec.name == name) s.length[ms->method] = sweep_length(at, spec);
    }
    return out;
  };
  std::vector<const MethodSpec*> all;
  for (const auto& ms : cfg.methods) all.push_back(&ms);
  cfg.params = sources(raw.experiment, all);
  for (std::size_t di = 0; di < cfg.datasets.size(); ++di) cfg.datasets[di].params = sources(raw.datasets[di], all);
  for (std::size_t mi = 0; mi < cfg.methods.size(); ++mi)
    cfg.methods[mi].params = sources(raw.methods[mi], {&cfg.methods[mi]});
  // A parameter set at two levels for one (dataset, method): no silent precedence.
  for (const auto& ds : cfg.datasets)
    for (const auto& ms : cfg.methods)
      for (const auto& spec : find_method(ms.method)->params) {
        const ParamSource* first = nullptr;
        for (const ParamSources* level :
             std::initializer_list<const ParamSources*>{&cfg.params, &ds.params, &ms.params}) {
          auto it = level->find(spec.name);
          if (it == level->end()) continue;
          if (first)
            fail_at(it->second.where,
                    "parameter '" + spec.name + "' for method '" + ms.label + "' on dataset '" + ds.name +
                        "' is also set at " + first->where,
                    "set each parameter at one level only (experiment params, dataset params or method params)");
          first = &it->second;
        }
      }
  // Counted from the lengths of the lists before any value is typed: a config of a few hundred bytes can
  // describe 10^12 cells.
  count_cells(cfg, max_cells);
  auto type = [&](const RawParams& level, ParamSources& out, const std::vector<const MethodSpec*>& methods) {
    for (const auto& [name, at] : level)
      for (const MethodSpec* ms : methods)
        for (const auto& spec : find_method(ms->method)->params)
          if (spec.name == name) out[name].sweep[ms->method] = parse_param_sweep(at, spec);
  };
  type(raw.experiment, cfg.params, all);
  for (std::size_t di = 0; di < cfg.datasets.size(); ++di) type(raw.datasets[di], cfg.datasets[di].params, all);
  for (std::size_t mi = 0; mi < cfg.methods.size(); ++mi)
    type(raw.methods[mi], cfg.methods[mi].params, {&cfg.methods[mi]});
}

namespace {

// Every required parameter missing anywhere, in one message per method entry (a config missing alpha and g and p is
// told all three at once).
void check_required_params(const ExperimentConfig& cfg) {
  ProblemList missing;
  for (const MethodSpec& ms : cfg.methods) {
    std::vector<std::string> names, datasets;
    std::string described;
    for (const auto& spec : find_method(ms.method)->params) {
      if (!spec.required()) continue;
      bool somewhere = false;
      for (const DatasetSpec& ds : cfg.datasets)
        if (!source_of(cfg, ds, ms, spec.name)) {
          somewhere = true;
          if (std::find(datasets.begin(), datasets.end(), ds.name) == datasets.end()) datasets.push_back(ds.name);
        }
      if (!somewhere) continue;
      names.push_back(spec.name);
      described += (described.empty() ? "" : "; ") + spec.name + ": " + spec.description;
    }
    if (names.empty()) continue;
    std::string list, on;
    for (const auto& n : names) list += (list.empty() ? "'" : ", '") + n + "'";
    for (const auto& d : datasets) on += (on.empty() ? "'" : ", '") + d + "'";
    // One parameter: "needs parameter 'alpha' (<what it is>) for dataset 'm'", the words the Python estimators use.
    missing.add(InputError(ms.where,
                           names.size() == 1 ? "method '" + ms.label + "' needs parameter " + list + " (" +
                                                   described.substr(names[0].size() + 2) + ") for dataset" +
                                                   (datasets.size() > 1 ? "s " : " ") + on
                                             : "method '" + ms.label + "' needs parameters " + list + " for dataset" +
                                                   (datasets.size() > 1 ? "s " : " ") + on + " (" + described + ")",
                           "set " + (names.size() > 1 ? std::string("them") : std::string("it")) +
                               " in the method's params (or in a dataset's params, or the experiment's params)"));
  }
  missing.throw_if_any();
}

// The values of every parameter of a (dataset, method) pair, from exactly one level (or the default), and the level
// each came from.
struct PairValues {
  std::map<std::string, std::vector<ParamValue>> values;
  std::map<std::string, const ParamSource*> origin;
};

PairValues pair_values(const ExperimentConfig& cfg, std::size_t di, const MethodSpec& ms, const MethodInfo& info) {
  const DatasetSpec& ds = cfg.datasets[di];
  PairValues pv;
  auto& values = pv.values;
  auto& origin = pv.origin;
  for (const auto& spec : info.params) {
    // One level at most (type_params refused a parameter set at two).
    const ParamSource* src = source_of(cfg, ds, ms, spec.name);
    if (src) {
      values[spec.name] = src->sweep.at(ms.method);
      origin[spec.name] = src;
    } else if (!spec.required()) {
      values[spec.name] = {spec.default_value};
    } else {
      throw InputError(ms.where,
                       "method '" + ms.label + "' needs parameter '" + spec.name + "' (" + spec.description +
                           ") for dataset '" + ds.name + "'",
                       "set it in the method's params, in datasets[" + std::to_string(di) +
                           "].params, or in the experiment's params");
    }
  }
  return pv;
}

// The axes of a pair's sweep: zip groups first (in the order written), then the remaining parameters by name.
std::vector<Axis> sweep_axes(const MethodSpec& ms, const PairValues& pv) {
  const auto& values = pv.values;
  const auto& origin = pv.origin;
  std::vector<Axis> axes;
  std::set<std::string> zipped;
  for (const auto& group : ms.zip) {
    Axis a;
    a.names = group;
    std::size_t len = values.at(group[0]).size();
    for (const auto& name : group) {
      if (!zipped.insert(name).second) throw InputError(ms.where, "parameter '" + name + "' is in two zip groups");
      if (values.at(name).size() != len)
        fail_at(origin.at(name)->where,
                "zip group lists have different lengths ('" + group[0] + "' has " + std::to_string(len) + " values, '" +
                    name + "' has " + std::to_string(values.at(name).size()) + ")",
                "zipped parameters vary together, so their lists must be equally long");
    }
    for (std::size_t r = 0; r < len; ++r) {
      std::vector<ParamValue> row;
      for (const auto& name : group) row.push_back(values.at(name)[r]);
      a.values.push_back(row);
    }
    axes.push_back(std::move(a));
  }
  for (const auto& [name, vals] : values) {
    if (zipped.count(name)) continue;
    Axis a;
    a.names = {name};
    for (const auto& v : vals) a.values.push_back({v});
    axes.push_back(std::move(a));
  }
  return axes;
}

// The cells of one (dataset, method) pair: the Cartesian product of its axes, first axis slowest, appended to `cells`.
void add_pair_cells(std::size_t di, std::size_t mi, const DatasetSpec& ds, const MethodSpec& ms, const MethodInfo& info,
                    const std::vector<Axis>& axes, std::vector<Cell>& cells) {
  std::size_t total = 1;
  for (const auto& a : axes) total *= a.values.size();  // at most max_cells: counted above
  std::vector<std::size_t> idx(axes.size(), 0);
  for (std::size_t c = 0; c < total; ++c) {
    Cell cell;
    cell.dataset_index = di;
    cell.method_index = mi;
    cell.dataset = ds.name;
    cell.method = ms.method;
    cell.method_label = ms.label;
    for (std::size_t a = 0; a < axes.size(); ++a)
      for (std::size_t k = 0; k < axes[a].names.size(); ++k)
        cell.params.set(axes[a].names[k], axes[a].values[idx[a]][k]);
    // The key (and so the seed) names only the parameters that differ from their defaults: adding an
    // optional parameter to a method later does not reseed existing cells, and writing a default
    // explicitly gives the same cell as leaving it out.
    ParamSet keyed;
    for (const auto& spec : info.params) {
      const ParamValue& v = cell.params.get(spec.name);
      if (spec.required() || !(v == spec.default_value)) keyed.set(spec.name, v);
    }
    cell.key = "dataset=" + ds.name + "|method=" + ms.label + "|" + keyed.canonical();
    cell.id = hex16(fnv1a64(cell.key));
    cell.index = cells.size();
    cells.push_back(std::move(cell));
    for (std::size_t a = axes.size(); a-- > 0;) {  // odometer increment, last axis fastest
      if (++idx[a] < axes[a].values.size()) break;
      idx[a] = 0;
    }
  }
}

}  // namespace

std::vector<Cell> expand_grid(const ExperimentConfig& cfg, std::uint64_t max_cells) {
  // The cell count against this limit (another one than the config's, e.g. the cost model's), from the
  // typed sweeps' lengths before any cell exists.
  count_cells(cfg, max_cells);
  check_required_params(cfg);
  std::vector<Cell> cells;
  for (std::size_t di = 0; di < cfg.datasets.size(); ++di)
    for (std::size_t mi = 0; mi < cfg.methods.size(); ++mi) {
      const MethodSpec& ms = cfg.methods[mi];
      const MethodInfo& info = *find_method(ms.method);
      add_pair_cells(di, mi, cfg.datasets[di], ms, info, sweep_axes(ms, pair_values(cfg, di, ms, info)), cells);
    }
  std::set<std::string> ids;
  for (const auto& c : cells)
    if (!ids.insert(c.id).second)
      throw InputError(cfg.file.string(), "two cells have the same parameters: " + c.key, "remove the duplicate value");
  return cells;
}

std::string param_location(const ExperimentConfig& cfg, const Cell& cell, const std::string& key) {
  const DatasetSpec& ds = cfg.datasets[cell.dataset_index];
  const MethodSpec& ms = cfg.methods[cell.method_index];
  if (const ParamSource* src = source_of(cfg, ds, ms, key)) return src->where;
  return ms.where + ".params." + key + " (default)";
}

void check_cell_shape(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape) {
  const MethodInfo& info = *find_method(cell.method);
  const std::string context = "method '" + cell.method_label + "' on dataset '" + cell.dataset + "': ";
  try {
    check_randomness(cfg.randomness, cell.params, "params");  // rng: numpy with randomness: secure
  } catch (const InputError& e) {
    throw InputError(param_location(cfg, cell, "rng"), context + e.problem(), e.fix());
  }
  if (!info.check_shape) return;
  try {
    info.check_shape(cell.params, shape_for_checks(info, shape));
  } catch (const InputError& e) {
    const std::string& w = e.where();
    if (w.rfind("params.", 0) == 0)
      throw InputError(param_location(cfg, cell, w.substr(7)), context + e.problem(), e.fix());
    throw InputError(cfg.methods[cell.method_index].where + (w.empty() ? "" : " (" + w + ")"), context + e.problem(),
                     e.fix());
  } catch (const std::invalid_argument& e) {
    throw InputError(cfg.methods[cell.method_index].where, context + e.what(),
                     "check this method's parameters against the dataset");
  }
}

}  // namespace dpclust
