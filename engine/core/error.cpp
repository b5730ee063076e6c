#include "core/error.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace dpclust {

static std::string compose(const std::string& where, const std::string& what, const std::string& fix) {
  std::string msg = where.empty() ? what : where + ": " + what;
  if (!fix.empty()) msg += "\n  fix: " + fix;
  return msg;
}

InputError::InputError(std::string where, const std::string& what, std::string fix)
    : std::runtime_error(compose(where, what, fix)), where_(std::move(where)), problem_(what), fix_(std::move(fix)) {}

namespace {
std::string numbered(const std::vector<InputError>& ps) {
  std::string msg = std::to_string(ps.size()) + " problems:";
  for (std::size_t i = 0; i < ps.size(); ++i) {
    msg += '\n';
    msg += std::to_string(i + 1);
    msg += ". ";
    // Continuation lines (the fix) indented under the number.
    for (char c : std::string_view(ps[i].what())) {
      msg.push_back(c);
      if (c == '\n') msg.append("   ");
    }
  }
  return msg;
}
}  // namespace

InputErrors::InputErrors(std::vector<InputError> problems)
    : InputError("", numbered(problems), ""), problems_(std::move(problems)) {}

void ProblemList::add(const InputError& e) {
  // The same problem reported by several cells (one per epsilon of a sweep) is said once.
  for (const auto& p : problems_)
    if (p.where() == e.where() && p.problem() == e.problem()) return;
  problems_.push_back(e);
}

void ProblemList::throw_if_any() const {
  if (problems_.empty()) return;
  if (problems_.size() == 1) throw problems_.front();
  throw InputErrors(problems_);
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace dpclust
