#pragma once
// What one method folder gives the catalog. engine/methods.cmake lists the folders; each folder's register.cpp
// defines `MethodFolder <folder>_folder()` (a '/' of the folder's path read as '_': cluster/kmeans ->
// cluster_kmeans_folder), and catalog/catalog.cpp calls them in the list's order (docs/design.md, "Adding a method").
#include <vector>

#include "core/method.hpp"
#include "core/metric.hpp"

namespace dpclust {

struct MethodFolder {
  std::vector<MethodInfo> methods;
  // The metrics that are the folder's own (a paper's measures); most folders have none.
  std::vector<MetricInfo> metrics;
};

}  // namespace dpclust
