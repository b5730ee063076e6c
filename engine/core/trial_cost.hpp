#pragma once
// What one trial of a method costs, estimated before any work from public inputs only: the cell's parameters and
// the dataset's shape (declared by the config, or once loaded), never the data. Each method says its own
// (MethodInfo::cost, set in its folder's register.cpp from the folder's cost.cpp, beside the algorithm it models);
// loading/cost_model.hpp adds the dataset and the metrics, sums the whole run, and turns the estimates into
// refusals, fixes and notes. Sizes are bytes (8-byte doubles), work counts basic operations.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/params.hpp"

namespace dpclust {

struct DataShape;  // core/method.hpp

struct TrialCost {
  double memory = 0;       // bytes of the method's structures (the dataset itself not included)
  double work = 0;         // basic operations of one trial
  double noise_draws = 0;  // d-dimensional noise samples of a rejection sampler, in units of kSecondsPerNoiseDraw
};

inline constexpr double kBytesPerDouble = 8;
// Seconds one textbook d-dimensional noise draw of a rejection sampler takes (measured on nD-Laplace's).
inline constexpr double kSecondsPerNoiseDraw = 9.5e-7;

// A parameter as a number (real or integer), or `fallback` when `params` does not hold it as one.
double number_or(const ParamSet& params, const char* name, double fallback);

// What a method's cost hooks read: the cell's parameters, the dataset's shape (n and d known: a hook is called
// only then) and the metrics the config names (empty: the metrics computed by default).
struct CostInputs {
  const ParamSet& params;
  const DataShape& shape;
  const std::vector<std::string>& metrics;
  double n() const;
  double d() const;
  // A parameter as a number (real or integer), or `fallback` when the cell does not hold it.
  double number(const char* name, double fallback) const;
  // A choice parameter's value, or `fallback` when the cell does not hold it.
  std::string choice(const char* name, const std::string& fallback) const;
  // Whether the trial computes `metric`: the config names it, or names none and the metric is computed by default.
  bool computes(const char* metric, bool by_default) const;
};

// A change of parameters that makes a trial smaller or faster, and the words a message offers it in.
struct ParamChange {
  std::vector<std::pair<std::string, ParamValue>> set;
  std::string offer;  // "storage: sparse", "eta: 8"
};

// What a method says of its own largest structures when a trial does not fit (every part optional).
struct CostAdvice {
  // Appended to a refusal over the memory limit: what dominates, e.g. " (dense storage of |X| = 4.2e+06 grid cells)".
  std::string memory_detail;
  // Changes for a trial over the memory limit: from each group, the first change that fits is offered.
  std::vector<std::vector<ParamChange>> memory_fixes;
  // The parameters that size the structures, offered when the refusal may show no number computed from the points
  // (their number is private to the method: core/method.hpp n_is_private).
  std::vector<std::string> private_memory_fixes;
  // Appended to a note on a slow trial, and the changes of which the first that brings it under the time is offered.
  std::string time_detail;
  std::vector<ParamChange> speedups;
};

// A problem of one trial besides its memory (a rejection sampler's time, its retries): the words after
// "method 'm' on dataset 'x' (n = .., d = ..): ", and the fix.
struct CostProblem {
  std::string problem;
  std::string fix;
};

// A method's cost hooks (MethodInfo::cost): `trial` for every built-in method, the others where the method has
// something to say.
struct CostHooks {
  std::function<TrialCost(const CostInputs&)> trial;
  std::function<CostAdvice(const CostInputs&)> advice;
  // A trial against the longest it may take (--max-trial-seconds).
  std::function<std::optional<CostProblem>(const CostInputs&, double max_trial_seconds)> limits;
};

// Numbers for cost messages: a count ("5000", "1.2e+07"), a value rounded up to two significant digits (a larger
// eta fits better), a duration ("3 min", "2.1 days").
std::string format_count(double x);
std::string round_up_2(double x);
std::string format_seconds(double seconds);
// The largest value in [lo, hi] for which fits(value) holds (fits monotone decreasing), or 0 when none.
std::uint64_t largest_fitting(std::uint64_t lo, std::uint64_t hi, const std::function<bool(std::uint64_t)>& fits);
// The same shape with only its first `d` columns (and their bounds).
DataShape first_columns(const DataShape& shape, std::size_t d);

}  // namespace dpclust
