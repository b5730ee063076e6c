// The DP WaveCluster paper configs beyond Figure 3 (configs/paper/wavecluster_{ds3_g36, grid_sweep, 3d,
// wavelets, kdd_fig1, fig2_gowalla}.yaml) validate, the Gowalla Figure 2 config runs on a small fixture in
// the SNAP format the test writes, and WaveCluster / PrivTHR work in 3-D as wavecluster_3d.yaml runs them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "test_support.hpp"
#include "wavecluster/privthr.hpp"
#include "wavecluster/wavecluster.hpp"
#include "wavecluster/wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using dpclust::testing::make_dataset;
using dpclust::testing::wc_params;

const fs::path kSource = fs::path(__FILE__).parent_path().parent_path().parent_path();

// The binary built beside this test (build/tests/test_wavecluster -> build/experiments/dpclust), or
// $DPCLUST_BINARY; empty when neither exists.
fs::path dpclust_binary() {
  if (const char* env = std::getenv("DPCLUST_BINARY"); env && fs::exists(env)) return env;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path candidate = self.parent_path().parent_path() / "experiments" / "dpclust";
  return fs::exists(candidate) ? candidate : fs::path{};
}

std::string config(const std::string& name) { return (kSource / "configs" / "paper" / (name + ".yaml")).string(); }

TEST(WaveClusterPaperConfigs, Validate) {
  const fs::path bin = dpclust_binary();
  if (bin.empty()) GTEST_SKIP() << "the dpclust binary is not built beside this test (set DPCLUST_BINARY)";
  // wavecluster_3d generates its data: it validates with the data loaded anywhere.
  testing::CommandResult r =
      testing::run_command(bin.string() + " validate " + config("wavecluster_3d") + " --load-data");
  EXPECT_EQ(r.code, 0) << r.output;
  const fs::path root = testing::data_root();
  if (root.empty() || !fs::exists(root / "wavecluster" / "aggregation-30k.arff"))
    GTEST_SKIP() << "DS1-DS3 not under the data root: the DS configs are validated only with their data";
  for (const char* name :
       {"wavecluster_ds3_g36", "wavecluster_grid_sweep", "wavecluster_wavelets", "wavecluster_kdd_fig1"}) {
    r = testing::run_command(bin.string() + " validate " + config(name) + " --data-root " + root.string() +
                             " --load-data");
    EXPECT_EQ(r.code, 0) << name << ": " << r.output;
  }
}

// Figure 2 (d): wavecluster_fig2_gowalla on 3,000 check-ins around four cities in the SNAP layout
// (user, time, lat, lon, location), gzipped; without the file it names the fetch command (exit 2).
TEST(WaveClusterPaperConfigs, GowallaFigure2RunsOnAFixture) {
  const fs::path bin = dpclust_binary();
  if (bin.empty()) GTEST_SKIP() << "the dpclust binary is not built beside this test (set DPCLUST_BINARY)";
  const fs::path empty = testing::temp_dir("wc_gowalla_empty");
  testing::CommandResult r = testing::run_command(bin.string() + " validate " + config("wavecluster_fig2_gowalla") +
                                                  " --data-root " + empty.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("dpclust data fetch gowalla"), std::string::npos) << r.output;

  const fs::path root = testing::temp_dir("wc_gowalla_root");
  const double cities[4][2] = {{40.7, -74.0}, {37.8, -122.4}, {51.5, -0.1}, {35.7, 139.7}};
  Rng rng(4);
  std::ostringstream rows;
  for (int i = 0; i < 3000; ++i) {
    const auto& c = cities[i % 4];
    rows << i % 97 << "\t2010-10-19T23:55:27Z\t" << rng.normal(c[0], 1.0) << '\t' << rng.normal(c[1], 1.0) << '\t' << i
         << '\n';
  }
  const fs::path txt = testing::write_file(root / "snap" / "loc-gowalla_totalCheckins.txt", rows.str());
  r = testing::run_command("gzip -f " + txt.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const fs::path out = testing::temp_dir("wc_gowalla_out");
  r = testing::run_command(bin.string() + " run " + config("wavecluster_fig2_gowalla") + " --data-root " +
                           root.string() + " --out " + out.string() + " --no-progress");
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream in(out / "wavecluster_fig2_gowalla" / "results.json");
  const json res = json::parse(in);
  ASSERT_EQ(res["cells"].size(), 1u);
  const json& trial = res["cells"][0]["trials"][0];
  // The release the figure draws: the 40 x 40 average subband of g = 80, four separate cities.
  EXPECT_EQ(trial["release"]["shape"], json::array({40, 40}));
  EXPECT_EQ(trial["release"]["clusters"].get<int>(), 4);
  EXPECT_FALSE(trial["release"]["significant_cells"].empty());
  EXPECT_EQ(res["datasets"]["gowalla"]["bounds"].size(), 2u);
}

// Four well-separated 3-D blobs (the setting of wavecluster_3d.yaml, smaller): WaveCluster with full
// (26-) connectivity finds four clusters; PrivTHR without noise equals it cell for cell; Haar's |Z|
// sensitivity stays 1 in 3-D.
TEST(WaveCluster3D, FindsTheBlobsAndPrivThrWithoutNoiseAgrees) {
  Rng rng(9);
  const double centres[4][3] = {{-8, -8, -8}, {8, -6, 2}, {-4, 8, 6}, {6, 6, -8}};
  std::vector<double> c;
  for (const auto& ctr : centres)
    for (int i = 0; i < 1500; ++i)
      for (int j = 0; j < 3; ++j) c.push_back(std::min(15.0, std::max(-15.0, rng.normal(ctr[j], 1.2))));
  const Dataset ds = make_dataset(std::move(c), 3, Bounds{{-15, -15, -15}, {15, 15, 15}});
  const WcParams wp = WcParams::from(wc_params(16, 0.5), 3);
  const WaveClusterOutput truth = run_wavecluster(ds, wp);
  EXPECT_EQ(truth.clustering.shape.dims, (std::vector<std::size_t>{8, 8, 8}));
  EXPECT_EQ(truth.clustering.n_clusters, 4u);
  EXPECT_EQ(sensitivity(GridShape{{16, 16, 16}}, wp.wavelet).nonpositive_count, 1.0);

  BudgetLedger l(1.0);
  l.set_noise_scale(0);
  Rng r(2);
  PrivThrOptions o;
  o.epsilon = 1.0;
  const WaveClusterOutput t = privthr(ds, wp, o, r, l);
  EXPECT_NO_THROW(l.verify());
  EXPECT_EQ(t.clustering.cell_cluster, truth.clustering.cell_cluster);
  EXPECT_EQ(t.k_prime, truth.k);
}

}  // namespace
}  // namespace dpclust::wavecluster
