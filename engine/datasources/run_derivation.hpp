#pragma once
// The derivations a registry entry may name (`derive:`), one table from each name to its function in
// derivations.hpp: the registry's check of the names and the fetch's call read the same list.
#include <filesystem>
#include <string>
#include <vector>

#include "datasources/derivations.hpp"
#include "datasources/sources.hpp"

namespace dpclust::datasources {

// The names of the known derivations, in the table's order.
const std::vector<std::string>& derivation_names();

// Runs the derivation `source` names on its (downloaded, extracted) inputs, writing `out`; InputError at
// the registry entry for an unknown name or a derivation of one input given several.
DerivationReport run_derivation(const DatasetSource& source, const std::vector<std::filesystem::path>& inputs,
                                const std::filesystem::path& out);

}  // namespace dpclust::datasources
