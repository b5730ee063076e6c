#pragma once
// `dpclust audit CONFIG`: an empirical lower bound on the epsilon of every private method
// cell of an experiment, next to the epsilon it claims (docs/privacy.md "Privacy audit").
//
// Per cell and neighbouring pair (D, D') (neighbours.hpp):
//   1. pilot: `pilot_runs` runs of the method on each side; their releases fix the feature schema
//      (features.hpp) and the columns worth testing: features by value (events.hpp: screen_features) and
//      features seen through a representation of their bits (low mantissa bits, grain / lattice
//      membership, parity of integers: screen_representations), at most features_per_criterion of the
//      latter;
//   2. main: `runs` runs per side, the selected columns kept; the first half chooses one event
//      (choose_event), the second half counts it: Clopper-Pearson bounds at 1 - (1 - confidence) /
//      pairs (Bonferroni over the cell's pairs), eps_lower = ln((p_lo - delta) / p_hi) (clopper_pearson.hpp).
//   verdict per pair and cell: consistent when eps_lower <= the claimed epsilon (eps, or eps * d(x, x')
//   for a local guarantee), violation otherwise, with the event that shows it.
// Every run is a full trial of the method as `dpclust run` makes it (trial_ledger: same ledger, same
// noise_scale seam, ledger verified), seeded by derive_seed(audit.seed, cell key + pair + side + phase,
// run): the audit is deterministic on any thread count. Runs are parallel across OpenMP threads.
//
// False alarms: for a correct mechanism each cell's eps_lower exceeds its true epsilon with probability
// at most 1 - confidence (5% at the default), whatever events are tried, because the event is chosen on
// runs that are not used to bound it; across C cells, at most C (1 - confidence) false violations are
// expected (raise `confidence` for large audits).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "audit/events.hpp"
#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/dataset.hpp"

namespace dpclust::audit {

struct AuditOptions {
  std::filesystem::path out_dir = "results";
  int threads = 0;           // 0: all cores
  double noise_scale = 1.0;  // testable noise (RunOptions::noise_scale): 0.5 under-noised, 0 none; not a CLI option
  bool progress = true;
};

struct PairResult {
  std::string name, description;
  double eps_claimed = 0;  // epsilon (or eps * distance for a local guarantee)
  double delta = 0;
  double eps_lower = 0;     // the 1 - confidence/pairs lower bound on epsilon
  double eps_estimate = 0;  // ln(p_num / p_den) of the second half, plain (>= 0; inf when p_den = 0)
  std::string feature;      // the chosen event's column: "diagnostics.threshold", "diagnostics.threshold~lsb"
  FeatureRef column;        // its schema feature and representation
  Event event;
  EventCounts counts;  // second half
  bool violation = false;
  double eps_accounted = 0;  // what the accounting counts for this pair (eps, or rate * distance); NaN: unbounded
  std::size_t features_seen = 0, features_tested = 0;
  double seconds = 0;
};

struct CellResult {
  std::string dataset, method, series, key, id;
  nlohmann::json params;
  double epsilon = 0, delta = 0;
  std::string measure;  // pure | approximate | local
  std::uint64_t runs = 0, pilot_runs = 0;
  double confidence = 0;
  std::vector<PairResult> pairs;
  double eps_lower = 0;  // max over pairs
  bool violation = false;
  std::vector<std::string> non_private;  // the conditions `dpclust run` would flag for this cell
  // What results.json's accounting counts for one trial of this cell (store/accounting.hpp trial_privacy_spent_on
  // of a run's ledger on this dataset): its epsilon (per unit distance for a local guarantee; a declared excess
  // included), or unbounded with the reasons; and the verdict of eps_lower against it.
  nlohmann::json accounting;
  bool accounting_violation = false;
  double seconds = 0;
};

// Audits one private cell on its dataset.
CellResult audit_cell(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data, const AuditOptions& opts);

struct AuditReport {
  std::vector<CellResult> cells;
  std::filesystem::path file;  // OUT/<experiment>/audit.json
  double wall_seconds = 0;
  std::size_t violations = 0;
};

// Audits every private cell of the experiment and writes OUT/<experiment>/audit.json (schema
// dpclust.audit/1: the cells, pairs, events and counts, with provenance). InputError when the
// experiment has no private method.
AuditReport run_audit(const ExperimentConfig& cfg, const AuditOptions& opts);

nlohmann::json to_json(const CellResult& c);

}  // namespace dpclust::audit
