// The k-means measures in a run: a config names them, they apply to the methods that release centres (or to
// every method, for the label measures), they are never computed unless named, the config refuses a list
// none of its methods can have, and every method that declares releases_centres fills them.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "catalog/catalog.hpp"
#include "config/config.hpp"
#include "config/grid.hpp"
#include "config/param_checks.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "data/generators.hpp"
#include "loading/cost_model.hpp"
#include "run/runner.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace kmeans_measures_run {  // named, not anonymous: the unity build shares the file with others

const std::string kDataset = R"(datasets:
  - name: blobs
    generator: {type: blobs, n_samples: 600, centers: 4, n_features: 3, center_box_lo: -20, center_box_hi: 20, seed: 42, stream: numpy}
    bounds: [[-30, 30], [-30, 30], [-30, 30]]
)";

json run_text(const std::string& text, const fs::path& out, int threads) {
  RunOptions o;
  o.out_dir = out;
  o.threads = threads;
  o.progress = false;
  RunReport r = run_experiment(parse_config(text, "measures.yaml", fs::temp_directory_path(), ""), o);
  if (!r.complete) return nullptr;
  return json::parse(read_text_file(r.results_file));
}

std::set<std::string> metric_names(const json& cell) {
  std::set<std::string> names;
  for (auto it = cell["aggregates"].begin(); it != cell["aggregates"].end(); ++it) names.insert(it.key());
  return names;
}

const json& cell_of(const json& results, const std::string& series) {
  for (const auto& c : results["cells"])
    if (c["series"] == series) return c;
  throw std::out_of_range("no cell " + series);
}

std::string error_of(const std::string& text) {
  try {
    parse_config(text, "t.yaml", fs::temp_directory_path(), "");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(KMeansMeasuresRun, NamedMeasuresApplyWhereTheyCanAndDoNotDependOnThreads) {
  const std::string text = "experiment: measures\nseed: 3\ntrials: 2\n" + kDataset + R"(methods:
  - {method: kmeans, params: {k: 4}}
  - {method: dp_kmeans, params: {k: 4, epsilon: 1.0}}
  - {method: dbscan, params: {alpha: 1.0, min_pts: 5}}
metrics: [normalized_kmeans_cost, silhouette, accuracy]
)";
  const fs::path dir = dpclust::testing::temp_dir("measures_run");
  const json one = run_text(text, dir / "t1", 1), two = run_text(text, dir / "t2", 2);
  ASSERT_FALSE(one.is_null());
  EXPECT_EQ(strip_nondeterministic(one).dump(), strip_nondeterministic(two).dump());
  const std::set<std::string> all = {"normalized_kmeans_cost", "silhouette", "accuracy"};
  EXPECT_EQ(metric_names(cell_of(one, "kmeans")), all);
  EXPECT_EQ(metric_names(cell_of(one, "dp_kmeans")), all);
  EXPECT_EQ(metric_names(cell_of(one, "dbscan")), (std::set<std::string>{"silhouette", "accuracy"}));  // no centres
  // Four separated blobs: k-means reaches the reference's optimum and recovers the classes; DPLloyd at eps 1
  // costs more.
  const json& km = cell_of(one, "kmeans")["aggregates"];
  EXPECT_NEAR(km["normalized_kmeans_cost"]["mean"].get<double>(), 1.0, 1e-9);
  EXPECT_EQ(km["accuracy"]["mean"].get<double>(), 1.0);
  EXPECT_GT(km["silhouette"]["mean"].get<double>(), 0.7);
  EXPECT_GT(cell_of(one, "dp_kmeans")["aggregates"]["normalized_kmeans_cost"]["mean"].get<double>(), 1.0);
}

TEST(KMeansMeasuresRun, NotComputedUnlessNamed) {
  const std::string text =
      "experiment: defaults\nseed: 3\ntrials: 1\n" + kDataset + "methods:\n  - {method: kmeans, params: {k: 4}}\n";
  const json r = run_text(text, dpclust::testing::temp_dir("measures_default"), 1);
  ASSERT_FALSE(r.is_null());
  const std::set<std::string> names = metric_names(r["cells"][0]);
  EXPECT_TRUE(names.count("ari"));
  for (const char* m : {"inertia", "inertia_per_point", "normalized_kmeans_cost", "centre_distance", "silhouette",
                        "accuracy", "purity"})
    EXPECT_FALSE(names.count(m)) << m;
}

TEST(KMeansMeasuresRun, AListNoMethodCanHaveIsRefusedWithTheFix) {
  const std::string head = "experiment: x\n" + kDataset;
  const std::string dbscan = "  - {method: dbscan, params: {alpha: 1.0, min_pts: 5}}\n",
                    kmeans = "  - {method: kmeans, params: {k: 4}}\n";
  std::string msg =
      error_of(head + "methods:\n" + dbscan + "metrics: [normalized_kmeans_cost, silhouette, accuracy]\n");
  EXPECT_NE(msg.find("metric 'normalized_kmeans_cost' reads the centres a method releases"), std::string::npos) << msg;
  EXPECT_NE(msg.find("none of the listed methods releases centres"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(kmeans, uniform_centres, dp_kmeans"), std::string::npos)
      << msg;  // the fix names the methods that release centres, in registration order
  EXPECT_NE(msg.find("t.yaml:"), std::string::npos) << msg;
  // One method with centres is enough; the label measures apply to every method.
  EXPECT_EQ(
      error_of(head + "methods:\n" + dbscan + kmeans + "metrics: [normalized_kmeans_cost, silhouette, accuracy]\n"),
      "");
  EXPECT_EQ(error_of(head + "methods:\n" + dbscan + "metrics: [silhouette, accuracy, purity]\n"), "");
}

// Every method that declares releases_centres fills MethodResult::centres (k x d, finite) in a trial, so its
// k-means measures are numbers: run each with `inertia` on the blobs. A method added with the flag needs a
// value below for each of its required parameters.
TEST(KMeansMeasuresRun, EveryMethodThatDeclaresCentresReleasesThem) {
  std::string methods;
  std::size_t count = 0;
  for (const MethodInfo& m : all_methods()) {
    if (!m.releases_centres) continue;
    std::string params;
    for (const ParamSpec& p : m.params) {
      if (p.name == "k") params += std::string(params.empty() ? "" : ", ") + "k: 4";
      else if (p.name == "epsilon") params += std::string(params.empty() ? "" : ", ") + "epsilon: 1.0";
      else if (p.name == "delta") params += std::string(params.empty() ? "" : ", ") + "delta: 1.0e-5";
      else if (p.required()) ADD_FAILURE() << m.name << ": give a test value for its required parameter " << p.name;
    }
    if (m.name == "affinity_propagation")
      params += std::string(params.empty() ? "" : ", ") + "damping: 0.9";  // converges here (0.5 does not)
    methods += "  - {method: " + m.name + (params.empty() ? "" : ", params: {" + params + "}") + "}\n";
    ++count;
  }
  ASSERT_GE(count, 3u);  // kmeans, dp_kmeans, affinity_propagation at least
  const std::string text =
      "experiment: centres\nseed: 5\ntrials: 1\n" + kDataset + "methods:\n" + methods + "metrics: [inertia]\n";
  const json r = run_text(text, dpclust::testing::temp_dir("measures_centres"), 1);
  ASSERT_FALSE(r.is_null());
  ASSERT_EQ(r["cells"].size(), count);
  for (const auto& c : r["cells"]) {
    const json& v = c["trials"][0]["metrics"]["inertia"];
    ASSERT_TRUE(v.is_number()) << c["series"] << " released no centres";
    EXPECT_GT(v.get<double>(), 0.0) << c["series"];
  }
}

// The centres the measures read are the ones the release publishes: kmeans' and dp_kmeans' "centers" (both
// variants) and Affinity Propagation's exemplars, in the data's coordinates.
TEST(KMeansMeasuresRun, CentresAreTheReleasedOnes) {
  BlobsOptions o;
  o.n_samples = 300;
  o.n_features = 2;
  o.n_centers = 3;
  o.seed = 1;
  Dataset data = make_blobs(o);
  data.bounds = Bounds{{-20, -20}, {20, 20}};
  data.bounds_source = BoundsSource::config;
  struct Case {
    const char* method;
    std::map<std::string, ParamValue> given;
  };
  const std::vector<Case> cases = {
      {"kmeans", {{"k", std::int64_t{3}}}},
      {"dp_kmeans", {{"k", std::int64_t{3}}, {"epsilon", 1.0}}},
      {"dp_kmeans", {{"k", std::int64_t{3}}, {"epsilon", 1.0}, {"variant", std::string("diffprivlib")}}},
      {"affinity_propagation", {{"damping", 0.9}}}};
  for (const Case& c : cases) {
    const MethodInfo& info = *find_method(c.method);
    ASSERT_TRUE(info.releases_centres) << c.method;
    const ParamSet params = complete_params(info.params, c.method, c.given, c.method);
    Rng rng(2);
    BudgetLedger ledger = info.differentially_private ? BudgetLedger(1.0) : BudgetLedger();
    const MethodResult r = info.make()->run(data, params, rng, ledger);
    ASSERT_GT(r.centres.rows(), 0) << c.method;
    ASSERT_EQ(r.centres.cols(), 2) << c.method;
    for (Eigen::Index k = 0; k < r.centres.rows(); ++k)
      for (Eigen::Index j = 0; j < 2; ++j) {
        const double released =
            info.name == "affinity_propagation"
                ? data.coords[r.release["exemplars"][static_cast<std::size_t>(k)].get<std::size_t>() * 2 +
                              static_cast<std::size_t>(j)]
                : r.release["centers"][static_cast<std::size_t>(k)][static_cast<std::size_t>(j)].get<double>();
        EXPECT_EQ(r.centres(k, j), released) << c.method << " centre " << k;
      }
  }
}

// `silhouette_sample`: 600 points scored on a sample of 200, drawn once for the dataset (the same seed in every cell
// and trial), each trial's standard error beside its value, the sample and the errors in the cell; each metric's
// seconds in the timing. `all` (and any size >= 600) scores every point: exact, nothing recorded.
TEST(KMeansMeasuresRun, SilhouetteOnASampleRecordsTheSampleAndTheError) {
  const std::string head = "experiment: sampled\nseed: 3\ntrials: 3\n" + kDataset + R"(methods:
  - {method: kmeans, params: {k: 4}}
  - {method: dp_kmeans, params: {k: 4, epsilon: 1.0}}
metrics: [silhouette, accuracy]
)";
  const fs::path dir = dpclust::testing::temp_dir("measures_sampled");
  const json sampled = run_text(head + "silhouette_sample: 200\n", dir / "sampled", 2);
  ASSERT_FALSE(sampled.is_null());
  std::set<std::uint64_t> seeds;
  for (const auto& cell : sampled["cells"]) {
    ASSERT_TRUE(cell.contains("evaluation_samples")) << cell["series"];
    const json& s = cell["evaluation_samples"]["silhouette"];
    EXPECT_EQ(s["points"], 200);
    EXPECT_EQ(s["of"], 600);
    EXPECT_EQ(s["sampling"], "stratified");
    seeds.insert(s["seed"].get<std::uint64_t>());
    EXPECT_EQ(s["standard_error"]["n"], 3);
    EXPECT_FALSE(cell["evaluation_samples"].contains("accuracy"));  // on every point
    for (const auto& t : cell["trials"]) {
      const double se = t["metric_standard_errors"]["silhouette"].get<double>();
      EXPECT_GT(se, 0.0);
      EXPECT_LT(se, 0.05);
      EXPECT_FALSE(t["metric_standard_errors"].contains("accuracy"));
      for (const char* m : {"silhouette", "accuracy"})
        EXPECT_GE(t["timing"]["metric_seconds"][m].get<double>(), 0.0) << m;
    }
    EXPECT_EQ(cell["timing"]["metric_seconds"]["silhouette"]["n"], 3);
    EXPECT_EQ(cell["timing"]["metrics_seconds"]["n"], 3);
  }
  EXPECT_EQ(seeds.size(), 1u);  // one sample for the dataset
  const json exact = run_text(head + "silhouette_sample: all\n", dir / "all", 2),
             large = run_text(head + "silhouette_sample: 600\n", dir / "600", 2);
  ASSERT_FALSE(exact.is_null());
  for (const json* r : {&exact, &large})
    for (const auto& cell : (*r)["cells"]) {
      EXPECT_FALSE(cell.contains("evaluation_samples"));
      for (const auto& t : cell["trials"]) EXPECT_FALSE(t.contains("metric_standard_errors"));
    }
  // Every point is the default here (600 <= 2000): the same numbers as `all`.
  EXPECT_EQ(strip_nondeterministic(exact).dump(), strip_nondeterministic(run_text(head, dir / "default", 2)).dump());
  // The sampled value lies near the exact one (its standard error is a few hundredths at most here).
  const double on_sample = cell_of(sampled, "kmeans")["aggregates"]["silhouette"]["mean"].get<double>(),
               on_all = cell_of(exact, "kmeans")["aggregates"]["silhouette"]["mean"].get<double>();
  EXPECT_NE(on_sample, on_all);
  EXPECT_NEAR(on_sample, on_all, 0.05);
}

TEST(KMeansMeasuresRun, SilhouetteSampleKeyIsCheckedWithItsLine) {
  const std::string head =
      "experiment: x\n" + kDataset + "methods:\n  - {method: kmeans, params: {k: 4}}\nmetrics: [silhouette]\n";
  EXPECT_EQ(parse_config(head, "t.yaml", fs::temp_directory_path(), "").evaluation.silhouette_sample, 2000u);
  EXPECT_EQ(parse_config(head + "silhouette_sample: all\n", "t.yaml", fs::temp_directory_path(), "")
                .evaluation.silhouette_sample,
            0u);
  EXPECT_EQ(parse_config(head + "silhouette_sample: 1e4\n", "t.yaml", fs::temp_directory_path(), "")
                .evaluation.silhouette_sample,
            10000u);
  for (const char* bad : {"2", "-5", "2000001", "1.5", "some"}) {
    const std::string msg = error_of(head + "silhouette_sample: " + bad + "\n");
    EXPECT_NE(msg.find("t.yaml:9"), std::string::npos) << bad << ": " << msg;
    EXPECT_NE(msg.find("silhouette_sample"), std::string::npos) << bad << ": " << msg;
    EXPECT_NE(msg.find("or all"), std::string::npos) << bad << ": " << msg;
  }
  EXPECT_NE(error_of(head + "silhouete_sample: 100\n").find("silhouette_sample"), std::string::npos);  // did you mean
}

// The cost model counts the named measures: the silhouette's m^2 d / 2 on its sample, the reference's restarts.
TEST(KMeansMeasuresRun, TheCostModelCountsTheNamedMeasures) {
  const std::string head = "experiment: x\ntrials: 4\n" + kDataset + "methods:\n  - {method: kmeans, params: {k: 4}}\n";
  auto cost = [&](const std::string& metrics) {
    const ExperimentConfig cfg = parse_config(head + metrics, "t.yaml", fs::temp_directory_path(), "");
    DataShape shape;
    shape.n = 100'000;
    shape.d = 100;
    return *estimate_trial_cost(cfg, expand_grid(cfg)[0], shape);
  };
  const TrialCost plain = cost("metrics: [ari]\n"), sil = cost("metrics: [ari, silhouette]\n"),
                  ref = cost("metrics: [ari, normalized_kmeans_cost]\n"), unnamed = cost("");
  EXPECT_EQ(unnamed.work, plain.work);                    // not computed by default
  EXPECT_GE(sil.work - plain.work, 2e3 * 2e3 * 100 / 2);  // the default sample, 2000 points
  EXPECT_LT(sil.work - plain.work, 1e4 * 1e4 * 100 / 2);
  const TrialCost dpm_sample = cost("metrics: [ari, silhouette]\nsilhouette_sample: 10000\n");
  EXPECT_GE(dpm_sample.work - plain.work, 1e4 * 1e4 * 100 / 2);
  EXPECT_GT(sil.memory, plain.memory);
  // 10 restarts of up to 300 iterations of n k d, over the 4 trials of the cell.
  EXPECT_GE(ref.work - plain.work, 10.0 * 300 * 1e5 * 4 * 100 / 4);
}

// The Dunn index pairs every point once (n^2 d / 2); the hybrid k-means in 100 dimensions runs DPLloyd alone (no grid),
// so its estimate has no grid in it: Google's demo's 20,000 x 100 was estimated at 4,000 s and 1.8 GiB a trial when it
// counted EUGkM's largest grid.
TEST(KMeansMeasuresRun, TheCostModelCountsTheDunnIndexAndNoGridForTheHybridAlone) {
  auto cost = [&](const std::string& methods, const std::string& metrics, std::size_t n, std::size_t d) {
    const ExperimentConfig cfg =
        parse_config("experiment: x\ntrials: 4\n" + kDataset + "methods:\n" + methods + metrics, "t.yaml",
                     fs::temp_directory_path(), "");
    DataShape shape;
    shape.n = n;
    shape.d = d;
    shape.bounds = Bounds{std::vector<double>(d, -1.0), std::vector<double>(d, 1.0)};
    return *estimate_trial_cost(cfg, expand_grid(cfg)[0], shape);
  };
  const std::string kmeans = "  - {method: kmeans, params: {k: 4}}\n";
  EXPECT_GE(cost(kmeans, "metrics: [dunn]\n", 20'000, 10).work - cost(kmeans, "metrics: [ari]\n", 20'000, 10).work,
            2e4 * 2e4 * 10 / 2);
  const std::string hybrid = "  - {method: hybrid_kmeans, params: {k: 64, epsilon: 1.0}}\n";
  const TrialCost high = cost(hybrid, "", 20'000, 100);
  EXPECT_LT(high.memory, 64.0 * 1024 * 1024);
  EXPECT_LT(high.work, 1e11);  // at most 7 DPLloyd iterations of n k d = 1.28e8
}

}  // namespace kmeans_measures_run
