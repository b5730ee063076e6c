// Dataset options for the DP-DBSCAN data from config to loaded points: `missing: drop`
// (Crash), a list or a glob of files concatenated in sorted order (HAR70+'s per-participant files).
#include <gtest/gtest.h>

#include "config/config.hpp"
#include "core/error.hpp"
#include "loading/dataset_loading.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;

namespace {

ExperimentConfig parse(const fs::path& dir, const std::string& dataset_lines) {
  const std::string text = "experiment: files\ndatasets:\n  - name: d\n" + dataset_lines +
                           "    params: {alpha: 0.5, min_pts: 2}\nmethods:\n  - method: dbscan\n";
  return parse_config(text, (dir / "t.yaml").string(), dir, "/nonexistent-data-root");
}

std::string error_of(const fs::path& dir, const std::string& dataset_lines) {
  try {
    const ExperimentConfig cfg = parse(dir, dataset_lines);
    materialize_dataset(cfg.datasets.at(0));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

fs::path participants() {
  fs::path dir = dpclust::testing::temp_dir("har");
  dpclust::testing::write_file(dir / "p" / "502.csv", "t,back_x,back_y,label\n0,5,6,1\n1,7,8,3\n");
  dpclust::testing::write_file(dir / "p" / "501.csv", "t,back_x,back_y,label\n0,1,2,1\n");
  dpclust::testing::write_file(dir / "p" / "510.csv", "t,back_x,back_y,label\n0,9,10,6\n");
  dpclust::testing::write_file(dir / "p" / "notes.txt", "not data\n");
  return dir;
}

}  // namespace

TEST(DatasetFiles, ListIsReadInSortedOrderWithEveryChecksum) {
  const fs::path dir = participants();
  const ExperimentConfig cfg =
      parse(dir, "    file: [p/510.csv, p/502.csv, p/501.csv]\n    columns: [back_x, back_y]\n    label: label\n");
  const Dataset ds = materialize_dataset(cfg.datasets.at(0));
  ASSERT_EQ(ds.n, 4u);
  EXPECT_EQ(ds.coords, (std::vector<double>{1, 2, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(ds.labels, (Labels{1, 1, 3, 6}));
  const auto& files = ds.provenance["files"];
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(fs::path(files[0]["path"].get<std::string>()).filename(), "501.csv");
  EXPECT_EQ(fs::path(files[2]["path"].get<std::string>()).filename(), "510.csv");
  for (const auto& f : files) EXPECT_EQ(f["crc32"].get<std::string>().size(), 8u);
}

TEST(DatasetFiles, GlobMatchesOnlyTheFileNamePatternSorted) {
  const fs::path dir = participants();
  const ExperimentConfig cfg = parse(dir, "    file: \"p/5*.csv\"\n    columns: [back_x, back_y]\n    label: none\n");
  EXPECT_TRUE(cfg.datasets[0].multi_file);
  const Dataset ds = materialize_dataset(cfg.datasets.at(0));
  EXPECT_EQ(ds.coords, (std::vector<double>{1, 2, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(ds.provenance["rows_per_file"], (nlohmann::json{1, 2, 1}));
}

TEST(DatasetFiles, GlobWithoutMatchOrAbsentListedFileIsAnError) {
  const fs::path dir = participants();
  std::string msg = error_of(dir, "    file: \"p/6*.csv\"\n");
  EXPECT_TRUE(contains(msg, "no file matches")) << msg;
  EXPECT_TRUE(contains(msg, "6*.csv")) << msg;
  msg = error_of(dir, "    file: [p/501.csv, p/599.csv]\n");
  EXPECT_TRUE(contains(msg, "file not found")) << msg;
  EXPECT_TRUE(contains(msg, "599.csv")) << msg;
}

TEST(DatasetFiles, ListsAndGlobsAreForCsvAndTsvOnly) {
  const fs::path dir = participants();
  std::string msg = error_of(dir, "    file: [a.arff, b.arff]\n");
  EXPECT_TRUE(contains(msg, "csv and tsv files only")) << msg;
  msg = error_of(dir, "    file: \"p*/501.csv\"\n");
  EXPECT_TRUE(contains(msg, "only appear in the file name")) << msg;
  msg = error_of(dir, "    file: []\n");
  EXPECT_TRUE(contains(msg, "empty list of files")) << msg;
}

TEST(DatasetFiles, MissingDropFromTheConfigIsCountedInProvenance) {
  const fs::path dir = dpclust::testing::temp_dir("crash");
  dpclust::testing::write_file(dir / "crash.csv", "LATITUDE,LONGITUDE\n40.5,-74.0\nNA,\n40.7,\n40.6,-73.9\n");
  std::string msg = error_of(dir, "    file: crash.csv\n    columns: [LONGITUDE, LATITUDE]\n");
  EXPECT_TRUE(contains(msg, "crash.csv:3")) << msg;
  const ExperimentConfig cfg =
      parse(dir, "    file: crash.csv\n    columns: [LONGITUDE, LATITUDE]\n    missing: drop\n");
  const Dataset ds = materialize_dataset(cfg.datasets.at(0));
  EXPECT_EQ(ds.coords, (std::vector<double>{-74.0, 40.5, -73.9, 40.6}));
  const nlohmann::json summary = dataset_summary(ds);
  EXPECT_EQ(summary["provenance"]["missing"]["rows_dropped"], 2);
  EXPECT_EQ(summary["n"], 2);
  // The shape known before loading is no longer exact: rows may be dropped.
  EXPECT_FALSE(known_shape(cfg.datasets[0]).n_exact);
}

TEST(DatasetFiles, MissingOptionIsValidated) {
  const fs::path dir = dpclust::testing::temp_dir("crash");
  std::string msg = error_of(dir, "    file: x.csv\n    missing: skip\n");
  EXPECT_TRUE(contains(msg, "t.yaml:")) << msg;
  EXPECT_TRUE(contains(msg, "missing must be 'refuse'")) << msg;
  msg = error_of(dir, "    file: x.dat\n    format: fimi\n    missing: drop\n");
  EXPECT_TRUE(contains(msg, "csv, tsv and arff files only")) << msg;
  msg = error_of(dir, "    file: x.dat\n    format: fimi\n    nominal: codes\n");
  EXPECT_TRUE(contains(msg, "csv, tsv and arff files only")) << msg;
  msg = error_of(dir, "    file: x.arff\n    nominal: ordinal\n");
  EXPECT_TRUE(contains(msg, "nominal must be one of: skip, codes, onehot")) << msg;
  msg = error_of(dir, "    generator: {type: moons, n_samples: 10}\n    missing: drop\n");
  EXPECT_TRUE(contains(msg, "file datasets only")) << msg;
}

// FIMI transactions as attributes, from the config (DRBT's Accidents reading).
TEST(DatasetFiles, FimiRaggedAndItemsPerRowFromTheConfig) {
  const fs::path dir = dpclust::testing::temp_dir("fimi_cfg");
  dpclust::testing::write_file(dir / "acc.dat", "1 2 3 4\n5 6\n7 8 9\n");
  const ExperimentConfig cfg =
      parse(dir, "    file: acc.dat\n    format: fimi\n    ragged: pad\n    items_per_row: 3\n");
  EXPECT_EQ(known_shape(cfg.datasets[0]).d, std::optional<std::size_t>(3));
  const Dataset ds = materialize_dataset(cfg.datasets.at(0));
  EXPECT_EQ(ds.coords, (std::vector<double>{1, 2, 3, 5, 6, 0, 7, 8, 9}));
  // Part of the dataset's definition, so of every cell's fingerprint.
  EXPECT_EQ(cfg.datasets[0].definition["items_per_row"].dump(), "\"3\"");  // as written in the config
  EXPECT_EQ(cfg.datasets[0].definition["ragged"], "pad");
  const Dataset truncated =
      materialize_dataset(parse(dir, "    file: acc.dat\n    format: fimi\n    ragged: truncate\n").datasets.at(0));
  EXPECT_EQ(truncated.d, 2u);

  std::string msg = error_of(dir, "    file: acc.dat\n    format: fimi\n    ragged: squash\n");
  EXPECT_TRUE(contains(msg, "t.yaml:")) << msg;
  EXPECT_TRUE(contains(msg, "ragged must be 'error'")) << msg;
  msg = error_of(dir, "    file: acc.dat\n    format: fimi\n    ragged: truncate\n    items_per_row: 3\n");
  EXPECT_TRUE(contains(msg, "cannot be combined")) << msg;
  msg = error_of(dir, "    file: acc.dat\n    format: fimi\n    items_per_row: 0\n");
  EXPECT_TRUE(contains(msg, "between 1 and 100000")) << msg;
  msg = error_of(dir, "    file: x.csv\n    items_per_row: 3\n");
  EXPECT_TRUE(contains(msg, "fimi files only")) << msg;
  msg = error_of(dir, "    generator: {type: moons, n_samples: 10}\n    ragged: pad\n");
  EXPECT_TRUE(contains(msg, "fimi files only")) << msg;
}

// Results say which source gave a fetched data file (the fetch record beside it), and that a
// file placed by hand was not fetched.
TEST(DatasetFiles, TheFetchRecordsSourceIsInTheDatasetsProvenance) {
  const fs::path root = dpclust::testing::temp_dir("src_root");
  dpclust::testing::write_file(root / "fimi" / "x.dat", "1 2\n3 4\n");
  const std::string text =
      "experiment: files\ndatasets:\n  - name: d\n    data_file: fimi/x.dat\n    format: fimi\n"
      "methods:\n  - method: kmeans\n    params: {k: 1}\n";
  const auto load = [&] {
    return materialize_dataset(parse_config(text, (root / "t.yaml").string(), root, root).datasets.at(0));
  };
  EXPECT_TRUE(contains(load().provenance["source"].get<std::string>(), "no fetch record")) << load().provenance.dump();

  dpclust::testing::write_file(
      root / ".dpclust" / "records" / "fimi" / "x.dat.json",
      R"({"dataset": "d", "sha256": "abc", "pinned": true, "fetched_at": "2026-01-01T00:00:00Z",
                                   "source": {"index": 2, "of": 2, "origin": "https://example.org/copy/x.dat"},
                                   "sources_failed": [{"index": 1, "error": "404"}]})");
  const nlohmann::json s = load().provenance["source"];
  EXPECT_EQ(s["origin"], "https://example.org/copy/x.dat");
  EXPECT_EQ(s["index"], 2);
  EXPECT_EQ(s["of"], 2);
  EXPECT_EQ(s["sha256"], "abc");
  EXPECT_EQ(s["fetched_at"], "2026-01-01T00:00:00Z");

  dpclust::testing::write_file(root / ".dpclust" / "records" / "fimi" / "x.dat.json", "{not json");
  EXPECT_TRUE(contains(load().provenance["source"].get<std::string>(), "unreadable")) << load().provenance.dump();
}

// A record identifier is no coordinate. wdbc's IDNumber (found by its name; its values are not
// monotone) is left out when the config does not list `columns`, kept when listed or under
// `identifier_columns: keep`; an unnamed row-number column (integers increasing in file order) likewise.
TEST(DatasetFiles, IdentifierColumnsDroppedByDefaultKeptWhenListedOrKept) {
  const fs::path dir = dpclust::testing::temp_dir("idcols");
  std::string wdbc =
      "@relation wdbc\n@attribute IDNumber real\n@attribute radius real\n@attribute texture real\n"
      "@attribute class {B,M}\n@data\n";
  const double ids[] = {842302, 842517,   84300903, 84348301, 84358402, 843786,
                        844359, 84458202, 844981,   84501001, 845636};
  for (int i = 0; i < 11; ++i)
    wdbc += std::to_string(static_cast<long long>(ids[i])) + "," + std::to_string(10 + i) + ".5," +
            std::to_string(20 - i) + ".25," + (i % 2 ? "M" : "B") + "\n";
  dpclust::testing::write_file(dir / "wdbc.arff", wdbc);

  ::testing::internal::CaptureStderr();
  const Dataset dflt = materialize_dataset(parse(dir, "    file: wdbc.arff\n").datasets.at(0));
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(dflt.d, 2u);
  EXPECT_EQ(dflt.column_names, (std::vector<std::string>{"radius", "texture"}));
  EXPECT_EQ(dflt.coords[0], 10.5);
  EXPECT_EQ(dflt.coords[1], 20.25);
  EXPECT_EQ(dflt.provenance["identifier_columns_dropped"],
            nlohmann::json::parse(R"([{"name": "IDNumber", "reason": "name"}])"));
  EXPECT_EQ(dflt.provenance["columns"], nlohmann::json::parse(R"(["radius", "texture"])"));
  EXPECT_TRUE(contains(err, "column 'IDNumber' looks like a record identifier")) << err;
  EXPECT_FALSE(contains(err, "842302")) << err;

  ::testing::internal::CaptureStderr();
  const Dataset listed =
      materialize_dataset(parse(dir, "    file: wdbc.arff\n    columns: [IDNumber, radius]\n").datasets.at(0));
  const Dataset kept =
      materialize_dataset(parse(dir, "    file: wdbc.arff\n    identifier_columns: keep\n").datasets.at(0));
  EXPECT_TRUE(::testing::internal::GetCapturedStderr().empty());
  EXPECT_EQ(listed.d, 2u);
  EXPECT_EQ(listed.coords[0], 842302);
  EXPECT_EQ(kept.d, 3u);
  EXPECT_EQ(kept.coords[0], 842302);
  EXPECT_FALSE(listed.provenance.contains("identifier_columns_dropped"));
  EXPECT_FALSE(kept.provenance.contains("identifier_columns_dropped"));

  // A header-less CSV whose first column counts the rows; the label column is never an identifier.
  std::string rows;
  for (int i = 0; i < 12; ++i)
    rows += std::to_string(i + 1) + "," + std::to_string(i % 3) + ".5," + std::to_string(i % 4) + "," +
            std::to_string(i) + "\n";
  dpclust::testing::write_file(dir / "rows.csv", rows);
  ::testing::internal::CaptureStderr();
  const Dataset counted = materialize_dataset(parse(dir, "    file: rows.csv\n    label: \"3\"\n").datasets.at(0));
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(counted.d, 2u);
  EXPECT_EQ(counted.column_names, (std::vector<std::string>{"col1", "col2"}));
  EXPECT_EQ(counted.provenance["identifier_columns_dropped"][0]["reason"], "increasing integers");
  EXPECT_EQ(counted.labels[11], 11);
}

TEST(DatasetFiles, IdentifierColumnsOptionIsValidated) {
  const fs::path dir = dpclust::testing::temp_dir("idcols");
  std::string msg = error_of(dir, "    file: x.csv\n    identifier_columns: maybe\n");
  EXPECT_TRUE(contains(msg, "t.yaml:")) << msg;
  EXPECT_TRUE(contains(msg, "identifier_columns must be 'drop'")) << msg;
  msg = error_of(dir, "    file: x.dat\n    format: fimi\n    identifier_columns: keep\n");
  EXPECT_TRUE(contains(msg, "csv, tsv and arff files only")) << msg;
  msg = error_of(dir, "    generator: {type: moons, n_samples: 10}\n    identifier_columns: keep\n");
  EXPECT_TRUE(contains(msg, "csv, tsv and arff files only")) << msg;
}
