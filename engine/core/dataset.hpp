#pragma once
// The one in-memory representation of a point set: n points of dimension d, stored contiguously
// row-major (point i is coords[i*d .. i*d+d)), optional ground-truth labels (-1 = noise), and the
// public domain bounds a private mechanism may use.
#include <Eigen/Core>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dpclust {

using Label = std::int32_t;
using Labels = std::vector<Label>;
inline constexpr Label kNoise = -1;

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Axis-aligned box [lo_j, hi_j] per dimension.
struct Bounds {
  std::vector<double> lo, hi;
  bool empty() const { return lo.empty(); }
  std::size_t dims() const { return lo.size(); }
  bool contains(const double* p) const;
  nlohmann::json to_json() const;
};

// Where the domain bounds came from. Only `config` is compatible with a private release: bounds
// computed from the data leak information and are flagged non-private in every result.
//   data           computed from the points (`bounds: data`);
//   data_as_paper  written in the config or registry, but declared to be the data's exact bounding box
//                  (`bounds_from_data: true`: DS1-DS3, whose grid the paper lays over that box; kept for
//                  fidelity, flagged non-private: one extreme record moves every cell edge).
//                  to_string: "data (as the paper)".
enum class BoundsSource { none, config, data, data_as_paper };
const char* to_string(BoundsSource s);
// The non_private note of a dataset with BoundsSource::data_as_paper.
extern const char* const kBoundsFromDataNote;

struct Dataset {
  std::string name;
  std::size_t n = 0;
  std::size_t d = 0;
  std::vector<double> coords;  // row-major n x d
  Labels labels;               // empty when the data carries no ground truth
  std::vector<std::string> column_names;
  Bounds bounds;
  BoundsSource bounds_source = BoundsSource::none;
  // Conditions that make any release derived from this dataset non-private (e.g. data-derived bounds).
  std::vector<std::string> non_private_notes;
  // Files read (path, bytes, checksum), generator and its parameters, transforms applied.
  nlohmann::json provenance = nlohmann::json::object();

  const double* point(std::size_t i) const { return coords.data() + i * d; }
  double* point(std::size_t i) { return coords.data() + i * d; }
  bool has_labels() const { return !labels.empty(); }
  Eigen::Map<const RowMatrix> matrix() const {
    return Eigen::Map<const RowMatrix>(coords.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  }
  // Throws std::logic_error when the shape invariants do not hold (coords size, labels size, bounds dims).
  void check_invariants() const;
};

// The bounding box of the points (non-private when used as a domain: callers must flag it).
Bounds bounding_box(const Dataset& data);
// Marks configured bounds as the data's exact bounding box (bounds_from_data: true): bounds_source
// becomes data_as_paper and kBoundsFromDataNote joins the non_private notes (once).
void mark_bounds_from_data(Dataset& data);

// Number of distinct non-noise labels.
std::size_t count_clusters(const Labels& labels);

}  // namespace dpclust
