// `method: python` on the engine side (config/python_method.hpp), with a C++ stand-in for the Python
// backend: the declaration becomes ParamSpecs, the entry a catalog method the runner treats like a
// built-in one (ledger verified, fingerprint covering the definition), and without a backend (the
// `dpclust` binary) the entry is refused with the command that runs it. The real backend is tested by
// tests/python/test_dpclust.py.
#include <gtest/gtest.h>

#include <map>

#include "catalog/catalog.hpp"
#include "config/config.hpp"
#include "config/grid.hpp"
#include "config/python_method.hpp"
#include "core/side_information.hpp"
#include "privacy/mechanism.hpp"
#include "run/runner.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;

namespace {

// Spends `share` of its epsilon (1 = as declared), every point in cluster 0.
class Spender final : public Method {
 public:
  explicit Spender(double share) : share_(share) {}
  MethodResult run(const Dataset& data, const ParamSet& params, Rng&, BudgetLedger& ledger) const override {
    privacy::charge(ledger, "stand-in count", params.real("epsilon") * share_, "stand-in", 1.0, "l1");
    MethodResult r;
    r.labels.assign(data.n, 0);
    return r;
  }

 private:
  double share_;
};

std::string source_digest = "digest-1";
PythonCallable last_call;  // what the stand-in backend was last asked to build

void install_stand_in_backend() {
  set_python_method_backend(PythonMethodBackend{
      [](const std::string& callable, const fs::path&) {
        if (callable.find("missing") != std::string::npos)
          throw InputError("", "cannot use callable '" + callable + "': ModuleNotFoundError", "make it importable");
        return source_digest;
      },
      [](const PythonCallable& call) {
        last_call = call;
        return std::make_unique<Spender>(call.callable.find("half") != std::string::npos ? 0.5 : 1.0);
      }});
}

std::string config(const std::string& method_entry) {
  return "experiment: py\nseed: 3\ntrials: 2\ndatasets:\n  - name: moons\n    generator: {type: moons, n_samples: 60, "
         "seed: 1}\n"
         "    bounds: [[-2, 3], [-2, 3]]\nmethods:\n" +
         method_entry;
}

ExperimentConfig parse(const std::string& text) { return parse_config(text, "py.yaml", fs::current_path(), ""); }

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kEntry = R"(  - method: python
    callable: "mechs:grid"
    declare:
      width: {type: real, default: 0.5, min: 0, min_open: true, description: "cell side"}
      count: 3
      label: "abc"
      flag: true
      levels: {type: integer, min: 1}
    params: {epsilon: [0.5, 1.0], levels: 2}
)";

}  // namespace

// Runs first (gtest keeps the file's order; under ctest every test is its own process): no backend.
TEST(PythonMethod, WithoutABackendTheEntryNamesTheCommandThatRunsIt) {
  if (has_python_method_backend()) GTEST_SKIP() << "a backend is installed in this process";
  try {
    parse(config("  - {method: python, callable: \"mechs:grid\", params: {epsilon: 1.0}}\n"));
    FAIL() << "parsed without a backend";
  } catch (const PythonMethodUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("python3 -m dpclust run"), std::string::npos) << e.what();
    EXPECT_NE(e.where().find("py.yaml:"), std::string::npos) << e.where();
  }
}

TEST(PythonMethod, TheDeclarationBecomesParamSpecs) {
  install_stand_in_backend();
  const ExperimentConfig cfg = parse(config(kEntry));
  ASSERT_EQ(cfg.methods.size(), 1u);
  EXPECT_EQ(cfg.methods[0].method, "python:mechs:grid");
  EXPECT_EQ(cfg.methods[0].label, "grid");  // the function's name
  const MethodInfo& info = *find_method("python:mechs:grid");
  EXPECT_TRUE(info.differentially_private);
  EXPECT_TRUE(info.needs_bounds);
  std::vector<std::string> names;
  for (const auto& p : info.params) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"epsilon", "width", "count", "label", "flag", "levels"}));
  EXPECT_TRUE(info.params[0].required());  // epsilon declared for a private method
  EXPECT_EQ(info.params[1].type, ParamType::real);
  EXPECT_EQ(info.params[2].type, ParamType::integer);
  EXPECT_EQ(info.params[3].type, ParamType::string);
  EXPECT_EQ(info.params[4].type, ParamType::boolean);
  EXPECT_EQ(info.definition["source_sha256"], "digest-1");
  const std::vector<Cell> cells = expand_grid(cfg);
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].params.real("width"), 0.5);
  EXPECT_EQ(cells[1].params.integer("levels"), 2);
}

TEST(PythonMethod, BadDeclarationsAreRefusedWhereTheyAre) {
  install_stand_in_backend();
  auto entry = [](const std::string& declare) {
    return "  - method: python\n    callable: \"mechs:grid\"\n    declare:\n      " + declare +
           "\n    params: {epsilon: 1.0}\n";
  };
  EXPECT_NE(error_of(config(entry("w: {type: reel}"))).find("did you mean 'real'"), std::string::npos);
  EXPECT_NE(
      error_of(config(entry("w: {type: real, default: -1, min: 0}"))).find("'w' must be a real number >= 0, got -1"),
      std::string::npos);
  EXPECT_NE(error_of(config(entry("w: {type: real, choices: [a]}"))).find("choices apply to string parameters only"),
            std::string::npos);
  EXPECT_NE(error_of(config(entry("epsilon: {type: real, default: 1.0}"))).find("min > 0"), std::string::npos);
  EXPECT_NE(error_of(config(entry("bad-name: 1"))).find("not an identifier"), std::string::npos);
  EXPECT_NE(error_of(config("  - {method: python, callable: \"no_colon\", params: {epsilon: 1.0}}\n"))
                .find("is not \"module:function\""),
            std::string::npos);
  const std::string missing =
      error_of(config("  - {method: python, callable: \"missing:f\", params: {epsilon: 1.0}}\n"));
  EXPECT_NE(missing.find("py.yaml:"), std::string::npos) << missing;
  EXPECT_NE(missing.find("ModuleNotFoundError"), std::string::npos) << missing;
  EXPECT_NE(error_of(config("  - {method: python, callable: \"mechs:grid\", params: {epsilon: 1.0, widht: 2}}\n"))
                .find("widht"),
            std::string::npos);
}

TEST(PythonMethod, TheRunnerVerifiesItsLedgerAndTheFingerprintCoversItsSource) {
  install_stand_in_backend();
  const fs::path out = dpclust::testing::temp_dir("python_method");
  const std::string good =
      "  - {method: python, callable: \"mechs:good\", declare: {w: 1.0}, params: {epsilon: 0.5}}\n";
  RunOptions ro;
  ro.out_dir = out;
  ro.progress = false;
  const ExperimentConfig cfg = parse(config(good));
  const RunReport r = run_experiment(cfg, ro);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.trials_run, 2u);
  const std::string before = cell_fingerprint(cfg, expand_grid(cfg)[0]);
  source_digest = "digest-2";  // the mechanism's source changed: its cells are recomputed on resume
  const ExperimentConfig edited = parse(config(good));
  EXPECT_NE(cell_fingerprint(edited, expand_grid(edited)[0]), before);
  source_digest = "digest-1";

  const ExperimentConfig half =
      parse(config("  - {method: python, callable: \"mechs:half\", params: {epsilon: 0.5}}\n"));
  ro.out_dir = out / "half";
  try {
    run_experiment(half, ro);
    FAIL() << "a ledger spending half of epsilon was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("differs from the configured total (eps=0.500000"), std::string::npos)
        << e.what();
  }
}

TEST(PythonMethod, ParameterTypesAsUsersSpellThem) {
  install_stand_in_backend();
  const ExperimentConfig cfg = parse(config(R"(  - method: python
    callable: "mechs:spelled"
    declare:
      k: {type: int, min: 1}
      rate: {type: float, default: 0.5}
      scale: {type: number, default: 2}
      on: {type: bool, default: true}
      name: {type: str, default: "x"}
      how: {type: choice, choices: [a, b], default: a}
      g: {type: real_vector, default: 3}
    params: {epsilon: 1.0, k: 3}
)"));
  const MethodInfo& info = *find_method(cfg.methods[0].method);
  std::map<std::string, const ParamSpec*> by_name;
  for (const auto& p : info.params) by_name[p.name] = &p;
  EXPECT_EQ(by_name.at("k")->type, ParamType::integer);
  EXPECT_EQ(by_name.at("rate")->type, ParamType::real);
  EXPECT_EQ(by_name.at("scale")->type, ParamType::real);
  EXPECT_EQ(by_name.at("on")->type, ParamType::boolean);
  EXPECT_EQ(by_name.at("name")->type, ParamType::string);
  EXPECT_EQ(by_name.at("how")->type, ParamType::string);
  EXPECT_EQ(by_name.at("how")->choices, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(by_name.at("g")->type, ParamType::real_vector);
  auto entry = [](const std::string& declare) {
    return "  - method: python\n    callable: \"mechs:grid\"\n    declare:\n      " + declare +
           "\n    params: {epsilon: 1.0}\n";
  };
  EXPECT_NE(error_of(config(entry("w: {type: choice, default: a}"))).find("a choice parameter needs its choices"),
            std::string::npos);
  const std::string typo = error_of(config(entry("w: {type: integr}")));
  EXPECT_NE(typo.find("did you mean 'integer'"), std::string::npos) << typo;
  EXPECT_NE(typo.find("int"), std::string::npos) << typo;
  EXPECT_NE(error_of(config(entry("w: {type: choice, choices: [a, b], default: c}"))).find("'w' must be one of"),
            std::string::npos);
}

// The side information of a config's method is declared as a built-in method's is (ParamSpec::side and
// MethodInfo::side_inputs), so the comparison tells what it was given: a `k` it declares is the public k.
TEST(PythonMethod, SideInputsAreDeclaredAsTheBuiltInMethodsDeclareThem) {
  install_stand_in_backend();
  const ExperimentConfig cfg = parse(config(R"(  - method: python
    callable: "mechs:sides"
    side_inputs:
      radius: {source: rule, how: "the public box's half diagonal"}
      scale: private
    declare:
      k: {type: int, min: 1}
      delta: {type: real, default: 0.0, min: 0, max: 1, max_open: true}
      iterations: {type: int, default: 5, gives: none}
      n_public: {type: int, default: 0, min: 0, gives: {input: n, values: {0: {source: none, how: "no public n"}}}}
      n_source: {type: choice, choices: [public, noisy], default: noisy,
                 selects: {input: n, values: {noisy: {source: private, how: "a noisy count"}, public: public}}}
    params: {epsilon: 1.0, k: 4, n_source: [noisy, public], n_public: [0, 500]}
)"));
  const MethodInfo& info = *find_method(cfg.methods[0].method);
  const std::vector<Cell> cells = expand_grid(cfg);
  auto record = [&](const Cell& cell, const std::string& input) {
    for (const auto& r : side_information(info, cell.params, DatasetSideInputs{}))
      if (r.input == input) return r.to_json();
    return nlohmann::json();
  };
  ASSERT_EQ(cells.size(), 4u);
  for (const auto& cell : cells) {
    EXPECT_EQ(record(cell, "k")["source"], "public");
    EXPECT_EQ(record(cell, "k")["value"], 4);
    EXPECT_EQ(record(cell, "delta")["value"], 0.0);
    EXPECT_TRUE(record(cell, "iterations").is_null());  // gives: none
    EXPECT_EQ(record(cell, "radius")["source"], "rule");
    EXPECT_EQ(record(cell, "scale")["source"], "private");
    const bool noisy = cell.params.string("n_source") == "noisy";
    const bool public_n = cell.params.integer("n_public") > 0;
    EXPECT_EQ(record(cell, "n")["source"], noisy ? "private" : public_n ? "public" : "none") << cell.params.canonical();
  }
  auto entry = [](const std::string& declare) {
    return "  - method: python\n    callable: \"mechs:grid\"\n    declare:\n      " + declare +
           "\n    params: {epsilon: 1.0}\n";
  };
  EXPECT_NE(error_of(config(entry("w: {type: int, default: 0, gives: {input: n, values: {x: none}}}")))
                .find("is not a value of"),
            std::string::npos);
  EXPECT_NE(error_of(config(entry("w: {type: int, default: 0, gives: {input: n, values: {0: {source: secret}}}}")))
                .find("unknown source"),
            std::string::npos);
  EXPECT_NE(error_of(config(entry("w: {type: int, default: 0, selects: n}"))).find("selects needs"), std::string::npos);
  EXPECT_NE(error_of(config(entry("w: {type: int, default: 0, gives: 2k}"))).find("is not an identifier"),
            std::string::npos);
}

// An input the entry declares taken from the data flags the cells where it is (as built-in methods flag
// their data-derived choices); centres and the init function reach the backend, and the definition (the
// cells' fingerprint) covers them.
TEST(PythonMethod, DataInputsAreFlaggedAndCentresAndInitReachTheBackend) {
  install_stand_in_backend();
  const ExperimentConfig cfg = parse(config(R"(  - method: python
    callable: "mechs:from_data"
    init: "mechs:start"
    releases_centres: true
    declare:
      radius: {type: real, default: 0, min: 0, gives: {input: radius, values: {0: {source: data, how: "the largest norm"}}}}
    params: {epsilon: 1.0, radius: [0, 2.5]}
)"));
  const MethodInfo& info = *find_method(cfg.methods[0].method);
  EXPECT_TRUE(info.releases_centres);
  EXPECT_EQ(info.definition["init"]["callable"], "mechs:start");
  EXPECT_EQ(info.definition["releases_centres"], true);
  const std::vector<Cell> cells = expand_grid(cfg);
  ASSERT_EQ(cells.size(), 2u);
  Dataset data;
  data.name = "d";
  data.n = 3;
  data.d = 2;
  data.coords = {0, 0, 1, 1, 2, 2};
  for (const auto& cell : cells) {
    auto method = info.make();
    EXPECT_EQ(last_call.callable, "mechs:from_data");
    EXPECT_EQ(last_call.init, "mechs:start");
    EXPECT_TRUE(last_call.releases_centres);
    Rng rng(1);
    BudgetLedger ledger = trial_ledger(info, cell.params, 1.0);
    const MethodResult r = method->run(data, cell.params, rng, ledger);
    const bool from_data = cell.params.real("radius") == 0;
    ASSERT_EQ(r.non_private_notes.size(), from_data ? 1u : 0u) << cell.params.canonical();
    if (from_data) {
      EXPECT_NE(r.non_private_notes[0].find("radius taken from the data without privacy (the largest norm)"),
                std::string::npos);
    }
  }
  const std::string plain =
      "  - {method: python, callable: \"mechs:good\", declare: {w: 1.0}, params: {epsilon: 0.5}}\n";
  EXPECT_FALSE(find_method(parse(config(plain)).methods[0].method)->definition.contains("init"));
  EXPECT_NE(
      error_of(config("  - {method: python, callable: \"mechs:good\", init: \"nocolon\", params: {epsilon: 0.5}}\n"))
          .find("init 'nocolon' is not \"module:function\""),
      std::string::npos);
}
