#include "core/ledger.hpp"

#include <cmath>
#include <stdexcept>

namespace dpclust {

BudgetLedger::BudgetLedger(double epsilon_total, double delta_total)
    : private_(true), epsilon_total_(epsilon_total), delta_total_(delta_total) {
  if (!(epsilon_total > 0) || !std::isfinite(epsilon_total))
    throw std::logic_error("BudgetLedger: total epsilon must be positive and finite");
  if (!(delta_total >= 0 && delta_total < 1)) throw std::logic_error("BudgetLedger: delta must be in [0, 1)");
}

void BudgetLedger::spend(std::string step, double epsilon, std::string note, double delta) {
  if (!private_) throw std::logic_error("BudgetLedger: a non-private method tried to spend budget on '" + step + "'");
  if (!(epsilon >= 0) || !(delta >= 0)) throw std::logic_error("BudgetLedger: negative spend on '" + step + "'");
  entries_.push_back({std::move(step), epsilon, delta, std::move(note)});
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
  if (!close(spent_epsilon(), epsilon_total_) || !close(spent_delta(), delta_total_))
    throw std::logic_error("BudgetLedger: spent (eps=" + std::to_string(spent_epsilon()) + ", delta=" +
                           std::to_string(spent_delta()) + ") differs from the configured total (eps=" +
                           std::to_string(epsilon_total_) + ", delta=" + std::to_string(delta_total_) + ")");
}

nlohmann::json BudgetLedger::to_json() const {
  nlohmann::json j;
  j["private"] = private_;
  if (!private_) return j;
  j["epsilon_total"] = epsilon_total_;
  if (delta_total_ > 0) j["delta_total"] = delta_total_;
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& e : entries_) {
    nlohmann::json s{{"step", e.step}, {"epsilon", e.epsilon}};
    if (e.delta > 0) s["delta"] = e.delta;
    if (!e.note.empty()) s["note"] = e.note;
    steps.push_back(std::move(s));
  }
  j["steps"] = std::move(steps);
  return j;
}

}  // namespace dpclust
