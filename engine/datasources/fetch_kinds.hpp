#pragma once
// Fetching one source of each kind (sources.hpp) into `target`, the data file under the data root, for
// fetch_dataset(). Each sets outcome.sha256 (the data file's checksum as dataset_state computes it: of
// the uncompressed text for .gz) and outcome.bytes_downloaded, adds to `record` what it read ("inputs",
// "derivation"), and places the file only once it is verified; it throws InputError otherwise.
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>

#include "datasources/fetch.hpp"
#include "datasources/sources.hpp"

namespace dpclust::datasources {

// download: the one upstream file, checked (a .gz must inflate) before it gets its name.
void fetch_download(const DatasetSource& source, const FetchOptions& options, const std::filesystem::path& target,
                    FetchOutcome& outcome, nlohmann::json& record);
// derived: the inputs (kept under downloads/, or a matching local copy), the archive's members, the
// derivation into a temporary, its checksum against the pinned one, then the rename.
void fetch_derived(const DatasetSource& source, const FetchOptions& options, const std::filesystem::path& target,
                   FetchOutcome& outcome, nlohmann::json& record, std::ostream& log);
// generated: the entry's built-in generator, exactly as `dpclust run` would use it when the file is absent.
void fetch_generated(const DatasetSource& source, const FetchOptions& options, const std::filesystem::path& target,
                     FetchOutcome& outcome, std::ostream& log);

// A temporary beside `target`, "<target>.tmp.<pid>"; remove_stale_temporaries() removes those of earlier
// fetches that were killed (only the fetch holding the data root's lock writes them, so any is stale).
std::filesystem::path temporary_for(const std::filesystem::path& target);
void remove_stale_temporaries(const std::filesystem::path& target);

}  // namespace dpclust::datasources
