// A cell's side-information record from the declarations; see side_information.hpp.
#include "core/side_information.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>

#include "core/method.hpp"
#include "core/params.hpp"

namespace dpclust {
using json = nlohmann::json;

const char* to_string(InputSource s) {
  switch (s) {
    case InputSource::public_value: return "public";
    case InputSource::rule: return "rule";
    case InputSource::private_estimate: return "private";
    case InputSource::data: return "data";
    case InputSource::none: return "none";
  }
  return "?";
}

json SideInputRecord::to_json() const {
  json j{{"input", input}, {"source", dpclust::to_string(source)}, {"how", how}};
  if (!value.is_null()) j["value"] = value;
  if (!params.empty()) j["params"] = params;
  return j;
}

namespace {

// Does the parameter's value equal the declared special value? Numbers compare numerically ("0" matches 0
// and 0.0), booleans as true/false, strings exactly.
bool matches(const ParamValue& v, const std::string& text) {
  if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v) == text;
  if (std::holds_alternative<bool>(v)) return (std::get<bool>(v) ? "true" : "false") == text;
  double x;
  if (std::holds_alternative<std::int64_t>(v)) x = static_cast<double>(std::get<std::int64_t>(v));
  else if (std::holds_alternative<double>(v)) x = std::get<double>(v);
  else return false;
  char* end = nullptr;
  const double want = std::strtod(text.c_str(), &end);
  return end && *end == '\0' && !text.empty() && x == want;
}

const SideValue* special(const ParamSpec& spec, const ParamValue& v) {
  for (const auto& sv : spec.side.values)
    if (matches(v, sv.value)) return &sv;
  return nullptr;
}

bool is_default(const ParamSpec& spec, const ParamValue& v) {
  return !spec.required() && dpclust::to_json(spec.default_value) == dpclust::to_json(v);
}

}  // namespace

std::vector<SideInputRecord> side_information(const MethodInfo& info, const ParamSet& params,
                                              const DatasetSideInputs& dataset) {
  std::map<std::string, SideInputRecord> by_input;  // sorted by input name: a stable record
  // Inputs declared on parameters: selectors first (they may say the input comes from elsewhere), then the
  // parameters whose value is the input.
  std::vector<std::string> inputs;
  for (const auto& spec : info.params)
    if (spec.side.declared() && std::find(inputs.begin(), inputs.end(), spec.side.input) == inputs.end())
      inputs.push_back(spec.side.input);
  for (const auto& input : inputs) {
    SideInputRecord r;
    r.input = input;
    bool decided = false;
    std::string selector_how;
    for (const auto& spec : info.params) {
      if (!spec.side.selector || spec.side.input != input || !params.has(spec.name)) continue;
      const SideValue* sv = special(spec, params.get(spec.name));
      if (!sv) continue;
      if (sv->source == InputSource::public_value) {  // public: the value parameter says which value
        selector_how = sv->how;
        continue;
      }
      // "Not used" by the selector, and by the value parameter's own special value too (dp_dbscan's Laplace noise
      // with delta 0): the value parameter's reason, the more specific, is the record.
      if (sv->source == InputSource::none &&
          std::any_of(info.params.begin(), info.params.end(), [&](const ParamSpec& v) {
            const SideValue* own = !v.side.selector && v.side.input == input && params.has(v.name)
                                       ? special(v, params.get(v.name))
                                       : nullptr;
            return own && own->source == InputSource::none;
          }))
        continue;
      r.source = sv->source;
      r.how = sv->how;
      r.params = {spec.name};
      decided = true;
      break;
    }
    if (!decided) {
      // The value parameters: the first that gives the input decides; when none does, the first says why not.
      std::optional<SideInputRecord> none_yet;
      for (const auto& spec : info.params) {
        if (spec.side.selector || spec.side.input != input || !params.has(spec.name)) continue;
        const ParamValue& v = params.get(spec.name);
        SideInputRecord c{input, InputSource::public_value, nullptr, "", {spec.name}};
        if (const SideValue* sv = special(spec, v)) {
          c.source = sv->source;
          c.how = sv->how;
        } else {
          c.value = dpclust::to_json(v);
          c.how = !selector_how.empty() ? selector_how
                  : is_default(spec, v) ? "the parameter's default"
                                        : "given in the config";
        }
        if (c.source == InputSource::none) {
          if (!none_yet) none_yet = std::move(c);
          continue;
        }
        r = std::move(c);
        decided = true;
        break;
      }
      if (!decided && none_yet) {
        r = std::move(*none_yet);
        decided = true;
      }
      if (!decided && !selector_how.empty()) {
        r.source = InputSource::public_value;
        r.how = selector_how;
        decided = true;
      }
    }
    if (decided) by_input[input] = std::move(r);
  }
  for (const auto& f : info.side_inputs)
    if (!by_input.count(f.input)) by_input[f.input] = SideInputRecord{f.input, f.source, nullptr, f.how, {}};
  if (info.needs_bounds && !by_input.count("bounds"))
    by_input["bounds"] = SideInputRecord{"bounds", dataset.bounds, nullptr, dataset.bounds_how, {}};
  if (dataset.scaled_on_data)
    by_input["scaling"] =
        SideInputRecord{"scaling",
                        InputSource::data,
                        nullptr,
                        dataset.scaling_how.empty()
                            ? "the data standardised with their own mean and standard deviation (scale: standard)"
                            : dataset.scaling_how,
                        {}};
  // Parameters the config says were chosen by looking at the data: their input is the data's, whatever the
  // parameter's declaration says of its value.
  for (const auto& [param, how] : dataset.tuned_on_data) {
    if (!params.has(param)) continue;
    std::string input = param;
    for (const auto& spec : info.params)
      if (spec.name == param && spec.side.declared()) input = spec.side.input;
    SideInputRecord r{
        input, InputSource::data, dpclust::to_json(params.get(param)), "tuned on the data: " + how, {param}};
    by_input[input] = std::move(r);
  }
  std::vector<SideInputRecord> out;
  for (auto& [_, r] : by_input) out.push_back(std::move(r));
  return out;
}

json side_information_json(const std::vector<SideInputRecord>& records) {
  json a = json::array();
  for (const auto& r : records) a.push_back(r.to_json());
  return a;
}

json tuning_record(const std::vector<SideInputRecord>& records) {
  std::vector<std::string> reasons;
  for (const auto& r : records)
    if (r.source == InputSource::data) reasons.push_back(r.input + ": " + r.how);
  json j{{"oracle", !reasons.empty()}, {"search", "none"}};
  j["parameters_from"] =
      reasons.empty()
          ? "public information only (public inputs, defaults, rules and private estimates charged in the ledger)"
          : "the private data (oracle-tuned): see reasons";
  if (!reasons.empty()) j["reasons"] = reasons;
  return j;
}

}  // namespace dpclust
