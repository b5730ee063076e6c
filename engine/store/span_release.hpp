#pragma once
// Finding a DP-DBSCAN trial's span release in a results directory, for `dpclust classify`: labelling
// new points with the released spans is post-processing of the release (no new privacy cost).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace dpclust {

struct SpanReleaseQuery {
  std::filesystem::path results_dir;  // the `--out` of `dpclust run`
  std::string experiment;
  // Either the cell id (16 hex digits, as in results.json / `run --dry-run`) ...
  std::string cell_id;
  // ... or the dataset and series, with parameter values (name=value) when several cells match.
  std::string dataset, series;
  std::vector<std::pair<std::string, std::string>> params;
  std::size_t trial = 0;  // index in the cell's trial list
};

struct SpanRelease {
  nlohmann::json release;  // the trial's release (grid + spans)
  std::string cell_id, key, dataset, series;
  std::uint64_t seed = 0;
  std::vector<std::string> columns;  // the dataset's coordinate columns (the release's coordinates)
  std::string where;                 // "results.json cell <id> trial <t>", for messages
};

// Reads RESULTS_DIR/EXPERIMENT/results.json (or, with a cell id, cells/<id>.json when the grid is not
// complete). Throws InputError naming the file and the fix when the experiment, the cell or the trial is
// missing, several cells match (listing their keys), the cell is not a dp_dbscan cell, or the trial has
// no release (output: {release: true}).
SpanRelease find_span_release(const SpanReleaseQuery& query);

}  // namespace dpclust
