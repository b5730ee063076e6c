// Geographic data end to end through the `dpclust` driver: lon/lat projected to km (1 degree of
// latitude = 111.2 km, longitude scaled by cos(ref_lat)), alpha given in km (20 m = 0.02), the grid
// over the projected public bounds, and the spans found where the (projected) points are. The test
// library does not link the data layer, so this runs the driver built next to the test binary
// (build/experiments/dpclust) and skips when it is absent.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>

#include "core/rng.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

namespace fs = std::filesystem;

fs::path driver() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path p = self.parent_path().parent_path() / "experiments" / "dpclust";
  return fs::exists(p) ? p : fs::path{};
}

TEST(Geo, ProjectedCabsLikePointsGiveSpansInKilometres) {
  const fs::path bin = driver();
  if (bin.empty()) GTEST_SKIP() << "dpclust driver not built next to the test binary (build target dpclust)";
  const fs::path dir = testing::temp_dir("geo");
  // Two 400-point clumps (about 5 m across) 0.01 degrees of longitude apart (~0.88 km) in San Francisco.
  const double lon_a = -122.42, lon_b = -122.41, lat = 37.78;
  std::ostringstream csv;
  csv << "lon,lat\n";
  Rng r(1);
  for (int i = 0; i < 800; ++i) {
    csv.precision(10);
    csv << (i % 2 ? lon_b : lon_a) + 0.00003 * r.normal() << "," << lat + 0.00003 * r.normal() << "\n";
  }
  testing::write_file(dir / "points.csv", csv.str());
  testing::write_file(dir / "geo.yaml",
                      "experiment: geo\nseed: 1\ntrials: 1\noutput: {release: true}\n"
                      "datasets:\n"
                      "  - name: pts\n"
                      "    file: " +
                          (dir / "points.csv").string() +
                          "\n"
                          "    columns: [lon, lat]\n"
                          "    label: none\n"
                          "    bounds: [[-122.48, -122.38], [37.72, 37.82]]\n"
                          "    project: {lon: lon, lat: lat, ref_lat: 37.8}\n"
                          "    params: {alpha: 0.02, min_pts: 50}\n"
                          "methods:\n"
                          "  - {method: dp_dbscan, params: {epsilon: 5.0}}\n"
                          "metrics: [n_clusters]\n");
  const std::string cmd = bin.string() + " run " + (dir / "geo.yaml").string() + " --out " + (dir / "out").string() +
                          " > " + (dir / "log.txt").string() + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << std::ifstream(dir / "log.txt").rdbuf();
  std::ifstream in(dir / "out" / "geo" / "results.json");
  ASSERT_TRUE(in.good());
  const nlohmann::json res = nlohmann::json::parse(in);
  const nlohmann::json& trial = res["cells"][0]["trials"][0];
  const nlohmann::json& grid = trial["release"]["grid"];
  const double w = 0.02 / std::sqrt(2.0);  // km
  EXPECT_NEAR(grid["cell_width"].get<double>(), w, 1e-12);
  const double kx = 111.2 * std::cos(37.8 * std::numbers::pi / 180.0), ky = 111.2;
  EXPECT_EQ(grid["cells_per_dim"][0].get<std::uint64_t>(), static_cast<std::uint64_t>(std::floor(0.1 * kx / w)) + 1);
  EXPECT_EQ(grid["cells_per_dim"][1].get<std::uint64_t>(), static_cast<std::uint64_t>(std::floor(0.1 * ky / w)) + 1);
  EXPECT_NEAR(grid["hi"][0].get<double>() - grid["lo"][0].get<double>(), 0.1 * kx, 1e-9);
  EXPECT_EQ(trial["diagnostics"]["spans"].get<int>(), 2);
  // Each clump's projected position (relative to the domain corner) lies in one span's bounding box.
  const nlohmann::json& spans = trial["release"]["spans"];
  ASSERT_EQ(spans.size(), 2u);
  for (double lon : {lon_a, lon_b}) {
    const double x = grid["lo"][0].get<double>() + (lon + 122.48) * kx,
                 y = grid["lo"][1].get<double>() + (lat - 37.72) * ky;
    int hits = 0;
    for (const auto& s : spans)
      hits += x >= s["bbox"][0][0].get<double>() && x <= s["bbox"][0][1].get<double>() &&
              y >= s["bbox"][1][0].get<double>() && y <= s["bbox"][1][1].get<double>();
    EXPECT_EQ(hits, 1) << "lon " << lon;
  }
  // The spans are a few cells of 14 m, not the whole kilometre between the clumps.
  for (const auto& s : spans) EXPECT_LT(s["bbox"][0][1].get<double>() - s["bbox"][0][0].get<double>(), 0.2);
}

}  // namespace
}  // namespace dpclust
