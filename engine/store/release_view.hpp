#pragma once
// Which fields of results.json are the release and which evaluate it against the true data
// (docs/results.md "Release and evaluation fields"). A results file carries both: the noisy
// outputs a method publishes beside exact statistics of the data it was run on (n, label counts, the label
// map, metrics against the truth, `evaluation`, PrivTHR_EM's k', running times, the files' checksums).
// `field_roles()` is the machine-readable statement written into every results.json ("field_roles");
// `release_only()` keeps the release fields and drops everything else (`dpclust release`).
#include <nlohmann/json.hpp>

namespace dpclust {

// {"meaning", "release": [paths], "evaluation": [paths], "configuration": [paths]}; a path names a field
// with [] for every element of a list and * for every key of an object (cells[].trials[].release).
nlohmann::json field_roles();

// A copy of a results.json object with only the release and configuration fields: per cell its identity,
// parameters, flags, randomness record, privacy_spent, and per trial its release, its labels when the
// labels are the release, and its ledger (a ledger with a data-derived input, or on a domain derived from
// the data, without its steps' sensitivities and notes: `withheld` per step, `withheld_because` the reasons);
// per dataset its public shape (d, columns, configured bounds); privacy_accounting without the files' sizes
// and checksums (record sets numbered instead).
nlohmann::json release_only(const nlohmann::json& results);

}  // namespace dpclust
