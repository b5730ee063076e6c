#include "core/ledger.hpp"

#include <cmath>
#include <stdexcept>

namespace dpclust {

const char* to_string(NeighbourRelation r) {
  switch (r) {
    case NeighbourRelation::add_remove: return "add_remove";
    case NeighbourRelation::replace_one: return "replace_one";
  }
  return "?";
}

const char* to_string(PrivacyMeasure m) {
  switch (m) {
    case PrivacyMeasure::pure: return "pure";
    case PrivacyMeasure::approximate: return "approximate";
    case PrivacyMeasure::local: return "local";
  }
  return "?";
}

BudgetLedger::BudgetLedger(double epsilon_total, double delta_total, NeighbourRelation relation)
    : BudgetLedger(epsilon_total, delta_total, relation,
                   delta_total > 0 ? PrivacyMeasure::approximate : PrivacyMeasure::pure) {}

BudgetLedger::BudgetLedger(double epsilon_total, double delta_total, NeighbourRelation relation, PrivacyMeasure measure)
    : private_(true), epsilon_total_(epsilon_total), delta_total_(delta_total), relation_(relation), measure_(measure) {
  if (!(epsilon_total > 0) || !std::isfinite(epsilon_total))
    throw std::logic_error("BudgetLedger: total epsilon must be positive and finite");
  if (!(delta_total >= 0 && delta_total < 1)) throw std::logic_error("BudgetLedger: delta must be in [0, 1)");
  if (measure == PrivacyMeasure::pure && delta_total > 0)
    throw std::logic_error("BudgetLedger: a pure-DP ledger has delta 0");
}

BudgetLedger BudgetLedger::data_independent(NeighbourRelation relation) {
  BudgetLedger l;
  l.private_ = true;
  l.relation_ = relation;
  l.measure_ = PrivacyMeasure::pure;
  return l;  // epsilon_total_ 0: verify() then requires every entry to spend 0
}

void BudgetLedger::charge(BudgetEntry e) {
  if (!private_) throw std::logic_error("BudgetLedger: a non-private method tried to spend budget on '" + e.step + "'");
  if (!(e.epsilon >= 0) || !(e.delta >= 0) || !std::isfinite(e.epsilon))
    throw std::logic_error("BudgetLedger: invalid spend on '" + e.step + "'");
  if (e.relation != relation_)
    throw std::logic_error("BudgetLedger: '" + e.step + "' is computed under the " + to_string(e.relation) +
                           " relation but this ledger composes " + to_string(relation_) + " entries");
  const bool entry_local = e.measure == PrivacyMeasure::local, ledger_local = measure_ == PrivacyMeasure::local;
  if (entry_local != ledger_local)
    throw std::logic_error("BudgetLedger: cannot compose the " + std::string(to_string(e.measure)) + " guarantee of '" +
                           e.step + "' with a " + to_string(measure_) + " ledger");
  if (measure_ == PrivacyMeasure::pure && (e.measure == PrivacyMeasure::approximate || e.delta > 0))
    throw std::logic_error("BudgetLedger: '" + e.step + "' is (eps, delta)-DP but the ledger is pure eps-DP");
  entries_.push_back(std::move(e));
}

void BudgetLedger::spend(std::string step, double epsilon, std::string note, double delta) {
  BudgetEntry e;
  e.step = std::move(step);
  e.epsilon = epsilon;
  e.delta = delta;
  e.note = std::move(note);
  e.relation = relation_;
  e.measure = measure_ == PrivacyMeasure::local ? PrivacyMeasure::local
                                                : (delta > 0 ? PrivacyMeasure::approximate : PrivacyMeasure::pure);
  charge(std::move(e));
}

void BudgetLedger::set_noise_scale(double factor) {
  if (!(factor >= 0) || !std::isfinite(factor))
    throw std::logic_error("BudgetLedger: the noise scale factor must be finite and >= 0");
  noise_scale_ = factor;
}

void BudgetLedger::declare_excess(double epsilon, std::string reason) {
  if (!private_) throw std::logic_error("BudgetLedger: a non-private ledger cannot declare an excess");
  if (!(epsilon >= 0) || !std::isfinite(epsilon)) throw std::logic_error("BudgetLedger: invalid excess epsilon");
  if (reason.empty()) throw std::logic_error("BudgetLedger: an excess needs its reason");
  excess_epsilon_ += epsilon;
  excess_reasons_.push_back(std::move(reason));
}

void BudgetLedger::charge_excess(std::string step, double epsilon, std::string reason) {
  declare_excess(epsilon, reason);
  BudgetEntry e;
  e.step = std::move(step);
  e.epsilon = epsilon;
  e.note = std::move(reason);
  e.mechanism = "declared excess";
  e.sensitivity_norm = "none";
  e.relation = relation_;
  e.measure = measure_;
  charge(std::move(e));
}

void BudgetLedger::declare_unbounded(std::string reason) {
  if (!private_) throw std::logic_error("BudgetLedger: a non-private ledger cannot be declared unbounded");
  if (reason.empty()) throw std::logic_error("BudgetLedger: an unbounded ledger needs its reason");
  unbounded_reasons_.push_back(std::move(reason));
}

void BudgetLedger::declare_data_derived(std::string reason) {
  declare_unbounded(reason);
  data_derived_reasons_.push_back(std::move(reason));
}

void BudgetLedger::set_local_distance(double distance) {
  if (measure_ != PrivacyMeasure::local)
    throw std::logic_error("BudgetLedger: only a local ledger has a distance unit");
  if (!(distance > 0) || !std::isfinite(distance))
    throw std::logic_error("BudgetLedger: the local distance must be positive and finite");
  local_distance_ = distance;
}

double BudgetLedger::spent_epsilon() const {
  double s = 0;
  for (const auto& e : entries_) s += e.epsilon;
  return s;
}

double BudgetLedger::spent_delta() const {
  double s = 0;
  for (const auto& e : entries_) s += e.delta;
  return s;
}

static bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); }

void BudgetLedger::verify() const {
  if (!private_) {
    if (!entries_.empty()) throw std::logic_error("BudgetLedger: non-private ledger has entries");
    return;
  }
  for (const auto& e : entries_) {
    if (e.joint_total && e.joint.empty())
      throw std::logic_error("BudgetLedger: the joint account '" + e.step + "' has no name");
    if (e.joint.empty() || e.joint_total) continue;
    if (e.epsilon != 0 || e.delta != 0)
      throw std::logic_error("BudgetLedger: '" + e.step + "' is a step of the joint account '" + e.joint +
                             "', which records its cost; the step itself must record 0");
    std::size_t accounts = 0;
    for (const auto& a : entries_) accounts += a.joint_total && a.joint == e.joint;
    if (accounts != 1)
      throw std::logic_error("BudgetLedger: '" + e.step + "' names the joint account '" + e.joint + "', recorded " +
                             std::to_string(accounts) + " times (needs exactly once)");
  }
  const double eps_expected = epsilon_total_ + excess_epsilon_;
  if (!close(spent_epsilon(), eps_expected) || !close(spent_delta(), delta_total_))
    throw std::logic_error(
        "BudgetLedger: spent (eps=" + std::to_string(spent_epsilon()) + ", delta=" + std::to_string(spent_delta()) +
        ") differs from the configured total (eps=" + std::to_string(epsilon_total_) +
        (excess_epsilon_ > 0 ? " + declared excess " + std::to_string(excess_epsilon_) : std::string()) +
        ", delta=" + std::to_string(delta_total_) + ")");
}

nlohmann::json BudgetLedger::to_json() const {
  nlohmann::json j;
  j["private"] = private_;
  if (!private_) return j;
  j["epsilon_total"] = epsilon_total_;
  if (delta_total_ > 0) j["delta_total"] = delta_total_;
  j["relation"] = to_string(relation_);
  j["measure"] = to_string(measure_);
  if (noise_scale_ != 1.0) j["noise_scale"] = noise_scale_;
  if (!excess_reasons_.empty()) {
    j["epsilon_excess"] = excess_epsilon_;  // spent = epsilon_total + epsilon_excess: not the configured guarantee
    j["excess_reasons"] = excess_reasons_;
  }
  if (!unbounded_reasons_.empty()) {
    j["unbounded"] = true;  // no finite epsilon bounds this trial, whatever its entries say
    j["unbounded_reasons"] = unbounded_reasons_;
  }
  if (!data_derived_reasons_.empty())
    j["data_derived"] = data_derived_reasons_;  // withheld from a release: see the header
  if (measure_ == PrivacyMeasure::local) {
    // The level epsilon holds at `distance`; what composes across fits is the rate per unit distance.
    j["distance"] = local_distance_;
    j["epsilon_per_unit_distance"] = (epsilon_total_ + excess_epsilon_) / local_distance_;
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& e : entries_) {
    nlohmann::json s{{"step", e.step}, {"epsilon", e.epsilon}};
    if (e.delta > 0) s["delta"] = e.delta;
    if (e.mechanism != "unspecified") {
      s["mechanism"] = e.mechanism;
      s["sensitivity"] = e.sensitivity;
      s["sensitivity_norm"] = e.sensitivity_norm;
    }
    if (e.measure != measure_) s["measure"] = to_string(e.measure);
    if (!e.joint.empty()) s["joint"] = e.joint;
    if (e.joint_total) s["joint_total"] = true;
    if (!e.note.empty()) s["note"] = e.note;
    steps.push_back(std::move(s));
  }
  j["steps"] = std::move(steps);
  return j;
}

}  // namespace dpclust
