// Configs that pass `dpclust validate` do not crash, exhaust memory or run for ever (the hardening
// issue's validation limits): declared upper bounds on every iteration and restart count, what a trial
// would refuse (k > n, fractional or misshapen g, k_dims > d, gaussian noise without delta, the planar
// sampler in 1-D) refused by `validate` from the datasets' known shapes, and the grid, trials, memory
// and work bounded before any work (--max-cells, --max-memory, --max-work).
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>

#include "catalog/catalog.hpp"
#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "loading/cost_model.hpp"
#include "run/runner.hpp"
#include "test_support.hpp"

// AddressSanitizer's build: GCC says so with __SANITIZE_ADDRESS__, clang with __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define DPCLUST_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DPCLUST_TEST_UNDER_ASAN 1
#endif
#endif
#ifndef DPCLUST_TEST_UNDER_ASAN
#define DPCLUST_TEST_UNDER_ASAN 0
#endif

using namespace dpclust;
namespace fs = std::filesystem;

namespace {

using Result = dpclust::testing::CommandResult;

std::string binary() {
  const char* b = std::getenv("DPCLUST_BINARY");
  return b ? b : DPCLUST_BINARY_PATH;
}
Result cli(const std::string& args) { return dpclust::testing::run_command(binary() + " " + args); }

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Writes `text` as <tag>/c.yaml and runs `dpclust validate` on it (plus extra options).
Result validate(const std::string& tag, const std::string& text, const std::string& extra = "") {
  const fs::path dir = dpclust::testing::temp_dir(tag);
  const fs::path cfg = dpclust::testing::write_file(dir / "c.yaml", text);
  return cli("validate " + cfg.string() + " " + extra);
}

const std::string kMoons =
    "datasets:\n  - {name: m, generator: {type: moons, n_samples: 100, seed: 1}, bounds: [[-2, 3], [-2, 2]]}\n";

// The library's view: the message of the first refusal of check_run_cost (default limits), "" if none.
std::string plan_error(const std::string& text, RunLimits limits = {}) {
  try {
    ExperimentConfig cfg = parse_config(text, "x.yaml", fs::temp_directory_path(), "", limits.max_cells);
    check_run_cost(cfg, limits);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// --- iteration and restart counts have declared upper bounds ---

TEST(ValidationLimits, EveryIterationAndRestartCountHasAnUpperBound) {
  const std::set<std::string> counts = {"n_init",      "max_iter",         "iterations",  "max_retries",
                                        "ap_max_iter", "convergence_iter", "cv_folds",    "level",
                                        "max_n",       "stress_pairs",     "pe_max_pairs"};
  std::size_t seen = 0;
  for (const auto& m : all_methods())
    for (const auto& p : m.params) {
      if (!counts.count(p.name)) continue;
      ++seen;
      EXPECT_TRUE(p.max.has_value()) << m.name << "." << p.name << " has no upper bound";
      if (p.max) {
        EXPECT_LE(*p.max, 1e9) << m.name << "." << p.name;
      }
    }
  EXPECT_GE(seen, 15u);
}

TEST(ValidationLimits, HugeIterationCountsAreRefusedNamingKeyAndRange) {
  struct Case {
    std::string method, params, key, range;
  };
  const std::vector<Case> cases = {
      {"kmeans", "{k: 2, n_init: 1e9}", "n_init", "[1, 10000]"},
      {"kmeans", "{k: 2, max_iter: 1e9}", "max_iter", "[1, 1e+06]"},
      {"dp_kmeans", "{k: 2, iterations: 1e9}", "iterations", "[0, 1e+06]"},
      {"nd_laplace", "{epsilon: 1, max_retries: 1e9}", "max_retries", "[1, 1e+06]"},
      {"nd_laplace", "{epsilon: 1, n_init: 100000}", "n_init", "[1, 10000]"},
      {"drbt", "{k: 2, k_dims: 1, n_init: 1e9}", "n_init", "[1, 10000]"},
      {"drbt", "{k: 2, k_dims: 1, stress_pairs: 1e12}", "stress_pairs", "[1, 1e+09]"},
      {"dp_dbscan_pairwise", "{alpha: 0.2, min_pts: 3, max_n: 1e9}", "max_n", "[2, 1e+06]"},
  };
  for (const auto& c : cases) {
    Result r = validate("iter_" + c.key, "experiment: it\n" + kMoons + "methods:\n  - method: " + c.method +
                                             "\n    params: " + c.params + "\n");
    EXPECT_EQ(r.code, 2) << c.method << " " << c.key << ": " << r.output;
    EXPECT_TRUE(has(r.output, "c.yaml:")) << r.output;
    EXPECT_TRUE(has(r.output, "methods[0].params." + c.key)) << r.output;
    EXPECT_TRUE(has(r.output, c.range)) << c.key << ": " << r.output;
  }
}

TEST(ValidationLimits, DenormalEpsilonIsRefused) {
  for (const std::string& method : std::vector<std::string>{"wc_baseline", "privqt", "dp_dbscan", "dp_kmeans",
                                                            "dp_dbscan_pairwise", "nd_laplace"}) {
    std::string params = "{epsilon: 5e-324";
    if (method == "wc_baseline" || method == "privqt") params += ", g: 20, p: 0.5";
    if (method == "dp_dbscan" || method == "dp_dbscan_pairwise") params += ", alpha: 0.3, min_pts: 5";
    if (method == "dp_kmeans") params += ", k: 2";
    params += "}";
    Result r = validate("eps_" + method, "experiment: e\n" + kMoons + "methods:\n  - method: " + method +
                                             "\n    params: " + params + "\n");
    EXPECT_EQ(r.code, 2) << method << ": " << r.output;
    EXPECT_TRUE(has(r.output, "methods[0].params.epsilon")) << method << ": " << r.output;
    // DP-k-means goes down to 1e-12 (the DP-DBSCAN paper's eps = 1/n^2 test); every other method to 1e-6.
    EXPECT_TRUE(has(r.output, method == "dp_kmeans" ? "1e-12" : "1e-06")) << method << ": " << r.output;
  }
}

TEST(ValidationLimits, TinyBudgetSharesAndNoiseRatesAreRefused) {
  struct Case {
    std::string method, key, text;
  };
  const std::vector<Case> cases = {
      {"{method: privthr, params: {g: 20, p: 0.5, epsilon: 1, rho: 5e-324}}", "rho",
       "leaves a share of epsilon of 4.94066e-324"},
      {"{method: wc_baseline, params: {g: 20, p: 0.5, epsilon: 1, n_share: 1e-300}}", "n_share", "below 1e-9"},
      {"{method: nd_laplace, params: {epsilon: 1, radius: 1e300}}", "radius", "epsilon / radius = 1 / 1e+300"},
  };
  for (const auto& c : cases) {
    Result r = validate("share_" + c.key, "experiment: e\n" + kMoons + "methods:\n  - " + c.method + "\n");
    EXPECT_EQ(r.code, 2) << c.key << ": " << r.output;
    EXPECT_TRUE(has(r.output, "methods[0].params." + c.key)) << r.output;
    EXPECT_TRUE(has(r.output, c.text)) << r.output;
  }
}

// --- what a trial would refuse is refused by validate, from the known shape ---

TEST(ValidationLimits, ShapeErrorsAreCaughtWithoutLoadingData) {
  struct Case {
    std::string tag, datasets, method, key, text;
  };
  const std::string blobs3 =
      "datasets:\n  - {name: b, generator: {type: blobs, n_samples: 50, n_features: 3, seed: 2}, "
      "bounds: [[-20, 20], [-20, 20], [-20, 20]]}\n";
  const std::string uniform1 =
      "datasets:\n  - {name: u, generator: {type: uniform, n_samples: 50, n_features: 1}, bounds: [[0, 1]]}\n";
  const std::string blobs40 = [] {
    std::string b = "datasets:\n  - {name: h, generator: {type: blobs, n_samples: 50, n_features: 40}, bounds: [";
    for (int i = 0; i < 40; ++i) b += std::string(i ? ", " : "") + "[-20, 20]";
    return b + "]}\n";
  }();
  const std::string blobs10 = [] {
    std::string b = "datasets:\n  - {name: t, generator: {type: blobs, n_samples: 50, n_features: 10}, bounds: [";
    for (int i = 0; i < 10; ++i) b += std::string(i ? ", " : "") + "[-20, 20]";
    return b + "]}\n";
  }();
  const std::vector<Case> cases = {
      {"k_kmeans", kMoons, "{method: kmeans, params: {k: 500}}", "k",
       "exceeds the number of points of dataset 'm' (100)"},
      {"k_dpkmeans", kMoons, "{method: dp_kmeans, params: {k: 101}}", "k", "exceeds the number of points"},
      {"k_nd", kMoons, "{method: nd_laplace, params: {epsilon: 1, k: 200}}", "k", "exceeds the number of points"},
      {"k_drbt", blobs3, "{method: drbt, params: {k: 60, k_dims: 2}}", "k", "exceeds the number of points"},
      {"kdims_drbt", blobs3, "{method: drbt, params: {k: 2, k_dims: 5}}", "k_dims",
       "exceeds the 3 attributes of dataset 'b'"},
      {"g_frac", kMoons, "{method: wavecluster, params: {g: 40.5, p: 0.5}}", "g", "whole number"},
      {"g_perdim", kMoons, "{method: privqt, params: {g: {per_dim: [10, 20, 30]}, p: 0.5, epsilon: 1}}", "g",
       "g has 3 per-dimension entries but dataset 'm' has 2 dimensions"},
      {"g_10d", blobs10, "{method: wavecluster, params: {g: 10, p: 0.5}}", "g", "(2^28) cells"},
      {"gauss_nodelta", kMoons, "{method: dp_dbscan, params: {alpha: 0.3, min_pts: 5, noise: gaussian, epsilon: 0.5}}",
       "delta", "noise: gaussian needs delta in (0, 1)"},
      {"dpdbscan_40d", blobs40, "{method: dp_dbscan, params: {alpha: 0.3, min_pts: 5}}", "eta",
       "more than 10^7 cells (kappa"},
      {"planar_1d", uniform1,
       "{method: nd_laplace, params: {epsilon: 1, sampler: textbook, continuous_sampler: planar}}",
       "continuous_sampler", "2-dimensional data only"},
  };
  for (const auto& c : cases) {
    Result r = validate("shape_" + c.tag, "experiment: s\n" + c.datasets + "methods:\n  - " + c.method + "\n");
    EXPECT_EQ(r.code, 2) << c.tag << ": " << r.output;
    EXPECT_TRUE(has(r.output, "c.yaml:")) << c.tag << ": " << r.output;
    EXPECT_TRUE(has(r.output, "methods[0].params." + c.key)) << c.tag << ": " << r.output;
    EXPECT_TRUE(has(r.output, c.text)) << c.tag << ": " << r.output;
    EXPECT_TRUE(has(r.output, "fix:")) << c.tag << ": " << r.output;
  }
}

TEST(ValidationLimits, ParameterSetAtDatasetLevelIsLocatedThere) {
  Result r = validate(
      "shape_dslevel",
      "experiment: s\ndatasets:\n  - name: m\n    generator: {type: moons, n_samples: 30}\n    params: {k: 31}\n"
      "methods: [kmeans]\n");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "c.yaml:5:") && has(r.output, "datasets[0].params.k")) << r.output;
  EXPECT_TRUE(has(r.output, "method 'kmeans' on dataset 'm'")) << r.output;
}

TEST(ValidationLimits, RegistryRowCountAndSampleBoundN) {
  // iris declares 150 rows: k = 151 cannot work, whether or not the file is present. The default data
  // root may or may not hold it; an empty data root certainly does not, and then both problems are listed.
  const std::string iris =
      "experiment: s\ndatasets:\n  - name: iris\nmethods:\n  - {method: kmeans, params: {k: 151}}\n";
  Result r = validate("shape_iris", iris);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "methods[0].params.k")) << r.output;
  EXPECT_TRUE(has(r.output, "(150)") || has(r.output, "at most 150")) << r.output;
  const fs::path empty_root = dpclust::testing::temp_dir("shape_iris_empty_root");
  r = validate("shape_iris_absent", iris, "--data-root " + empty_root.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "file not found")) << r.output;
  EXPECT_TRUE(has(r.output, "dpclust data fetch iris")) << r.output;
  EXPECT_TRUE(has(r.output, "methods[0].params.k")) << r.output;
  EXPECT_TRUE(has(r.output, "(150)") || has(r.output, "at most 150")) << r.output;
  // sample: 20 of a generated set: k = 21 is refused.
  r = validate("shape_sample",
               "experiment: s\ndatasets:\n  - {name: m, generator: {type: moons, n_samples: 100}, sample: 20}\n"
               "methods:\n  - {method: kmeans, params: {k: 21}}\n");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "(20)")) << r.output;
}

TEST(ValidationLimits, FileShapeIsCheckedWithLoadDataAndBeforeAnyTrial) {
  const fs::path dir = dpclust::testing::temp_dir("shape_file");
  dpclust::testing::write_file(dir / "pts.csv", "x,y,label\n0,0,0\n1,1,1\n2,2,1\n");
  const fs::path cfg = dpclust::testing::write_file(dir / "c.yaml",
                                                    "experiment: f\ndatasets:\n  - {name: pts, file: pts.csv, label: "
                                                    "label}\nmethods:\n  - method: kmeans\n    params: {k: 5}\n");
  Result r = cli("validate --no-load-data " + cfg.string());
  EXPECT_EQ(r.code, 0) << r.output;     // n is not known without reading the file
  r = cli("validate " + cfg.string());  // validate reads the data by default
  EXPECT_EQ(r.code, 2) << r.output;
  r = cli("validate --load-data " + cfg.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "c.yaml:6:") && has(r.output, "methods[0].params.k")) << r.output;
  EXPECT_TRUE(has(r.output, "exceeds the number of points of dataset 'pts' (3)")) << r.output;
  r = cli("run " + cfg.string() + " --no-progress --out " + (dir / "out").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "methods[0].params.k")) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "f" / "cells")) << "a trial ran";
}

// --- cost before any work ---

TEST(ValidationLimits, TenMillionCellConfigIsRefusedQuicklyInLittleMemory) {
  const std::string text =
      "experiment: big\n" + kMoons +
      "methods:\n  - method: dbscan\n    params:\n      alpha: {from: 0.001, to: 10, step: 0.001}\n"
      "      min_pts: {from: 1, to: 1000, step: 1}\n";
  ASSERT_LE(text.size(), 392u);
  const fs::path dir = dpclust::testing::temp_dir("cells_big");
  const fs::path cfg = dpclust::testing::write_file(dir / "c.yaml", text);
  for (const std::string& cmd : std::vector<std::string>{"validate ", "run --dry-run ",
                                                         "run --no-progress --out " + (dir / "out").string() + " "}) {
    const auto t0 = std::chrono::steady_clock::now();
    // 512 MiB of address space: expanding 10^7 cells would need several GiB. AddressSanitizer reserves
    // terabytes of shadow address space up front, so the sanitizer build runs without the limit
    // (the exit code and message are still checked; a Release build's ctest, e.g. `run_all.sh --test --no-sanitize`,
    // checks the memory bound too).
#if DPCLUST_TEST_UNDER_ASAN
    const std::string limit = "";
#else
    const std::string limit = "ulimit -v 524288; ";
#endif
    Result r = dpclust::testing::run_command(limit + binary() + " " + cmd + cfg.string());
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.code, 2) << cmd << r.output;
    EXPECT_TRUE(has(r.output, "expands to 10,000,000 cells")) << r.output;
    EXPECT_TRUE(has(r.output, "limit of 1,000,000")) << r.output;
    EXPECT_TRUE(has(r.output, "method 'dbscan'")) << r.output;
    EXPECT_TRUE(has(r.output, "--max-cells")) << r.output;
    EXPECT_LT(secs, 5.0) << cmd;
  }
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(ValidationLimits, CellsAreCountedAcrossDatasetsAndMethodsAndMaxCellsRaisesTheLimit) {
  const std::string text =
      "experiment: c\ndatasets:\n  - {name: a, generator: {type: moons, n_samples: 50}}\n"
      "  - {name: b, generator: {type: moons, n_samples: 60}}\n"
      "methods:\n  - {method: dbscan, params: {alpha: [0.1, 0.2, 0.3], min_pts: [3, 4]}}\n"
      "  - {method: kmeans, params: {k: [2, 3]}}\n";  // 2 x (6 + 2) = 16 cells
  Result r = validate("cells_limit", text, "--max-cells 15");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "expands to 16 cells")) << r.output;
  EXPECT_TRUE(has(r.output, "limit of 15")) << r.output;
  r = validate("cells_limit_ok", text, "--max-cells 16");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(has(r.output, "16 cells x 1 trials")) << r.output;
  for (const char* bad : {"0", "-5", "abc", "1.5", "1e99"}) {
    r = validate("cells_bad", text, std::string("--max-cells ") + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.output;
    EXPECT_TRUE(has(r.output, "--max-cells")) << r.output;
  }
  // A product beyond 64 bits saturates instead of wrapping around to a small number.
  std::string huge = "experiment: h\n" + kMoons + "methods:\n";
  for (int i = 0; i < 5; ++i)
    huge += "  - {method: dbscan, as: d" + std::to_string(i) +
            ", params: {alpha: {from: 1, to: 100000, step: 1}, min_pts: {from: 1, to: 100000, step: 1}}}\n";
  const std::string msg = plan_error(huge);
  EXPECT_TRUE(has(msg, "expands to 50,000,000,000 cells")) << msg;
}

TEST(ValidationLimits, TrialsAreBounded) {
  Result r = validate("trials_big",
                      "experiment: t\ntrials: 1e9\n" + kMoons + "methods:\n  - {method: kmeans, params: {k: 2}}\n");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "c.yaml:2:9 trials")) << r.output;
  EXPECT_TRUE(has(r.output, "trials must be >= 1 and <= 1000000, got 1000000000")) << r.output;
  r = validate("trials_max",
               "experiment: t\ntrials: 1000000\n" + kMoons + "methods:\n  - {method: kmeans, params: {k: 2}}\n");
  EXPECT_EQ(r.code, 0) << r.output;
  const fs::path dir = dpclust::testing::temp_dir("trials_cli");
  const fs::path cfg = dpclust::testing::write_file(
      dir / "c.yaml", "experiment: t\n" + kMoons + "methods:\n  - {method: kmeans, params: {k: 2}}\n");
  r = cli("run " + cfg.string() + " --dry-run --trials 2000000");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "--trials")) << r.output;
}

TEST(ValidationLimits, MemoryEstimateIsRefusedOverMaxMemory) {
  // Affinity Propagation keeps 3 n x n matrices: 20,000 points need ~9 GiB.
  const std::string text =
      "experiment: ap\ndatasets:\n  - {name: m, generator: {type: moons, n_samples: 20000}}\n"
      "methods: [affinity_propagation]\n";
  Result r = validate("mem_ap", text, "--max-memory 1G");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "methods[0]")) << r.output;
  EXPECT_TRUE(has(r.output, "method 'affinity_propagation' on dataset 'm'")) << r.output;
  EXPECT_TRUE(has(r.output, "memory limit of 1 GiB")) << r.output;
  EXPECT_TRUE(has(r.output, "--max-memory")) << r.output;
  r = validate("mem_ap_ok", text, "--max-memory 64G --threads 1");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(has(r.output, "estimated peak memory")) << r.output;
  for (const char* bad : {"12Q", "G", "-1G", "0", "1.2.3M"}) {
    r = validate("mem_bad", text, std::string("--max-memory ") + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.output;
    EXPECT_TRUE(has(r.output, "--max-memory")) << r.output;
  }
}

TEST(ValidationLimits, EugkmGridMemoryIsEstimated) {
  // EUGkM's histogram: 16384^2 = 2^28 cells (16 bytes each, plus the synopsis' positive cells): over 4 GiB.
  const std::string text =
      "experiment: eg\n" + kMoons +
      "methods:\n  - {method: eugkm, params: {k: 2, grid_size: 16384, max_grid_cells: 268435456}}\n";
  Result r = validate("mem_eugkm", text, "--max-memory 1G --threads 1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "method 'eugkm' on dataset")) << r.output;
  EXPECT_TRUE(has(r.output, "memory limit of 1 GiB")) << r.output;
  EXPECT_EQ(validate("mem_eugkm_ok", text, "--max-memory 64G --threads 1").code, 0);
}

// The rows read from a file are private to a central add/remove private method (docs/privacy.md, "Checks
// before a run"): no check decides on them and no message shows a number computed from them. EUGkM's grid
// at max_grid_cells 25 was refused at 379 points and not at 378 (its message gave m = 6, 36 cells); dp_kmeans
// with k = 5 was refused on a file of 3 points, "(3)"; a memory refusal printed "(n = 379, d = 2)", the
// estimate and the max_rows that fits. The non-private k-means keeps its check (the existing tests above).
TEST(ValidationLimits, TheRowsOfAFileNeverDecideOrShowInAPrivateCellsChecks) {
  const fs::path dir = dpclust::testing::temp_dir("private_n");
  for (int n : {378, 379}) {
    std::string csv = "x,y\n";
    for (int i = 0; i < n; ++i) {
      csv += std::to_string((i * 7) % 29 - 14);
      csv += ",";
      csv += std::to_string((i * 11) % 29 - 14);
      csv += "\n";
    }
    dpclust::testing::write_file(dir / (std::string(n == 378 ? "fewer" : "more") + ".csv"), csv);
  }
  // Names without the count: the messages name the config file, the data file and the experiment.
  auto config = [&](int n, const std::string& method) {
    const std::string tag = n == 378 ? "fewer" : "more";
    std::string text = "experiment: ";
    text += tag;
    text += "\ndatasets:\n  - {name: pts, file: ";
    text += tag;
    text += ".csv, label: none, bounds: [[-15, 15], [-15, 15]], params: {k: 3}}\nmethods:\n  - ";
    text += method;
    text += "\n";
    return dpclust::testing::write_file(dir / (tag + ".yaml"), text);
  };
  // The temporary folder's name holds the process id, which may contain the count: it is left out of the check.
  auto without_folder = [&](std::string text) {
    for (std::size_t at; (at = text.find(dir.string())) != std::string::npos;)
      text.replace(at, dir.string().size(), "<dir>");
    return text;
  };
  for (int n : {378, 379}) {
    const fs::path cfg = config(n, "{method: eugkm, params: {max_grid_cells: 25}}");
    Result r = cli("validate " + cfg.string());
    EXPECT_EQ(r.code, 0) << n << ": " << r.output;
    EXPECT_FALSE(has(without_folder(r.output), std::to_string(n))) << r.output;
    r = cli("run " + cfg.string() + " --no-progress --out " + (dir / "out").string());
    EXPECT_EQ(r.code, 0) << n << ": " << r.output;
  }
  // k above the rows read: a private cell runs (its centres are noisy sums, whatever k); the estimate of the
  // validate line is the config's (the file's size is not declared), not the loaded data's.
  dpclust::testing::write_file(dir / "pts3.csv", "x,y\n0,0\n1,1\n2,2\n");
  const fs::path small = dpclust::testing::write_file(
      dir / "small.yaml",
      "experiment: s\ndatasets:\n  - {name: pts, file: pts3.csv, label: none, bounds: [[0, 5], [0, 5]]}\n"
      "methods:\n  - {method: dp_kmeans, params: {k: 5}}\n");
  Result r = cli("validate " + small.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(has(r.output, "the rows read are private to its private methods")) << r.output;
  // A memory refusal of a private cell names the limit and the fixes, not n, the estimate or the rows that fit.
  const fs::path big = config(379, "{method: eugkm, params: {grid_size: 16384, max_grid_cells: 268435456}}");
  r = cli("validate " + big.string() + " --max-memory 1G --threads 1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "memory limit of 1 GiB")) << r.output;
  EXPECT_TRUE(has(r.output, "a smaller grid_size or max_grid_cells")) << r.output;  // what sizes the grid: public
  EXPECT_TRUE(has(r.output, "--max-memory")) << r.output;
  for (const char* shown : {"379", "n = ", "GiB for", "max_rows: 3"}) {
    EXPECT_FALSE(has(without_folder(r.output), shown)) << shown << ": " << r.output;
  }
}

TEST(ValidationLimits, DataRootOverTheFileNameLimitIsAnInputError) {
  // A folder name over NAME_MAX ended in an uncaught filesystem_error, exit 1.
  const fs::path dir = dpclust::testing::temp_dir("long_root");
  const fs::path cfg =
      dpclust::testing::write_file(dir / "c.yaml",
                                   "experiment: r\ndatasets:\n  - {name: m, generator: {type: moons, n_samples: "
                                   "50}}\nmethods:\n  - {method: kmeans, params: {k: 2}}\n");
  const std::string root = "/tmp/" + std::string(300, 'a');
  Result r = cli("validate " + cfg.string() + " --data-root " + root);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "--data-root") && has(r.output, "over the file-name limit")) << r.output;
}

TEST(ValidationLimits, ParallelTrialsMultiplyTrialMemory) {
  // A 2-D WaveCluster grid of 6000^2 = 36M cells: ~2.5 GiB per trial (five arrays over the grid, and C4.5 over
  // the 3000^2 cells of the average subband for OCM/2CE).
  const std::string text =
      "experiment: wc\ntrials: 4\n" + kMoons + "methods:\n  - {method: wavecluster, params: {g: 6000, p: 0.5}}\n";
  EXPECT_EQ(validate("mem_wc1", text, "--max-memory 3G --threads 1").code, 0);
  Result r = validate("mem_wc4", text, "--max-memory 3G --threads 4");
  EXPECT_EQ(r.code, 2) << r.output;
  // The cell is refused with what brings it under the limit: one trial at a time fits.
  EXPECT_TRUE(has(r.output, "for 4 trials at once")) << r.output;
  EXPECT_TRUE(has(r.output, "--threads 1")) << r.output;
}

TEST(ValidationLimits, WorkEstimateIsRefusedOverMaxWork) {
  // 10^4 restarts x 10^6 iterations x 10^5 points x 1000 centres x 2 dimensions: 2e18 operations at most.
  const std::string text =
      "experiment: w\ndatasets:\n  - {name: m, generator: {type: moons, n_samples: 100000}}\n"
      "methods:\n  - {method: kmeans, params: {k: 1000, n_init: 10000, max_iter: 1000000}}\n";
  Result r = validate("work", text);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "work limit of 1e+15")) << r.output;
  EXPECT_TRUE(has(r.output, "--max-work")) << r.output;
  EXPECT_EQ(validate("work_ok", text, "--max-work 1e19").code, 0);
  EXPECT_EQ(validate("work_small", "experiment: w\n" + kMoons + "methods:\n  - {method: kmeans, params: {k: 2}}\n",
                     "--max-work 1000")
                .code,
            2);
}

TEST(ValidationLimits, EveryShippedConfigPassesThePlanChecks) {
  const fs::path root = fs::path(build_info().source_dir) / "configs";
  ASSERT_TRUE(fs::is_directory(root)) << root;
  std::size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.path().extension() != ".yaml") continue;
    ++n;
    try {
      ExperimentConfig cfg = load_config(e.path(), "");
      check_run_cost(cfg, RunLimits{});
    } catch (const InputError& err) {
      ADD_FAILURE() << e.path() << ": " << err.what();
    }
  }
  EXPECT_GT(n, 10u);
}
