// Flattening a release into named numbers; see features.hpp.
#include "audit/features.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "core/rng.hpp"

namespace dpclust::audit {
namespace {

using nlohmann::json;

std::uint64_t child_hash(std::uint64_t parent, std::uint64_t key) {
  return splitmix64(parent * 0x9E3779B97F4A7C15ull ^ key);
}
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

const char* to_string(Representation r) {
  switch (r) {
    case Representation::value: return "value";
    case Representation::lsb: return "lsb";
    case Representation::low4: return "low4";
    case Representation::mantissa_zeros: return "mantissa_zeros";
    case Representation::grain: return "grain";
    case Representation::binade_low4: return "binade_low4";
    case Representation::binade_zeros: return "binade_zeros";
    case Representation::mod2: return "mod2";
    case Representation::mod3: return "mod3";
    case Representation::mod4: return "mod4";
  }
  return "?";
}

const char* family_of(Representation r) {
  switch (r) {
    case Representation::value: return "value";
    case Representation::lsb:
    case Representation::low4:
    case Representation::binade_low4: return "bits";
    case Representation::mantissa_zeros:
    case Representation::grain:
    case Representation::binade_zeros: return "grain";
    case Representation::mod2:
    case Representation::mod3:
    case Representation::mod4: return "parity";
  }
  return "?";
}

double represent(Representation r, double v) {
  if (r == Representation::value) return v;
  if (!std::isfinite(v)) return std::numeric_limits<double>::quiet_NaN();
  const auto bits = std::bit_cast<std::uint64_t>(v);
  constexpr std::uint64_t kFraction = (std::uint64_t{1} << 52) - 1;
  const std::uint64_t fraction = bits & kFraction;
  // The sign and binade of v as a nonzero integer key (0 for v = 0): (biased exponent + 1) * sign,
  // subnormals sharing the key of biased exponent 0.
  const auto binade = [&] {
    if (v == 0) return 0.0;
    const double key = static_cast<double>((bits >> 52) & 0x7FF) + 1;
    return v < 0 ? -key : key;
  };
  const double zeros = fraction == 0 ? 52.0 : static_cast<double>(std::countr_zero(fraction));
  switch (r) {
    case Representation::value: return v;
    case Representation::lsb: return static_cast<double>(fraction & 1);
    case Representation::low4: return static_cast<double>(fraction & 15);
    case Representation::mantissa_zeros: return zeros;
    // key * 64 + pattern: the patterns (< 64) of different keys never collide.
    case Representation::binade_low4: return binade() * 64 + static_cast<double>(fraction & 15);
    case Representation::binade_zeros: return binade() * 64 + zeros;
    case Representation::grain: {
      if (v == 0) return 2048.0;  // a multiple of every power of two
      const int biased = static_cast<int>((bits >> 52) & 0x7FF);
      // v = significand 2^(e - 52) with the hidden bit for normal numbers; subnormals: e = -1022.
      const std::uint64_t significand = biased == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
      const int e = biased == 0 ? -1022 : biased - 1023;
      return static_cast<double>(e - 52 + std::countr_zero(significand));
    }
    case Representation::mod2:
    case Representation::mod3:
    case Representation::mod4: {
      const double m = r == Representation::mod2 ? 2 : r == Representation::mod3 ? 3 : 4;
      const double x = std::fmod(v, m);  // exact for integer-valued doubles
      return x < 0 ? x + m : x;
    }
  }
  return v;
}

const std::vector<Representation>& representations_for(bool integer_valued) {
  static const std::vector<Representation> integer{Representation::mod2, Representation::mod3, Representation::mod4,
                                                   Representation::grain};
  static const std::vector<Representation> real{
      Representation::lsb,   Representation::low4,        Representation::mantissa_zeros,
      Representation::grain, Representation::binade_low4, Representation::binade_zeros};
  return integer_valued ? integer : real;
}

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

void FeatureSchema::extract_selected(const json& release, const json& diagnostics,
                                     const std::vector<std::size_t>& selected, std::vector<double>& out) const {
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

FeatureSchema::Plan FeatureSchema::plan(const std::vector<FeatureRef>& refs) const {
  Plan p;
  p.refs = refs;
  for (std::size_t c = 0; c < refs.size(); ++c) p.columns_of[refs[c].feature].push_back(c);
  return p;
}

void FeatureSchema::extract(const json& release, const json& diagnostics, const Plan& plan,
                            std::vector<double>& out) const {
  out.assign(plan.refs.size(), std::numeric_limits<double>::quiet_NaN());
  auto set = [&](std::uint64_t h, double v, std::string*) {
    const auto it = index_.find(h);
    if (it == index_.end()) return;
    const auto cols = plan.columns_of.find(it->second);
    if (cols == plan.columns_of.end()) return;
    for (std::size_t c : cols->second) out[c] = represent(plan.refs[c].rep, v);
  };
  walk(release, kReleaseRoot, nullptr, set);
  walk(diagnostics, kDiagnosticsRoot, nullptr, set);
}

void FeatureSchema::extract_refs(const json& release, const json& diagnostics, const std::vector<FeatureRef>& refs,
                                 std::vector<double>& out) const {
  extract(release, diagnostics, plan(refs), out);
}

std::string FeatureSchema::name(const FeatureRef& ref) const {
  return ref.rep == Representation::value ? names_[ref.feature] : names_[ref.feature] + "~" + to_string(ref.rep);
}

}  // namespace dpclust::audit
