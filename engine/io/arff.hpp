#pragma once
// ARFF (Weka) point files: the format of the clustering benchmark suites (cluto-t*, R15, the
// WaveCluster sets). Dense data only.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust {

struct ArffOptions {
  // Numeric attributes to use as coordinates, in output order, by name. Default (empty) = every
  // numeric/real/integer attribute in declaration order.
  std::vector<std::string> columns{};
  // The nominal attribute holding the ground truth. Default (empty) = the last nominal attribute.
  // Value "noise" -> -1; other values -> their integer value when every declared value other than
  // "noise" is an integer, else their position among the non-noise values (0, 1, ...).
  std::string label{};
  // false: ignore nominal attributes and return no labels. Default true.
  bool use_label = true;
  // Read at most this many data rows; 0 (default) = all.
  std::size_t max_rows = 0;
  // Dataset name; empty (default) = the file name without extensions.
  std::string name{};
};

// provenance: files = [fingerprint], format "arff", relation, columns, label, label_map.
Dataset load_arff(const std::filesystem::path& path, const ArffOptions& options = {});

}  // namespace dpclust
