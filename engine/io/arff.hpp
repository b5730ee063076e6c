#pragma once
// ARFF (Weka) point files: the format of the clustering benchmark suites (cluto-t*, R15, the
// WaveCluster sets). Dense data only; values separated by commas or blanks, as Weka reads them.
// string and date attributes are skipped (a warning on stderr and provenance["skipped_attributes"],
// by name and type) unless a string attribute is the label; naming one in `columns` is an error.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust {

struct ArffOptions {
  // Numeric attributes to use as coordinates, in output order, by name. Default (empty) = every
  // numeric/real/integer attribute in declaration order. A string or date attribute here is an error.
  std::vector<std::string> columns{};
  // The nominal attribute holding the ground truth. Default (empty) = the last nominal attribute.
  // Value "noise" -> -1; other values -> their integer value when every declared value other than
  // "noise" is an integer, else their position among the non-noise values (0, 1, ...). A string
  // attribute may be named too: its values are coded as a CSV text label is (io/label_text.hpp).
  std::string label{};
  // false: ignore nominal attributes and return no labels. Default true.
  bool use_label = true;
  // Read at most this many data rows; 0 (default) = all.
  std::size_t max_rows = 0;
  // Dataset name; empty (default) = the file name without extensions.
  std::string name{};
};

// provenance: files = [fingerprint], format "arff", relation, columns, label, label_map, and
// skipped_attributes = [{name, type}] when string/date attributes were left out.
Dataset load_arff(const std::filesystem::path& path, const ArffOptions& options = {});

}  // namespace dpclust
