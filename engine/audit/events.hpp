#pragma once
// Output events for the audit and their selection (DP-Sniper, Bichsel et al. 2021; StatDP, Ding et al.
// 2018, in the simple form of threshold sets): an event is a set of outputs defined by one feature --
//   ge   feature >= t          le   feature <= t
//   eq   feature == v (an atom: a value the mechanism outputs with positive probability)
//   missing  the feature is absent (e.g. a span that exists on one side only)
//   in   feature in S, S the values seen on one side's selection runs and never on the other's (a
//        support difference: thresholds or bit patterns one dataset can produce and its neighbour cannot)
// and a direction: which dataset is the numerator of the likelihood ratio.
//
// The protocol keeps the statistics honest: the features are screened on pilot runs, the event is chosen
// on the first half of the main runs, and only the second half -- runs the choice never saw -- gives the
// Clopper-Pearson counts and eps_lower. One event per pair is evaluated, so one confidence statement per
// pair.
#include <cstdint>
#include <string>
#include <vector>

#include "audit/features.hpp"

namespace dpclust::audit {

// Runs x features, row-major (run r's features at [r * features, (r + 1) * features)).
struct FeatureMatrix {
  std::size_t runs = 0, features = 0;
  std::vector<double> values;
  double at(std::size_t r, std::size_t f) const { return values[r * features + f]; }
};

// The features (indices) most likely to tell D from D' on the pilot runs: the `per_criterion` largest by
// each of (1) the standardized difference of the means, (2) the difference of the missing fractions,
// (3) the difference of the frequency of the most frequent value (atoms). Deterministic (ties: lower
// index). Features constant and equal on both sides are never selected.
std::vector<std::size_t> screen_features(const FeatureMatrix& d, const FeatureMatrix& d_prime,
                                         std::size_t per_criterion);

// Representation columns (features.hpp) worth testing. Each feature of the pilot matrices is integer-
// valued (every finite value on both sides an integer of magnitude <= 2^53) or real; each of its
// representations is scored by the largest two-proportion z statistic of an atom (rep == v) or an upper set
// (rep >= v) between the sides. Selected: (1) the `per_criterion` best columns with z >= 3 (below, the
// pilot shows nothing a representation event could use), and (2) every representation of the
// `per_criterion` real-valued features whose best z is largest, whatever it is: floating-point artefacts
// live in real outputs, and a pattern that occurs in a few runs per thousand on one side only (the
// continuous PrivTHR_EM threshold) is beyond the pilot's power to screen but not beyond the main runs'
// to bound. Deterministic (ties: lower feature, then representation); sorted by feature, then
// representation. Computed one column at a time: no representation matrix is built.
std::vector<FeatureRef> screen_representations(const FeatureMatrix& d, const FeatureMatrix& d_prime,
                                               std::size_t per_criterion);

enum class EventKind { ge, le, eq, missing, in_set };
const char* to_string(EventKind k);

struct Event {
  std::size_t feature = 0;  // column of the matrices it is evaluated on
  EventKind kind = EventKind::ge;
  double threshold = 0;
  bool numerator_is_d = true;  // eps_lower from P[E | D] / P[E | D'] (else the reverse)
  std::vector<double> values;  // in_set: S, sorted
  bool contains(double v) const;
};

// The event's family for docs/privacy.md's power table: "support" for an `in` event, else the family of
// the column's representation (features.hpp: value, bits, grain, parity).
std::string event_family(const Event& e, Representation rep);
// "diagnostics.threshold~lsb == 1", "release.x >= 0.5", "release.y missing", "release.z~binade_zeros in {3 values}".
std::string describe_event(const std::string& column, const Event& e);

struct EventCounts {
  std::uint64_t in_d = 0, runs_d = 0, in_d_prime = 0, runs_d_prime = 0;
};
// Counts of `e` on runs [from, to) of each matrix.
EventCounts count_event(const Event& e, const FeatureMatrix& d, const FeatureMatrix& d_prime, std::size_t from,
                        std::size_t to);

// The event with the largest eps_lower (at `confidence`, given delta) on runs [0, half) of both
// matrices, over every column, both directions, thresholds at 63 pooled quantiles and every atom
// (values with frequency >= 0.5% on either side, at most 16 per column), `missing`, and the support
// differences `in` (S from all runs [0, half); scored honestly by cross-fitting: S from the first quarter,
// counted on the second, so that a continuous feature, whose every value is new, scores nothing).
Event choose_event(const FeatureMatrix& d, const FeatureMatrix& d_prime, std::size_t half, double delta,
                   double confidence);

}  // namespace dpclust::audit
