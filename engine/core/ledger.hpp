#pragma once
// The privacy budget ledger of one trial: every step of a mechanism that touches the data records
// what it spent. Sequential composition: the parts must add up to the configured total, and the
// runner checks that after every trial (BudgetLedger::verify), so a mechanism that forgets to
// account for a step fails loudly instead of silently over-spending.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dpclust {

struct BudgetEntry {
  std::string step;    // e.g. "noisy cell counts (Alg. 1 line 3)"
  double epsilon = 0;  // pure-DP part
  double delta = 0;    // approximate-DP part (0 for pure DP)
  std::string note;    // sensitivity, mechanism, ...
};

class BudgetLedger {
 public:
  // A ledger for a non-private method: it may not spend anything.
  BudgetLedger() = default;
  // A ledger for a mechanism configured with total budget (epsilon, delta).
  explicit BudgetLedger(double epsilon_total, double delta_total = 0.0);

  void spend(std::string step, double epsilon, std::string note = "", double delta = 0.0);

  bool is_private() const { return private_; }
  double total_epsilon() const { return epsilon_total_; }
  double total_delta() const { return delta_total_; }
  double spent_epsilon() const;
  double spent_delta() const;
  const std::vector<BudgetEntry>& entries() const { return entries_; }

  // Throws std::logic_error unless the entries add up to the totals (relative tolerance 1e-9).
  void verify() const;
  nlohmann::json to_json() const;

 private:
  bool private_ = false;
  double epsilon_total_ = 0, delta_total_ = 0;
  std::vector<BudgetEntry> entries_;
};

}  // namespace dpclust
