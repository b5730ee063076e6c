#pragma once
// Errors caused by the user's input (configs, data files, parameters). Each carries where the problem
// is (file:line, key path) and how to fix it, because the brief promises a message naming both.
#include <stdexcept>
#include <string>
#include <vector>

namespace dpclust {

class InputError : public std::runtime_error {
 public:
  // where: "configs/a.yaml:12:5 methods[0].params.min_pts" or "data.csv:57"; fix may be empty.
  InputError(std::string where, const std::string& what, std::string fix = "");
  const std::string& where() const noexcept { return where_; }
  const std::string& problem() const noexcept { return problem_; }
  const std::string& fix() const noexcept { return fix_; }

 private:
  std::string where_, problem_, fix_;
};

// Several input problems found in one pass (a config's problems all at once, not one per run).
// what() numbers them; problems() gives each for callers that act per problem (run --keep-going).
class InputErrors : public InputError {
 public:
  explicit InputErrors(std::vector<InputError> problems);
  const std::vector<InputError>& problems() const noexcept { return problems_; }

 private:
  std::vector<InputError> problems_;
};
// Collects InputErrors; throw_if_any() throws nothing (none), the one problem itself (one) or InputErrors.
class ProblemList {
 public:
  void add(const InputError& e);
  // Runs f; an InputError it throws (InputErrors: each of its problems) is added instead of propagating.
  template <class F>
  bool collect(F&& f) {
    try {
      f();
      return true;
    } catch (const InputErrors& e) {
      for (const auto& p : e.problems()) add(p);
    } catch (const InputError& e) {
      add(e);
    }
    return false;
  }
  bool empty() const { return problems_.empty(); }
  std::size_t size() const { return problems_.size(); }
  const std::vector<InputError>& problems() const { return problems_; }
  void throw_if_any() const;

 private:
  std::vector<InputError> problems_;
};

// Levenshtein distance, for "did you mean ...?" suggestions on misspelt keys and names.
std::size_t edit_distance(const std::string& a, const std::string& b);
// The candidate closest to `word` (empty when nothing is reasonably close).
template <class Range>
std::string closest_match(const std::string& word, const Range& candidates) {
  std::string best;
  std::size_t best_d = word.size() / 2 + 2;  // farther than this is not a plausible typo
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(word, std::string(c));
    if (d < best_d) {
      best_d = d;
      best = std::string(c);
    }
  }
  return best;
}

}  // namespace dpclust
