#pragma once
// Expansion of an experiment into cells: one cell per (dataset, method, parameter combination).
//
// A method parameter may be set at three levels: experiment-wide `params`, a dataset's `params`
// (e.g. Table 1's alpha and MinPts per dataset) and the method's own `params`. Setting the same
// parameter at two levels is an error (no silent precedence). Any value may be a list or a range;
// the cell grid is the cartesian product of the lists, except that parameters named together in a
// method's `zip` vary together. Order: datasets, then methods, then parameters by name, each list in
// the order written; this order is the cell index used for shards.
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "core/method.hpp"
#include "core/params.hpp"

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

// Refuses (InputError naming the limit and --max-cells) a grid of more than cfg.max_cells cells, counted
// before anything is expanded.
std::vector<Cell> expand_grid(const ExperimentConfig& cfg);
std::vector<Cell> expand_grid(const ExperimentConfig& cfg,
                              std::uint64_t max_cells);  // another limit than cfg.max_cells

// Cell counts from the lengths of the value lists alone (no value is typed, no cell built), saturated at
// 2^64 - 1. count_cells throws the InputError above when the total exceeds max_cells.
std::uint64_t count_method_cells(const ExperimentConfig& cfg, const DatasetSpec& ds, const MethodSpec& ms);
std::uint64_t count_cells(const ExperimentConfig& cfg, std::uint64_t max_cells);

// "file:line:col path" of the config entry that sets parameter `key` for this cell (the method's, the
// dataset's or the experiment's params), or the method entry's location when the default applies.
std::string param_location(const ExperimentConfig& cfg, const Cell& cell, const std::string& key);
// Runs the method's check_shape hook (MethodInfo) for this cell on shape_for_checks(shape) (a private method
// decides on the declared number of points only); its InputError is re-thrown at the config location of the
// parameter it names, with the method and dataset in the message.
void check_cell_shape(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape);

}  // namespace dpclust
