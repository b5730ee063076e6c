#pragma once
// ARFF (Weka) point files: the format of the clustering benchmark suites (cluto-t*, R15, the
// WaveCluster sets). Dense data only; values separated by commas or blanks, as Weka reads them.
// Every attribute is accounted for: numeric ones are coordinates; nominal ones are the label (named, the
// last attribute by Weka's convention, or else the one named class, label or target), coordinates (listed in `columns`
// when their values are numbers, or under `nominal: codes | onehot`) or left out with a warning naming them; string and
// date attributes are left out likewise unless a string attribute is the label (naming one in
// `columns` is an error). Every attribute left out is in provenance["skipped_attributes"] by name and
// type, never a value. Missing values ('?') follow io/missing_values.hpp.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "io/missing_values.hpp"
#include "io/table_options.hpp"  // NominalEncoding: what becomes of the nominal attributes

namespace dpclust {

struct ArffOptions {
  // Attributes to use as coordinates, in output order, by name. Default (empty) = every numeric/real/
  // integer attribute in declaration order (and every nominal one but the label under codes / onehot).
  // A string or date attribute here is an error; a nominal one needs numbers as values, or codes / onehot.
  std::vector<std::string> columns{};
  NominalEncoding nominal = NominalEncoding::skip;
  // Rows with a missing value ('?') in a selected attribute: refused (counted first) or dropped.
  MissingPolicy missing = MissingPolicy::refuse;
  // The nominal attribute holding the ground truth. Default (empty) = the last attribute when it is
  // nominal and its declared values are not all numbers with a fraction (a discretised reading is no
  // class); else the one nominal or string attribute named class, label or target in any case (UCI
  // wine's ARFF declares `class` first), with a warning; never a numeric attribute.
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

// provenance: files = [fingerprint], format "arff", relation, columns, label, label_map, nominal
// (the encoding, when a nominal attribute is a coordinate), missing (when rows were dropped), and
// skipped_attributes = [{name, type}] when attributes were left out.
Dataset load_arff(const std::filesystem::path& path, const ArffOptions& options = {});

}  // namespace dpclust
