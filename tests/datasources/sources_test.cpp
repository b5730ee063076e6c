// Several sources per dataset, tried in order, each with its own checksum (SHA-256 or git blob id).
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/files.hpp"
#include "datasources/download.hpp"
#include "datasources/fetch.hpp"
#include "datasources/http_test_server.hpp"
#include "datasources/sha256.hpp"
#include "datasources/sources.hpp"
#include "datasources/urls.hpp"
#include "test_support.hpp"

using namespace dpclust;
using namespace dpclust::datasources;
namespace fs = std::filesystem;
using dpclust::testing::HttpTestServer;
using dpclust::testing::input_error;

namespace {

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) : path(dpclust::testing::temp_dir(tag)) {}
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// A FIMI-like fixture (each line ends with a space, as the real files do). Its ids were computed with
// `printf '1 3 5 \n2 4 6 \n' > fx.dat; git hash-object fx.dat; sha256sum fx.dat`.
const std::string kFixture = "1 3 5 \n2 4 6 \n";
const std::string kFixtureBlob = "03b6c8eee552d5340cb5dedfb61d447b7ce1157c";
const std::string kFixtureSha256 = "7e4255b2167abafc067a28726d519eb225c5427e56a5d45cc7f978463df65651";

}  // namespace

TEST(GitBlob, IdsAreWhatGitHashObjectPrints) {
  EXPECT_EQ(git_blob_hex(kFixture), kFixtureBlob);
  EXPECT_EQ(sha256_hex(kFixture), kFixtureSha256);
  // The empty blob, a constant every git user has seen (`git hash-object /dev/null`).
  EXPECT_EQ(git_blob_hex(""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  TempDir t("gitblob");
  const fs::path p = dpclust::testing::write_file(t.path / "fx.dat", kFixture);
  EXPECT_EQ(git_blob_file(p), kFixtureBlob);
  // Not the plain SHA-1 of the bytes: the "blob <size>\0" header is part of what is hashed.
  EXPECT_NE(git_blob_file(p), git_blob_hex(kFixture + "x"));
  EXPECT_TRUE(is_git_blob_hex(kFixtureBlob));
  EXPECT_FALSE(is_git_blob_hex(kFixtureSha256));
  EXPECT_FALSE(is_git_blob_hex("03B6C8EEE552D5340CB5DEDFB61D447B7CE1157C"));
}

TEST(GitBlob, ADownloadPinnedOnlyByItsBlobIdIsVerified) {
  TempDir mirror("gbmirror"), root("gbroot");
  dpclust::testing::write_file(mirror.path / "example.org/fx.dat", kFixture);
  HttpTestServer server(mirror.path);
  const std::string up = "https://example.org/fx.dat";
  DownloadRequest req{mirrored_url(up, server.url()), up, root.path / "fx.dat", "", kFixture.size()};
  req.git_blob = kFixtureBlob;
  const DownloadResult r = download_file(req, {});
  EXPECT_EQ(r.sha256, kFixtureSha256);
  EXPECT_EQ(r.git_blob, kFixtureBlob);
  EXPECT_EQ(read_text_file(root.path / "fx.dat"), kFixture);

  // The wrong blob id: rejected, nothing placed, the message names both ids.
  fs::remove(root.path / "fx.dat");
  req.git_blob = git_blob_hex("something else");
  const std::string msg = input_error([&] { download_file(req, {}); });
  EXPECT_NE(msg.find("git blob"), std::string::npos) << msg;
  EXPECT_NE(msg.find(kFixtureBlob), std::string::npos) << msg;
  EXPECT_NE(msg.find(req.git_blob), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(root.path / "fx.dat"));
  EXPECT_FALSE(fs::exists(root.path / "fx.dat.part"));
}

// ---- several sources per dataset ---------------------------------------------------------------------

namespace {

std::string binary() {
  const char* b = std::getenv("DPCLUST_BINARY");
  return b ? b : DPCLUST_BINARY_PATH;
}

dpclust::testing::CommandResult sh(const std::string& cmd) { return dpclust::testing::run_command(cmd); }

// A registry whose dataset `fx` lists `sources` (YAML items, already indented), a mirror holding
// `files` (host/path -> content), a data root.
struct MultiSite {
  TempDir mirror{"msmirror"}, root{"msroot"}, regdir{"msreg"};
  fs::path registry;
  std::unique_ptr<HttpTestServer> server;
  MultiSite(const std::string& sources, const std::vector<std::pair<std::string, std::string>>& files) {
    for (const auto& [path, content] : files) dpclust::testing::write_file(mirror.path / path, content);
    registry = dpclust::testing::write_file(regdir.path / "registry.yaml",
                                            "fx:\n  data_file: fimi/fx.dat\n  sources:\n" + sources);
    server = std::make_unique<HttpTestServer>(mirror.path);
  }
  std::string data(const std::string& args) const {
    return "DPCLUST_REGISTRY=" + registry.string() + " " + binary() + " data " + args + " --mirror " + server->url() +
           " --data-root " + root.path.string() + " --no-progress";
  }
  nlohmann::json record() const {
    return nlohmann::json::parse(read_text_file(root.path / ".dpclust/records/fimi/fx.dat.json"));
  }
};

// The official source, unpinned (as the FIMI repository's files are), then a pinned copy.
const std::string kOfficialThenPinned =
    "    - url: http://fimi.example.org/data/fx.dat\n"
    "      sha256: unpinned\n"
    "      citation: fixture\n"
    "      note: the official file has no published checksum\n"
    "    - url: https://raw.githubusercontent.com/someone/copy/0123456789abcdef0123456789abcdef01234567/fx.dat\n"
    "      sha256: " +
    kFixtureSha256 +
    "\n"
    "      git_blob: " +
    kFixtureBlob +
    "\n"
    "      size: 14\n";
const std::string kCopyPath = "raw.githubusercontent.com/someone/copy/0123456789abcdef0123456789abcdef01234567/fx.dat";

}  // namespace

TEST(SeveralSources, RegistryReadsTheListAndHoldsTheOfficialSourceToThePinnedChecksum) {
  MultiSite site(kOfficialThenPinned, {});
  const auto all = load_sources(site.registry);
  ASSERT_EQ(all.size(), 1u);
  const DatasetSource& s = all[0];
  ASSERT_EQ(s.all_sources().size(), 2u);
  EXPECT_EQ(s.origin(), "http://fimi.example.org/data/fx.dat");
  // The dataset is pinned by the copy's SHA-256, and the official download is checked against it.
  EXPECT_EQ(s.sha256, kFixtureSha256);
  EXPECT_EQ(s.inputs[0].sha256, kFixtureSha256);
  EXPECT_EQ(s.inputs[0].git_blob, kFixtureBlob);
  EXPECT_EQ(s.inputs[0].size, 14u);
  EXPECT_EQ(s.alternatives[0].inputs[0].git_blob, kFixtureBlob);
  EXPECT_EQ(s.alternatives[0].citation, "fixture");

  // A copy pinned only by a git blob id (no sha256 key) is accepted; a malformed id is not.
  MultiSite blob_only(
      "    - url: https://x.org/fx.dat\n      git_blob: git-blob:" + kFixtureBlob + "\n      citation: c\n", {});
  const auto b = load_sources(blob_only.registry);
  EXPECT_EQ(b[0].inputs[0].git_blob, kFixtureBlob);
  EXPECT_TRUE(b[0].inputs[0].sha256.empty());
  MultiSite bad("    - url: https://x.org/fx.dat\n      git_blob: 1234\n      citation: c\n", {});
  EXPECT_NE(input_error([&] { load_sources(bad.registry); }).find("not a git blob id"), std::string::npos);
  // Two sources pinning different files are refused.
  MultiSite disagree("    - url: https://x.org/a.dat\n      sha256: " + kFixtureSha256 + "\n      citation: c\n" +
                         "    - url: https://y.org/a.dat\n      sha256: " + sha256_hex("other") + "\n",
                     {});
  EXPECT_NE(input_error([&] { load_sources(disagree.registry); }).find("different SHA-256"), std::string::npos);
}

TEST(SeveralSources, A404MovesOnToTheNextSourceAndTheRecordAndListSayWhichWasUsed) {
  MultiSite site(kOfficialThenPinned, {{kCopyPath, kFixture}});
  const auto fetch = sh(site.data("fetch fx"));
  ASSERT_EQ(fetch.code, 0) << fetch.output;
  EXPECT_NE(fetch.output.find("source 1 failed"), std::string::npos) << fetch.output;
  EXPECT_NE(fetch.output.find("HTTP 404"), std::string::npos) << fetch.output;
  EXPECT_NE(fetch.output.find("from source 2 of 2"), std::string::npos) << fetch.output;
  EXPECT_EQ(read_text_file(site.root.path / "fimi/fx.dat"), kFixture);
  const auto rec = site.record();
  EXPECT_EQ(rec["source"]["index"], 2);
  EXPECT_EQ(rec["source"]["of"], 2);
  ASSERT_EQ(rec["sources_failed"].size(), 1u);
  EXPECT_EQ(rec["sources_failed"][0]["origin"], "http://fimi.example.org/data/fx.dat");
  EXPECT_NE(rec["sources_failed"][0]["error"].get<std::string>().find("404"), std::string::npos);
  EXPECT_EQ(rec["inputs"][0]["git_blob"], kFixtureBlob);
  EXPECT_EQ(rec["sha256"], kFixtureSha256);

  const auto list = sh(site.data("list"));
  ASSERT_EQ(list.code, 0) << list.output;
  EXPECT_NE(list.output.find("1. http://fimi.example.org/data/fx.dat\n"), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("2. https://raw.githubusercontent.com/someone/copy/"), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("fx.dat  <- used"), std::string::npos) << list.output;
  const auto json = sh(site.data("list --json"));
  ASSERT_EQ(json.code, 0) << json.output;
  const auto j = nlohmann::json::parse(json.output);
  const auto& d = j["datasets"][0];
  EXPECT_EQ(d["status"], "ok");
  EXPECT_EQ(d["source_used"], 2);
  ASSERT_EQ(d["sources"].size(), 2u);
  EXPECT_EQ(d["sources"][0]["used"], false);
  EXPECT_EQ(d["sources"][1]["used"], true);
  EXPECT_EQ(d["sources"][1]["inputs"][0]["git_blob"], kFixtureBlob);
}

TEST(SeveralSources, AWrongChecksumMovesOnToTheNextSource) {
  // The official server answers with other bytes of the same size: rejected by the pinned checksum.
  MultiSite site(kOfficialThenPinned, {{"fimi.example.org/data/fx.dat", "9 9 9 \n8 8 8 \n"}, {kCopyPath, kFixture}});
  const auto fetch = sh(site.data("fetch fx"));
  ASSERT_EQ(fetch.code, 0) << fetch.output;
  EXPECT_NE(fetch.output.find("checksum mismatch"), std::string::npos) << fetch.output;
  EXPECT_EQ(read_text_file(site.root.path / "fimi/fx.dat"), kFixture);
  const auto rec = site.record();
  EXPECT_EQ(rec["source"]["index"], 2);
  EXPECT_NE(rec["sources_failed"][0]["error"].get<std::string>().find("checksum mismatch"), std::string::npos);
  EXPECT_FALSE(fs::exists(site.root.path / "fimi/fx.dat.part"));
  // The good official file is taken from the first source when it is there.
  MultiSite official(kOfficialThenPinned, {{"fimi.example.org/data/fx.dat", kFixture}, {kCopyPath, kFixture}});
  ASSERT_EQ(sh(official.data("fetch fx")).code, 0);
  EXPECT_EQ(official.record()["source"]["index"], 1);
  EXPECT_EQ(official.server->request_count("/" + kCopyPath), 0u);
}

TEST(SeveralSources, WhenEverySourceFailsTheFetchExitsTwoListingEach) {
  // The official file is missing (404), the copy serves bytes whose git blob id differs.
  MultiSite site(kOfficialThenPinned, {{kCopyPath, "1 3 5 \n2 4 7 \n"}});
  const auto fetch = sh(site.data("fetch fx"));
  EXPECT_EQ(fetch.code, 2) << fetch.output;
  EXPECT_NE(fetch.output.find("none of the 2 sources of 'fx' gave the file"), std::string::npos) << fetch.output;
  EXPECT_NE(fetch.output.find("1. http://fimi.example.org/data/fx.dat: "), std::string::npos) << fetch.output;
  EXPECT_NE(fetch.output.find("HTTP 404"), std::string::npos) << fetch.output;
  EXPECT_NE(fetch.output.find("2. https://raw.githubusercontent.com/someone/copy/"), std::string::npos) << fetch.output;
  EXPECT_NE(fetch.output.find("checksum mismatch"), std::string::npos) << fetch.output;
  EXPECT_FALSE(fs::exists(site.root.path / "fimi/fx.dat"));
  EXPECT_FALSE(fs::exists(site.root.path / "fimi/fx.dat.part"));
  EXPECT_FALSE(fs::exists(site.root.path / ".dpclust/records/fimi/fx.dat.json"));
}

TEST(SeveralSources, ParticipantFilesPinnedByGitBlobIdsAreSelectedByRowsWithoutAnArchive) {
  // HAR70+'s second source: the participant CSVs one by one (no zip), each pinned by its git blob id,
  // the one with `select_rows` records chosen. The first source (the zip) is not on the mirror.
  const std::string h = "timestamp,back_x,back_y,back_z,thigh_x,thigh_y,thigh_z,label\n";
  const std::string p1 = h + "t,1,2,3,0,0,0,1\n";
  const std::string p2 = h + "t,4,5,6,0,0,0,2\nt,7,8,9,0,0,0,3\n";
  const std::string base = "raw.githubusercontent.com/a/b/0123456789abcdef0123456789abcdef01234567/";
  const std::string sources =
      "    - inputs:\n        - url: https://uci.example.org/har70.zip\n          sha256: unpinned\n"
      "      members: [501.csv, 502.csv]\n      options: {select_rows: \"2\"}\n      derive: har70\n      sha256: "
      "unpinned\n"
      "      citation: fixture\n      note: unpinned fixture\n"
      "    - inputs:\n        - url: https://" +
      base + "501.csv\n          git_blob: " + git_blob_hex(p1) + "\n" + "        - url: https://" + base +
      "502.csv\n          git_blob: " + git_blob_hex(p2) + "\n" +
      "      options: {select_rows: \"2\"}\n      derive: har70\n      sha256: unpinned\n";
  MultiSite site(sources, {{base + "501.csv", p1}, {base + "502.csv", p2}});
  const auto fetch = sh(site.data("fetch fx"));
  ASSERT_EQ(fetch.code, 0) << fetch.output;
  EXPECT_EQ(read_text_file(site.root.path / "fimi/fx.dat"), "back_x,back_y,back_z,label\n4,5,6,2\n7,8,9,3\n");
  const auto rec = site.record();
  EXPECT_EQ(rec["source"]["index"], 2);
  ASSERT_EQ(rec["inputs"].size(), 2u);
  EXPECT_EQ(rec["inputs"][1]["git_blob"], git_blob_hex(p2));

  // A participant file whose bytes differ from its pinned blob: nothing is derived.
  MultiSite bad(sources, {{base + "501.csv", p1}, {base + "502.csv", p2 + "t,0,0,0,0,0,0,4\n"}});
  const auto refused = sh(bad.data("fetch fx"));
  EXPECT_EQ(refused.code, 2) << refused.output;
  EXPECT_NE(refused.output.find("expected git blob " + git_blob_hex(p2)), std::string::npos) << refused.output;
  EXPECT_FALSE(fs::exists(bad.root.path / "fimi/fx.dat"));
}
