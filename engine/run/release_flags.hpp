#pragma once
// When is a result a private release? (docs/results.md "Seeds and
// randomness".) One rule, used by `dpclust run` (per trial and per cell) and by the Python estimators:
//
//   private_release = the method is differentially private
//                     AND the trial drew its noise from the OS CSPRNG (randomness: secure)
//                     AND every ledger entry used a floating-point-safe sampler (kSecureMechanisms)
//                     AND no non_private note applies (the data's, the method's, the trial's).
//
// What a result computes for evaluation only (the point labels of a method whose release is centroids,
// spans or a threshold; exact statistics of the true data) is not released: it is listed under
// `evaluation_only` and changes nothing above.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/ledger.hpp"
#include "core/rng.hpp"

namespace dpclust {

// The evaluation_only note of a private method whose labels are not part of its release.
extern const char* const kLabelsEvaluationOnlyNote;
// Why a seeded trial is not a secure release (written in its `randomness` record).
extern const char* const kSeededNotSecureReason;
// The generator a mode draws from, as results name it.
const char* generator_name(Randomness mode);

// The ledger mechanisms whose noise is sampled exactly (integer arithmetic, snapping, the exact
// exponential mechanism, the grid n-d Laplace): engine/privacy records these names. Anything else
// (textbook samplers on doubles, diffprivlib's floating-point samplers, the continuous exponential
// mechanism, "unspecified" entries, a Python mechanism's own noise) is not floating-point safe.
bool secure_sampler_mechanism(std::string_view mechanism);
// True when every entry of the ledger is a secure sampler (an empty ledger: true); a joint account's own
// entry (BudgetEntry::joint_total) draws no noise and is skipped, its steps are checked.
bool ledger_uses_secure_samplers(const BudgetLedger& ledger);

// The rule above. `notes`: every non_private note that applies to the result.
bool is_private_release(bool differentially_private, Randomness mode, const BudgetLedger& ledger,
                        const std::vector<std::string>& notes);

// A result's `randomness` record: seeded {"mode", "generator", "secure_release": false, "why"} (each
// trial records its own `seed` beside it); secure {"mode", "generator", "reproducible": false}.
nlohmann::json randomness_record(Randomness mode);

}  // namespace dpclust
