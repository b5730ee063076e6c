#include "run/release_flags.hpp"

#include <algorithm>
#include <array>

namespace dpclust {

const char* const kLabelsEvaluationOnlyNote =
    "point labels are extracted for evaluation only; they are not part of the private release";
const char* const kSeededNotSecureReason =
    "randomness: seeded: the trial's seed and generator (mt19937_64, not a cryptographic generator) are recorded with "
    "the release, so anyone holding this file can regenerate the noise and subtract it; reproducible, but not a secure "
    "release (use randomness: secure)";

const char* generator_name(Randomness mode) {
  return mode == Randomness::secure ? "chacha20 keyed by getrandom (OS CSPRNG)" : "mt19937_64";
}

bool secure_sampler_mechanism(std::string_view mechanism) {
  // Exactly the names engine/privacy records for its exact samplers (mechanism.cpp, exponential.cpp,
  // ndlaplace/mechanism.cpp). An allow-list: a new or renamed mechanism is not secure until listed.
  static constexpr std::array<std::string_view, 6> kSecure = {"discrete_laplace",
                                                              "discrete_gaussian",
                                                              "snapping_laplace",
                                                              "exponential_exact",
                                                              "planar_laplace (grid, exact)",
                                                              "nd_laplace (grid, exact)"};
  return std::find(kSecure.begin(), kSecure.end(), mechanism) != kSecure.end();
}

bool ledger_uses_secure_samplers(const BudgetLedger& ledger) {
  // A joint account's own entry draws nothing (its steps, each checked here, draw the noise).
  return std::all_of(ledger.entries().begin(), ledger.entries().end(),
                     [](const BudgetEntry& e) { return e.joint_total || secure_sampler_mechanism(e.mechanism); });
}

bool is_private_release(bool differentially_private, Randomness mode, const BudgetLedger& ledger,
                        const std::vector<std::string>& notes) {
  return differentially_private && ledger.is_private() && mode == Randomness::secure &&
         ledger_uses_secure_samplers(ledger) && notes.empty();
}

nlohmann::json randomness_record(Randomness mode) {
  if (mode == Randomness::secure)
    return {{"mode", "secure"}, {"generator", generator_name(mode)}, {"reproducible", false}};
  return {{"mode", "seeded"},
          {"generator", generator_name(mode)},
          {"secure_release", false},
          {"why", kSeededNotSecureReason}};
}

}  // namespace dpclust
