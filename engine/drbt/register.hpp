#pragma once
// The "drbt" method and its metrics (Oliveira & Zaiane, DRBT): z-score the data (Sec. 6.2 step 1),
// disguise it by random projection RP1/RP2 to k_dims dimensions, per party when the attributes are
// vertically partitioned (Sec. 4.2-4.3), cluster the disguised data with K-means (step 4), and compare
// with K-means on the original data by the overall F-measure (step 5, Eq. 14). Not differentially
// private: random projection gives no formal guarantee.
#include <cstddef>
#include <vector>

#include "core/method_folder.hpp"
#include "drbt/projection.hpp"

namespace dpclust::drbt {

// The data both clusterings start from: the coordinates, plus the ground-truth class as one more
// attribute when param class_attribute is set (Table 9's d_o = 5 for Iris), z-scored when param zscore
// is set. Throws InputError when class_attribute is set but the dataset has no labels.
RowMatrix prepare_original(const Dataset& data, const ParamSet& params);

// Table 10's columns for one split: the attributes held and the dimensions projected to by the largest
// and smallest party (74 attributes, 4 parties, 38 dimensions: 19/18 attributes, 10/9 dimensions).
// Throws std::invalid_argument for no parties. Reported as the diagnostics party_attributes_max/min and
// party_dims_max/min of every drbt trial.
struct PartySizes {
  std::size_t attributes_max = 0, attributes_min = 0, dims_max = 0, dims_min = 0;
};
PartySizes party_sizes(const std::vector<Party>& parties);

// MethodResult::details of drbt: what its metrics read (std::any_cast), never a string key.
struct DrbtResult {
  double stress = 0;  // Eq. 6 between the original and the disguised data (also in `evaluation`: it uses the original)
  // The disguised data (n x k_dims): what the release holds, in full (the release JSON stores it only for
  // small n * k_dims); the Python DRBT transformer returns it.
  RowMatrix disguised;
};

const MethodInfo& drbt_method_info();
// stress (Eq. 6, read from DrbtResult) and of (overall F-measure, Eq. 14); they apply to drbt only.
std::vector<MetricInfo> drbt_metric_list();

}  // namespace dpclust::drbt

namespace dpclust {

// The catalog's entry for this folder (engine/methods.cmake): the method and its metrics.
MethodFolder drbt_folder();

}  // namespace dpclust
