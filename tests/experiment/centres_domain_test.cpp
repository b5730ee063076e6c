// Released centres outside the public domain (core/centres_domain.hpp): moved to the nearest point of the domain by
// default, as post-processing (the release, the centres the metrics read and nearest-centre labels follow; the
// ledger is untouched), or kept (`centres_outside_domain: keep`); the trial and the cell record it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "config/config.hpp"
#include "core/centres_domain.hpp"
#include "core/files.hpp"
#include "core/named_choice.hpp"
#include "run/runner.hpp"
#include "run/single_trial.hpp"
#include "test_support.hpp"

using namespace dpclust;
using json = nlohmann::json;

namespace centres_domain {  // named: the unity build shares the file with others

// A "method" that releases two centres, one far outside [0, 1]^2, and labels each point with its nearest centre.
class WildCentres final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet&, Rng&, BudgetLedger&) const override {
    MethodResult r;
    r.centres = RowMatrix(2, 2);
    r.centres << 0.25, 0.25, -18797.0, 29433.0;
    r.release = {{"centers", rows_json(r.centres)}};
    r.labels.assign(data.n, 0);  // every point is nearer (0.25, 0.25) than (-18797, 29433)
    return r;
  }
};

MethodInfo wild_info() {
  MethodInfo m;
  m.name = "wild_centres";
  m.releases_centres = true;
  m.labels_are_nearest_centre = true;
  m.differentially_private = true;
  m.trivial_baseline = true;  // 0-DP: charges nothing
  m.make = [] { return std::make_unique<WildCentres>(); };
  return m;
}

Dataset corner_data() {
  Dataset d;
  d.name = "corner";
  d.n = 3;
  d.d = 2;
  d.coords = {0.2, 0.2, 0.1, 0.9, 0.05, 0.95};  // the last two nearer (0, 1) than (0.25, 0.25)
  d.bounds.lo = {0.0, 0.0};
  d.bounds.hi = {1.0, 1.0};
  return d;
}

}  // namespace centres_domain

using namespace centres_domain;

TEST(CentresDomain, ProjectionOntoTheBox) {
  RowMatrix c(3, 2);
  c << 0.5, 0.5, -2.0, 3.0, std::numeric_limits<double>::quiet_NaN(), 0.5;
  Bounds box;
  box.lo = {0.0, 0.0};
  box.hi = {1.0, 2.0};
  RowMatrix kept = c;
  EXPECT_EQ(centres_outside_domain(kept, box, CentresOutsideDomain::keep), 2u);
  EXPECT_EQ(kept(1, 0), -2.0);  // keep counts and leaves
  EXPECT_EQ(centres_outside_domain(c, box, CentresOutsideDomain::clamp), 2u);
  EXPECT_EQ(c(0, 0), 0.5);  // inside: untouched
  EXPECT_EQ(c(1, 0), 0.0);
  EXPECT_EQ(c(1, 1), 2.0);
  EXPECT_EQ(c(2, 0), 0.5);  // NaN to the box's centre
  EXPECT_EQ(centres_outside_domain(c, box, CentresOutsideDomain::clamp), 0u);
  EXPECT_EQ(centres_outside_domain(c, Bounds{}, CentresOutsideDomain::clamp), 0u);  // no public domain: nothing to do
}

TEST(CentresDomain, ClampedByDefaultAsPostProcessing) {
  const MethodInfo info = wild_info();
  const Dataset data = corner_data();
  const TrialRun run = run_single_trial(info, data, ParamSet{}, Randomness::seeded, 1);
  EXPECT_EQ(run.centres_outside, 1u);
  EXPECT_EQ(run.centres_policy, CentresOutsideDomain::clamp);
  EXPECT_EQ(run.result.centres(1, 0), 0.0);
  EXPECT_EQ(run.result.centres(1, 1), 1.0);
  EXPECT_EQ(run.result.release["centers"][1], json::array({0.0, 1.0}));
  EXPECT_EQ(run.result.labels, (Labels{0, 1, 1}));        // relabelled from the moved centres
  EXPECT_EQ(run.ledger.to_json()["epsilon_total"], 0.0);  // free of privacy cost

  const TrialRun kept =
      run_single_trial(info, data, ParamSet{}, Randomness::seeded, 1, 1.0, true, CentresOutsideDomain::keep);
  EXPECT_EQ(kept.centres_outside, 1u);
  EXPECT_EQ(kept.result.centres(1, 0), -18797.0);
  EXPECT_EQ(kept.result.labels, (Labels{0, 0, 0}));
}

// In a run: DPM at a tiny epsilon on few points releases centres far outside the domain (a noisy leaf count
// near 0); the default run moves them in and records it per trial and per cell, `keep` reproduces the release.
TEST(CentresDomain, RunRecordsTheTrialsAndKeepLeavesTheRelease) {
  auto config = [](const std::string& extra) {
    return "experiment: wild\nseed: 3\ntrials: 6\n" + extra + R"(metrics: [normalized_kmeans_cost]
datasets:
  - name: pts
    generator: {type: gaussian_mixture, n_samples: 60, components: 3, n_features: 2, sd: 1.0, box_lo: 2, box_hi: 14, seed: 2}
    bounds: [[0, 16], [0, 16]]
    clip_to_bounds: true
methods:
  - {method: dpm, params: {epsilon: 0.05}}
)";
  };
  auto run = [](const std::string& text, const std::string& dir) {
    RunOptions o;
    o.out_dir = dpclust::testing::temp_dir(dir);
    o.threads = 1;
    o.progress = false;
    RunReport r = run_experiment(parse_config(text, "wild.yaml", std::filesystem::temp_directory_path(), ""), o);
    return json::parse(read_text_file(r.results_file));
  };
  const json clamp = run(config(""), "centres_clamp");
  const json keep = run(config("centres_outside_domain: keep\n"), "centres_keep");
  const json& c = clamp["cells"][0];
  const json& k = keep["cells"][0];
  ASSERT_TRUE(c.contains("post_processing"))
      << "no trial released a centre outside [0, 16]^2: choose a smaller epsilon";
  EXPECT_EQ(c["post_processing"]["centres_outside_domain"], "clamp");
  EXPECT_EQ(k["post_processing"]["centres_outside_domain"], "keep");
  EXPECT_EQ(c["post_processing"]["trials"], k["post_processing"]["trials"]);  // the same seeds, the same releases
  for (std::size_t t = 0; t < c["trials"].size(); ++t) {
    const bool moved = c["trials"][t].contains("post_processing");
    EXPECT_EQ(moved, k["trials"][t].contains("post_processing"));
    if (!moved) {
      EXPECT_EQ(c["trials"][t]["metrics"], k["trials"][t]["metrics"]);  // an unaffected trial is bit-identical
      continue;
    }
    EXPECT_EQ(c["trials"][t]["post_processing"]["action"], "clamp");
    // Moving a centre into the domain never moves it away from a point of the domain: the cost cannot grow.
    EXPECT_LE(c["trials"][t]["metrics"]["normalized_kmeans_cost"].get<double>(),
              k["trials"][t]["metrics"]["normalized_kmeans_cost"].get<double>());
  }
  EXPECT_NE(c["fingerprint"], k["fingerprint"]);  // a resumed run never reuses one for the other
}
