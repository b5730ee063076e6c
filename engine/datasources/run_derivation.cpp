#include "datasources/run_derivation.hpp"

#include "core/error.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

namespace {

using Inputs = std::vector<fs::path>;

const fs::path& single_input(const DatasetSource& s, const Inputs& inputs) {
  if (inputs.size() != 1)
    throw InputError(s.where,
                     "derivation '" + s.derivation + "' takes one input, got " + std::to_string(inputs.size()));
  return inputs[0];
}

// The source's `options: {columns: [...]}` (the registry reads every option as a string or a list of strings).
std::vector<std::string> column_names(const DatasetSource& s) {
  std::vector<std::string> names;
  const auto it = s.options.find("columns");
  if (it != s.options.end() && it->is_array())
    for (const auto& c : *it) names.push_back(c.get<std::string>());
  return names;
}

struct Derivation {
  const char* name;
  DerivationReport (*run)(const DatasetSource& source, const Inputs& inputs, const fs::path& out);
};

const Derivation kDerivations[] = {
    {"cabs_positions",
     [](const DatasetSource&, const Inputs& in, const fs::path& out) { return derive_cabs_positions(in, out); }},
    {"cabs_pickups_dropoffs",
     [](const DatasetSource&, const Inputs& in, const fs::path& out) { return derive_cabs_pickups_dropoffs(in, out); }},
    {"nyc_crash",
     [](const DatasetSource& s, const Inputs& in, const fs::path& out) {
       const int last = s.options.contains("last_crash_date")
                            ? parse_crash_cutoff(s.where, s.options["last_crash_date"].get<std::string>())
                            : 0;
       return derive_nyc_crash(single_input(s, in), out, last);
     }},
    {"har70", [](const DatasetSource&, const Inputs& in, const fs::path& out) { return derive_har70(in, out); }},
    {"sklearn_iris", [](const DatasetSource& s, const Inputs& in,
                        const fs::path& out) { return derive_sklearn_iris(single_input(s, in), out); }},
    {"sklearn_csv",
     [](const DatasetSource& s, const Inputs& in, const fs::path& out) {
       const std::vector<std::string> columns = column_names(s);
       if (columns.empty())
         throw InputError(s.where, "derivation 'sklearn_csv' needs options: {columns: [...]}, one name per feature");
       return derive_sklearn_csv(single_input(s, in), columns, out);
     }},
    {"whitespace_columns",
     [](const DatasetSource& s, const Inputs& in, const fs::path& out) {
       return derive_whitespace_columns(single_input(s, in), column_names(s), out);
     }},
    {"gunzip", [](const DatasetSource& s, const Inputs& in,
                  const fs::path& out) { return derive_gunzip(single_input(s, in), out, s.bytes); }},
    {"concat_csv",
     [](const DatasetSource&, const Inputs& in, const fs::path& out) { return derive_concat_csv(in, out); }},
};

}  // namespace

const std::vector<std::string>& derivation_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Derivation& d : kDerivations) out.emplace_back(d.name);
    return out;
  }();
  return names;
}

DerivationReport run_derivation(const DatasetSource& s, const Inputs& inputs, const fs::path& out) {
  for (const Derivation& d : kDerivations)
    if (s.derivation == d.name) return d.run(s, inputs, out);
  throw InputError(s.where, "unknown derivation '" + s.derivation + "'");
}

}  // namespace dpclust::datasources
