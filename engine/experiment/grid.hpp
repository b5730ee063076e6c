#pragma once
// Expansion of an experiment into cells: one cell per (dataset, method, parameter combination).
//
// A method parameter may be set at three levels: experiment-wide `params`, a dataset's `params`
// (e.g. Table 1's alpha and MinPts per dataset) and the method's own `params`. Setting the same
// parameter at two levels is an error (no silent precedence). Any value may be a list or a range;
// the cell grid is the cartesian product of the lists, except that parameters named together in a
// method's `zip` vary together. Order: datasets, then methods, then parameters by name, each list in
// the order written; this order is the cell index used for shards.
#include <string>
#include <vector>

#include "core/params.hpp"
#include "experiment/config.hpp"

namespace dpclust {

struct Cell {
  std::size_t index = 0;
  std::size_t dataset_index = 0, method_index = 0;
  std::string dataset;       // dataset name
  std::string method;        // registered method name
  std::string method_label;  // series name ("as:")
  ParamSet params;           // every parameter of the method, defaults filled in
  std::string key;           // canonical "dataset=..|method=..|name=value;..." over the parameters that differ
                             // from their defaults (seed input)
  std::string id;            // 16 hex digits of fnv1a64(key): file name of the cell's results
};

std::vector<Cell> expand_grid(const ExperimentConfig& cfg);

}  // namespace dpclust
