#pragma once
// The sets of records a results file's cells read, for the privacy accounting (accounting.hpp).
//
// What a cell read is named by content, not by name or path: each file by its bytes and CRC-32 (a copy of a
// file holds the same people), a generated dataset by its generator and parameters, and, when nothing was
// recorded of its origin, the dataset's name. Any selection of the same records (columns, max_rows, a
// sample, transforms) reads the same people. Cells whose record sets share a member -- one file read alone
// and within a list of files, the same file under two names -- are one set, merged transitively: their
// spends add up.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dpclust {

// The set of records a dataset summary (results.json "datasets".<name>, a cell's "data") was read from:
// {"key" (16 hex digits of its identity), "records" (the files' bytes, CRC-32 and key each, or the generator),
// "selection" (columns, label, transforms, the files' keys), "members" (the keys privacy_accounting merges
// sets by: each file's, or the set's own), "subsample" (a secure Poisson sample's rate and id, when drawn),
// "max_rows", "data_derived_range"}.
nlohmann::json record_set_of(const nlohmann::json& data_summary, const std::string& dataset);

// Why a dataset's ranges come from the data itself (bounds: data, the paper's data box, standard scaling by
// the data's own mean and deviation): no epsilon can price that. "" when they do not.
std::string data_derived_range(const nlohmann::json& data_summary);

// Each record set's merged key: record sets sharing a member are one set, transitively (union-find over
// their members, in order). A set of one member keeps that member's key (a single file's set keeps the key
// it has always had); a set of several gets a key of all of them. Record sets without "members" (written
// before them) are their own "key".
std::vector<std::string> merged_record_set_keys(const std::vector<nlohmann::json>& record_sets);

}  // namespace dpclust
