#include "data/transforms.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"
#include "core/numpy_generator.hpp"
#include "core/rng.hpp"

namespace dpclust {

namespace {

void record(Dataset& data, nlohmann::json entry) {
  auto& list = data.provenance["transforms"];
  if (!list.is_array()) list = nlohmann::json::array();
  list.push_back(std::move(entry));
}

// sklearn's _is_constant_feature: variance within the rounding error of its own computation.
bool is_constant(double var, double mean, std::size_t n) {
  const double eps = std::numeric_limits<double>::epsilon();
  const double nd = static_cast<double>(n);
  const double upper = nd * eps * var + (nd * mean * eps) * (nd * mean * eps);
  return var <= upper;
}

// Error messages name a record by its index and a column by its number and name, never by a value
// (docs/privacy.md): the message reaches the CLI, the audit and Python's ValueError, and a coordinate
// of a private record printed there is released without noise. The bounds are public (configured).
std::string describe_column(const Dataset& data, std::size_t j) {
  std::string s = "coordinate " + std::to_string(j);
  if (data.column_names.size() == data.d && !data.column_names[j].empty()) s += " ('" + data.column_names[j] + "')";
  return s;
}

std::string format_interval(double lo, double hi) {
  std::ostringstream s;
  s.precision(10);
  s << "[" << lo << ", " << hi << "]";
  return s.str();
}

}  // namespace

void standard_scale(Dataset& data) {
  std::vector<double> mean(data.d, 0.0), scale(data.d, 1.0);
  const double n = static_cast<double>(data.n);
  for (std::size_t i = 0; i < data.n; ++i)
    for (std::size_t j = 0; j < data.d; ++j) mean[j] += data.point(i)[j];
  for (double& m : mean) m /= n;
  // Two passes (mean, then squared deviations) for accuracy on data far from the origin (lon/lat).
  std::vector<double> var(data.d, 0.0);
  for (std::size_t i = 0; i < data.n; ++i)
    for (std::size_t j = 0; j < data.d; ++j) {
      const double dev = data.point(i)[j] - mean[j];
      var[j] += dev * dev;
    }
  for (std::size_t j = 0; j < data.d; ++j) {
    var[j] /= n;
    if (!is_constant(var[j], mean[j], data.n)) scale[j] = std::sqrt(var[j]);
  }
  for (std::size_t i = 0; i < data.n; ++i)
    for (std::size_t j = 0; j < data.d; ++j) data.point(i)[j] = (data.point(i)[j] - mean[j]) / scale[j];
  for (std::size_t j = 0; j < data.bounds.dims(); ++j) {
    data.bounds.lo[j] = (data.bounds.lo[j] - mean[j]) / scale[j];
    data.bounds.hi[j] = (data.bounds.hi[j] - mean[j]) / scale[j];
  }
  record(data, {{"name", "standard_scale"},
                {"mean", mean},
                {"scale", scale},
                {"bounds_scaled", !data.bounds.empty()},
                {"note", "standard scaling uses data mean/std"}});
}

void minmax_scale(Dataset& data) {
  std::vector<double> lo(data.d, 0.0), hi(data.d, 0.0);
  for (std::size_t j = 0; j < data.d && data.n > 0; ++j) lo[j] = hi[j] = data.point(0)[j];
  for (std::size_t i = 1; i < data.n; ++i)
    for (std::size_t j = 0; j < data.d; ++j) {
      lo[j] = std::min(lo[j], data.point(i)[j]);
      hi[j] = std::max(hi[j], data.point(i)[j]);
    }
  // The authors' arithmetic and order: (x - min) / (max - min), then times 2 minus 1; 0.5 x 2 - 1 = 0 for a constant
  // column.
  const auto map = [&](double x, std::size_t j) {
    return (hi[j] == lo[j] ? 0.5 : (x - lo[j]) / (hi[j] - lo[j])) * 2 - 1;
  };
  for (std::size_t i = 0; i < data.n; ++i)
    for (std::size_t j = 0; j < data.d; ++j) data.point(i)[j] = map(data.point(i)[j], j);
  for (std::size_t j = 0; j < data.bounds.dims(); ++j) {
    data.bounds.lo[j] = map(data.bounds.lo[j], j);
    data.bounds.hi[j] = map(data.bounds.hi[j], j);
  }
  record(data, {{"name", "minmax_scale"},
                {"min", lo},
                {"max", hi},
                {"bounds_scaled", !data.bounds.empty()},
                {"note", "min-max scaling to [-1, 1] uses the data's minimum and maximum"}});
}

const char* to_string(Scaling s) {
  switch (s) {
    case Scaling::none: return "none";
    case Scaling::standard: return "standard";
    case Scaling::minmax: return "minmax";
  }
  return "none";
}

bool parse_scaling(const std::string& name, Scaling& out) {
  for (Scaling s : {Scaling::none, Scaling::standard, Scaling::minmax})
    if (name == to_string(s)) {
      out = s;
      return true;
    }
  return false;
}

void subsample(Dataset& data, std::size_t n, std::uint64_t seed) {
  if (n >= data.n) return;
  // Selection sampling (Knuth's Algorithm S): each point is kept with probability
  // (still needed) / (still left), which gives every n-subset the same chance and keeps order.
  Rng rng(seed);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < data.n && kept < n; ++i) {
    if (rng.below(data.n - i) >= n - kept) continue;
    if (kept != i) {
      std::copy_n(data.point(i), data.d, data.point(kept));
      if (data.has_labels()) data.labels[kept] = data.labels[i];
    }
    ++kept;
  }
  const std::size_t from = data.n;
  data.n = n;
  data.coords.resize(n * data.d);
  data.coords.shrink_to_fit();
  if (data.has_labels()) data.labels.resize(n);
  record(data, {{"name", "subsample"},
                {"n", n},
                {"from", from},
                {"seed", seed},
                {"scheme", "without_replacement"},
                {"randomness", "seeded"}});
}

void poisson_subsample(Dataset& data, std::uint64_t rate_num, std::uint64_t rate_den, Rng& rng, nlohmann::json entry) {
  if (rate_den == 0 || rate_num > rate_den) throw std::logic_error("poisson_subsample: the rate must be in [0, 1]");
  std::size_t kept = 0;
  // One draw per point, whatever is kept: the number of words drawn does not depend on the data.
  for (std::size_t i = 0; i < data.n; ++i) {
    if (rng.below(rate_den) >= rate_num) continue;
    if (kept != i) {
      std::copy_n(data.point(i), data.d, data.point(kept));
      if (data.has_labels()) data.labels[kept] = data.labels[i];
    }
    ++kept;
  }
  data.n = kept;
  data.coords.resize(kept * data.d);
  data.coords.shrink_to_fit();
  if (data.has_labels()) data.labels.resize(kept);
  record(data, std::move(entry));
}

double amplified_epsilon(double epsilon, double q) { return std::log1p(q * std::expm1(epsilon)); }

void project_lonlat_to_km(Dataset& data, const LonLatProjection& p) {
  const std::string where = "project_lonlat_to_km";
  if (p.lon_col >= data.d || p.lat_col >= data.d || p.lon_col == p.lat_col)
    throw InputError(where,
                     "lon/lat columns " + std::to_string(p.lon_col) + "/" + std::to_string(p.lat_col) +
                         " are not two distinct columns of a " + std::to_string(data.d) + "-column dataset",
                     "name the longitude and latitude columns (0-based)");
  if (!(std::fabs(p.ref_lat_deg) < 90))
    throw InputError(where, "reference latitude must be in (-90, 90), got " + std::to_string(p.ref_lat_deg),
                     "use the latitude of the data's centre");
  const double kx = kKmPerDegree * std::cos(p.ref_lat_deg * std::numbers::pi / 180.0);
  auto x = [&](double lon) { return (lon - p.lon0) * kx; };
  auto y = [&](double lat) { return (lat - p.lat0) * kKmPerDegree; };
  for (std::size_t i = 0; i < data.n; ++i) {
    double* q = data.point(i);
    q[p.lon_col] = x(q[p.lon_col]);
    q[p.lat_col] = y(q[p.lat_col]);
  }
  if (!data.bounds.empty()) {  // kx > 0, so the projection is increasing and maps boxes to boxes
    data.bounds.lo[p.lon_col] = x(data.bounds.lo[p.lon_col]);
    data.bounds.hi[p.lon_col] = x(data.bounds.hi[p.lon_col]);
    data.bounds.lo[p.lat_col] = y(data.bounds.lo[p.lat_col]);
    data.bounds.hi[p.lat_col] = y(data.bounds.hi[p.lat_col]);
  }
  if (data.column_names.size() == data.d) {
    data.column_names[p.lon_col] = "x_km";
    data.column_names[p.lat_col] = "y_km";
  }
  record(data, {{"name", "project_lonlat_to_km"},
                {"lon_col", p.lon_col},
                {"lat_col", p.lat_col},
                {"ref_lat_deg", p.ref_lat_deg},
                {"lon0", p.lon0},
                {"lat0", p.lat0},
                {"km_per_degree", kKmPerDegree}});
}

void project_lonlat_to_km(Dataset& data, std::size_t lon_col, std::size_t lat_col, double ref_lat_deg, double lon0,
                          double lat0) {
  project_lonlat_to_km(data, LonLatProjection{lon_col, lat_col, ref_lat_deg, lon0, lat0});
}

void check_within_bounds(const Dataset& data, const std::string& source) {
  if (data.bounds.empty()) return;
  if (data.bounds.dims() != data.d)
    throw InputError(
        source,
        "bounds have " + std::to_string(data.bounds.dims()) + " dimensions but the data has " + std::to_string(data.d),
        "give one [low, high] pair per data column");
  for (std::size_t i = 0; i < data.n; ++i) {
    if (data.bounds.contains(data.point(i))) continue;
    std::size_t j = 0;  // the first coordinate outside its interval (NaN is outside every interval)
    while (j + 1 < data.d && data.point(i)[j] >= data.bounds.lo[j] && data.point(i)[j] <= data.bounds.hi[j]) ++j;
    throw InputError(source,
                     "point " + std::to_string(i) + " (0-based, in file order): " + describe_column(data, j) +
                         " is outside the public bounds " + format_interval(data.bounds.lo[j], data.bounds.hi[j]) +
                         " (the value is not shown: error messages never print a record's values)",
                     "widen the bounds (`bounds` in the config, bounds= in Python), or drop or clamp the points "
                     "outside them (clip_to_bounds: drop | clamp)");
  }
}

void resample_per_class(Dataset& data, std::size_t per_class, std::uint64_t seed) {
  if (!data.has_labels())
    throw InputError("resample_per_class", "dataset '" + data.name + "' has no labels to resample by",
                     "name the label column (label: ...), or leave resample_per_class out");
  if (per_class == 0) throw InputError("resample_per_class", "resample_per_class must be at least 1");
  // The classes, in the order the artifact walks them.
  std::vector<Label> classes(data.labels.begin(), data.labels.end());
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  const auto map = data.provenance.find("label_map");
  if (map != data.provenance.end() && map->is_object()) {
    std::map<Label, std::string> text;
    for (const auto& [t, v] : map->items()) text[v.get<Label>()] = t;
    std::stable_sort(classes.begin(), classes.end(), [&](Label a, Label b) {
      const auto ta = text.find(a), tb = text.find(b);
      if (ta == text.end() || tb == text.end()) return ta != text.end() && tb == text.end();
      return ta->second < tb->second;
    });
  }
  NumpyGenerator gen(seed);
  const std::size_t total = per_class * classes.size();
  std::vector<double> coords(total * data.d);
  Labels labels(total);
  std::vector<std::size_t> rows;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    rows.clear();
    for (std::size_t i = 0; i < data.n; ++i)
      if (data.labels[i] == classes[c]) rows.push_back(i);
    for (std::size_t r = 0; r < per_class; ++r) {
      const auto pick = rows[static_cast<std::size_t>(gen.integers(0, static_cast<std::int64_t>(rows.size())))];
      std::copy_n(data.point(pick), data.d, coords.data() + (c * per_class + r) * data.d);
      labels[c * per_class + r] = classes[c];
    }
  }
  const std::vector<std::int64_t> perm = gen.permutation(total);
  data.coords.assign(total * data.d, 0.0);
  data.labels.assign(total, 0);
  for (std::size_t i = 0; i < total; ++i) {
    const auto src = static_cast<std::size_t>(perm[i]);
    std::copy_n(coords.data() + src * data.d, data.d, data.point(i));
    data.labels[i] = labels[src];
  }
  data.n = total;
  data.non_private_notes.push_back(kResamplePerClassNote);
  auto& list = data.provenance["transforms"];
  if (!list.is_array()) list = nlohmann::json::array();
  list.push_back({{"name", "resample_per_class"},
                  {"per_class", per_class},
                  {"seed", seed},
                  {"classes", classes.size()},
                  {"stream", "numpy default_rng (PCG64): integers per class, then permutation"}});
}

const char* to_string(OutOfBounds o) {
  switch (o) {
    case OutOfBounds::refuse: return "refuse";
    case OutOfBounds::drop: return "drop";
    case OutOfBounds::clamp: return "clamp";
  }
  return "?";
}

std::size_t drop_outside_bounds(Dataset& data) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < data.n; ++i) {
    if (!data.bounds.contains(data.point(i))) continue;
    if (kept != i) {
      std::copy_n(data.point(i), data.d, data.point(kept));
      if (data.has_labels()) data.labels[kept] = data.labels[i];
    }
    ++kept;
  }
  const std::size_t dropped = data.n - kept;
  data.n = kept;
  data.coords.resize(kept * data.d);
  if (data.has_labels()) data.labels.resize(kept);
  return dropped;
}

std::size_t clamp_to_bounds(Dataset& data) {
  std::size_t moved = 0;
  for (std::size_t i = 0; i < data.n; ++i) {
    double* p = data.point(i);
    bool any = false;
    for (std::size_t j = 0; j < data.d; ++j) {
      if (p[j] < data.bounds.lo[j]) {
        p[j] = data.bounds.lo[j];
        any = true;
      } else if (p[j] > data.bounds.hi[j]) {
        p[j] = data.bounds.hi[j];
        any = true;
      }
    }
    moved += any;
  }
  return moved;
}

void validate_points(const Dataset& data, const std::string& source) {
  for (std::size_t i = 0; i < data.n; ++i)
    for (std::size_t j = 0; j < data.d; ++j)
      if (!std::isfinite(data.point(i)[j]))
        throw InputError(source,
                         "point " + std::to_string(i) + " (0-based, in file order): " + describe_column(data, j) +
                             " is not finite (NaN or infinite)",
                         "remove or impute the point");
  check_within_bounds(data, source);
}

}  // namespace dpclust
