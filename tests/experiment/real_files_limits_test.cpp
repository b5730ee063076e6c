// Cells that cannot finish on a real file's shape are refused before the run with a fix that applies at
// that shape: nD-Laplace's exact sampler in many dimensions (its proposals grow like (2 d / (pi e))^(d/2)),
// resampling that needs more draws than max_retries (a larger radius adds noise: the fix says lower it),
// WaveCluster grids at g = 2 over too many columns (the most columns that fit, the shape said once), and
// Baseline's adaptive synopsis past 7 columns. A --keep-going run that cannot start a cell says why on
// stderr.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "config/config.hpp"
#include "config/grid.hpp"
#include "loading/cost_model.hpp"
#include "loading/dataset_loading.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {
namespace fs = std::filesystem;

bool mentions(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// `columns` features of blobs in [-20, 20] each, n points.
std::string blobs(std::size_t columns, std::size_t n) {
  std::string b = "datasets:\n  - {name: h, generator: {type: blobs, n_samples: " + std::to_string(n) +
                  ", n_features: " + std::to_string(columns) + ", seed: 1}, bounds: [";
  for (std::size_t i = 0; i < columns; ++i) b += std::string(i ? ", " : "") + "[-20, 20]";
  return b + "]}\n";
}

std::string plan_problems(const std::string& text, RunLimits limits = {}) {
  try {
    ExperimentConfig cfg =
        parse_config("experiment: t\n" + text, "x.yaml", fs::temp_directory_path(), "", limits.max_cells);
    check_run_cost(cfg, limits);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RealFileLimits, SecureNdLaplaceInSixtyColumnsIsRefusedWithTheColumnsThatFit) {
  const std::string msg =
      plan_problems(blobs(60, 208) + "methods:\n  - {method: nd_laplace, params: {epsilon: 1, truncation: remap}}\n");
  EXPECT_TRUE(mentions(msg, "d = 60")) << msg;
  EXPECT_TRUE(mentions(msg, "proposals a point in 60 dimensions")) << msg;
  EXPECT_TRUE(mentions(msg, "--max-trial-seconds")) << msg;
  EXPECT_TRUE(mentions(msg, "fewer columns: at most ")) << msg;
  EXPECT_TRUE(mentions(msg, "sampler: textbook")) << msg;
  // The number of columns it names does fit, and one more does not.
  const std::size_t at = msg.find("fewer columns: at most ");
  const std::size_t fit = std::stoul(msg.substr(at + 23));
  EXPECT_GT(fit, 30u);
  EXPECT_LT(fit, 60u);
  EXPECT_EQ(
      plan_problems(blobs(fit, 208) + "methods:\n  - {method: nd_laplace, params: {epsilon: 1, truncation: remap}}\n"),
      "");
  EXPECT_NE(plan_problems(blobs(fit + 1, 208) +
                          "methods:\n  - {method: nd_laplace, params: {epsilon: 1, truncation: remap}}\n"),
            "");
  // 22 columns take a second: no refusal; the textbook sampler in 60 columns neither.
  EXPECT_EQ(
      plan_problems(blobs(22, 208) + "methods:\n  - {method: nd_laplace, params: {epsilon: 1, truncation: remap}}\n"),
      "");
  EXPECT_EQ(
      plan_problems(blobs(60, 208) +
                    "methods:\n  - {method: nd_laplace, params: {epsilon: 1, truncation: remap, sampler: textbook}}\n"),
      "");
  // A longer limit lets it run.
  RunLimits patient;
  patient.max_trial_seconds = 1e6;
  EXPECT_EQ(
      plan_problems(blobs(60, 208) + "methods:\n  - {method: nd_laplace, params: {epsilon: 1, truncation: remap}}\n",
                    patient),
      "");
}

TEST(RealFileLimits, ResamplingFixSaysLowerTheRadiusAndTheHalving) {
  const std::string msg = plan_problems(
      blobs(30, 100) + "methods:\n  - {method: nd_laplace, params: {epsilon: 1, radius: 5, truncation: resample}}\n");
  EXPECT_TRUE(mentions(msg, "truncation by resampling needs more than 1e+12 draws per point")) << msg;
  EXPECT_TRUE(mentions(msg, "lower radius")) << msg;
  EXPECT_FALSE(mentions(msg, "(or radius)")) << msg;
  EXPECT_TRUE(mentions(msg, "halved")) << msg;
  EXPECT_TRUE(mentions(msg, "truncation: remap")) << msg;
  EXPECT_TRUE(mentions(msg, "fewer columns: at most")) << msg;
  // A smaller radius (a larger rate, less noise) passes, as the fix says.
  EXPECT_EQ(
      plan_problems(blobs(30, 100) +
                    "methods:\n  - {method: nd_laplace, params: {epsilon: 1, radius: 0.001, truncation: resample}}\n"),
      "");
}

// The default truncation (auto) is the one that runs: at ionosphere's shape (351 x 34) resampling is refused
// and the remap runs; the same sweep with the defaults plans without a problem.
TEST(RealFileLimits, DefaultTruncationRunsWhereResamplingIsRefused) {
  const std::string resample = plan_problems(
      blobs(34, 351) + "methods:\n  - {method: nd_laplace, params: {epsilon: 1, truncation: resample}}\n");
  EXPECT_TRUE(mentions(resample, "truncation by resampling needs")) << resample;
  EXPECT_EQ(plan_problems(blobs(34, 351) + "methods:\n  - {method: nd_laplace, params: {epsilon: 1}}\n"), "");
  EXPECT_EQ(
      plan_problems(blobs(34, 351) + "methods:\n  - {method: nd_laplace, params: {epsilon: [0.5, 1, 2], radius: 5}}\n"),
      "");
}

TEST(RealFileLimits, WaveClusterAtTheMinimumGridNamesTheColumnsThatFitOnce) {
  const std::string msg =
      plan_problems(blobs(262, 50) + "methods:\n  - {method: wavecluster, params: {g: 2, p: 0.5}}\n");
  EXPECT_TRUE(mentions(msg, "the WaveCluster grid 2^262 (262 dimensions)")) << msg;
  EXPECT_FALSE(mentions(msg, "2 x 2 x 2")) << msg;
  EXPECT_TRUE(mentions(msg, "g is already at its minimum of 2")) << msg;
  EXPECT_TRUE(mentions(msg, "fewer columns: at most 28 fit")) << msg;
  EXPECT_FALSE(mentions(msg, "lower g")) << msg;
  // Baseline's adaptive synopsis: at most 7 columns, or the uniform one.
  const std::string base =
      plan_problems(blobs(22, 50) + "methods:\n  - {method: wc_baseline, params: {g: 2, p: 0.5, epsilon: 1}}\n");
  EXPECT_TRUE(mentions(base, "at least 10^22 cells")) << base;
  EXPECT_TRUE(mentions(base, "synopsis: uniform")) << base;
  EXPECT_TRUE(mentions(base, "fewer columns: at most 7 fit")) << base;
  EXPECT_EQ(plan_problems(blobs(7, 50) + "methods:\n  - {method: wc_baseline, params: {g: 2, p: 0.5, epsilon: 1}}\n"),
            "");
}

TEST(RealFileLimits, WaveClusterMemoryEstimateCoversTheGridAtTwentyTwoColumns) {
  ExperimentConfig cfg = parse_config(
      "experiment: t\n" + blobs(22, 500) + "methods:\n  - {method: privqt, params: {g: 2, p: 0.5, epsilon: 1}}\n",
      "x.yaml", fs::temp_directory_path(), "");
  const std::vector<Cell> cells = expand_grid(cfg);
  const auto cost = estimate_trial_cost(cfg, cells.at(0), known_shape(cfg.datasets.at(0)));
  ASSERT_TRUE(cost.has_value());
  // Measured: 172 MB of grid arrays at 4.2 million cells (docs/performance.md); the estimate covers it.
  EXPECT_GE(cost->memory, 160e6);
  EXPECT_LE(cost->memory, 260e6);
}

TEST(RealFileLimits, KeepGoingRunThatCannotStartACellSaysWhyOnStderr) {
  const fs::path dir = dpclust::testing::temp_dir("keepgoing_why");
  dpclust::testing::write_file(
      dir / "gaps.arff",
      "@relation g\n@attribute a numeric\n@attribute b numeric\n@attribute c {x,y}\n@data\n1,2,x\n?,3,y\n4,5,x\n");
  const fs::path cfg = dpclust::testing::write_file(
      dir / "c.yaml",
      "experiment: gaps\ntrials: 1\ndatasets:\n  - {name: g, file: gaps.arff, bounds: [[0, 10], [0, 10]]}\nmethods:\n"
      "  - {method: kmeans, params: {k: [1, 2]}}\nmetrics: [ari]\n");
  const auto r = dpclust::testing::run_command(std::string(DPCLUST_BINARY_PATH) + " run " + cfg.string() + " --out " +
                                               (dir / "out").string() + " --keep-going --no-progress 2>&1");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_TRUE(mentions(r.output, "no cell can run: all 2 pending cells are skipped before the run")) << r.output;
  EXPECT_TRUE(mentions(r.output, "skipped 2 cells before the run")) << r.output;
  EXPECT_TRUE(mentions(r.output, "1 of 3 rows have a missing value")) << r.output;
  EXPECT_TRUE(mentions(r.output, "missing: drop")) << r.output;
}

}  // namespace
}  // namespace dpclust
