// Hostile configs (the hostile-input issue): every malformed or malicious config ends in an InputError
// naming the file, line, key path and the fix -- never a crash, unbounded memory or time, a yaml-cpp
// message without a location, or more than ~200 characters of echoed user text.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <string>

#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/error.hpp"
#include "test_support.hpp"

using namespace dpclust;

namespace {

// Parses `text` as config "x.yaml" and expands its grid; returns the error message ("" if valid).
std::string error_of(const std::string& text) {
  try {
    ExperimentConfig cfg = parse_config(text, "x.yaml", std::filesystem::temp_directory_path(), "");
    expand_grid(cfg);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& msg, const std::string& part) { return msg.find(part) != std::string::npos; }

// No yaml-cpp message leaks through, and the message is short and printable.
void expect_clean(const std::string& msg) {
  EXPECT_FALSE(msg.empty());
  EXPECT_FALSE(has(msg, "invalid node")) << msg;
  EXPECT_FALSE(has(msg, "bad conversion")) << msg;
  EXPECT_LT(msg.size(), 1500u) << msg.substr(0, 300);
  for (char c : msg)
    EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << "control byte in: " << msg.substr(0, 300);
}

const std::string kDatasets =
    "datasets:\n"
    "  - name: m\n"
    "    generator: {type: moons, n_samples: 100, noise: 0.05, seed: 1}\n"
    "    params: {min_pts: 5}\n"
    "methods:\n"
    "  - method: dbscan\n";
// kDatasets with dbscan's radius: a valid config.
const std::string kValid = kDatasets + "    params: {alpha: 0.2}\n";

// 9 levels of 9 aliases: ~387 million leaves once expanded, from under a kilobyte of text.
std::string alias_bomb(const std::string& indent) {
  std::string s = indent + "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i <= 9; ++i) {
    std::string prev = "*l" + std::to_string(i - 1);
    s += indent + "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int j = 0; j < 9; ++j) s += (j ? ", " : "") + prev;
    s += "]\n";
  }
  return s;
}

}  // namespace

// --- duplicate keys, extra documents, null / non-scalar keys ---

TEST(HostileConfig, DuplicateKeyIsRejectedWithBothLocations) {
  std::string msg = error_of("experiment: a\ntrials: 2\n" + kDatasets + "trials: 3\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:9:1 trials")) << msg;
  EXPECT_TRUE(has(msg, "duplicate key 'trials'")) << msg;
  EXPECT_TRUE(has(msg, "first at x.yaml:2:1")) << msg;

  msg = error_of("experiment: a\n" + kDatasets + "    params: {alpha: 0.1, alpha: 0.2}\n");
  EXPECT_TRUE(has(msg, "methods[0].params.alpha")) << msg;
  EXPECT_TRUE(has(msg, "duplicate key 'alpha'")) << msg;
}

TEST(HostileConfig, SecondYamlDocumentIsRejected) {
  std::string msg = error_of("experiment: a\n" + kDatasets + "---\nexperiment: b\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:9:")) << msg;
  EXPECT_TRUE(has(msg, "2 YAML documents")) << msg;
  EXPECT_TRUE(has(msg, "keep one document per file")) << msg;
  // A leading '---' (one document) is still fine.
  EXPECT_EQ(error_of("---\nexperiment: a\n" + kValid), "");
}

TEST(HostileConfig, NullOrNonScalarKeyIsRejected) {
  std::string msg = error_of("experiment: a\n" + kDatasets + "~: 3\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:8:1")) << msg;
  EXPECT_TRUE(has(msg, "empty value (null)")) << msg;
  msg = error_of("experiment: a\n" + kDatasets + "? [a, b]\n: 3\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:8:")) << msg;
  EXPECT_TRUE(has(msg, "a key is a list")) << msg;
}

// --- alias bombs are bounded ---

TEST(HostileConfig, AliasBombIsBoundedUnderDescriptionAndParams) {
  for (const std::string& where : {std::string("description"), std::string("params")}) {
    const std::string text = "experiment: a\n" + kDatasets + where + ":\n" + alias_bomb("  ");
    ASSERT_LT(text.size(), 1200u);
    const auto t0 = std::chrono::steady_clock::now();
    std::string msg = error_of(text);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    expect_clean(msg);
    EXPECT_TRUE(has(msg, "x.yaml:")) << msg;
    EXPECT_TRUE(has(msg, "expands to more than 1000000 nodes (alias bomb?)")) << msg;
    EXPECT_LT(secs, 20.0) << where;
  }
}

TEST(HostileConfig, DeepNestingIsRejectedWithoutCrashing) {
  for (const std::string& open_close : {std::string("[]"), std::string("{}")}) {
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += open_close[0] == '{' ? "{a: " : "[";
    deep += "1";
    deep += std::string(100000, open_close[1]);
    std::string msg = error_of("experiment: a\ndescription: " + deep + "\n" + kValid);
    expect_clean(msg);
    EXPECT_TRUE(has(msg, "x.yaml:2:")) << msg;
    EXPECT_TRUE(has(msg, "nests lists and mappings too deeply")) << msg;
  }
}

TEST(HostileConfig, SmallAliasesStillWork) {
  EXPECT_EQ(error_of("experiment: a\n" + kDatasets +
                     "    params: &p {alpha: 0.1}\n  - method: dbscan\n    as: d2\n    params: *p\n"),
            "");
}

// --- yaml-cpp conversion messages never leak ---

TEST(HostileConfig, RangeWithoutStepNamesTheKeyAndTheFix) {
  std::string msg = error_of("experiment: a\n" + kDatasets + "    params: {alpha: {from: 0.1, to: 0.5}}\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:8:")) << msg;
  EXPECT_TRUE(has(msg, "methods[0].params.alpha")) << msg;
  EXPECT_TRUE(has(msg, "no 'step'")) << msg;
  EXPECT_TRUE(has(msg, "{from: a, to: b, step: s}")) << msg;
}

TEST(HostileConfig, NullOrListWhereAScalarIsExpected) {
  std::string msg = error_of("experiment:\n" + kDatasets);
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:1:1 experiment")) << msg;  // the key, not the next line
  EXPECT_TRUE(has(msg, "empty value (null)")) << msg;

  msg = error_of("experiment: a\n" + kDatasets + "    params: {alpha: ~}\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "methods[0].params.alpha")) << msg;
  EXPECT_TRUE(has(msg, "x.yaml:8:")) << msg;

  msg = error_of("experiment: a\n" + kDatasets + "    params: {alpha: {x: 1}}\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "methods[0].params.alpha")) << msg;

  msg = error_of(
      "experiment: a\ndatasets:\n  - name: m\n    generator: {type: moons, n_samples: 100}\n    bounds: [[0, ~], [0, "
      "1]]\n"
      "methods: [dbscan]\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:5:")) << msg;
  EXPECT_TRUE(has(msg, "datasets[0].bounds[0][1]")) << msg;
}

// --- huge names do not overflow the stack ---

TEST(HostileConfig, HugeNamesAreRejectedWithoutCrashing) {
  const std::string huge(50000, 'a');
  std::string msg = error_of("experiment: " + huge + "\n" + kDatasets);
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:1:13 experiment")) << msg.substr(0, 300);
  EXPECT_TRUE(has(msg, "50000 characters; at most 200")) << msg.substr(0, 300);

  msg = error_of("experiment: a\ndatasets:\n  - name: " + huge + "\n    generator: {type: moons}\nmethods: [dbscan]\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "datasets[0].name")) << msg.substr(0, 300);

  EXPECT_EQ(error_of("experiment: " + std::string(200, 'b') + "\n" + kValid), "");
  msg = error_of("experiment: \"a b\"\n" + kDatasets);
  EXPECT_TRUE(has(msg, "other than letters, digits")) << msg;
  // "." and ".." are made of allowed characters but name the results root and its parent.
  for (const std::string dots : {".", ".."}) {
    msg = error_of("experiment: \"" + dots + "\"\n" + kDatasets);
    EXPECT_TRUE(has(msg, "x.yaml:1:13 experiment")) << msg;
    EXPECT_TRUE(has(msg, "names no folder of its own")) << msg;
  }
  EXPECT_EQ(error_of("experiment: \"...\"\n" + kValid), "");  // a folder name like any other
}

TEST(HostileConfig, EchoedUserTextIsTruncatedAndEscaped) {
  // A NUL byte and a newline inside a double-quoted name, and a 1,000-character unknown key (YAML's limit
  // for a plain key is 1024).
  std::string msg = error_of("experiment: \"a\\0b\\nc\"\n" + kDatasets);
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "a\\x00b\\x0ac")) << msg;
  EXPECT_EQ(msg.find('\0'), std::string::npos);
  msg = error_of("experiment: a\n" + kDatasets + std::string(1000, 'k') + ": 1\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "unknown key 'kkk")) << msg.substr(0, 300);
  EXPECT_TRUE(has(msg, "...")) << msg.substr(0, 300);
  msg = error_of("experiment: a\n" + kDatasets + "  - " + std::string(1000, 'm') + "\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "unknown method 'mmm")) << msg.substr(0, 300);
  EXPECT_TRUE(has(msg, std::string(200, 'm') + "...'")) << msg.substr(0, 300);
  EXPECT_FALSE(has(msg, std::string(201, 'm'))) << msg.substr(0, 300);
}

// --- out-of-range numbers, CR-only line endings ---

TEST(HostileConfig, HugeNumberIsOutOfRangeNotUnparsable) {
  std::string msg = error_of("experiment: a\n" + kDatasets + "    params: {alpha: 1e999}\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:8:")) << msg;
  EXPECT_TRUE(has(msg, "methods[0].params.alpha")) << msg;
  EXPECT_TRUE(has(msg, "out of range (the largest finite double is ~1.8e308)")) << msg;

  msg = error_of("experiment: a\ntrials: 99999999999999999999999\n" + kDatasets);
  EXPECT_TRUE(has(msg, "x.yaml:2:9 trials")) << msg;
  EXPECT_TRUE(has(msg, "out of range")) << msg;
}

TEST(HostileConfig, CrOnlyLineEndingsAreRead) {
  std::string text = "experiment: a\n" + kValid;
  std::string cr = text, crlf;
  for (char& c : cr)
    if (c == '\n') c = '\r';
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_EQ(error_of(cr), "");
  EXPECT_EQ(error_of(crlf), "");
  // Lines are still counted right.
  std::string bad = "experiment: a\r" + kValid + "trails: 1\r";
  for (char& c : bad)
    if (c == '\n') c = '\r';
  std::string msg = error_of(bad);
  EXPECT_TRUE(has(msg, "x.yaml:9:1 trails")) << msg;
}

TEST(HostileConfig, HugeConfigFileIsNotRead) {
  const auto dir = dpclust::testing::temp_dir("hostile_size");
  const auto file = dpclust::testing::write_file(dir / "big.yaml", "experiment: a\n");
  std::filesystem::resize_file(file, std::uintmax_t(1) << 30);  // sparse: 1 GiB of NULs, never read
  try {
    load_config(file, "");
    FAIL() << "a 1 GiB config was accepted";
  } catch (const InputError& e) {
    expect_clean(e.what());
    EXPECT_TRUE(has(e.what(), "big.yaml")) << e.what();
    EXPECT_TRUE(has(e.what(), "1073741824 bytes")) << e.what();
  }
  std::filesystem::remove_all(dir);
}

// --- --shard K/N is parsed strictly ---

namespace {
using CliRun = dpclust::testing::CommandResult;
CliRun dpclust_cli(const std::string& args) {
  const char* b = std::getenv("DPCLUST_BINARY");
  return dpclust::testing::run_command(std::string(b ? b : DPCLUST_BINARY_PATH) + " " + args);
}
}  // namespace

TEST(HostileConfig, ShardIsParsedStrictly) {
  for (const char* bad :
       {"1/-1", "1/99999999999", "1/3x", "0/3", "4/3", "-1/3", "1/", "/3", "1/2/3", "+1/3", " 1/3", "1/1000001"}) {
    CliRun r = dpclust_cli(std::string("run /nonexistent/hostile.yaml --dry-run --shard '") + bad + "'");
    EXPECT_EQ(r.code, 2) << bad << ": " << r.output;
    EXPECT_TRUE(has(r.output, "--shard")) << bad << ": " << r.output;
    EXPECT_TRUE(has(r.output, "1 <= K <= N <= 1000000")) << bad << ": " << r.output;
  }
  // A valid shard gets past the check (and then fails on the missing config).
  CliRun r = dpclust_cli("run /nonexistent/hostile.yaml --dry-run --shard 2/1000000");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_FALSE(has(r.output, "1 <= K <= N")) << r.output;
  EXPECT_TRUE(has(r.output, "hostile.yaml")) << r.output;
}
