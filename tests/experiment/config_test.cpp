// Config validation: every error names the file, the line and the key path, and says how to fix it;
// nothing runs before the whole config is valid.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/error.hpp"
#include "test_support.hpp"

using namespace dpclust;

namespace {

// Parses `text` as config "t.yaml" and expands its grid; returns the error message ("" if valid).
std::string error_of(const std::string& text, const std::filesystem::path& data_root = "/nonexistent-data-root") {
  try {
    ExperimentConfig cfg = parse_config(text, "t.yaml", std::filesystem::temp_directory_path(), data_root);
    expand_grid(cfg);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kGood =
    "experiment: ok\n"
    "datasets:\n"
    "  - name: m\n"
    "    generator: {type: moons, n_samples: 100, noise: 0.05, seed: 1}\n"
    "    params: {alpha: 0.2, min_pts: 5}\n"
    "methods:\n"
    "  - method: dbscan\n";

}  // namespace

TEST(Config, MinimalConfigIsValid) { EXPECT_EQ(error_of(kGood), ""); }

TEST(Config, UnknownTopLevelKeySuggestsClosest) {
  std::string msg = error_of(kGood + "trails: 3\n");
  EXPECT_NE(msg.find("t.yaml:8:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown key 'trails'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'trials'"), std::string::npos) << msg;
}

TEST(Config, UnknownMethodSuggestsClosest) {
  std::string msg =
      error_of("experiment: x\ndatasets: [{name: m, generator: {type: moons}}]\nmethods:\n  - method: dbscna\n");
  EXPECT_NE(msg.find("t.yaml:4:13 methods[0].method"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'dbscan'"), std::string::npos) << msg;
}

TEST(Config, UnknownMethodParameterSuggestsClosest) {
  std::string msg = error_of(kGood + "    params: {minpts: 4}\n");
  EXPECT_NE(msg.find("methods[0].params.minpts"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'min_pts'"), std::string::npos) << msg;
}

TEST(Config, WrongTypeIsRejected) {
  std::string msg = error_of(kGood + "trials: many\n");
  EXPECT_NE(msg.find("t.yaml:8:9 trials"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected an integer, got 'many'"), std::string::npos) << msg;
}

TEST(Config, ZeroTrialsIsRejected) {
  std::string msg = error_of(kGood + "trials: 0\n");
  EXPECT_NE(msg.find("trials must be >= 1"), std::string::npos) << msg;
}

TEST(Config, ImpossibleParameterValuesAreRejected) {
  std::string text = kGood;
  text.replace(text.find("min_pts: 5"), 10, "min_pts: -3");
  std::string msg = error_of(text);
  EXPECT_NE(msg.find("t.yaml:5:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("datasets[0].params.min_pts"), std::string::npos) << msg;
  EXPECT_NE(msg.find("must be an integer >= 1, got -3"), std::string::npos) << msg;

  text = kGood;
  text.replace(text.find("alpha: 0.2"), 10, "alpha: 0");
  msg = error_of(text);
  EXPECT_NE(msg.find("'alpha' must be a real number > 0, got 0"), std::string::npos) << msg;
}

TEST(Config, EmptyListIsRejected) {
  std::string text = kGood;
  text.replace(text.find("alpha: 0.2"), 10, "alpha: []");
  std::string msg = error_of(text);
  EXPECT_NE(msg.find("empty list for 'alpha'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("give at least one value"), std::string::npos) << msg;
}

TEST(Config, NegativeSampleSizeIsRejected) {
  std::string text = kGood;
  text.insert(text.find("    params"), "    sample: -5\n");
  std::string msg = error_of(text);
  EXPECT_NE(msg.find("datasets[0].sample"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sample must be a positive number"), std::string::npos) << msg;
}

TEST(Config, MissingRequiredParameterNamesWhereToSetIt) {
  // Every missing parameter of a method entry in one message, with where to set them.
  std::string msg = error_of("experiment: x\ndatasets: [{name: m, generator: {type: moons}}]\nmethods: [dbscan]\n");
  EXPECT_NE(msg.find("needs parameters 'alpha', 'min_pts' for dataset 'm'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("in a dataset's params"), std::string::npos) << msg;
  // Several entries missing parameters: all at once, numbered.
  msg = error_of("experiment: x\ndatasets: [{name: m, generator: {type: moons}}]\nmethods: [dbscan, wavecluster]\n");
  EXPECT_NE(msg.find("2 problems:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'dbscan' needs parameters 'alpha', 'min_pts'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'wavecluster' needs parameters 'g', 'p'"), std::string::npos) << msg;
}

TEST(Config, SameParameterAtTwoLevelsIsAnError) {
  std::string msg = error_of(kGood + "    params: {alpha: 0.3}\n");
  EXPECT_NE(msg.find("is also set at t.yaml:5"), std::string::npos) << msg;
}

TEST(Config, ParameterOfNoListedMethodIsAnError) {
  std::string msg = error_of(kGood + "params: {epsilonn: 1}\n");
  EXPECT_NE(msg.find("'epsilonn' (experiment params) is not a parameter of any listed method"), std::string::npos)
      << msg;
}

TEST(Config, MalformedYamlNamesTheLine) {
  std::string msg = error_of("experiment: x\ndatasets:\n  - name: [unclosed\nmethods: [dbscan]\n");
  EXPECT_NE(msg.find("t.yaml:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("malformed YAML"), std::string::npos) << msg;
}

TEST(Config, BoundsMustBeOrderedPairs) {
  std::string text = kGood;
  text.insert(text.find("    params"), "    bounds: [[1, 0], [0, 1]]\n");
  std::string msg = error_of(text);
  EXPECT_NE(msg.find("datasets[0].bounds[0]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("lo >= hi"), std::string::npos) << msg;
}

TEST(Config, UnknownRegisteredDatasetSuggestsClosest) {
  std::string msg = error_of("experiment: x\ndatasets: [{name: cluto-t44}]\nmethods: [dbscan]\n");
  EXPECT_NE(msg.find("'cluto-t44' is not a registered dataset"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'cluto-t4'"), std::string::npos) << msg;
}

TEST(Config, UnknownGeneratorParameterIsRejected) {
  std::string text = kGood;
  text.replace(text.find("noise: 0.05"), 11, "nosie: 0.05");
  std::string msg = error_of(text);
  EXPECT_NE(msg.find("datasets[0].generator.nosie"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'noise'"), std::string::npos) << msg;
}

TEST(Config, GeneratorParametersThatDisagreeAreRefusedWhenTheConfigIsRead) {
  // Uniform with low >= high passed `validate` and exited 1 in `run`
  // (std::invalid_argument); the other generators' boxes and list lengths the same way (or silently).
  // Each is now an InputError at the key's line, with the fix, before anything runs.
  struct Case {
    std::string generator, key, says;
  };
  for (const Case& c : std::vector<Case>{
           {"{type: uniform, low: 1, high: 1}", "datasets[0].generator.high", "low must be below high"},
           {"{type: uniform, low: 2, high: 1}", "datasets[0].generator.high", "low must be below high"},
           {"{type: uniform, low: -1e308, high: 1e308}", "datasets[0].generator.high", "wider than the largest double"},
           {"{type: blobs, center_box_lo: 5, center_box_hi: 1}", "datasets[0].generator.center_box_hi",
            "center_box_lo must be at most"},
           {"{type: blobs, n_features: 2, center_list: {values: [1, 2, 3]}}", "datasets[0].generator.center_list",
            "not a multiple"},
           {"{type: blobs, centers: 3, cluster_std: {values: [1, 2]}}", "datasets[0].generator.cluster_std",
            "2 values for 3 centres"},
           {"{type: gaussian_mixture, box_lo: 5, box_hi: 1}", "datasets[0].generator.box_hi",
            "box_lo must be at most box_hi"}}) {
    SCOPED_TRACE(c.generator);
    const std::string msg = error_of("experiment: x\ndatasets: [{name: g, generator: " + c.generator +
                                     ", params: {k: 2}}]\nmethods: [kmeans]\n");
    EXPECT_NE(msg.find("t.yaml:2:"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.key), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.says), std::string::npos) << msg;
    EXPECT_NE(msg.find("fix:"), std::string::npos) << msg;
  }
  // What agrees still passes: a point-sized centre box, whole centres with one sd each.
  EXPECT_EQ(error_of("experiment: x\ndatasets: [{name: g, generator: {type: blobs, center_box_lo: 3, center_box_hi: "
                     "3}, params: {k: 2}}]\n"
                     "methods: [kmeans]\n"),
            "");
  EXPECT_EQ(
      error_of("experiment: x\ndatasets: [{name: g, generator: {type: blobs, center_list: {values: [0, 0, 5, 5]}, "
               "cluster_std: {values: [1, 2]}}, params: {k: 2}}]\nmethods: [kmeans]\n"),
      "");
}

TEST(Config, ZipNeedsEqualLengths) {
  std::string text =
      "experiment: x\ndatasets: [{name: m, generator: {type: moons}}]\nmethods:\n"
      "  - method: dbscan\n    params: {alpha: [0.1, 0.2], min_pts: [3, 4, 5]}\n    zip: [[alpha, min_pts]]\n";
  std::string msg = error_of(text);
  EXPECT_NE(msg.find("zip group lists have different lengths"), std::string::npos) << msg;
}

TEST(Config, DuplicateSeriesNamesAreRejected) {
  std::string msg = error_of(kGood + "  - method: dbscan\n");
  EXPECT_NE(msg.find("two methods are both called 'dbscan'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("as: <name>"), std::string::npos) << msg;
}

TEST(Config, EmptyConfigIsRejected) { EXPECT_NE(error_of("").find("the config is empty"), std::string::npos); }

TEST(Config, ErrorsInOverridesOfARegisteredDatasetPointAtTheConfig) {
  // The entry merges the registry's cluto-t4 with the config's keys: a typo in the config's part
  // must be reported in the config, not in datasets/registry.yaml.
  std::string msg = error_of(
      "experiment: x\ndatasets:\n  - name: cluto-t4\n    params: {alpha: 9.0, minpts: 11}\nmethods: [dbscan]\n");
  EXPECT_NE(msg.find("t.yaml:4:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("datasets[0].params.minpts"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("registry.yaml"), std::string::npos) << msg;
  msg = error_of(
      "experiment: x\ndatasets:\n  - name: cluto-t4\n    bounds: [[1, 0], [0, 1]]\n    params: {k: 6}\nmethods: "
      "[kmeans]\n");
  EXPECT_NE(msg.find("t.yaml:4:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("datasets[0].bounds[0]"), std::string::npos) << msg;
}

TEST(Config, ListedMetricMustApplyToSomeListedMethod) {
  // n_clusters applies to every method, so a config listing it is fine; the catalog's method-specific
  // metrics (if any) are checked the same way by MetricInfo::applies_to.
  EXPECT_EQ(error_of(kGood + "metrics: [n_clusters]\n"), "");
  std::string msg = error_of(kGood + "metrics: [n_clusterz]\n");
  EXPECT_NE(msg.find("did you mean 'n_clusters'"), std::string::npos) << msg;
}
