#include "datasources/run_derivation.hpp"

#include "core/error.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

namespace {

using Inputs = std::vector<fs::path>;

const fs::path& single_input(const DatasetSource& s, const Inputs& inputs) {
  if (inputs.size() != 1)
    throw InputError(s.where, "derivation '" + s.derivation + "' takes one input, got " + std::to_string(inputs.size()));
  return inputs[0];
}

struct Derivation {
  const char* name;
  DerivationReport (*run)(const DatasetSource& source, const Inputs& inputs, const fs::path& out);
};

const Derivation kDerivations[] = {
    {"cabs_positions", [](const DatasetSource&, const Inputs& in, const fs::path& out) { return derive_cabs_positions(in, out); }},
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
    {"sklearn_iris",
     [](const DatasetSource& s, const Inputs& in, const fs::path& out) { return derive_sklearn_iris(single_input(s, in), out); }},
    {"gunzip",
     [](const DatasetSource& s, const Inputs& in, const fs::path& out) { return derive_gunzip(single_input(s, in), out, s.bytes); }},
    {"concat_csv", [](const DatasetSource&, const Inputs& in, const fs::path& out) { return derive_concat_csv(in, out); }},
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
