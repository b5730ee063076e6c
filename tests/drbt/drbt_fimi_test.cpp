// DRBT on FIMI data (Oliveira & Zaiane, Sec. 6, Tables 10-20): the pipeline FIMI loader -> z-score ->
// random projection -> K-means -> stress / overall F-measure on a small fixture the test writes, Table 10's
// party split as diagnostics, and the paper configs (configs/paper/drbt_*.yaml) validated and run through
// the `dpclust` binary on fixture-sized stand-ins for the five FIMI files (the real files are not needed).
#include <gtest/gtest.h>

#include <any>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "drbt/projection.hpp"
#include "drbt/register.hpp"
#include "io/fimi.hpp"
#include "test_support.hpp"

namespace dpclust::drbt {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSource = fs::path(__FILE__).parent_path().parent_path().parent_path();

ParamSet drbt_params(std::map<std::string, ParamValue> set) {
  ParamSet p;
  for (const auto& spec : drbt_method_info().params)
    if (!spec.required()) p.set(spec.name, spec.default_value);
  for (auto& [k, v] : set) p.set(k, v);
  return p;
}

const MetricInfo& drbt_metric(const std::string& name) {
  static const std::vector<MetricInfo> list = drbt_metric_list();
  for (const auto& m : list)
    if (m.name == name) return m;
  throw std::logic_error("no metric " + name);
}

// Two groups of 4 transactions: items 1/2, 4/5, 7/8 follow the group (attributes 0-2), item 10/11 of
// attribute 3 is noise (one 11 in each group).
constexpr const char* kTwoGroups =
    "1 4 7 10 \n1 4 7 10\n1 4 7 11\n1 4 7 10\n2 5 8 10\n2 5 8 11\n2 5 8 10\n2 5 8 10\n\n";

// Table 10: 74 attributes among 1-4 parties, 38 merged dimensions.
TEST(DrbtFimi, PartySizesAsTable10) {
  struct Row {
    std::size_t parties, attr_max, attr_min, dims_max, dims_min;
  };
  for (const Row& r : {Row{1, 74, 74, 38, 38}, Row{2, 37, 37, 19, 19}, Row{3, 25, 24, 13, 12}, Row{4, 19, 18, 10, 9}}) {
    const PartySizes s = party_sizes(partition_attributes(74, r.parties, 38));
    EXPECT_EQ(s.attributes_max, r.attr_max) << r.parties << " parties";
    EXPECT_EQ(s.attributes_min, r.attr_min) << r.parties << " parties";
    EXPECT_EQ(s.dims_max, r.dims_max) << r.parties << " parties";
    EXPECT_EQ(s.dims_min, r.dims_min) << r.parties << " parties";
  }
  EXPECT_THROW(party_sizes({}), std::invalid_argument);
}

// Loader -> z-score -> projection -> K-means -> metrics, in process, with hand-checked values.
TEST(DrbtFimi, PipelineOnAFixture) {
  const fs::path file = testing::write_file(testing::temp_dir("drbt_fimi") / "two.dat", kTwoGroups);
  const Dataset ds = load_fimi(file);
  ASSERT_EQ(ds.n, 8u);
  ASSERT_EQ(ds.d, 4u);
  EXPECT_EQ(ds.point(5)[3], 11.0);  // attribute j = the j-th item of the line

  // z-score (Eq. 3, population sd): attribute 0 holds four 1s and four 2s -> -1 / +1; attribute 3 holds
  // six 10s and two 11s: mean 10.25, sd sqrt(0.1875) -> (10 - 10.25) / 0.4330127 = -0.5773503.
  const ParamSet rotate = drbt_params({{"k_dims", std::int64_t{4}},
                                       {"k", std::int64_t{2}},
                                       {"normalization", std::string("orthonormal")},
                                       {"projection", std::string("rp1")},
                                       {"n_init", std::int64_t{10}}});
  const RowMatrix X = prepare_original(ds, rotate);
  EXPECT_DOUBLE_EQ(X(0, 0), -1.0);
  EXPECT_DOUBLE_EQ(X(7, 2), 1.0);
  EXPECT_NEAR(X(0, 3), -1.0 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(X(2, 3), std::sqrt(3.0), 1e-12);

  // d_r = d_o with orthonormal columns: a rotation, so stress 0 (Tables 12-16's d_r = d_o column) and
  // the same two groups, OF = 1.
  {
    BudgetLedger ledger;
    Rng rng(3);
    const MethodResult r = drbt_method_info().make()->run(ds, rotate, rng, ledger);
    std::map<std::string, std::any> cache;
    const MetricInput in{ds, r, rotate, drbt_method_info(), 11, cache};
    EXPECT_LT(drbt_metric("stress").compute(in), 1e-24);
    EXPECT_DOUBLE_EQ(drbt_metric("of").compute(in), 1.0);
    // K-means found the groups: rows 0-3 together, 4-7 together.
    for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(r.labels[i], r.labels[0]);
    for (std::size_t i = 5; i < 8; ++i) EXPECT_EQ(r.labels[i], r.labels[4]);
    EXPECT_NE(r.labels[0], r.labels[4]);
    EXPECT_EQ(r.diagnostics["party_attributes_max"], 4);
    EXPECT_EQ(r.diagnostics["party_dims_min"], 4);
  }
  // 4 -> 2 with RP2 over two parties: each party projects its 2 attributes to 1 dimension.
  {
    const ParamSet p = drbt_params({{"k_dims", std::int64_t{2}}, {"k", std::int64_t{2}}, {"parties", std::int64_t{2}}});
    BudgetLedger ledger;
    Rng rng(4);
    const MethodResult r = drbt_method_info().make()->run(ds, p, rng, ledger);
    EXPECT_EQ(r.release["parties"].size(), 2u);
    EXPECT_EQ(r.diagnostics["party_attributes_min"], 2);
    EXPECT_EQ(r.diagnostics["party_dims_max"], 1);
    std::map<std::string, std::any> cache;
    const MetricInput in{ds, r, p, drbt_method_info(), 12, cache};
    const double s = drbt_metric("stress").compute(in);
    EXPECT_GT(s, 0.0);
    EXPECT_LT(s, 1.0);
    const double of = drbt_metric("of").compute(in);
    EXPECT_GE(of, 0.0);
    EXPECT_LE(of, 1.0);
  }
}

// ---- the paper configs through the `dpclust` binary ---------------------------------------------------

// The binary built beside this test (build/tests/test_drbt -> build/experiments/dpclust), or
// $DPCLUST_BINARY; empty when neither exists.
fs::path dpclust_binary() {
  if (const char* env = std::getenv("DPCLUST_BINARY"); env && fs::exists(env)) return env;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path candidate = self.parent_path().parent_path() / "experiments" / "dpclust";
  return fs::exists(candidate) ? candidate : fs::path{};
}

#define DRBT_REQUIRE_BINARY(bin)         \
  const fs::path bin = dpclust_binary(); \
  if (bin.empty()) GTEST_SKIP() << "the dpclust binary is not built beside this test (set DPCLUST_BINARY)"

// Stand-ins for the five FIMI files with the papers' widths (Table 7): 40 transactions each, three
// groups; attribute j holds item 3j + 1 + group (80% of the time) or a random one of its three items.
// Accidents is ragged like the real accidents.dat: 15 to 45 items a line (the configs read 18).
fs::path fimi_fixture_root() {
  const fs::path root = testing::temp_dir("drbt_fimi_root");
  std::uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<unsigned>(state >> 33);
  };
  for (const auto& [name, d] : std::vector<std::pair<std::string, int>>{
           {"accidents", 18}, {"mushroom", 23}, {"chess", 37}, {"connect", 43}, {"pumsb", 74}}) {
    std::ostringstream out;
    for (int i = 0; i < 40; ++i) {
      const int width = name == "accidents" ? 15 + static_cast<int>(next() % 31) : d;
      for (int j = 0; j < width; ++j) {
        const unsigned item = next() % 10 < 8 ? static_cast<unsigned>(i % 3) : next() % 3;
        out << 3 * j + 1 + static_cast<int>(item) << ' ';
      }
      out << '\n';
    }
    testing::write_file(root / "fimi" / (name + ".dat"), out.str());
  }
  return root;
}

// configs/paper/<name>.yaml.
const std::vector<std::string> kNewConfigs = {"drbt_stress_fimi",   "drbt_of_fimi",          "drbt_partitioned_pumsb",
                                              "drbt_table4_series", "drbt_stress_accidents", "drbt_of_accidents"};

std::string config_path(const std::string& name) { return (kSource / "configs" / "paper" / (name + ".yaml")).string(); }

json results_of(const fs::path& out, const std::string& experiment) {
  std::ifstream in(out / experiment / "results.json");
  return json::parse(in);
}

TEST(DrbtConfigs, ValidateWithTheDataFiles) {
  DRBT_REQUIRE_BINARY(bin);
  const fs::path root = fimi_fixture_root();
  for (const auto& name : kNewConfigs) {
    const testing::CommandResult r = testing::run_command(bin.string() + " validate " + config_path(name) +
                                                          " --data-root " + root.string() + " --load-data");
    EXPECT_EQ(r.code, 0) << name << ": " << r.output;
  }
  // Without the files each FIMI config names the fetch command (exit code 2).
  const fs::path empty = testing::temp_dir("drbt_empty_root");
  const testing::CommandResult r = testing::run_command(bin.string() + " validate " + config_path("drbt_of_fimi") +
                                                        " --data-root " + empty.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("dpclust data fetch"), std::string::npos) << r.output;
}

TEST(DrbtConfigs, RunOnFixtureSizedData) {
  DRBT_REQUIRE_BINARY(bin);
  const fs::path root = fimi_fixture_root();
  const fs::path out = testing::temp_dir("drbt_fimi_out");
  const testing::CommandResult r =
      testing::run_command(bin.string() + " run " + config_path("drbt_stress_fimi") + " " +
                           config_path("drbt_of_fimi") + " " + config_path("drbt_partitioned_pumsb") + " " +
                           config_path("drbt_stress_accidents") + " " + config_path("drbt_of_accidents") +
                           " --data-root " + root.string() + " --out " + out.string() + " --trials 2 --no-progress");
  ASSERT_EQ(r.code, 0) << r.output;

  // Tables 12-16: 4 + 1 datasets x 7 d_r x 4 series; the orthonormal series is a rotation at d_r = d_o.
  const json stress = results_of(out, "drbt_stress_fimi");
  const json stress_acc = results_of(out, "drbt_stress_accidents");
  ASSERT_EQ(stress["cells"].size(), 112u);
  ASSERT_EQ(stress_acc["cells"].size(), 28u);
  EXPECT_EQ(stress["datasets"]["pumsb"]["d"], 74);
  EXPECT_EQ(stress["datasets"]["pumsb"]["n"], 40);
  // Accidents' ragged transactions read as the paper's 18 attributes (items_per_row: 18, ragged: pad).
  const json& acc = stress_acc["datasets"]["accidents"];
  EXPECT_EQ(acc["d"], 18);
  EXPECT_EQ(acc["n"], 40);
  EXPECT_EQ(acc["provenance"]["items_per_row"], 18);
  EXPECT_EQ(acc["provenance"]["ragged"], "pad");
  EXPECT_GE(acc["provenance"]["min_items"].get<int>(), 15);
  EXPECT_LE(acc["provenance"]["max_items"].get<int>(), 45);
  EXPECT_GT(acc["provenance"]["cut_or_padded_rows"].get<int>(), 30);  // all but the lines of exactly 18
  const std::map<std::string, int> d_o = {
      {"accidents", 18}, {"mushroom", 23}, {"chess", 37}, {"connect", 43}, {"pumsb", 74}};
  std::set<std::string> seen;
  json all_stress = stress["cells"];
  for (const json& cell : stress_acc["cells"]) all_stress.push_back(cell);
  for (const json& cell : all_stress) {
    const std::string ds = cell["dataset"];
    const std::string series = cell["series"];
    const double k_dims = cell["params"]["k_dims"];
    const double s = cell["aggregates"]["stress"]["mean"];
    EXPECT_GE(s, 0.0);
    if (k_dims == d_o.at(ds) && series.find("orthonormal") != std::string::npos) {
      EXPECT_LT(s, 1e-20) << ds << " " << series;
      seen.insert(ds);
    }
    if (k_dims < d_o.at(ds)) {
      EXPECT_GT(s, 0.0) << ds << " " << series << " " << k_dims;
    }
    EXPECT_EQ(cell["diagnostics_aggregates"]["d_original"]["mean"], d_o.at(ds));
  }
  EXPECT_EQ(seen.size(), 5u);

  // Tables 8, 17-20: OF in [0, 1] for k = 2..5 at the paper's d_r.
  const json of = results_of(out, "drbt_of_fimi");
  const json of_acc = results_of(out, "drbt_of_accidents");
  ASSERT_EQ(of["cells"].size(), 16u);
  ASSERT_EQ(of_acc["cells"].size(), 4u);
  const std::map<std::string, int> d_r = {
      {"accidents", 12}, {"chess", 25}, {"mushroom", 15}, {"pumsb", 38}, {"connect", 28}};
  json all_of = of["cells"];
  for (const json& cell : of_acc["cells"]) all_of.push_back(cell);
  for (const json& cell : all_of) {
    EXPECT_EQ(cell["series"], "rp2");
    EXPECT_EQ(cell["diagnostics_aggregates"]["d_reduced"]["mean"], d_r.at(cell["dataset"]));
    const double f = cell["aggregates"]["of"]["mean"];
    EXPECT_GT(f, 0.0);
    EXPECT_LE(f, 1.0);
  }

  // Table 10: the split of every cell, as diagnostics.
  const json part = results_of(out, "drbt_partitioned_pumsb");
  ASSERT_EQ(part["cells"].size(), 32u);
  const std::map<int, std::vector<int>> table10 = {
      {1, {74, 74, 38, 38}}, {2, {37, 37, 19, 19}}, {3, {25, 24, 13, 12}}, {4, {19, 18, 10, 9}}};
  for (const json& cell : part["cells"]) {
    const int parties = static_cast<int>(cell["params"]["parties"].get<double>());
    const json& diag = cell["diagnostics_aggregates"];
    const std::vector<int> got = {static_cast<int>(diag["party_attributes_max"]["mean"].get<double>()),
                                  static_cast<int>(diag["party_attributes_min"]["mean"].get<double>()),
                                  static_cast<int>(diag["party_dims_max"]["mean"].get<double>()),
                                  static_cast<int>(diag["party_dims_min"]["mean"].get<double>())};
    EXPECT_EQ(got, table10.at(parties)) << parties << " parties";
    EXPECT_EQ(diag["d_reduced"]["mean"], 38);
  }

  // plots/paper_drbt.py turns these results into the paper's tables and figures (JSON only).
  if (!fs::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3 for plots/paper_drbt.py";
  const fs::path figs = testing::temp_dir("drbt_fimi_figs");
  const testing::CommandResult p =
      testing::run_command("/usr/bin/python3 " + (kSource / "plots" / "paper_drbt.py").string() + " --results " +
                           out.string() + " --out " + figs.string());
  ASSERT_EQ(p.code, 0) << p.output;
  for (const char* f :
       {"drbt_table7.md", "drbt_table10.md", "drbt_table11.md", "drbt_tables12_16.md", "drbt_tables8_17_20.md",
        "drbt_fig2_stress.png", "drbt_fig3_partitioned.png"})  // PDF only with --pdf
    EXPECT_TRUE(fs::exists(figs / f) && fs::file_size(figs / f) > 0) << f << "\n" << p.output;
  std::ifstream t10(figs / "drbt_table10.md");
  const std::string text((std::istreambuf_iterator<char>(t10)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("| 3 | 25 / 24 | 13 / 12 | 38 |"), std::string::npos) << text;  // Table 10's third row
  EXPECT_NE(text.find("| 4 | 19 / 18 | 10 / 9 | 38 |"), std::string::npos) << text;
}

// Table 4 by series: 200 draws per cell; the orthonormal k = 6 cells are rotations (stress 0).
TEST(DrbtConfigs, Table4SeriesRuns) {
  DRBT_REQUIRE_BINARY(bin);
  const fs::path out = testing::temp_dir("drbt_t4_out");
  const testing::CommandResult r = testing::run_command(bin.string() + " run " + config_path("drbt_table4_series") +
                                                        " --out " + out.string() + " --trials 20 --no-progress");
  ASSERT_EQ(r.code, 0) << r.output;
  const json res = results_of(out, "drbt_table4_series");
  ASSERT_EQ(res["cells"].size(), 16u);
  std::map<std::string, std::map<int, double>> mean;
  for (const json& cell : res["cells"])
    mean[cell["series"]][static_cast<int>(cell["params"]["k_dims"].get<double>())] =
        cell["aggregates"]["stress"]["mean"];
  EXPECT_LT(mean["rp1_orthonormal"][6], 1e-20);
  EXPECT_LT(mean["rp2_orthonormal"][6], 1e-20);
  // Fewer dimensions, more distortion (on the mean over 20 draws).
  for (const std::string s : {"rp1", "rp2"}) EXPECT_GT(mean[s][3], mean[s][5]) << s;
}

}  // namespace
}  // namespace dpclust::drbt
