// `randomness: seeded | secure` and truthful release flags. A secure run writes no seed
// anywhere and is a private release exactly when its samplers are secure and no non_private note applies;
// a seeded run says why it is not one; labels extracted for evaluation are not a privacy condition.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "catalog/catalog.hpp"
#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "run/runner.hpp"
#include "run/single_trial.hpp"
#include "store/results_store.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// DP-DBSCAN (label-free release: spans; labels by the span classifier, for evaluation) with the secure
// sampler on generated moons inside a public box. `{MODE}` is replaced by the randomness line.
const std::string kConfig = R"(experiment: rnd
{MODE}trials: 2
datasets:
  - name: moons
    generator: {type: moons, n_samples: 400, noise: 0.05, seed: 3}
    bounds: [[-1.5, 2.5], [-1.0, 1.5]]
    params: {alpha: 0.2, min_pts: 5, n_public: 400}
methods:
  - {method: dp_dbscan, params: {histogram: linear, epsilon: 1.0}}
metrics: [ari, n_clusters]
)";

std::string with_mode(const std::string& mode_line, std::string text = kConfig) {
  return text.replace(text.find("{MODE}"), 6, mode_line);
}

ExperimentConfig config(const std::string& text) {
  return parse_config(text, "rnd.yaml", fs::temp_directory_path(), "");
}

std::string error_of(const std::string& text) {
  try {
    ExperimentConfig cfg = config(text);
    validate_experiment(cfg, false);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

json run(const std::string& text, const fs::path& out) {
  RunOptions o;
  o.out_dir = out;
  o.threads = 1;
  o.progress = false;
  RunReport r = run_experiment(config(text), o);
  EXPECT_TRUE(r.complete);
  return json::parse(read_text_file(r.results_file));
}

// Every file under dir, concatenated.
std::string all_text(const fs::path& dir) {
  std::string s;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) s += read_text_file(e.path());
  return s;
}

}  // namespace

TEST(Randomness, ConfigDefaultsToSeededAndReadsSecure) {
  EXPECT_EQ(config(with_mode("")).randomness, Randomness::seeded);
  EXPECT_EQ(config(with_mode("randomness: seeded\n")).randomness, Randomness::seeded);
  EXPECT_EQ(config(with_mode("randomness: secure\n")).randomness, Randomness::secure);
}

TEST(Randomness, ConfigRefusesUnknownModesAndSeedsWithSecure) {
  const std::string e = error_of(with_mode("randomness: secur\n"));
  EXPECT_NE(e.find("rnd.yaml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("randomness must be seeded or secure, got 'secur'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'secure'"), std::string::npos) << e;
  const std::string s = error_of(with_mode("randomness: secure\nseed: 4\n"));
  EXPECT_NE(s.find("uses no seed"), std::string::npos) << s;
  EXPECT_NE(error_of(with_mode("randomness: secure\nseeds: [0, 1]\n")).find("uses no seed"), std::string::npos);
}

TEST(Randomness, NumpyStreamIsRefusedWhenSecure) {
  std::string text = with_mode("randomness: secure\n");
  text.replace(text.find("{histogram: linear, epsilon: 1.0}"), 33,
               "{histogram: naive, epsilon: 1.0, rng: numpy, noise: laplace, sampler: textbook}");
  const std::string e = error_of(text);
  EXPECT_NE(e.find("rng: numpy draws the authors' numpy stream from a seed"), std::string::npos) << e;
  EXPECT_NE(e.find("rng"), std::string::npos) << e;
  // The same cell is valid when seeded (the authors' runs).
  text.replace(text.find("randomness: secure"), 18, "randomness: seeded");
  EXPECT_EQ(error_of(text), "");
  // And one trial outside a config (what the Python estimators run) refuses it too.
  ParamSet ps;
  ps.set("rng", std::string("numpy"));
  EXPECT_THROW(check_randomness(Randomness::secure, ps, "DPDBSCAN"), InputError);
  EXPECT_NO_THROW(check_randomness(Randomness::seeded, ps, "DPDBSCAN"));
}

TEST(Randomness, FingerprintDependsOnTheMode) {
  const ExperimentConfig seeded = config(with_mode("")), secure = config(with_mode("randomness: secure\n"));
  const auto a = expand_grid(seeded), b = expand_grid(secure);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].key, b[0].key);
  EXPECT_NE(cell_fingerprint(seeded, a[0]), cell_fingerprint(secure, b[0]));
}

TEST(Randomness, SecureRunIsAPrivateReleaseWithNoSeedAndDifferentNoise) {
  const fs::path dir = dpclust::testing::temp_dir("secure");
  const std::string text = with_mode("randomness: secure\n");
  const json r1 = run(text, dir / "a"), r2 = run(text, dir / "b");
  const json& cell = r1["cells"][0];
  EXPECT_EQ(r1["randomness"], "secure");
  EXPECT_EQ(r1["reproducible"], false);
  EXPECT_FALSE(r1.contains("base_seed"));
  EXPECT_FALSE(r1.contains("seed_scheme"));
  EXPECT_EQ(cell["randomness"]["mode"], "secure");
  EXPECT_EQ(cell["non_private"], json::array());
  // Labels extracted for evaluation are listed apart and do not make the release non-private.
  ASSERT_EQ(cell["evaluation_only"].size(), 1u);
  EXPECT_NE(cell["evaluation_only"][0].get<std::string>().find("evaluation only"), std::string::npos);
  EXPECT_EQ(cell["private_release"], true);
  for (const auto& t : cell["trials"]) {
    EXPECT_FALSE(t.contains("seed"));
    EXPECT_EQ(t["private_release"], true);
  }
  // No file of the run (cells, manifest, results, logs) holds a trial seed or a base seed: the only
  // "seed" is the generated dataset's own, in the config text and the dataset definition.
  const std::string files = all_text(dir / "a");
  EXPECT_EQ(files.find("\"base_seed\""), std::string::npos);
  EXPECT_EQ(files.find("seed_scheme"), std::string::npos);
  for (std::size_t at = files.find("\"seed\":"); at != std::string::npos; at = files.find("\"seed\":", at + 1)) {
    std::size_t v = at + 7;
    while (files[v] == ' ') ++v;
    EXPECT_EQ(files[v], '3') << files.substr(at > 200 ? at - 200 : 0, 260);  // the generator's seed: 3
    EXPECT_FALSE(std::isdigit(static_cast<unsigned char>(files[v + 1])));
  }
  // Two secure runs draw different noise: the released noisy counts differ.
  EXPECT_NE(r1["cells"][0]["trials"][0]["release"].dump(), r2["cells"][0]["trials"][0]["release"].dump());
}

TEST(Randomness, SeededRunSaysItIsNotASecureRelease) {
  const fs::path dir = dpclust::testing::temp_dir("seeded");
  const json r = run(with_mode("seed: 5\n"), dir);
  const json& cell = r["cells"][0];
  EXPECT_EQ(r["randomness"], "seeded");
  EXPECT_EQ(r["reproducible"], true);
  EXPECT_EQ(r["base_seed"], 5);
  EXPECT_EQ(cell["randomness"]["mode"], "seeded");
  EXPECT_EQ(cell["randomness"]["generator"], "mt19937_64");
  EXPECT_EQ(cell["randomness"]["secure_release"], false);
  EXPECT_NE(cell["randomness"]["why"].get<std::string>().find("regenerate the noise"), std::string::npos);
  EXPECT_EQ(cell["non_private"], json::array());
  EXPECT_EQ(cell["private_release"], false);
  for (const auto& t : cell["trials"]) {
    EXPECT_TRUE(t["seed"].is_number_unsigned());
    EXPECT_EQ(t["private_release"], false);
  }
}

TEST(Randomness, SecureRunWithANonPrivateNoteIsNotAPrivateRelease) {
  const fs::path dir = dpclust::testing::temp_dir("securenote");
  std::string text = with_mode("randomness: secure\n");
  const std::string box = "bounds: [[-1.5, 2.5], [-1.0, 1.5]]";
  text.replace(text.find(box), box.size(), "bounds: data");
  const json r = run(text, dir);
  const json& cell = r["cells"][0];
  ASSERT_EQ(cell["non_private"].size(), 1u);
  EXPECT_EQ(cell["non_private"][0], "domain bounds derived from the data (bounds: data)");
  EXPECT_EQ(cell["private_release"], false);
  EXPECT_EQ(cell["trials"][0]["private_release"], false);
}

TEST(Randomness, TextbookSamplerIsNotAPrivateReleaseEvenWhenSecure) {
  const fs::path dir = dpclust::testing::temp_dir("securetextbook");
  std::string text = with_mode("randomness: secure\n");
  text.replace(text.find("{histogram: linear, epsilon: 1.0}"), 33,
               "{histogram: linear, epsilon: 1.0, sampler: textbook}");
  const json r = run(text, dir);
  EXPECT_EQ(r["cells"][0]["private_release"], false);
  EXPECT_EQ(r["cells"][0]["trials"][0]["private_release"], false);
}
