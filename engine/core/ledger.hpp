#pragma once
// The privacy budget ledger of one trial: every step of a mechanism that touches the data records
// what it spent. Sequential composition: the parts must add up to the configured total, and the
// runner checks that after every trial (BudgetLedger::verify), so a mechanism that forgets to
// account for a step fails loudly instead of silently over-spending.
//
// Entries are typed (OpenDP's input metric / output measure in small): each names the neighbouring
// relation its sensitivity is computed under, the privacy measure it satisfies, the mechanism and the
// sensitivity. The ledger refuses what it cannot compose: a relation other than the ledger's, a local
// (per-record metric) guarantee mixed with central ones, an approximate-DP entry in a pure-DP ledger.
// Entries are written by the mechanisms of engine/privacy, which derive their noise scale from the
// same (sensitivity, epsilon) they record, so noise and budget cannot drift apart.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dpclust {

// Which datasets are neighbours. add_remove: D' = D plus or minus one record (unbounded DP, the
// harness default); replace_one: D' = D with one record changed (bounded DP, |D| public).
enum class NeighbourRelation { add_remove, replace_one };
// pure: eps-DP; approximate: (eps, delta)-DP; local: each record's output is eps * d(x, x')
// -indistinguishable for any two inputs x, x' of one record (metric / geo-indistinguishability, a
// guarantee per record that does not compose with central DP).
enum class PrivacyMeasure { pure, approximate, local };
const char* to_string(NeighbourRelation r);
const char* to_string(PrivacyMeasure m);

struct BudgetEntry {
  std::string step;                       // e.g. "noisy cell counts (Alg. 1 line 3)"
  double epsilon = 0;                     // pure-DP part
  double delta = 0;                       // approximate-DP part (0 for pure DP)
  std::string note;                       // free text: how the sensitivity arises, composition, ...
  std::string mechanism = "unspecified";  // "discrete_laplace", "laplace (textbook)", "exponential_exact", ...
  double sensitivity = 0;                 // of the released quantity, in `sensitivity_norm`
  std::string sensitivity_norm;           // "l1", "l2", "utility" (exponential mechanism), "metric" (local)
  NeighbourRelation relation = NeighbourRelation::add_remove;
  PrivacyMeasure measure = PrivacyMeasure::pure;
  // Joint accounts. Sequential composition (the entries' epsilons and deltas add up) is loose for steps
  // whose noise one accountant calibrates together, e.g. a Gaussian release composed with discrete Laplace
  // counts by a privacy-loss-distribution or Renyi accountant (Google's DP clustering, lsh_clustering): no
  // split of the certified (eps, delta) into per-step parts is a guarantee of each step alone. Such steps
  // name their account here and record epsilon = delta = 0 (their mechanism and sensitivity stay typed);
  // one entry of the same name with `joint_total` set records what the accountant certifies for all of
  // them together (its accountant in `mechanism`), so the entries still add up to the ledger's total.
  // Empty: a step composed sequentially. verify() checks that every joint step has its account.
  std::string joint;
  bool joint_total = false;
};

class BudgetLedger {
 public:
  // A ledger for a non-private method: it may not spend anything.
  BudgetLedger() = default;
  // A ledger for a mechanism configured with total budget (epsilon, delta). The measure is pure when
  // delta is 0 and approximate otherwise, unless given (local for per-record mechanisms).
  explicit BudgetLedger(double epsilon_total, double delta_total = 0.0,
                        NeighbourRelation relation = NeighbourRelation::add_remove);
  BudgetLedger(double epsilon_total, double delta_total, NeighbourRelation relation, PrivacyMeasure measure);
  // The ledger of a private method whose output does not depend on the data at all (the trivial baseline
  // uniform_centres): 0-DP, a private ledger of total 0 that may record only entries of epsilon 0.
  static BudgetLedger data_independent(NeighbourRelation relation = NeighbourRelation::add_remove);

  // Records a typed entry; throws std::logic_error when it cannot be composed with this ledger
  // (another relation, another kind of measure, delta in a pure ledger, negative values).
  void charge(BudgetEntry entry);
  // Untyped legacy form: an entry under the ledger's relation and measure, mechanism "unspecified".
  void spend(std::string step, double epsilon, std::string note = "", double delta = 0.0);

  bool is_private() const { return private_; }
  double total_epsilon() const { return epsilon_total_; }
  double total_delta() const { return delta_total_; }
  NeighbourRelation relation() const { return relation_; }
  PrivacyMeasure measure() const { return measure_; }
  double spent_epsilon() const;
  double spent_delta() const;
  const std::vector<BudgetEntry>& entries() const { return entries_; }

  // Testable noise (Google DP's zero-noise and seeded mocks; the audit's under-noised mechanisms): the
  // mechanisms of engine/privacy multiply their calibrated noise scale by this factor. 1 = as
  // calibrated; 0 = no noise at all (every pipeline becomes deterministic); 0.5 = half the noise the
  // recorded epsilon needs (a deliberately broken mechanism). Anything but 1 is reported in to_json()
  // and makes the trial non-private.
  void set_noise_scale(double factor);
  double noise_scale() const { return noise_scale_; }

  // A declared overspend: a method that reproduces published code whose real privacy cost exceeds the
  // configured total (e.g. the DP WaveCluster authors' exponential mechanism run 10 times at the full
  // threshold budget) records the excess and why, so that its entries can state the real cost. verify()
  // then checks the entries against total + excess, to_json() reports both, and the method must flag
  // its result non-private. The configured total itself is unchanged. Excesses accumulate.
  void declare_excess(double epsilon, std::string reason);
  double excess_epsilon() const { return excess_epsilon_; }
  const std::vector<std::string>& excess_reasons() const { return excess_reasons_; }
  // A known understatement stated at its true cost: declares `epsilon` as excess and
  // records the entry that makes the entries add up to total + excess (mechanism "declared excess"), so
  // that the ledger, its verification and the accounting all carry the real cost. For a method whose
  // reproduction of published code costs more than its configured epsilon (nD-Laplace's
  // resampling_budget: thesis costs 2 epsilon; the pairwise matrix with sensitivity per entry costs
  // (n - 1) epsilon).
  void charge_excess(std::string step, double epsilon, std::string reason);

  // No finite epsilon bounds this trial: its noise comes from a sampler whose outputs
  // depend on the data in ways the ledger cannot price (the continuous exponential mechanism computed in
  // doubles from private values, diffprivlib's floating-point variant of DP-k-means). The entries stay
  // as configured; to_json() says "unbounded" with the reasons, and the accounting counts the trial as
  // unbounded instead of at its recorded epsilon.
  void declare_unbounded(std::string reason);
  bool unbounded() const { return !unbounded_reasons_.empty(); }
  // A choice that moves the release with a value of the true data (a radius or a centre computed from the
  // points, the data's range, the true n): no finite epsilon bounds a deterministic function of the data, so
  // the ledger is declared unbounded with `reason`; and the entries' sensitivities and notes may be computed
  // from that value (a radius in grid units, a range, a grid size from n), so to_json() lists the reason
  // under "data_derived" and a release (`dpclust release`, store/release_view.hpp) withholds them.
  void declare_data_derived(std::string reason);
  bool data_derived() const { return !data_derived_reasons_.empty(); }

  // Units of a local ledger (geo-indistinguishability): its epsilon is the level reached at distance
  // `distance` (nD-Laplace's `radius`, thesis Sec. 3.1.3), so the rate per unit distance is
  // epsilon / distance. Default 1. to_json() reports both, and the accounting composes the rates, never
  // the levels (levels at different radii are in different units).
  void set_local_distance(double distance);
  double local_distance() const { return local_distance_; }

  // Throws std::logic_error unless the entries add up to the totals (relative tolerance 1e-9), the
  // epsilon total raised by any declared excess, and unless every step of a joint account spends 0 and
  // its account (one joint_total entry of that name) is in the ledger.
  void verify() const;
  nlohmann::json to_json() const;

 private:
  bool private_ = false;
  double epsilon_total_ = 0, delta_total_ = 0;
  NeighbourRelation relation_ = NeighbourRelation::add_remove;
  PrivacyMeasure measure_ = PrivacyMeasure::pure;
  double noise_scale_ = 1.0;
  double excess_epsilon_ = 0.0;
  std::vector<std::string> excess_reasons_;
  std::vector<std::string> unbounded_reasons_;
  std::vector<std::string> data_derived_reasons_;
  double local_distance_ = 1.0;
  std::vector<BudgetEntry> entries_;
};

}  // namespace dpclust
