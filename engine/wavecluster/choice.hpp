#pragma once
// A choice parameter declared once (STYLE.md, "a choice is an enum, declared once"): an enum E with one
// table of its names (ChoiceNames<E>, specialised next to the enum) drives both the ParamSpec (the
// allowed strings, the default) and the parsing of a validated value. A renamed or misspelt option then
// cannot silently fall back to a default: choice_of throws for a string that is not in the table.
//
// Used by the options that reproduce the DP WaveCluster authors' code (em_repeats_budget, ag_variant,
// ocm_matching, ocm_folds).
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/params.hpp"

namespace dpclust::wavecluster {

// Specialise with `static constexpr std::array<std::pair<E, std::string_view>, N> names{...};`
template <class E>
struct ChoiceNames;

template <class E>
std::string_view name_of(E e) {
  for (const auto& [v, s] : ChoiceNames<E>::names)
    if (v == e) return s;
  throw std::logic_error("choice: enum value without a name");
}

// The ParamSpec of a choice<E> parameter: allowed values = the table's names, default = name_of(def).
template <class E>
ParamSpec choice_spec(std::string name, E def, std::string description) {
  std::vector<std::string> names;
  for (const auto& entry : ChoiceNames<E>::names) names.emplace_back(entry.second);
  return choice_param(std::move(name), std::string(name_of(def)), std::move(names), std::move(description));
}

// The enum value of a validated parameter; throws std::logic_error for a name outside the table (a
// programming error: the value was validated against choice_spec's list).
template <class E>
E choice_of(const ParamSet& params, const std::string& name) {
  const std::string& s = params.string(name);
  for (const auto& [v, n] : ChoiceNames<E>::names)
    if (n == s) return v;
  throw std::logic_error("parameter '" + name + "': '" + s + "' is not one of its declared choices");
}

}  // namespace dpclust::wavecluster
