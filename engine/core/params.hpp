#pragma once
// Parameters of methods and datasets: one typed value per name, declared by a ParamSpec (type,
// default, allowed range, description with the paper's symbol). The experiment layer validates every
// value against its spec before any work starts; mechanisms read them with typed getters.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/side_information.hpp"

namespace dpclust {

// A per-dimension vector (e.g. grid sizes g = (40, 50)); written in YAML as {per_dim: [40, 50]}.
using RealVector = std::vector<double>;
using ParamValue = std::variant<std::monostate, std::int64_t, double, bool, std::string, RealVector>;

enum class ParamType { integer, real, boolean, string, real_vector };
const char* to_string(ParamType t);

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::real;
  ParamValue default_value;  // std::monostate: required, no default
  std::string description;   // what it is, with the paper's symbol, e.g. "privacy budget (epsilon)"
  std::optional<double> min, max;
  bool min_open = false, max_open = false;  // open interval ends, e.g. epsilon in (0, inf)
  std::vector<std::string> choices;         // allowed strings (type string)
  bool whole = false;                       // real / real_vector: whole numbers only (e.g. grid sizes g)
  // The input about the data this parameter gives the method (k, n, bounds, radius, ...) and what its special
  // values mean: each cell's side-information record is derived from it (core/side_information.hpp).
  SideInput side;

  bool required() const { return std::holds_alternative<std::monostate>(default_value); }
  // "" when v is acceptable, otherwise what is wrong with it.
  std::string check(const ParamValue& v) const;
  // Human description of the allowed values: "a real number in (0, 1)".
  std::string allowed() const;
  nlohmann::json to_json() const;
};

// Convenience builders for declaring specs compactly.
ParamSpec real_param(std::string name, std::optional<double> def, std::string description,
                     std::optional<double> min = std::nullopt, std::optional<double> max = std::nullopt,
                     bool min_open = false, bool max_open = false);
ParamSpec int_param(std::string name, std::optional<std::int64_t> def, std::string description,
                    std::optional<std::int64_t> min = std::nullopt, std::optional<std::int64_t> max = std::nullopt);
ParamSpec bool_param(std::string name, bool def, std::string description);
// A vector parameter written {values: [...]} (or a single number).
ParamSpec real_vector_param(std::string name, RealVector def, std::string description,
                            std::optional<double> min = std::nullopt, bool min_open = false);
// A real_vector parameter's value as a vector (a single number is a vector of one).
RealVector as_vector(const ParamValue& v);
ParamSpec choice_param(std::string name, std::string def, std::vector<std::string> choices, std::string description);
// Declares a parameter's side information (ParamSpec::side): `gives` for a parameter whose value is the input
// (k, delta, n_public; `values` its special values, e.g. {"0", InputSource::none, "no public n"}), `selects` for
// one that chooses where the input comes from (n_source, centre).
ParamSpec gives(ParamSpec spec, std::string input, std::vector<SideValue> values = {});
ParamSpec selects(ParamSpec spec, std::string input, std::vector<SideValue> values);

nlohmann::json to_json(const ParamValue& v);
std::string to_display(const ParamValue& v);

class ParamSet {
 public:
  void set(const std::string& name, ParamValue v) { values_[name] = std::move(v); }
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  const ParamValue& get(const std::string& name) const;

  // Typed getters; throw std::logic_error for a missing name or a wrong type (a programming error:
  // values were validated against their specs before the method ran). real() accepts integers.
  double real(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  bool boolean(const std::string& name) const;
  const std::string& string(const std::string& name) const;
  // A per-dimension vector of length d: a scalar is broadcast to all dimensions.
  RealVector per_dim(const std::string& name, std::size_t d) const;

  const std::map<std::string, ParamValue>& values() const { return values_; }
  nlohmann::json to_json() const;
  // Canonical text "name=value;..." in name order, values as JSON: stable across runs and
  // platforms, used in cell keys and seeds.
  std::string canonical() const;

 private:
  std::map<std::string, ParamValue> values_;
};

}  // namespace dpclust
