#pragma once
// engine/loading: the room that reads a dataset (files, generators, their transforms) and estimates what a
// run on it will cost (cost_model.hpp), before any trial. The config room describes datasets; only this
// room opens their files at run time.
//
// Turns a DatasetSpec into a Dataset: load the file (or generate), then the transforms in the
// documented order: lon/lat projection, domain check against the public bounds, sub-sampling,
// standard scaling. Bounds follow every (affine) transform, so they stay valid in the final
// coordinates. Data-derived bounds are computed last and flagged non-private.
#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "core/dataset.hpp"
#include "core/method.hpp"
#include "core/rng.hpp"

namespace dpclust {

// Fails (InputError) when a file is missing or the data root is needed but not set, with the fix.
void check_dataset_available(const DatasetSpec& spec);
// `mode` decides how `sample:` draws (docs/privacy.md "Subsampling and max_rows"):
// seeded = the fixed-seed positional sample (flagged non-private: not a DP subsample); secure = Poisson
// sampling with secret randomness at the public rate sample / N (N the registry's or the generator's
// declared row count, else the file's own count, which is public only under replace-one neighbours),
// recorded with a random sample id so that the accounting amplifies the epsilon spent on each sample.
Dataset materialize_dataset(const DatasetSpec& spec, Randomness mode = Randomness::seeded);
// What is known of the dataset's shape without reading any file: a generator's n_samples / n_features
// (d = 2 for generators without n_features), the registry's declared row count, max_rows and sample
// (upper bounds), the coordinate columns or the configured bounds (d), the configured bounds when no
// transform moves them. Unknown parts stay empty.
DataShape known_shape(const DatasetSpec& spec);
// The shape of the loaded data (shape_of) with what the config declares of its size (known_shape's n as
// declared_n): the checks of a private method decide on the declared size, never on the rows read
// (shape_for_checks, docs/privacy.md "Checks before a run").
DataShape loaded_shape(const DatasetSpec& spec, const Dataset& data);
// n, d, columns, bounds, bounds_source, label counts, provenance (files, checksums, transforms).
nlohmann::json dataset_summary(const Dataset& data);

}  // namespace dpclust
