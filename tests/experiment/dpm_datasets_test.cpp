// The data of DPM's evaluation (UzL-PrivSec/clustering-evaluation, datasets.py) as the registry defines it:
// synth_10d / synth_big1 equal scikit-learn's make_blobs bit for bit (hashes of the float64 arrays from Debian 12's
// numpy 1.24.2 / scikit-learn 1.2.1: hashlib.sha256(x.tobytes())), the points outside the artifact's box are
// clamped into it, and UCI Letter resampled as the artifact's uciLetters resamples it (default_rng(42)).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>

#include "config/config.hpp"
#include "datasources/sha256.hpp"
#include "loading/dataset_loading.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;

namespace {

Dataset load(const std::string& dataset_lines, const std::string& root = "/nonexistent-data-root") {
  const fs::path dir = dpclust::testing::temp_dir("dpm_data");
  const std::string text =
      "experiment: dpm_data\ndatasets:\n" + dataset_lines + "methods:\n  - method: kmeans\n    params: {k: 2}\n";
  const ExperimentConfig cfg = parse_config(text, (dir / "t.yaml").string(), dir, root);
  Dataset ds = materialize_dataset(cfg.datasets.at(0));
  fs::remove_all(dir);
  return ds;
}

std::string sha256_of_doubles(const std::vector<double>& v) {
  std::string bytes(v.size() * sizeof(double), '\0');
  std::memcpy(bytes.data(), v.data(), bytes.size());  // little-endian float64, as numpy's tobytes() on x86
  return datasources::sha256_hex(bytes);
}

}  // namespace

TEST(DpmDatasets, Synth10dIsScikitLearnsMakeBlobsAndClampsItsOutliers) {
  // make_blobs(100000, 10, centers=64, center_box=(-100, 100), random_state=42)
  const Dataset raw = load("  - name: synth_10d\n    bounds: none\n");
  ASSERT_EQ(raw.n, 100000u);
  EXPECT_EQ(sha256_of_doubles(raw.coords), "c954ee1cbeda2ee9f033b5fa7710eb3253882fd6a4488f09357aa24214371458");
  const Dataset clamped = load("  - name: synth_10d\n");
  ASSERT_EQ(clamped.n, 100000u);
  EXPECT_EQ(clamped.provenance["clamped_to_bounds"], 1907);  // rows with a coordinate outside (-100, 100)
  for (double v : clamped.coords) ASSERT_TRUE(v >= -100 && v <= 100);
  std::size_t moved = 0;
  for (std::size_t i = 0; i < raw.coords.size(); ++i) moved += raw.coords[i] != clamped.coords[i];
  EXPECT_GE(moved, 1907u);
}

TEST(DpmDatasets, SynthBig1IsScikitLearnsMakeBlobsIn100Dimensions) {
  const Dataset raw = load("  - name: synth_big1\n    bounds: none\n");
  ASSERT_EQ(raw.d, 100u);
  EXPECT_EQ(sha256_of_doubles(raw.coords), "c7874b6213bd62a28ffef4347c223ef17f392b7b90a244af842327b7c0ad926b");
  const Dataset clamped = load("  - name: synth_big1\n");
  EXPECT_EQ(clamped.provenance["clamped_to_bounds"], 27068);
}

TEST(DpmDatasets, LettersResampledAsTheArtifactsUciLetters) {
  DPCLUST_REQUIRE_DATA("uci/letter-recognition.data");
  // datasets.uciLetters on UCI's file: 720 rows a letter by default_rng(42), then permuted.
  const Dataset ds =
      load("  - name: uci_letters\n    use: letter\n    resample_per_class: 720\n    resample_seed: 42\n",
           dpclust::testing::data_root().string());
  ASSERT_EQ(ds.n, 26u * 720u);
  EXPECT_EQ(sha256_of_doubles(ds.coords), "470847eb34806ca01b0cdf580fe6333a1e74f4874a5cb52129576e4fd547cc9a");
  // The first labels, y_new[:10] = 0 7 5 24 15 23 9 24 10 9: A H F Y P X J Y K J.
  std::map<Label, std::string> text;
  for (const auto& [t, v] : ds.provenance["label_map"].items()) text[v.get<Label>()] = t;
  std::string first;
  for (std::size_t i = 0; i < 10; ++i) first += text.at(ds.labels[i]);
  EXPECT_EQ(first, "AHFYPXJYKJ");
  EXPECT_EQ(ds.non_private_notes.size(), 1u);
}
