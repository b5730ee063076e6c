// A choice parameter declared once: its names (the ParamSpec's choices) and its values come from one table of
// {name, kind}, and reading an unknown name is an error, never a silent default. Shared by every method that
// registers an enum-valued parameter; rows_json writes a released matrix (centres, coreset points) row by row.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/params.hpp"

namespace dpclust {

template <class E>
struct Named {
  const char* name;
  E kind;
};

// The names of a table, in its order (a ParamSpec's choices).
template <class E, std::size_t N>
std::vector<std::string> names_of(const Named<E> (&table)[N]) {
  std::vector<std::string> v;
  for (const auto& t : table) v.emplace_back(t.name);
  return v;
}

// The value the parameter `param` names; an unknown name is an InputError naming the parameter.
template <class E, std::size_t N>
E kind_of(const Named<E> (&table)[N], const ParamSet& p, const std::string& param) {
  const std::string s = p.string(param);
  for (const auto& t : table)
    if (s == t.name) return t.kind;
  throw InputError("params." + param, "unknown " + param + " '" + s + "'");
}

// A matrix as a JSON array of its rows.
template <class Matrix>
nlohmann::json rows_json(const Matrix& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace dpclust
