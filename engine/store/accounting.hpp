#pragma once
// Privacy accounting across the trials and cells of one results file (issue 22, item 5).
//
// A trial's ledger (core/ledger.hpp) states what that one trial spent, and the runner verifies it. A
// results file holds many trials of many cells computed on the same records of each dataset: every trial
// is a separate release, so what a reader of the whole file can learn about one record is bounded only by
// the sequential composition of all of them. Basic composition (Dwork & Roth 2014, Thm 3.16 and B.1): the
// epsilons add up, and so do the deltas. This file does that sum, per dataset and per privacy notion, from
// the trial ledgers as stored (the JSON of BudgetLedger::to_json, older files without measure/relation
// included), so that results.json assembled by a run and by `dpclust merge` of its shards carry the same
// totals: both assemble it from the same cell files (results_store.cpp, assemble_results_json).
//
// What is summed with what:
//   - central notions of one neighbouring relation: pure eps-DP and (eps, delta)-DP entries compose into
//     (sum eps, sum delta)-DP (a pure entry is an (eps, 0) entry);
//   - local guarantees (eps-geo-indistinguishability, per record and per unit distance) add up among
//     themselves and are never added to central epsilons (the ledger refuses that mix within a trial too);
//   - different neighbouring relations (add/remove vs replace one) are listed apart, not summed;
//   - non-private methods spend nothing private: their cells are listed apart, because their outputs carry
//     no guarantee at all and no total can bound them;
//   - a trial whose noise was scaled (a test of the audit, ledger noise_scale != 1) is counted at its
//     recorded epsilon and counted apart as uncalibrated: its recorded epsilon is not its guarantee.
// zCDP: no mechanism of this build records a zCDP entry (core/ledger.hpp PrivacyMeasure), so none is summed.
#include <nlohmann/json.hpp>
#include <string>

namespace dpclust {

// What one trial spent, from its stored ledger: {"private": false} for a non-private method; otherwise
// {"private": true, "measure", "relation", "notion" (in words), "epsilon" (the sum of its steps: the
// configured total plus any declared excess), "delta" (when > 0), "epsilon_excess" (when declared),
// "calibrated": false (when the noise was scaled)}. std::logic_error when the ledger is malformed.
nlohmann::json trial_privacy_spent(const nlohmann::json& ledger);

// A cell's spend over its trials (cells[].privacy_spent in results.json): for a private method
// {"measure", "relation", "notion", "trials", "epsilon" (sum over trials), "epsilon_per_trial" (when every
// trial spent the same), "delta"/"delta_per_trial" (when > 0), "uncalibrated_trials" (when any)}; for a
// non-private one {"private": false, "trials", "epsilon": 0, "note"}.
nlohmann::json cell_privacy_spent(const nlohmann::json& cell);

// The per-dataset totals of a list of cells (results.json's "cells", each with "dataset", "series" and
// "trials"[].ledger): results.json's "privacy_accounting" (its meaning is written in it under "meaning").
nlohmann::json privacy_accounting(const nlohmann::json& cells);

}  // namespace dpclust
