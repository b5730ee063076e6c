#pragma once
// An experiment config (YAML) as typed data. Parsing validates the whole schema before any work:
// unknown keys (with the closest valid key suggested), wrong types, impossible values, missing
// datasets, and the parameter grid itself (see grid.hpp). The docs/config.md documents the schema.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/centres_domain.hpp"
#include "core/dataset.hpp"
#include "core/error.hpp"   // InputError: what reading a config throws
#include "core/metric.hpp"  // EvaluationSettings
#include "core/params.hpp"
#include "core/rng.hpp"
#include "data/transforms.hpp"  // OutOfBounds
#include "io/arff.hpp"

namespace dpclust {

// A method parameter as one level of the config sets it (the experiment's, a dataset's or a method's
// `params:`), read once: for each listed method that declares it, the sweep it gives (a scalar is a sweep
// of one; a list or a {from, to, step} range is expanded), every value checked against that method's
// ParamSpec when the config is read (config.cpp, type_params in grid.cpp). Nothing after the config room
// sees the YAML it came from; grid expansion combines these typed sweeps into cells.
struct ParamSource {
  std::string where;                                     // "file:line:col path" of the value, for messages
  std::map<std::string, std::size_t> length;             // by method name: the sweep's length
  std::map<std::string, std::vector<ParamValue>> sweep;  // by method name: the typed values
};
using ParamSources = std::map<std::string, ParamSource>;

struct ProjectionSpec {
  std::string lon_column = "lon", lat_column = "lat";
  double ref_lat_deg = 0;
  double origin_lon = 0, origin_lat = 0;
};

struct DatasetSpec {
  std::string name;
  std::string where;  // config location, for messages
  // Exactly one of: a file (resolved against the config's directory or the data root) or a generator.
  std::string file;                // as written
  std::filesystem::path resolved;  // absolute path (empty when the data root is missing)
  bool file_under_data_root = false;
  std::string format;                // csv | tsv | arff | gowalla
  std::vector<std::string> columns;  // coordinate columns (names or indices)
  std::string label;                 // label column/attribute; empty = none / auto
  bool no_label = false;             // label: none
  std::string delimiter;             // csv only; empty = auto
  std::string header = "auto";       // auto | true | false
  std::uint64_t header_rows = 0;     // csv/tsv `header_rows: N`: rows of names at the top (0 = `header` decides)
  std::int64_t max_rows = 0;         // 0 = all
  // `file:` / `data_file:` given as a list, or as a glob in the file name (`*`, `?`, `[...]`): several
  // csv/tsv files of one layout concatenated in sorted path order (HAR70+'s per-participant files).
  // resolved_files holds every entry resolved (patterns not yet expanded; loading/dataset_loading.cpp expands them
  // when loading) and resolved the first one; both empty when the data root is missing. Empty for a
  // single literal file.
  std::vector<std::filesystem::path> resolved_files;
  bool multi_file = false;
  // `missing: drop` (csv/tsv/arff): rows with a missing value ('?', 'NA', empty) in a selected column are
  // left out and counted in the provenance (default `refuse`: the load stops, counting them; io/missing_values.hpp).
  bool drop_missing = false;
  // `nominal: skip | codes | onehot` (arff, csv, tsv): the nominal attributes, or the text and true/false
  // columns, that are not the label; `nominal_order: sorted | appearance` (csv/tsv): the order that codes a
  // text column's values; `dates: skip | days | seconds` (csv/tsv): date and timestamp columns
  // (io/table_options.hpp).
  NominalEncoding nominal = NominalEncoding::skip;
  NominalOrder nominal_order = NominalOrder::sorted;
  DateEncoding dates = DateEncoding::skip;
  // `identifier_columns: keep` (csv/tsv/arff): keep columns that look like record identifiers among the
  // coordinates when `columns` is not given; default `drop` leaves them out with a warning
  // (data/identifier_columns.hpp).
  bool keep_identifier_columns = false;
  // format fimi: `ragged: error | pad | truncate` and `items_per_row: N` (0 = not set); io/fimi.hpp.
  std::string fimi_ragged = "error";
  std::uint64_t fimi_items_per_row = 0;
  std::string generator;  // generator type; empty for files
  ParamSet generator_params;
  bool fallback_available = false;  // registry: generator to use when the file is absent
  std::string fallback_generator;
  ParamSet fallback_params;
  bool fallback_scale = false;
  // Transforms, in this order: projection, domain check against bounds, sub-sampling, scaling.
  std::optional<ProjectionSpec> project;
  std::string bounds_mode = "none";  // none | config | data (`bounds: public` becomes config with public_bounds)
  Bounds bounds;                     // when bounds_mode == config, in the file's coordinates
  // The configured `bounds` are the data's exact bounding box (registry key bounds_from_data: true,
  // DS1-DS3 as the paper quantises them): kept for fidelity, every result flagged non-private
  // (BoundsSource::data_as_paper). public_bounds: a public box containing the data, chosen without the
  // exact extremes, that `bounds: public` selects instead (then nothing is flagged).
  bool bounds_from_data = false;
  Bounds public_bounds;
  bool bounds_from_public_key =
      false;  // `bounds: public` chose public_bounds (side information: "the registry's public_bounds")
  // What happens to a point with a coordinate outside the configured bounds: refuse (the default: the load
  // stops, naming the point), drop (`clip_to_bounds: true | drop`: the row is left out) or clamp
  // (`clip_to_bounds: clamp`: each such coordinate is set to the nearest end of its interval, a public
  // map applied to every record alone, so a release on the result keeps its guarantee).
  OutOfBounds clip_to_bounds = OutOfBounds::refuse;
  Scaling scaling = Scaling::none;  // scale: none | standard | minmax (data/transforms.hpp)
  std::int64_t sample = 0;          // 0 = all points
  std::uint64_t sample_seed = 0;
  // DPM's artifact's resample (data/transforms.hpp resample_per_class): N rows of every class with replacement
  // from numpy's default_rng(resample_seed), then permuted; 0 = none. Flagged (a record may appear many times).
  std::int64_t resample_per_class = 0;
  std::uint64_t resample_seed = 0;
  ParamSources params;    // method parameter values for this dataset (e.g. Table 1's alpha, MinPts)
  std::string reference;  // where the dataset comes from (informational)
  // Benchmarks (docs/benchmark.md). `family:` groups datasets that differ only in size, dimension or domain
  // (the report's win regions over (n, eps) and (d, eps) are per family); empty: the generator's type or the name.
  std::string family;
  // `tuned_on_data: {alpha: "k-distance plot of the data", ...}`: parameters of this dataset chosen by looking at
  // the private data; every cell that uses them is labelled oracle-tuned (core/side_information.hpp).
  std::vector<std::pair<std::string, std::string>> tuned_on_data;
  // Rows of the registry's data file as its `source:` declares them (0 = not declared, or the config
  // names another file): the shape validation and the cost model know n without reading the file.
  std::uint64_t declared_rows = 0;
  std::uint64_t declared_dims = 0;  // the same for its coordinates per point (`source: {dims: 2}`)
  nlohmann::json definition;        // canonical JSON of this spec, part of each cell's fingerprint
};

struct MethodSpec {
  std::string method;  // registered method name
  std::string label;   // series name in results ("as:"), defaults to the method name
  std::string where;
  ParamSources params;
  std::vector<std::vector<std::string>> zip;  // groups of parameters whose lists vary together
  // `centres_outside_domain:` of the entry (core/centres_domain.hpp); unset: the experiment's.
  std::optional<CentresOutsideDomain> centres_outside_domain;
};

// Limits of the schema: trials per cell, and the default of `--max-cells` (cells of the expanded grid).
inline constexpr std::int64_t kMaxTrials = 1'000'000;
inline constexpr std::uint64_t kDefaultMaxCells = 1'000'000;
// `silhouette_sample:` at most this (a 10^6-point silhouette is 5 * 10^11 d operations a trial).
inline constexpr std::int64_t kMaxSilhouetteSample = 1'000'000;

// The `audit:` section (docs/privacy.md "Privacy audit"; engine/audit): how `dpclust audit` tests the private
// methods of this experiment. Plain data here; engine/audit builds the neighbouring pairs.
struct AuditPairConfig {
  std::string name;                   // a built-in pair (add_empty_cell, ...) or the config pair's own name
  std::vector<double> add;            // {add: [x...]} or the replacement of {remove: i, with: [x...]}
  std::optional<std::size_t> remove;  // {remove: i}
  std::string where;                  // config location, for messages
};
struct AuditConfig {
  std::uint64_t runs = 100000;         // runs per side (half choose the event, half evaluate it)
  std::uint64_t pilot_runs = 2000;     // runs per side that pick the features to consider
  double confidence = 0.95;            // of each cell's eps_lower (Bonferroni over its pairs)
  std::vector<AuditPairConfig> pairs;  // empty: every built-in pair of the method's relation
  std::uint64_t seed = 0;
  double local_distance = 1.0;  // replace_local: distance of the moved record (local privacy)
  std::size_t features_per_criterion = 8;
};

struct ExperimentConfig {
  std::filesystem::path file;
  std::string text;  // the config file's bytes, kept verbatim in the results
  std::string name;
  std::string description;
  std::uint64_t seed = 0;
  std::int64_t trials = 1;
  // `seeds: [s0, s1, ...]`: trial t of every cell uses seeds[t] itself (a paper's own seeds, e.g. the
  // DP-DBSCAN authors' 0, 1, 2), instead of derive_seed(seed, cell, t); trials = seeds.size() (or fewer
  // with --trials). Empty: derived seeds.
  std::vector<std::uint64_t> seeds;
  // `randomness: seeded | secure` (default seeded; core/rng.hpp, docs/results.md "Seeds and randomness"). secure:
  // every trial draws from the OS CSPRNG, no seed exists or is written, results are not reproducible;
  // `seed`/`seeds` and `rng: numpy` are refused.
  Randomness randomness = Randomness::seeded;
  // `threads: N` caps the worker threads of this experiment (e.g. 1 for running times comparable to a
  // paper's single-threaded code); 0: no cap. The run records the threads it really used.
  int threads = 0;
  AuditConfig audit;  // `audit:` (defaults when absent)
  std::vector<DatasetSpec> datasets;
  std::vector<MethodSpec> methods;
  std::vector<std::string> metrics;  // empty = every metric that applies
  ParamSources params;               // experiment-wide parameter values (apply to methods that declare them)
  bool save_release = true;          // keep each trial's released object (centroids, spans) in the JSON
  bool save_points = false;          // store each dataset's points (and true labels) in results.json, for figures
  bool save_labels = false;          // store each trial's point labels, for figures
  // `baselines: true` (docs/benchmark.md): the trivial baseline (uniform_centres) and each listed private
  // method's non-private counterpart are added to the methods (config.cpp add_baselines), unless listed.
  bool baselines = false;
  // `centres_outside_domain: clamp | keep` (core/centres_domain.hpp): released centres outside the public domain
  // moved into it (default) or kept as released (an authors' behaviour a reproduction needs); a method entry may
  // set its own.
  CentresOutsideDomain centres_outside_domain = CentresOutsideDomain::clamp;
  // What the metrics read: `silhouette_sample: M | all` (core/metric.hpp EvaluationSettings).
  EvaluationSettings evaluation;
  std::filesystem::path data_root;  // resolved data root (may be empty)
  // The grid expansion refuses more cells than this (`--max-cells`; counted before anything is expanded).
  std::uint64_t max_cells = kDefaultMaxCells;
};

// The seed of trial `trial` of a cell: seeds[trial] when the config lists seeds, else
// derive_seed(seed, cell_key, trial).
std::uint64_t trial_seed(const ExperimentConfig& cfg, std::string_view cell_key, std::int64_t trial);

// Reads and validates a config. data_root: resolved data root (empty if none). max_cells: the grid may
// expand to at most this many cells (`--max-cells`), counted before any parameter value is typed.
ExperimentConfig load_config(const std::filesystem::path& file, const std::filesystem::path& data_root,
                             std::uint64_t max_cells = kDefaultMaxCells);
ExperimentConfig parse_config(const std::string& text, const std::string& file_label,
                              const std::filesystem::path& base_dir, const std::filesystem::path& data_root,
                              std::uint64_t max_cells = kDefaultMaxCells);

// The dataset registry: datasets/registry.yaml in the source tree, or the file $DPCLUST_REGISTRY names.
std::filesystem::path registry_path();
std::vector<std::string> registry_names();

}  // namespace dpclust
