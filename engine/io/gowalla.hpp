#pragma once
// SNAP Gowalla check-ins (loc-gowalla_totalCheckins.txt[.gz]): the location data set of the
// private-clustering papers. Each line: user \t time \t latitude \t longitude \t location_id.
#include <cstddef>
#include <filesystem>
#include <string>

#include "core/dataset.hpp"

namespace dpclust {

struct GowallaOptions {
  // Read at most this many check-ins; 0 (default) = all.
  std::size_t max_rows = 0;
  // Dataset name; empty (default) = "gowalla".
  std::string name{};
};

// d = 2 with columns (lon, lat) in degrees, so x is east-west as in the papers' plots; no labels.
// Latitude must lie in [-90, 90] and longitude in [-180, 180] (InputError at file:line otherwise).
Dataset load_gowalla(const std::filesystem::path& path, const GowallaOptions& options = {});

}  // namespace dpclust
