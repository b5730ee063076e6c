// The privacy audit of an experiment's private cells; see auditor.hpp.
#include "audit/auditor.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "audit/clopper_pearson.hpp"
#include "audit/features.hpp"
#include "audit/neighbours.hpp"
#include "catalog/catalog.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/method.hpp"
#include "core/rng.hpp"
#include "loading/dataset_loading.hpp"
#include "run/progress.hpp"
#include "run/runner.hpp"
#include "store/accounting.hpp"

namespace dpclust::audit {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// One run of the method on one side, as `dpclust run` makes a trial (ledger, noise seam, verification).
MethodResult run_once(const MethodInfo& info, const Method& method, const Dataset& data, const ParamSet& params,
                      std::uint64_t seed, double noise_scale) {
  Rng rng(seed);
  BudgetLedger ledger = trial_ledger(info, params, noise_scale);
  MethodResult r = method.run(data, params, rng, ledger);
  ledger.verify();
  // A method that publishes its labels (dp_dbscan_pairwise, nd_laplace's clustering of its release):
  // they are part of what a distinguisher sees.
  if (r.labels_are_release && !r.release.contains("labels")) r.release["labels"] = r.labels;
  return r;
}

std::uint64_t run_seed(std::uint64_t base, const Cell& cell, const std::string& pair, const char* side,
                       const char* phase, std::uint64_t run) {
  return derive_seed(base, cell.key + "|audit|" + pair + "|" + side + "|" + phase, run);
}

// Both sides' runs of one phase, in parallel; `record(side, run, result)` keeps what it needs.
template <class Record>
void run_sides(const MethodInfo& info, const Dataset* const sides[2], const ParamSet& params, const Cell& cell,
               const AuditConfig& a, const std::string& pair, const char* phase, std::uint64_t runs, double noise_scale,
               Progress* progress, Record&& record) {
  static const char* const kSideNames[2] = {"D", "D'"};
  const auto total = static_cast<std::int64_t>(2 * runs);
  std::exception_ptr error;
  std::atomic<bool> failed{false};
#pragma omp parallel
  {
    const std::unique_ptr<Method> method = info.make();  // one instance per thread
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t task = 0; task < total; ++task) {
      if (failed.load()) continue;
      const int side = static_cast<int>(task / static_cast<std::int64_t>(runs));
      const auto r = static_cast<std::uint64_t>(task % static_cast<std::int64_t>(runs));
      try {
        MethodResult res = run_once(info, *method, *sides[side], params,
                                    run_seed(a.seed, cell, pair, kSideNames[side], phase, r), noise_scale);
        record(side, r, res);
      } catch (...) {
#pragma omp critical(audit_error)
        if (!error) error = std::current_exception();
        failed.store(true);
      }
      if (progress) progress->tick();
    }
  }
  if (error) std::rethrow_exception(error);
}

// What the accounting of `dpclust run` counts for one trial of this cell: one run's ledger on D, read as
// results.json reads every trial's (trial_privacy_spent_on: a declared excess included, unbounded when the
// ledger or the dataset's data-derived ranges say so). Seeded apart from the audit's runs.
json accounted_spend(const MethodInfo& info, const Dataset& data, const ParamSet& params, const Cell& cell,
                     const AuditConfig& a, double noise_scale) {
  const std::unique_ptr<Method> method = info.make();
  Rng rng(run_seed(a.seed, cell, "accounting", "D", "ledger", 0));
  BudgetLedger ledger = trial_ledger(info, params, noise_scale);
  method->run(data, params, rng, ledger);
  ledger.verify();
  return trial_privacy_spent_on(ledger.to_json(), dataset_summary(data));
}

// The cell's description, its claim and what the accounting of `dpclust run` counts for it: the record
// before any pair is audited.
CellResult describe_cell(const Cell& cell, const Dataset& data, const MethodInfo& info, const AuditConfig& a,
                         double noise_scale) {
  const BudgetLedger claim = trial_ledger(info, cell.params, 1.0);
  CellResult out;
  out.dataset = cell.dataset;
  out.method = cell.method;
  out.series = cell.method_label;
  out.key = cell.key;
  out.id = cell.id;
  out.params = cell.params.to_json();
  out.epsilon = claim.total_epsilon();
  out.delta = claim.total_delta();
  out.measure = to_string(claim.measure());
  out.runs = a.runs;
  out.pilot_runs = a.pilot_runs;
  out.confidence = a.confidence;
  out.non_private = data.non_private_notes;
  const json spent = accounted_spend(info, data, cell.params, cell, a, noise_scale);
  const bool unbounded = spent.value("unbounded", false);
  out.accounting = {{"epsilon", unbounded ? json(nullptr) : spent.at("epsilon")}, {"unbounded", unbounded}};
  if (unbounded) out.accounting["unbounded_reasons"] = spent.value("unbounded_reasons", json::array());
  if (spent.contains("epsilon_excess")) out.accounting["includes_declared_excess"] = true;
  return out;
}

// The pairs to audit: the config's, else every built-in pair of the method's relation.
std::vector<PairSpec> pair_specs(const MethodInfo& info, const AuditConfig& a) {
  std::vector<PairSpec> specs;
  if (a.pairs.empty()) {
    for (const std::string& name : builtin_pairs(info.relation, info.local_privacy))
      specs.push_back({name, {}, std::nullopt});
  } else {
    for (const auto& p : a.pairs) specs.push_back({p.name, p.add, p.remove});
  }
  return specs;
}

// What the steps of one pair's audit share: the cell, the method, the audit's settings and the two sides.
struct PairContext {
  const ExperimentConfig& cfg;
  const Cell& cell;
  const MethodInfo& info;
  const AuditConfig& a;
  const AuditOptions& opts;
  const NeighbourPair& pair;
  const Dataset* sides[2];
};

// The pilot: its releases fix the feature schema, and every feature of its runs is in one matrix a side.
struct Pilot {
  FeatureSchema schema;
  FeatureMatrix m[2];
};

// The pilot runs of both sides. The pilot matrix is capped at 2^25 values (256 MiB): fewer pilot runs are
// used when the release is very large. `non_private`, when given, gets the conditions one run on D flags
// (what `dpclust run` would flag for this cell).
Pilot run_pilot(const PairContext& c, std::vector<std::string>* non_private) {
  const AuditConfig& a = c.a;
  std::vector<std::vector<json>> runs(2, std::vector<json>(a.pilot_runs));
  run_sides(c.info, c.sides, c.cell.params, c.cell, a, c.pair.name, "pilot", a.pilot_runs, c.opts.noise_scale, nullptr,
            [&](int side, std::uint64_t r, MethodResult& res) {
              if (non_private && side == 0 && r == 0)  // one writer
                for (const std::string& note : res.non_private_notes)
                  if (std::find(non_private->begin(), non_private->end(), note) == non_private->end())
                    non_private->push_back(note);
              runs[static_cast<std::size_t>(side)][r] =
                  json{{"r", std::move(res.release)}, {"d", std::move(res.diagnostics)}};
            });
  Pilot p;
  for (const auto& side : runs)
    for (const json& j : side) p.schema.learn(j["r"], j["d"]);
  const std::size_t used = std::max<std::size_t>(
      20, std::min<std::size_t>(a.pilot_runs, (std::size_t{1} << 25) / std::max<std::size_t>(1, p.schema.size())));
  std::vector<double> row;
  for (int side = 0; side < 2; ++side) {
    FeatureMatrix& m = p.m[side];
    m.runs = std::min<std::size_t>(used, a.pilot_runs);
    m.features = p.schema.size();
    m.values.reserve(m.runs * p.schema.size());
    for (std::size_t r = 0; r < m.runs; ++r) {
      const json& j = runs[static_cast<std::size_t>(side)][r];
      p.schema.extract(j["r"], j["d"], row);
      m.values.insert(m.values.end(), row.begin(), row.end());
    }
  }
  return p;
}

// The columns of the main runs: the values screen_features selects, then the representations
// (features.hpp: low bits, grain, parity) screen_representations selects. Values first: on a tie
// choose_event keeps the earlier column, so an event on the value is reported when it is as good.
std::vector<FeatureRef> screen_columns(const Pilot& p, const AuditConfig& a) {
  std::vector<FeatureRef> selected;
  for (std::size_t f : screen_features(p.m[0], p.m[1], a.features_per_criterion))
    selected.push_back({f, Representation::value});
  for (const FeatureRef& ref : screen_representations(p.m[0], p.m[1], a.features_per_criterion))
    selected.push_back(ref);
  return selected;
}

// The main runs on the selected columns: the event chosen on their first half, its counts on the second,
// and the bounds on epsilon those counts give.
void run_main(const PairContext& c, const Pilot& p, const std::vector<FeatureRef>& selected, double pair_confidence,
              PairResult& pr) {
  const AuditConfig& a = c.a;
  FeatureMatrix mm[2];
  for (auto& m : mm) {
    m.runs = a.runs;
    m.features = selected.size();
    m.values.assign(a.runs * selected.size(), std::numeric_limits<double>::quiet_NaN());
  }
  Progress progress(c.cfg.name + " audit " + c.cell.method_label + "/" + c.cell.dataset + " " + c.pair.name, 2 * a.runs,
                    c.opts.progress);
  const FeatureSchema::Plan plan = p.schema.plan(selected);
  run_sides(c.info, c.sides, c.cell.params, c.cell, a, c.pair.name, "main", a.runs, c.opts.noise_scale, &progress,
            [&](int side, std::uint64_t r, MethodResult& res) {
              std::vector<double> v;
              p.schema.extract(res.release, res.diagnostics, plan, v);
              std::copy(v.begin(), v.end(), mm[side].values.begin() + static_cast<std::ptrdiff_t>(r * selected.size()));
            });
  progress.finish();
  const std::size_t half = a.runs / 2;
  const double delta = pr.delta;
  Event e = choose_event(mm[0], mm[1], half, delta, pair_confidence);
  pr.counts = count_event(e, mm[0], mm[1], half, a.runs);
  const std::uint64_t k_num = e.numerator_is_d ? pr.counts.in_d : pr.counts.in_d_prime;
  const std::uint64_t k_den = e.numerator_is_d ? pr.counts.in_d_prime : pr.counts.in_d;
  const std::uint64_t n_num = e.numerator_is_d ? pr.counts.runs_d : pr.counts.runs_d_prime;
  const std::uint64_t n_den = e.numerator_is_d ? pr.counts.runs_d_prime : pr.counts.runs_d;
  pr.eps_lower = epsilon_lower_bound(k_num, n_num, k_den, n_den, delta, pair_confidence).eps_lower;
  const double p_num = static_cast<double>(k_num) / static_cast<double>(n_num);
  const double p_den = static_cast<double>(k_den) / static_cast<double>(n_den);
  pr.eps_estimate = p_num <= delta ? 0.0
                    : p_den > 0    ? std::max(0.0, std::log((p_num - delta) / p_den))
                                   : std::numeric_limits<double>::infinity();
  pr.event = e;
  pr.column = selected[e.feature];
  pr.feature = p.schema.name(pr.column);
  pr.event.feature = pr.column.feature;  // schema index, for the record
}

// The claims one pair is held to: the cell's epsilon, or for a local guarantee (a rate per unit distance,
// nd_laplace: epsilon at distance `radius`) the rate times d(x, x'); likewise what the accounting counts
// (NaN when it claims no finite bound).
void pair_claims(const Cell& cell, const MethodInfo& info, const CellResult& out, const NeighbourPair& pair,
                 PairResult& pr) {
  const double rate = out.epsilon / (cell.params.has("radius") ? cell.params.real("radius") : 1.0);
  pr.eps_claimed = info.local_privacy ? rate * pair.local_distance : out.epsilon;
  const bool unbounded = out.accounting.at("unbounded").get<bool>();
  const double accounted_rate =
      unbounded ? std::numeric_limits<double>::quiet_NaN() : out.accounting.at("epsilon").get<double>();
  pr.eps_accounted = info.local_privacy ? accounted_rate * pair.local_distance : accounted_rate;
}

}  // namespace

CellResult audit_cell(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data, const AuditOptions& opts) {
  const auto t0 = Clock::now();
  const MethodInfo& info = *find_method(cell.method);
  if (!info.differentially_private) throw std::logic_error("audit_cell: method '" + cell.method + "' is not private");
  const AuditConfig& a = cfg.audit;
  CellResult out = describe_cell(cell, data, info, a, opts.noise_scale);
  const bool unbounded = out.accounting.at("unbounded").get<bool>();
  const std::vector<PairSpec> specs = pair_specs(info, a);
  // Each pair is tested at 1 - (1 - confidence) / pairs, so that all of them hold together at `confidence`.
  const double pair_confidence = 1.0 - (1.0 - a.confidence) / static_cast<double>(specs.size());

  for (std::size_t pi = 0; pi < specs.size(); ++pi) {
    const auto tp = Clock::now();
    const std::string where = a.pairs.empty() ? "audit.pairs" : a.pairs[pi].where;
    const NeighbourPair pair = make_pair(data, specs[pi], info.relation, info.local_privacy, a.local_distance, where);
    const PairContext context{cfg, cell, info, a, opts, pair, {&data, &pair.d_prime}};
    PairResult pr;
    pr.name = pair.name;
    pr.description = pair.description;
    pr.delta = out.delta;
    pair_claims(cell, info, out, pair, pr);
    const Pilot pilot = run_pilot(context, pi == 0 ? &out.non_private : nullptr);
    pr.features_seen = pilot.schema.size();
    const std::vector<FeatureRef> selected = screen_columns(pilot, a);
    pr.features_tested = selected.size();
    if (selected.empty())  // no feature tells the sides apart in the pilot: nothing to test
      pr.feature = "(none: every feature and representation is distributed alike on both sides in the pilot runs)";
    else run_main(context, pilot, selected, pair_confidence, pr);
    pr.violation = pr.eps_lower > pr.eps_claimed * (1 + 1e-12);
    out.accounting_violation =
        out.accounting_violation || (!unbounded && pr.eps_lower > pr.eps_accounted * (1 + 1e-12));
    pr.seconds = seconds_since(tp);
    out.eps_lower = std::max(out.eps_lower, pr.eps_lower);
    out.violation = out.violation || pr.violation;
    out.pairs.push_back(std::move(pr));
  }
  out.accounting["verdict"] = unbounded                  ? "no finite bound claimed"
                              : out.accounting_violation ? "violation"
                                                         : "consistent";
  out.seconds = seconds_since(t0);
  return out;
}

json to_json(const CellResult& c) {
  json pairs = json::array();
  for (const PairResult& p : c.pairs) {
    json ev = {{"feature", p.feature}};
    if (p.features_tested > 0) {
      ev["kind"] = to_string(p.event.kind);
      ev["representation"] = to_string(p.column.rep);
      ev["family"] = event_family(p.event, p.column.rep);
      if (p.event.kind == EventKind::in_set) {
        ev["set_size"] = p.event.values.size();
        ev["set"] = std::vector<double>(
            p.event.values.begin(),
            p.event.values.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(p.event.values.size(), 16)));
      } else if (p.event.kind != EventKind::missing) {
        ev["threshold"] = p.event.threshold;
      }
      ev["numerator"] = p.event.numerator_is_d ? "D" : "D'";
      ev["description"] = describe_event(p.feature, p.event);
    }
    pairs.push_back(
        {{"pair", p.name},
         {"description", p.description},
         {"eps_claimed", p.eps_claimed},
         {"eps_accounted", std::isnan(p.eps_accounted) ? json(nullptr) : json(p.eps_accounted)},
         {"delta", p.delta},
         {"eps_lower", p.eps_lower},
         {"eps_estimate", std::isfinite(p.eps_estimate) ? json(p.eps_estimate) : json("inf")},
         {"verdict", p.violation ? "violation" : "consistent"},
         {"event", std::move(ev)},
         {"counts", {{"D", {p.counts.in_d, p.counts.runs_d}}, {"D'", {p.counts.in_d_prime, p.counts.runs_d_prime}}}},
         {"features_seen", p.features_seen},
         {"features_tested", p.features_tested},
         {"seconds", p.seconds}});
  }
  return {{"dataset", c.dataset},
          {"method", c.method},
          {"series", c.series},
          {"key", c.key},
          {"id", c.id},
          {"params", c.params},
          {"epsilon", c.epsilon},
          {"delta", c.delta},
          {"measure", c.measure},
          {"runs_per_side", c.runs},
          {"pilot_runs_per_side", c.pilot_runs},
          {"confidence", c.confidence},
          {"eps_lower", c.eps_lower},
          {"verdict", c.violation ? "violation" : "consistent"},
          {"non_private", c.non_private},
          {"accounting", c.accounting},
          {"pairs", std::move(pairs)},
          {"seconds", c.seconds}};
}

AuditReport run_audit(const ExperimentConfig& cfg, const AuditOptions& opts) {
  const auto t0 = Clock::now();
  const ScopedThreads scoped_threads(opts.threads, cfg.threads);

  const std::vector<Cell> cells = expand_grid(cfg);
  std::vector<std::optional<Dataset>> data(cfg.datasets.size());
  AuditReport report;
  json cells_json = json::array();
  for (const Cell& c : cells) {
    if (!find_method(c.method)->differentially_private) continue;
    auto& slot = data[c.dataset_index];
    if (!slot) slot = materialize_dataset(cfg.datasets[c.dataset_index]);
    CellResult r = audit_cell(cfg, c, *slot, opts);
    report.violations += r.violation;
    cells_json.push_back(to_json(r));
    report.cells.push_back(std::move(r));
  }
  if (report.cells.empty())
    throw InputError(cfg.file.string(), "the experiment has no private method to audit",
                     "add a private method (dpclust list marks them [private])");
  report.wall_seconds = seconds_since(t0);
  const auto& b = build_info();
  json dataset_provenance = json::object();
  for (std::size_t i = 0; i < data.size(); ++i)
    if (data[i]) dataset_provenance[data[i]->name] = dataset_summary(*data[i]);
  const json doc = {{"schema", "dpclust.audit/1"},
                    {"experiment", cfg.name},
                    {"config", cfg.text},
                    {"audit",
                     {{"runs_per_side", cfg.audit.runs},
                      {"pilot_runs_per_side", cfg.audit.pilot_runs},
                      {"confidence", cfg.audit.confidence},
                      {"seed", cfg.audit.seed},
                      {"features_per_criterion", cfg.audit.features_per_criterion},
                      {"noise_scale", opts.noise_scale}}},
                    {"cells", std::move(cells_json)},
                    {"violations", report.violations},
                    {"provenance",
                     {{"version", b.version},
                      {"git_commit", b.git_commit},
                      {"build_type", b.build_type},
                      {"compiler", b.compiler},
                      {"host", b.host},
                      {"threads", scoped_threads.threads()},
                      {"finished", utc_now_iso8601()},
                      {"wall_seconds", report.wall_seconds},
                      {"datasets", std::move(dataset_provenance)}}}};
  const std::filesystem::path dir = opts.out_dir / cfg.name;
  std::filesystem::create_directories(dir);
  report.file = dir / "audit.json";
  write_file_atomic(report.file, doc.dump(1) + "\n");
  return report;
}

}  // namespace dpclust::audit
