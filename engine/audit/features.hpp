#pragma once
// Output features for the audit: every number a mechanism publishes. A run's release (MethodResult::
// release) and its public diagnostics (functions of the release) are flattened into named numbers:
// each numeric leaf ("release.histogram.noisy_counts[12]", "diagnostics.spans"), booleans as 0/1, and
// the length of every array ("release.spans#size": the number of spans). Strings are not features.
//
// Any function of the release is fair game for a distinguisher, and these leaves cover what the
// auditing literature uses per mechanism (a released cell count, the number of spans, a centre
// coordinate, k', a threshold) without a hand-written extractor per method. A leaf absent from a run
// (an array that is shorter this time) is NaN.
//
// Speed: the pilot runs fix the schema (names, in first-seen order, at most kMaxFeatures); every later
// run is flattened by a 64-bit hash of the path computed while walking, looked up in the schema, with
// no string built.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace dpclust::audit {

inline constexpr std::size_t kMaxFeatures = std::size_t{1} << 16;

class FeatureSchema {
 public:
  // Adds the features of one run (release and diagnostics) not yet known, up to kMaxFeatures.
  void learn(const nlohmann::json& release, const nlohmann::json& diagnostics);
  std::size_t size() const { return names_.size(); }
  const std::string& name(std::size_t i) const { return names_[i]; }
  // The run's value of every feature (NaN where absent), into `out` (resized to size()).
  void extract(const nlohmann::json& release, const nlohmann::json& diagnostics, std::vector<double>& out) const;
  // Only the features `selected` (indices into the schema), in that order.
  void extract_selected(const nlohmann::json& release, const nlohmann::json& diagnostics, const std::vector<std::size_t>& selected,
                        std::vector<double>& out) const;

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::uint64_t, std::size_t> index_;
};

}  // namespace dpclust::audit
