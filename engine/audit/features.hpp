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
// Representations: a released double carries more than its value. A mechanism that
// computes its output from private numbers in floating point (hi - u (hi - lo), Mironov 2012) or writes a
// private bit into it can leak through the output's binary representation, invisible to any threshold
// or atom event on the value itself. Each feature is therefore also seen through a few representations
// (derived features, computed from the value alone, so any of them is a function of the release):
//   real-valued features      lsb    the lowest bit of the 52-bit fraction (0 or 1)
//                             low4   the lowest 4 fraction bits as an integer 0..15 (a bit pattern)
//                             mantissa_zeros  trailing zero bits of the significand, 0..52 (the grain
//                                    relative to the value's binade)
//                             grain  j such that the value is an odd multiple of 2^j (lattice
//                                    membership: value in 2^j Z  <=>  grain >= j; 0 gives 2048)
//                             binade_low4, binade_zeros  low4 and mantissa_zeros keyed by the value's
//                                    sign and binade [2^e, 2^(e+1)): one discrete value per (binade,
//                                    pattern), so that a pattern one dataset never produces in one binade
//                                    is a support difference (the `in` event) although every pattern
//                                    occurs in other binades. This is how a double computed as
//                                    hi - u (hi - lo) shows its private ends: below hi's binade the
//                                    subtraction is exact, so the outputs there are multiples of ulp(hi)
//                                    (trailing zeros that depend on hi's binade), and a product u w whose
//                                    step is 1.5 ulps rounds to even, leaving some low patterns empty
//                                    (tests/wavecluster ExpMechLattice; Mironov 2012 Sec. 3 for Laplace).
//   integer-valued features   mod2, mod3, mod4  the value modulo 2, 3, 4 (in 0..m-1; parity)
//   (every finite pilot       grain  the 2-adic valuation (grain >= 1: even)
//    value an integer)
// Events on a representation are the same threshold / atom / support events as on the value
// (events.hpp): "lsb == 1", "grain >= j" (a multiple of 2^j), "mod2 == 0".
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

// Declared in the order columns are tried: on a tie the earlier one is reported (mod2 before grain: for an
// integer "grain == 0" is "mod2 == 1", and parity is the name a reader expects).
enum class Representation : std::uint8_t {
  value,
  lsb,
  low4,
  mantissa_zeros,
  binade_low4,
  binade_zeros,
  mod2,
  mod3,
  mod4,
  grain
};
// "value", "lsb", "low4", "mantissa_zeros", "grain", "binade_low4", "binade_zeros", "mod2", "mod3", "mod4".
const char* to_string(Representation r);
// The event family a representation belongs to (docs/privacy.md "Privacy audit"): value, bits (lsb, low4,
// binade_low4), grain (mantissa_zeros, grain, binade_zeros: lattice membership), parity (mod2, mod3, mod4).
const char* family_of(Representation r);
// The representation of v (NaN stays NaN, as do infinities).
double represent(Representation r, double v);
// The representations tried for a feature: integer-valued (mod2, mod3, mod4, grain) or real (lsb, low4,
// mantissa_zeros, grain, binade_low4, binade_zeros).
const std::vector<Representation>& representations_for(bool integer_valued);

// A column of the audit's matrices: a schema feature seen through a representation.
struct FeatureRef {
  std::size_t feature = 0;
  Representation rep = Representation::value;
  bool operator==(const FeatureRef&) const = default;
};

class FeatureSchema {
 public:
  // Adds the features of one run (release and diagnostics) not yet known, up to kMaxFeatures.
  void learn(const nlohmann::json& release, const nlohmann::json& diagnostics);
  std::size_t size() const { return names_.size(); }
  const std::string& name(std::size_t i) const { return names_[i]; }
  // The run's value of every feature (NaN where absent), into `out` (resized to size()).
  void extract(const nlohmann::json& release, const nlohmann::json& diagnostics, std::vector<double>& out) const;
  // Only the features `selected` (indices into the schema), in that order.
  void extract_selected(const nlohmann::json& release, const nlohmann::json& diagnostics,
                        const std::vector<std::size_t>& selected, std::vector<double>& out) const;
  // The columns `refs` (each feature through its representation), in that order.
  void extract_refs(const nlohmann::json& release, const nlohmann::json& diagnostics,
                    const std::vector<FeatureRef>& refs, std::vector<double>& out) const;
  // The same with the columns of each schema feature computed once (the main runs: one plan, every run
  // flattened in time linear in its leaves plus the columns).
  struct Plan {
    std::vector<FeatureRef> refs;
    std::unordered_map<std::size_t, std::vector<std::size_t>> columns_of;  // schema feature -> its columns
  };
  Plan plan(const std::vector<FeatureRef>& refs) const;
  void extract(const nlohmann::json& release, const nlohmann::json& diagnostics, const Plan& plan,
               std::vector<double>& out) const;
  // "diagnostics.threshold" for a value, "diagnostics.threshold~lsb" for a representation.
  std::string name(const FeatureRef& ref) const;

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::uint64_t, std::size_t> index_;
};

}  // namespace dpclust::audit
