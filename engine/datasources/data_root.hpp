#pragma once
// Where `dpclust data` keeps the papers' datasets, and where it fetches them from.
//
// Layout of a data root:
//   <data_file>                        the files the experiments read (registry `data_file`)
//   downloads/<host>/<path>            inputs of derived datasets, in the mirror layout
//   .dpclust/records/<data_file>.json  what each fetch did: sources, checksums, derivation counts
//   .dpclust/fetch.lock                held by the fetch in progress (concurrent fetches wait)
//   .dpclust/checked/<data_file>.json  the checksum last computed for the file on disk, with its size,
//                                      mtime, ctime, inode and device: `list` and `verify` hash a file
//                                      again only when one of these changed
#include <filesystem>
#include <string>

namespace dpclust::datasources {

// The default data root: --data-root, else $DPCLUST_DATA_ROOT, else a `datasets` folder beside the
// project's checkout when it exists, else the per-user cache ($XDG_CACHE_HOME/dpclust/datasets, or
// ~/.cache/dpclust/datasets). Never empty.
std::filesystem::path default_data_root(const std::string& explicit_root = "");
// The mirror: --mirror, else $DPCLUST_MIRROR, else none (the upstream URLs).
std::string default_mirror(const std::string& explicit_mirror = "");

}  // namespace dpclust::datasources
