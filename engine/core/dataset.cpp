#include "core/dataset.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <unordered_set>

namespace dpclust {

bool Bounds::contains(const double* p) const {
  for (std::size_t j = 0; j < lo.size(); ++j)
    if (!(p[j] >= lo[j] && p[j] <= hi[j])) return false;
  return true;
}

nlohmann::json Bounds::to_json() const {
  nlohmann::json box = nlohmann::json::array();
  for (std::size_t j = 0; j < lo.size(); ++j) box.push_back({lo[j], hi[j]});
  return box;
}

const char* to_string(BoundsSource s) {
  switch (s) {
    case BoundsSource::none: return "none";
    case BoundsSource::config: return "config";
    case BoundsSource::data: return "data";
    case BoundsSource::data_as_paper: return "data (as the paper)";
  }
  return "?";
}

const char* const kBoundsFromDataNote =
    "domain bounds are the data's exact bounding box (bounds_from_data: true, as the paper quantises it): one extreme "
    "record moves every cell edge; use bounds: public for a public domain";

void mark_bounds_from_data(Dataset& data) {
  data.bounds_source = BoundsSource::data_as_paper;
  for (const auto& n : data.non_private_notes)
    if (n == kBoundsFromDataNote) return;
  data.non_private_notes.push_back(kBoundsFromDataNote);
}

void Dataset::check_invariants() const {
  if (coords.size() != n * d) throw std::logic_error("dataset '" + name + "': coords size != n*d");
  if (!labels.empty() && labels.size() != n) throw std::logic_error("dataset '" + name + "': labels size != n");
  if (!bounds.empty() && bounds.dims() != d) throw std::logic_error("dataset '" + name + "': bounds dims != d");
}

Bounds bounding_box(const Dataset& data) {
  Bounds b;
  b.lo.assign(data.d, std::numeric_limits<double>::infinity());
  b.hi.assign(data.d, -std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < data.n; ++i) {
    const double* p = data.point(i);
    for (std::size_t j = 0; j < data.d; ++j) {
      b.lo[j] = std::min(b.lo[j], p[j]);
      b.hi[j] = std::max(b.hi[j], p[j]);
    }
  }
  return b;
}

std::size_t count_clusters(const Labels& labels) {
  std::unordered_set<Label> seen;
  for (Label l : labels)
    if (l != kNoise) seen.insert(l);
  return seen.size();
}

}  // namespace dpclust
