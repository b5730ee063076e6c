// The secure samplers' epsilon limits at the command line: `dpclust validate` refuses an epsilon the secure samplers
// cannot serve with exit 2 and a message naming the limit (dp_kmeans: about 3.19e-9 for d = 2, T = 5, no n_public, half
// width a power of two; dp_dbscan with gaussian noise: sqrt(2 ln(1.25/delta)) / 2^20), and accepts the paper's tiny
// epsilons (1.5625e-8) and the textbook sampler below the limit.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using Result = dpclust::testing::CommandResult;

std::string binary() {
  const char* b = std::getenv("DPCLUST_BINARY");
  return b ? b : DPCLUST_BINARY_PATH;
}

Result validate(const std::string& tag, const std::string& method_line) {
  const fs::path dir = dpclust::testing::temp_dir(tag);
  const fs::path cfg = dpclust::testing::write_file(
      dir / "c.yaml",
      "experiment: e\ndatasets:\n  - {name: m, generator: {type: moons, n_samples: 100, seed: 1}, "
      "bounds: [[-2, 2], [-2, 2]]}\nmethods:\n  - " +
          method_line + "\n");
  return dpclust::testing::run_command(binary() + " validate " + cfg.string());
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(EpsilonLimitsCli, DpKmeansBelowTheSecureLimitExitsTwoNamingIt) {
  Result r = validate("kmeans_low", "{method: dp_kmeans, params: {k: 2, epsilon: 1e-12}}");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "methods[0].params.epsilon")) << r.output;
  EXPECT_TRUE(has(r.output, "is below 3.18965e-09")) << r.output;
  EXPECT_TRUE(has(r.output, "use epsilon >= 3.18965e-09")) << r.output;
  r = validate("kmeans_just_below", "{method: dp_kmeans, params: {k: 2, epsilon: 3.1896e-9}}");
  EXPECT_EQ(r.code, 2) << r.output;
  for (const char* ok : {"{method: dp_kmeans, params: {k: 2, epsilon: 3.18965e-9}}",
                         "{method: dp_kmeans, params: {k: 2, epsilon: 1.5625e-8}}",
                         "{method: dp_kmeans, params: {k: 2, epsilon: 1e-12, sampler: textbook}}",
                         "{method: dp_kmeans, params: {k: 2, epsilon: 1e-12, variant: diffprivlib}}"}) {
    r = validate("kmeans_ok", ok);
    EXPECT_EQ(r.code, 0) << ok << ": " << r.output;
  }
}

TEST(EpsilonLimitsCli, DpDbscanGaussianBelowTheSecureLimitExitsTwo) {
  Result r =
      validate("gauss_low",
               "{method: dp_dbscan, params: {alpha: 0.3, min_pts: 5, noise: gaussian, delta: 1e-6, epsilon: 1e-6}}");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "is below 5.05")) << r.output;
  r = validate("gauss_ok",
               "{method: dp_dbscan, params: {alpha: 0.3, min_pts: 5, noise: gaussian, delta: 1e-6, epsilon: 1e-5}}");
  EXPECT_EQ(r.code, 0) << r.output;
}

}  // namespace
