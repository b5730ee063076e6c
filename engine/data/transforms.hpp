#pragma once
// In-place transforms of a Dataset. Each appends an entry {"name": ..., parameters...} to
// provenance["transforms"] (a JSON list, in order of application), so a result file says exactly
// what was done to the data before clustering.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/dataset.hpp"
#include "core/rng.hpp"

namespace dpclust {

// Zero mean, unit variance per column (population std, as sklearn's StandardScaler; a constant
// column is only centred). Uses the data's own mean/std, so it is not private by itself: the
// transform entry carries the note "standard scaling uses data mean/std" and the caller decides
// whether that belongs in non_private_notes. Bounds, if set, are mapped the same way.
void standard_scale(Dataset& data);

// Every column mapped to [-1, 1] by its own minimum and maximum: x -> (x - min) / (max - min) x 2 - 1, a constant
// column to 0 (FastLloyd's data_handler.normalize, which its evaluation runs before every method). Uses the data's
// own extremes, so it is not private by itself: the transform entry says so and the caller flags the results.
// Bounds, if set, are mapped the same way.
void minmax_scale(Dataset& data);

// A dataset's `scale:`: none, standard (standard_scale) or minmax (minmax_scale); both read the data.
enum class Scaling { none, standard, minmax };
const char* to_string(Scaling s);
// "none" / "standard" / "minmax"; false for another name.
bool parse_scaling(const std::string& name, Scaling& out);

// Keeps n points drawn uniformly without replacement, in their original relative order (so the
// result does not depend on a permutation). Deterministic in `seed`; no-op when n >= data.n.
// A fixed public seed makes the sample a public function of record positions: not a
// DP subsample, no amplification; randomness: seeded only (the caller flags it).
void subsample(Dataset& data, std::size_t n, std::uint64_t seed);

// DPM's artifact's class-balanced resample (UzL-PrivSec/clustering-evaluation, datasets.py uciLetters): from
// numpy's default_rng(seed) (core/numpy_generator.hpp), for every class in turn, `per_class` rows of that class
// drawn with replacement (Generator.integers(0, rows of the class, per_class), the class's rows in file order),
// then the whole resample permuted (Generator.permutation). Classes in ascending order of their label text when
// the labels were text (provenance label_map: A, B, ..., Z as the artifact's ascii_uppercase mapping), else of
// their value. Needs labels. A record may be drawn many times (and one record more changes every draw of its
// class), so a release on the resample is not private for the file's records: the note says so.
void resample_per_class(Dataset& data, std::size_t per_class, std::uint64_t seed);
inline constexpr const char* kResamplePerClassNote =
    "resample_per_class: rows drawn with replacement by class (DPM's artifact, datasets.py uciLetters): a record may "
    "appear many times and one added record changes its class's draws, so a release is private for the resampled rows "
    "as records, not for the file's";

// Poisson sampling (Balle, Barthe & Gaboardi 2018, "Privacy amplification by subsampling"): every point
// is kept independently with probability q = rate_num / rate_den, exactly (kept iff
// rng.below(rate_den) < rate_num), in its original order. With a secret generator (Rng::secure()) and a
// public q, a mechanism that is (eps, delta)-DP on the sample is (ln(1 + q (e^eps - 1)), q delta)-DP on
// the data (amplified_epsilon below). `entry` is the provenance record to append (the caller says where
// q comes from); rate_num <= rate_den, rate_den > 0.
void poisson_subsample(Dataset& data, std::uint64_t rate_num, std::uint64_t rate_den, Rng& rng, nlohmann::json entry);

// ln(1 + q (e^eps - 1)), computed without cancellation for small eps and q (log1p, expm1).
double amplified_epsilon(double epsilon, double q);

// Equirectangular projection of degrees to kilometres, as in the DP-DBSCAN paper
// (1 degree of latitude = 111.2 km):
//   x = (lon - lon0) * 111.2 * cos(ref_lat),  y = (lat - lat0) * 111.2
// Columns lon_col / lat_col are replaced by x / y ("x_km", "y_km"); bounds, if set, are projected.
struct LonLatProjection {
  std::size_t lon_col = 0;
  std::size_t lat_col = 1;
  double ref_lat_deg = 0;  // latitude where east-west distances are exact, in (-90, 90)
  double lon0 = 0;         // origin
  double lat0 = 0;
};
inline constexpr double kKmPerDegree = 111.2;
void project_lonlat_to_km(Dataset& data, const LonLatProjection& projection);
void project_lonlat_to_km(Dataset& data, std::size_t lon_col, std::size_t lat_col, double ref_lat_deg, double lon0 = 0,
                          double lat0 = 0);

// Throws InputError at `source` (a file or config path) for the first point with a NaN/inf
// coordinate, then (when bounds are set) for the first point outside the bounds: a private mechanism
// calibrated to the bounds would silently mis-handle it.
void validate_points(const Dataset& data, const std::string& source);
// Just the bounds part of validate_points (no-op without bounds).
void check_within_bounds(const Dataset& data, const std::string& source);

// A dataset's `clip_to_bounds`: what happens to a point with a coordinate outside the public bounds.
//   refuse  (false, the default) the load stops, naming the point (check_within_bounds);
//   drop    (true | drop) the row is left out (drop_outside_bounds);
//   clamp   each such coordinate is set to the nearest end of its interval (clamp_to_bounds). A per-record map
//           fixed by the public bounds alone: neighbouring datasets stay neighbours, so a private release on the
//           clamped data keeps its guarantee (DPM's artifact keeps make_blobs' points outside its box (-100, 100),
//           which its mechanisms' sensitivities assume: clamping runs its setting with the guarantee it states).
enum class OutOfBounds { refuse, drop, clamp };
const char* to_string(OutOfBounds o);

// Keeps only the points inside the bounds, in their original order; returns how many were left out.
std::size_t drop_outside_bounds(Dataset& data);
// Clamps every coordinate into its interval; returns how many points had a coordinate moved. NaN stays NaN
// (validate_points refuses it first).
std::size_t clamp_to_bounds(Dataset& data);

}  // namespace dpclust
