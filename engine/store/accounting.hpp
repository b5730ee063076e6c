#pragma once
// Privacy accounting across the trials and cells of one results file (docs/privacy.md, "Accounting").
//
// A trial's ledger (core/ledger.hpp) states what that one trial spent, and the runner verifies it. A
// results file holds many trials of many cells: every trial is a separate release, so what a reader of the
// whole file can learn about one record is bounded only by the sequential composition of all of them that
// read that record. Basic composition (Dwork & Roth 2014, Thm 3.16 and B.1): the epsilons add up, and so do
// the deltas. This file does that sum from the trial ledgers as stored (the JSON of BudgetLedger::to_json,
// older files included), so that results.json assembled by a run and by `dpclust merge` of its shards carry
// the same totals.
//
// Per set of records, not per dataset name (record_sets.hpp): each file a cell read is keyed by its content
// (bytes and CRC-32, not its path), a generated dataset by its generator and parameters. The same file
// configured under two names is one set, and any selection of it (columns, max_rows, sample, transforms)
// reads the same people, so their spends add up; the selections are listed beside the total. Datasets that
// share a file are one set too (a file read alone and within a list of files: its records are spent by
// both), merged transitively.
//
// What is summed with what:
//   - central notions of one neighbouring relation: pure and (eps, delta) entries compose into
//     (sum eps, sum delta)-DP;
//   - local guarantees (geo-indistinguishability) are composed per unit distance: a fit at
//     level epsilon reached at distance r spends epsilon / r per unit distance (ledger "distance"); never added
//     to central epsilons;
//   - different neighbouring relations are listed apart, not summed;
//   - a secure Poisson sample (loading/dataset_loading.cpp, run/selection_privacy.hpp): the epsilons spent on one
//     sample (its sample_id) are summed first and amplified once, ln(1 + q (e^E - 1)) with delta q D (Balle,
//     Barthe & Gaboardi 2018); summing per-trial amplified epsilons would understate trials sharing a sample;
//   - max_rows under add/remove: counted twice (one added record can push another out: group privacy for
//     two records, (2 eps, 2 e^eps delta));
//   - ledgers that state their true cost (a declared excess: nD-Laplace resampling_budget: thesis, pairwise
//     sensitivity: entry, PrivTHR_EM's repeated draws) are counted at it; ledgers declared unbounded
//     (diffprivlib's DP-k-means, the continuous exponential mechanism) and data with data-derived ranges
//     (bounds: data, the paper's data boxes, standard scaling by the data's own mean and deviation) make the
//     total unbounded: no epsilon is stated;
//   - non-private methods spend nothing private and are listed apart;
//   - a total is stated as a guarantee ("holds": true) only when every trial in it is a secure private release
//     without non_private notes. A seeded run's total says what it would be in secure mode, not that it holds;
//   - one guarantee per notion, for the cells it covers ("covers"): a file whose releases of one set come from
//     several notions (add/remove and replace-one, central and local) or also from non-private methods has no
//     guarantee as a whole ("whole_file": holds false, with the reasons: a local release publishes every
//     perturbed record, and replace-one cells treat n as public, so both reveal the n an add/remove guarantee
//     protects); only a set whose releases all come from one notion states one for the file.
#include <nlohmann/json.hpp>
#include <string>

#include "store/record_sets.hpp"  // record_set_of: what a cell read

namespace dpclust {

// What one trial spent, from its stored ledger: {"private": false} for a non-private method; otherwise
// {"private": true, "measure", "relation", "notion" (in words), "epsilon", "delta" (when > 0),
// "epsilon_excess" (when declared), "calibrated": false (when the noise was scaled), "unbounded": true (with
// "unbounded_reasons") when the ledger says no finite epsilon bounds it}. For a local ledger "epsilon" is per
// unit distance (the level divided by its distance) and "level_epsilon", "distance" are beside it
// ("distance_recorded": false for ledgers written before the distance was: counted at distance 1).
// std::logic_error when the ledger is malformed.
nlohmann::json trial_privacy_spent(const nlohmann::json& ledger);
// The same, for a trial on the dataset `data_summary` (loading/dataset_loading.hpp dataset_summary): also
// "unbounded", with the reason, when the dataset's ranges come from the data (record_set_of's
// data_derived_range). What one Python fit spent.
nlohmann::json trial_privacy_spent_on(const nlohmann::json& ledger, const nlohmann::json& data_summary);

// A cell's spend over its trials (cells[].privacy_spent): for a private method {"measure", "relation",
// "notion", "trials", "epsilon" (sum over trials), "epsilon_per_trial" (when uniform), "delta"/"delta_per_trial",
// "uncalibrated_trials", "unbounded" (a ledger says so, or the cell's record_set has a data_derived_range)};
// for a non-private one {"private": false, "trials", "epsilon": 0, "note"}.
nlohmann::json cell_privacy_spent(const nlohmann::json& cell);

// The totals of a list of cells (results.json's "cells", each with "dataset", "series", "trials"[].ledger,
// "non_private", "randomness" and "record_set" (record_set_of its data)): results.json's "privacy_accounting",
// {"meaning", "composition", "record_sets": [...], "datasets": {name: record set key}}; each record set has
// its totals per notion ("central" per relation, "local"), each with "covers" (the cells, the series), and
// "whole_file" (one guarantee for every release of the set, or none with "not_a_guarantee_because").
nlohmann::json privacy_accounting(const nlohmann::json& cells);

}  // namespace dpclust
