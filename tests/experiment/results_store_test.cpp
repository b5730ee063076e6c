// The results store under concurrency, corruption and full disks, through the real `dpclust` binary:
// concurrent runs of different configs (one refused) and of the same config (work shared, nothing
// lost), damaged and edited cell files (named, recomputed), untrusted names in manifests (merge stays
// inside --out), stale temp files, a full disk (test seam), and a read-only complete results directory.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>

#include "core/files.hpp"
#include "store/results_store.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string binary() {
  const char* b = std::getenv("DPCLUST_BINARY");  // override, e.g. to test an installed binary
  return b ? b : DPCLUST_BINARY_PATH;
}

// Appended, not "'" + ... (GCC 12 takes that concatenation for an oversized memcpy and warns).
std::string quote(const fs::path& p) {
  std::string q = "'";
  q += p.string();
  q += "'";
  return q;
}

dpclust::testing::CommandResult dpclust_cmd(const std::string& args) {
  return dpclust::testing::run_command(binary() + " " + args);
}

std::string run_args(const fs::path& cfg, const fs::path& out, const std::string& extra = "") {
  return "run " + quote(cfg) + " --out " + quote(out) + " --no-progress --threads 1 " + extra;
}

// Six cells of exact DBSCAN on 2000 points, two trials: well under a second.
std::string small_config(const std::string& name, int seed) {
  return "experiment: " + name + "\nseed: " + std::to_string(seed) +
         "\ntrials: 2\ndatasets:\n  - {name: m, generator: {type: moons, n_samples: 2000, noise: 0.08, seed: 3}, "
         "params: {min_pts: 5}}\n"
         "methods:\n  - {method: dbscan, params: {alpha: [0.05, 0.1, 0.15, 0.2, 0.25, 0.3]}}\nmetrics: [ari, "
         "n_clusters]\n";
}

json read_json(const fs::path& p) { return json::parse(read_text_file(p)); }

std::vector<fs::path> files_under(const fs::path& dir, const std::string& containing = "") {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename().string().find(containing) != std::string::npos)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> cell_files(const fs::path& exp_dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(exp_dir / "cells"))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Starts two shell commands at the same moment; returns their exit codes and outputs.
struct Pair {
  int code_a = -1, code_b = -1;
  std::string out_a, out_b;
};
Pair run_at_once(const fs::path& dir, const std::string& a, const std::string& b) {
  const fs::path la = dir / "a.log", lb = dir / "b.log", ra = dir / "a.rc", rb = dir / "b.rc";
  const std::string script = "(" + a + " > " + quote(la) + " 2>&1; echo $? > " + quote(ra) + ") & (" + b + " > " +
                             quote(lb) + " 2>&1; echo $? > " + quote(rb) + ") & wait";
  dpclust::testing::run_command(script);  // popen runs it with sh -c
  Pair p;
  p.code_a = std::stoi(read_text_file(ra));
  p.code_b = std::stoi(read_text_file(rb));
  p.out_a = read_text_file(la);
  p.out_b = read_text_file(lb);
  for (const auto& f : {la, lb, ra, rb}) fs::remove(f);
  return p;
}

// Every file under `dir` with its inode, size and modification time: equal snapshots = nothing written.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> s;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    struct stat st {};
    ::lstat(e.path().c_str(), &st);
    s[e.path().string()] = std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
                           std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
  }
  return s;
}

}  // namespace

TEST(Store, NamesReadFromFilesMustBeSafeSingleComponents) {
  EXPECT_TRUE(is_safe_name("my_sweep-1.2"));
  for (const char* bad : {"", ".", "..", "../../escaped", "a/b", "/abs", "a b", "x\\y"})
    EXPECT_FALSE(is_safe_name(bad)) << bad;
  EXPECT_FALSE(is_safe_name(std::string(201, 'a')));
  EXPECT_TRUE(is_cell_id("0123456789abcdef"));
  for (const char* bad : {"0123456789abcde", "0123456789ABCDEF", "../0123456789ab", "0123456789abcdeg"})
    EXPECT_FALSE(is_cell_id(bad)) << bad;
}

TEST(Store, CellShapeProblemsNameTheKey) {
  EXPECT_NE(cell_shape_problem(json::array()).find("not a cell object"), std::string::npos);
  EXPECT_NE(cell_shape_problem(json{{"schema", "dpclust.cell/1"}}).find("key 'index' is missing"), std::string::npos);
  json c{{"schema", "dpclust.cell/1"},
         {"index", 0u},
         {"id", "0123456789abcdef"},
         {"key", "k"},
         {"fingerprint", "f"},
         {"complete", true},
         {"dataset", "d"},
         {"method", "m"},
         {"series", "m"},
         {"params", json::object()},
         {"private", false},
         {"non_private", json::array()},
         {"private_release", false},
         {"evaluation_only", json::array()},
         {"randomness", {{"mode", "seeded"}}},
         {"data", json::object()},
         {"trials", json::array({{{"trial", 0},
                                  {"seed", 1u},
                                  {"private_release", false},
                                  {"metrics", {{"ari", "high"}}},
                                  {"ledger", json::object()}}})},
         {"aggregates", json::object()},
         {"diagnostics_aggregates", json::object()},
         {"timing", json::object()},
         {"computed_by", json::object()},
         {"checksum", "x"}};
  EXPECT_NE(cell_shape_problem(c).find("'trials[0].metrics.ari' is a string, expected a number"), std::string::npos)
      << cell_shape_problem(c);
  c["trials"][0]["metrics"]["ari"] = 0.5;
  EXPECT_EQ(cell_shape_problem(c), "");
  // Release flags: required; a seeded trial has a seed, a secure one must not.
  {
    json d = c;
    d.erase("private_release");
    EXPECT_EQ(cell_shape_problem(d), "key 'private_release' is missing");
    d = c;
    d["trials"][0].erase("seed");
    EXPECT_EQ(cell_shape_problem(d), "key 'trials[0].seed' is missing");
    d["randomness"]["mode"] = "secure";
    EXPECT_EQ(cell_shape_problem(d), "");
    d["trials"][0]["seed"] = 1u;
    EXPECT_NE(cell_shape_problem(d).find("'trials[0].seed' is present in a cell computed with randomness: secure"),
              std::string::npos);
  }
  // The checksum covers everything but itself.
  const std::string sum = cell_checksum(c);
  c["checksum"] = sum;
  EXPECT_EQ(cell_checksum(c), sum);
  c["trials"][0]["metrics"]["ari"] = 0.51;
  EXPECT_NE(cell_checksum(c), sum);
}

TEST(Store, ConcurrentRunsOfDifferentConfigsUnderOneNameRefuseOne) {
  const fs::path dir = dpclust::testing::temp_dir("diffcfg");
  const fs::path a = dpclust::testing::write_file(dir / "a.yaml", small_config("shared", 1));
  const fs::path b = dpclust::testing::write_file(dir / "b.yaml", small_config("shared", 2));
  const fs::path out = dir / "out";
  Pair p = run_at_once(dir, binary() + " " + run_args(a, out), binary() + " " + run_args(b, out));
  ASSERT_TRUE((p.code_a == 0 && p.code_b == 2) || (p.code_a == 2 && p.code_b == 0)) << p.out_a << "\n---\n" << p.out_b;
  const bool a_won = p.code_a == 0;
  const std::string& refused = a_won ? p.out_b : p.out_a;
  EXPECT_NE(refused.find("holds the results of another config"), std::string::npos) << refused;
  EXPECT_NE(refused.find(fs::weakly_canonical(a).string()), std::string::npos) << refused;  // both config files named
  EXPECT_NE(refused.find(fs::weakly_canonical(b).string()), std::string::npos) << refused;
  EXPECT_NE(refused.find("another --out"), std::string::npos) << refused;
  // No cell of the winner was overwritten: its results equal a run of the winner alone.
  const fs::path winner = a_won ? a : b;
  ASSERT_EQ(dpclust_cmd(run_args(winner, dir / "alone")).code, 0);
  EXPECT_EQ(strip_nondeterministic(read_json(out / "shared" / "results.json")).dump(),
            strip_nondeterministic(read_json(dir / "alone" / "shared" / "results.json")).dump());
  for (const auto& f : cell_files(out / "shared")) {
    json mine = read_json(f), theirs = read_json(dir / "alone" / "shared" / "cells" / f.filename());
    mine.erase("checksum");  // it covers the timings
    theirs.erase("checksum");
    EXPECT_EQ(strip_nondeterministic(mine).dump(), strip_nondeterministic(theirs).dump()) << f;
  }
}

TEST(Store, IdenticalRunsAtOnceShareTheWorkAndBothAreRecorded) {
  const fs::path dir = dpclust::testing::temp_dir("samecfg");
  // Eight cells of DBSCAN on 400k points, three trials: about a second, so that the two runs overlap
  // (a second run that started after the first had finished would rightly find nothing to do).
  const fs::path cfg = dpclust::testing::write_file(
      dir / "s.yaml",
      "experiment: same\nseed: 5\ntrials: 3\ndatasets:\n  - {name: m, generator: {type: moons, n_samples: 400000, "
      "noise: 0.1, seed: 2}, "
      "params: {min_pts: 5}}\nmethods:\n  - {method: dbscan, params: {alpha: {from: 0.02, to: 0.16, step: 0.02}}}\n"
      "metrics: [ari, n_clusters]\n");
  const fs::path out = dir / "out";
  Pair p = run_at_once(dir, binary() + " " + run_args(cfg, out), binary() + " " + run_args(cfg, out));
  ASSERT_EQ(p.code_a, 0) << p.out_a;
  ASSERT_EQ(p.code_b, 0) << p.out_b;
  for (const std::string* o : {&p.out_a, &p.out_b}) {
    EXPECT_NE(o->find("results: "), std::string::npos) << *o;  // the grid is complete for both
    EXPECT_EQ(o->find("shard"), std::string::npos) << *o;      // never "shard done" on an unsharded run
  }
  const json manifest = read_json(out / "same" / "manifest.json");
  ASSERT_EQ(manifest["runs"].size(), 2u) << manifest["runs"].dump();
  const std::size_t cells = manifest["grid"].size();
  ASSERT_EQ(cells, 8u);
  std::size_t computed = 0;
  for (const auto& r : manifest["runs"]) computed += r["cells_run"].get<std::size_t>();
  EXPECT_EQ(computed, cells) << "each cell computed exactly once: " << manifest["runs"].dump();
  const json results = read_json(out / "same" / "results.json");
  EXPECT_EQ(results["provenance"]["runs"].size(), 2u);  // the last run out assembled with both records
  EXPECT_FALSE(fs::exists(out / "same" / ".claims"));   // the last run out removed the claim files
  EXPECT_TRUE(files_under(out / "same", ".tmp.").empty());
  ASSERT_EQ(dpclust_cmd(run_args(cfg, dir / "single")).code, 0);
  EXPECT_EQ(strip_nondeterministic(results).dump(),
            strip_nondeterministic(read_json(dir / "single" / "same" / "results.json")).dump());
}

TEST(Store, WrongShapeCellFileIsNamedAndRecomputed) {
  const fs::path dir = dpclust::testing::temp_dir("shape");
  const fs::path cfg = dpclust::testing::write_file(dir / "c.yaml", small_config("shape", 1));
  ASSERT_EQ(dpclust_cmd(run_args(cfg, dir / "out")).code, 0);
  const json original = read_json(dir / "out" / "shape" / "results.json");
  auto files = cell_files(dir / "out" / "shape");
  ASSERT_EQ(files.size(), 6u);
  // Valid JSON, wrong shape: once a bare nlohmann message naming no file on every resume.
  dpclust::testing::write_file(files[0], R"({"schema": "dpclust.cell/1", "trials": "none"})");
  dpclust::testing::write_file(files[1], "[1, 2, 3]");
  fs::remove(dir / "out" / "shape" / "results.json");
  auto r = dpclust_cmd(run_args(cfg, dir / "out"));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(
      r.output.find("warning: " + files[0].string() + ": not a dpclust cell: key 'index' is missing; recomputing"),
      std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("warning: " + files[1].string() + ": not a dpclust cell: it is an array"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("2 cells run"), std::string::npos) << r.output;
  EXPECT_EQ(strip_nondeterministic(read_json(dir / "out" / "shape" / "results.json")).dump(),
            strip_nondeterministic(original).dump());
}

TEST(Store, EditedNumberFailsTheChecksumAndIsRecomputed) {
  const fs::path dir = dpclust::testing::temp_dir("checksum");
  const fs::path cfg = dpclust::testing::write_file(dir / "c.yaml", small_config("sum", 1));
  ASSERT_EQ(dpclust_cmd(run_args(cfg, dir / "out")).code, 0);
  const json original = read_json(dir / "out" / "sum" / "results.json");
  const fs::path cell = cell_files(dir / "out" / "sum")[3];
  json c = read_json(cell);
  ASSERT_TRUE(c["checksum"].is_string());
  c["trials"][0]["metrics"]["ari"] = c["trials"][0]["metrics"]["ari"].get<double>() + 0.25;  // fingerprint intact
  dpclust::testing::write_file(cell, c.dump(1) + "\n");
  auto r = dpclust_cmd(run_args(cfg, dir / "out"));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: " + cell.string() + ": checksum mismatch"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 cells run"), std::string::npos) << r.output;
  EXPECT_EQ(strip_nondeterministic(read_json(dir / "out" / "sum" / "results.json")).dump(),
            strip_nondeterministic(original).dump());
}

TEST(Store, MergeTreatsManifestNamesAsUntrusted) {
  const fs::path dir = dpclust::testing::temp_dir("mergepath");
  const fs::path cfg = dpclust::testing::write_file(dir / "c.yaml", small_config("mp", 1));
  const fs::path shard = dir / "work" / "s1";
  ASSERT_EQ(dpclust_cmd(run_args(cfg, shard, "--shard 1/2")).code, 0);
  const fs::path manifest_file = shard / "mp" / "manifest.json";
  const json manifest = read_json(manifest_file);

  // An experiment name that climbs out of --out: refused, nothing written anywhere.
  json evil = manifest;
  evil["experiment"] = "../../escaped";
  dpclust::testing::write_file(manifest_file, evil.dump(1));
  const fs::path out = dir / "work" / "merged";
  auto r = dpclust_cmd("merge --out " + quote(out) + " " + quote(shard));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find(manifest_file.string()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("is not a safe folder name"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "escaped"));
  EXPECT_FALSE(fs::exists(out));

  // A cell id that is a path: refused the same way.
  evil = manifest;
  evil["grid"][0]["id"] = "../../../../x";
  dpclust::testing::write_file(manifest_file, evil.dump(1));
  r = dpclust_cmd("merge --out " + quote(out) + " " + quote(shard));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("grid[0].id"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));

  // A manifest of the wrong shape names the file and key instead of a bare JSON type error.
  evil = manifest;
  evil["grid"] = "all";
  dpclust::testing::write_file(manifest_file, evil.dump(1));
  r = dpclust_cmd("merge --out " + quote(out) + " " + quote(shard));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("'grid' is a string, expected an array"), std::string::npos) << r.output;

  // The cells it copies are checked too: a damaged one is named and left behind.
  dpclust::testing::write_file(manifest_file, manifest.dump(1));
  const fs::path damaged = cell_files(shard / "mp")[0];
  json c = read_json(damaged);
  c["aggregates"] = "edited";
  dpclust::testing::write_file(damaged, c.dump(1));
  r = dpclust_cmd("merge --out " + quote(out) + " " + quote(shard));
  EXPECT_NE(r.output.find("warning: " + damaged.string() + ": not a dpclust cell: 'aggregates' is a string"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(out / "mp" / "cells" / damaged.filename()));
  EXPECT_EQ(cell_files(out / "mp").size(), 2u);  // shard 1/2 of six cells has three; one was damaged
}

TEST(Store, StaleTempFilesOfKilledWritersAreRemoved) {
  const fs::path dir = dpclust::testing::temp_dir("staletmp");
  const fs::path cfg = dpclust::testing::write_file(dir / "c.yaml", small_config("tmp", 1));
  ASSERT_EQ(dpclust_cmd(run_args(cfg, dir / "out")).code, 0);
  const fs::path exp = dir / "out" / "tmp";
  // A process that is gone: the pid of a child that has exited and been reaped.
  pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  const std::string dead = std::to_string(child);
  dpclust::testing::write_file(exp / ("manifest.json.tmp." + dead), "{\"half");
  dpclust::testing::write_file(exp / "cells" / ("0123456789abcdef.json.tmp." + dead), "{\"half");
  dpclust::testing::write_file(exp / "cells" / ("0123456789abcdef.json.tmp." + std::to_string(::getpid())),
                               "{");  // no run active: stale too
  fs::remove(cell_files(exp)[0]);     // give the rerun work, so that it takes the lock
  auto r = dpclust_cmd(run_args(cfg, dir / "out"));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(files_under(exp, ".tmp.").empty());
  EXPECT_EQ(cell_files(exp).size(), 6u);
}

TEST(Store, FullDiskIsAnInputErrorAndKeepsCompletedCells) {
  const fs::path dir = dpclust::testing::temp_dir("enospc");
  const fs::path cfg = dpclust::testing::write_file(dir / "c.yaml", small_config("full", 1));
  // Test seam (core/files.hpp): the manifest and two cells are written, then the disk is "full".
  auto r =
      dpclust::testing::run_command("DPCLUST_TEST_FAIL_WRITES_AFTER=3 " + binary() + " " + run_args(cfg, dir / "out"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("no space left on device"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find((dir / "out" / "full" / "cells").string()), std::string::npos) << r.output;  // names the file
  const fs::path exp = dir / "out" / "full";
  EXPECT_EQ(cell_files(exp).size(), 2u);
  EXPECT_TRUE(files_under(exp, ".tmp.").empty()) << "a failed write leaves no temp file";
  EXPECT_FALSE(fs::exists(exp / "results.json"));
  // With space again, the rerun keeps the two cells and ends where an uninterrupted run does.
  r = dpclust_cmd(run_args(cfg, dir / "out"));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("4 cells run (8 trials), 2 reused"), std::string::npos) << r.output;
  ASSERT_EQ(dpclust_cmd(run_args(cfg, dir / "fresh")).code, 0);
  EXPECT_EQ(strip_nondeterministic(read_json(exp / "results.json")).dump(),
            strip_nondeterministic(read_json(dir / "fresh" / "full" / "results.json")).dump());
}

TEST(Store, CompleteResultsResumeWithoutWritingEvenReadOnly) {
  const fs::path dir = dpclust::testing::temp_dir("readonly");
  const fs::path cfg = dpclust::testing::write_file(dir / "c.yaml", small_config("ro", 1));
  const fs::path out = dir / "out";
  ASSERT_EQ(dpclust_cmd(run_args(cfg, out)).code, 0);
  const auto before = snapshot(out);
  auto r = dpclust_cmd(run_args(cfg, out));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("ro: nothing to do, results up to date (6 cells on disk)"), std::string::npos) << r.output;
  EXPECT_EQ(snapshot(out), before) << "an up-to-date resume writes nothing";

  fs::permissions(out / "ro", fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  fs::permissions(out / "ro" / "cells", fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  r = dpclust_cmd(run_args(cfg, out));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("nothing to do, results up to date"), std::string::npos) << r.output;
  EXPECT_EQ(snapshot(out), before);

  // Work needed in a read-only directory: exit 2 with a message saying so. Root ignores permissions.
  const bool enforced = ::access((out / "ro").c_str(), W_OK) != 0;
  if (enforced) {
    fs::permissions(out / "ro", fs::perms::owner_write, fs::perm_options::add);
    fs::remove(out / "ro" / "results.json");
    fs::permissions(out / "ro", fs::perms::owner_write, fs::perm_options::remove);
    r = dpclust_cmd(run_args(cfg, out));
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("cannot write to this results directory"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("results.json needs assembling"), std::string::npos) << r.output;
  }
  fs::permissions(out / "ro", fs::perms::owner_write, fs::perm_options::add);
  fs::permissions(out / "ro" / "cells", fs::perms::owner_write, fs::perm_options::add);
  if (!enforced)
    GTEST_SKIP() << "running as root: write permissions are not enforced, so the read-only refusal was not checked "
                    "(the no-write resume above was)";
}
