// Flattening a release into named numbers; see features.hpp.
#include "audit/features.hpp"

#include <cmath>
#include <limits>

#include "core/rng.hpp"

namespace dpclust::audit {
namespace {

using nlohmann::json;

std::uint64_t child_hash(std::uint64_t parent, std::uint64_t key) { return splitmix64(parent * 0x9E3779B97F4A7C15ull ^ key); }
std::uint64_t key_hash(const std::string& k) { return fnv1a64(k); }
constexpr std::uint64_t kSizeTag = 0x5A5A5A5A5A5A5A5Aull;  // "#size" of an array
constexpr std::uint64_t kReleaseRoot = 1, kDiagnosticsRoot = 2;

// Walks j, calling leaf(hash, value, name_builder) for every numeric leaf and array size. `name` is built
// only when `with_names` (the pilot); later runs pass an empty string.
template <class Leaf>
void walk(const json& j, std::uint64_t h, std::string* name, Leaf&& leaf) {
  switch (j.type()) {
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: leaf(h, j.get<double>(), name); break;
    case json::value_t::boolean: leaf(h, j.get<bool>() ? 1.0 : 0.0, name); break;
    case json::value_t::object:
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (name) {
          const std::size_t len = name->size();
          *name += "." + it.key();
          walk(it.value(), child_hash(h, key_hash(it.key())), name, leaf);
          name->resize(len);
        } else {
          walk(it.value(), child_hash(h, key_hash(it.key())), nullptr, leaf);
        }
      }
      break;
    case json::value_t::array: {
      const std::uint64_t size_hash = child_hash(h, kSizeTag);
      if (name) {
        const std::size_t len = name->size();
        *name += "#size";
        leaf(size_hash, static_cast<double>(j.size()), name);
        name->resize(len);
      } else {
        leaf(size_hash, static_cast<double>(j.size()), nullptr);
      }
      for (std::size_t i = 0; i < j.size(); ++i) {
        if (name) {
          const std::size_t len = name->size();
          *name += "[" + std::to_string(i) + "]";
          walk(j[i], child_hash(h, i), name, leaf);
          name->resize(len);
        } else {
          walk(j[i], child_hash(h, i), nullptr, leaf);
        }
      }
      break;
    }
    default: break;  // strings, null
  }
}

}  // namespace

void FeatureSchema::learn(const json& release, const json& diagnostics) {
  auto add = [this](std::uint64_t h, double, std::string* name) {
    if (names_.size() >= kMaxFeatures || index_.count(h)) return;
    index_.emplace(h, names_.size());
    names_.push_back(*name);
  };
  std::string name = "release";
  walk(release, kReleaseRoot, &name, add);
  name = "diagnostics";
  walk(diagnostics, kDiagnosticsRoot, &name, add);
}

void FeatureSchema::extract(const json& release, const json& diagnostics, std::vector<double>& out) const {
  out.assign(names_.size(), std::numeric_limits<double>::quiet_NaN());
  auto set = [&](std::uint64_t h, double v, std::string*) {
    const auto it = index_.find(h);
    if (it != index_.end()) out[it->second] = v;
  };
  walk(release, kReleaseRoot, nullptr, set);
  walk(diagnostics, kDiagnosticsRoot, nullptr, set);
}

void FeatureSchema::extract_selected(const json& release, const json& diagnostics, const std::vector<std::size_t>& selected,
                                     std::vector<double>& out) const {
  // Position of each schema feature in the selection (few features: a linear map is enough).
  out.assign(selected.size(), std::numeric_limits<double>::quiet_NaN());
  auto set = [&](std::uint64_t h, double v, std::string*) {
    const auto it = index_.find(h);
    if (it == index_.end()) return;
    for (std::size_t s = 0; s < selected.size(); ++s)
      if (selected[s] == it->second) out[s] = v;
  };
  walk(release, kReleaseRoot, nullptr, set);
  walk(diagnostics, kDiagnosticsRoot, nullptr, set);
}

}  // namespace dpclust::audit
