// The downloader and `dpclust data` against a real HTTP server on 127.0.0.1 (http_test_server), never
// the internet: verified placement, checksum mismatch, truncation and resume, 404, an unreachable
// host, a corrupt archive, a full disk, and two fetches of one dataset at once.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <future>
#include <thread>

#include "core/error.hpp"
#include "core/files.hpp"
#include "datasources/archive.hpp"
#include "datasources/dataset_state.hpp"
#include "datasources/download.hpp"
#include "datasources/fetch.hpp"
#include "datasources/http_test_server.hpp"
#include "datasources/redirect_policy.hpp"
#include "datasources/sha256.hpp"
#include "datasources/sources.hpp"
#include "datasources/urls.hpp"
#include "test_support.hpp"

using namespace dpclust;
using namespace dpclust::datasources;
namespace fs = std::filesystem;
using dpclust::testing::HttpTestServer;
using dpclust::testing::input_error;
using dpclust::testing::pattern_bytes;

namespace {

std::string slurp(const fs::path& p) { return read_text_file(p); }

// A temporary folder removed at the end of the test.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) : path(dpclust::testing::temp_dir(tag)) {}
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// An upstream URL and the same file in a mirror folder served by the test server.
struct Mirror {
  TempDir dir{"mirror"};
  std::unique_ptr<HttpTestServer> server;
  Mirror() {}
  // Places `content` as https://host/path in the mirror; returns the upstream URL.
  std::string add(const std::string& host_path, const std::string& content) {
    dpclust::testing::write_file(dir.path / host_path, content);
    return "https://" + host_path;
  }
  void start() { server = std::make_unique<HttpTestServer>(dir.path); }
  std::string url() const { return server->url(); }
};

std::string binary() {
  const char* b = std::getenv("DPCLUST_BINARY");
  return b ? b : DPCLUST_BINARY_PATH;
}

using Shell = dpclust::testing::CommandResult;
Shell sh(const std::string& cmd) { return dpclust::testing::run_command(cmd); }

// A port on 127.0.0.1 with nothing listening (bound once, then released).
int closed_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  const int port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

}  // namespace

// ---- checksums and URLs ------------------------------------------------------------------------------

TEST(Sha256, KnownDigests) {
  // FIPS 180-4 examples.
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  Sha256 h;
  h.update("a");
  h.update("bc");
  EXPECT_EQ(h.hex_digest(), sha256_hex("abc"));
  EXPECT_TRUE(is_sha256_hex(sha256_hex("x")));
  EXPECT_FALSE(is_sha256_hex("E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"));
}

TEST(Sha256, OfAGzipFileIsOfItsText) {
  TempDir t("gz");
  const fs::path p = t.path / "x.csv.gz";
  gzFile f = gzopen(p.c_str(), "wb");
  gzputs(f, "lon,lat\n1,2\n");
  gzclose(f);
  EXPECT_EQ(sha256_gunzipped_file(p), sha256_hex("lon,lat\n1,2\n"));
  EXPECT_NE(sha256_file(p), sha256_hex("lon,lat\n1,2\n"));
  dpclust::testing::write_file(t.path / "bad.gz", "not gzip at all, but long enough to be read");
  // zlib reads a non-gzip file as plain text (transparent mode), so the checksum is of the bytes.
  EXPECT_EQ(sha256_gunzipped_file(t.path / "bad.gz"), sha256_hex("not gzip at all, but long enough to be read"));
}

TEST(Urls, MirrorLayoutIsHostThenPath) {
  EXPECT_EQ(mirrored_url("https://raw.githubusercontent.com/a/b/c.arff", "http://127.0.0.1:8000"),
            "http://127.0.0.1:8000/raw.githubusercontent.com/a/b/c.arff");
  EXPECT_EQ(mirrored_url("https://raw.githubusercontent.com/a/b/c.arff", "http://127.0.0.1:8000/m/"),
            "http://127.0.0.1:8000/m/raw.githubusercontent.com/a/b/c.arff");
  EXPECT_EQ(mirrored_url("https://x.org/a", ""), "https://x.org/a");
  EXPECT_NE(input_error([] { mirrored_url("https://x.org/a", "ftp://mirror"); }).find("not an http(s) URL"),
            std::string::npos);
  EXPECT_NE(input_error([] { parse_url("file:///etc/passwd"); }).find("not an http(s) URL"), std::string::npos);
  SourceFile f;
  f.url = "https://data.example.org/api/rows.csv?accessType=DOWNLOAD";
  EXPECT_EQ(f.download_path(), fs::path("downloads/data.example.org/api/rows.csv"));
  SourceFile climb;
  climb.url = "https://x.org/a/%2e%2e/../../etc/passwd";
  // curl normalises "a/../.." in the URL, so what stays is under downloads/x.org.
  const std::string p = climb.download_path().string();
  EXPECT_EQ(p.rfind("downloads/x.org/", 0), 0u) << p;
  EXPECT_EQ(p.find(".."), std::string::npos) << p;
}

// ---- redirects: the policy alone, no network ------------------------------------------------------------

using Rule = RedirectDecision::Rule;

TEST(RedirectPolicy, TheSameOriginIsFollowedWithDefaultPortsAndHostCaseNormalised) {
  EXPECT_EQ(redirect_policy("http://h.org/a", "http://H.ORG:80/b", false).rule, Rule::same_origin);
  EXPECT_EQ(redirect_policy("https://h.org/a", "https://h.org:443/b?x=1", false).rule, Rule::same_origin);
  EXPECT_EQ(redirect_policy("http://127.0.0.1:8000/a", "http://127.0.0.1:8000/b", false).rule, Rule::same_origin);
  EXPECT_TRUE(redirect_policy("http://h.org/a", "http://h.org/b", false).follow());
  EXPECT_TRUE(redirect_policy("http://h.org/a", "http://h.org/b", false).problem.empty());
}

TEST(RedirectPolicy, AnUpgradeToHttpsOnTheSameHostIsFollowedUnpinned) {
  // What a site that serves only https answers to http (FIMI's server: the case).
  const auto d = redirect_policy("http://fimi.uantwerpen.be/data/kosarak.dat",
                                 "https://fimi.uantwerpen.be/data/kosarak.dat", false);
  EXPECT_EQ(d.rule, Rule::https_upgrade);
  EXPECT_TRUE(d.follow());
  EXPECT_EQ(redirect_policy("http://H.org:80/x", "https://h.org:443/y", false).rule, Rule::https_upgrade);
  // Only the standard ports: http://h:8080 and https://h:8443 are other services on that host.
  EXPECT_EQ(redirect_policy("http://h.org:8080/x", "https://h.org:8443/x", false).rule, Rule::other_origin);
  EXPECT_EQ(redirect_policy("http://h.org/x", "https://h.org:8443/x", false).rule, Rule::other_origin);
}

TEST(RedirectPolicy, AnUpgradeToAnotherHostIsRefusedUnlessPinned) {
  const auto d = redirect_policy("http://a.org/x", "https://b.org/x", false);
  EXPECT_EQ(d.rule, Rule::other_origin);
  EXPECT_FALSE(d.follow());
  EXPECT_EQ(redirect_policy("http://a.org/x", "https://b.org/x", true).rule, Rule::pinned);
  EXPECT_TRUE(redirect_policy("http://a.org/x", "https://b.org/x", true).follow());
  // A subdomain is another host.
  EXPECT_EQ(redirect_policy("http://a.org/x", "https://www.a.org/x", false).rule, Rule::other_origin);
}

TEST(RedirectPolicy, ADowngradeToHttpIsRefusedUnlessPinned) {
  const auto d = redirect_policy("https://h.org/x", "http://h.org/x", false);
  EXPECT_EQ(d.rule, Rule::downgrade);
  EXPECT_FALSE(d.follow());
  EXPECT_NE(d.problem.find("plain http"), std::string::npos) << d.problem;
  EXPECT_EQ(redirect_policy("https://h.org/x", "http://h.org/x", true).rule, Rule::pinned);
  EXPECT_EQ(redirect_policy("https://h.org/x", "http://other.org/x", false).rule, Rule::downgrade);
}

TEST(RedirectPolicy, AnotherPortOnTheSameHostIsAnotherOrigin) {
  EXPECT_EQ(redirect_policy("http://127.0.0.1:8000/x", "http://127.0.0.1:8001/x", false).rule, Rule::other_origin);
  EXPECT_EQ(redirect_policy("http://127.0.0.1:8000/x", "http://127.0.0.1:8001/x", true).rule, Rule::pinned);
  EXPECT_EQ(redirect_policy("https://h.org/x", "https://h.org:8443/x", false).rule, Rule::other_origin);
}

TEST(RedirectPolicy, NonHttpSchemesAreRefusedEvenPinnedAndNamed) {
  const std::vector<std::pair<std::string, std::string>> targets = {
      {"ftp://h.org/x", "ftp"},      {"file:///etc/passwd", "file"}, {"javascript:alert(1)", "javascript"},
      {"gopher://h.org/", "gopher"}, {"data:text/plain,hi", "data"}, {"FTP://h.org/x", "ftp"},
      {"mailto:a@b.org", "mailto"},  {"ldap://h.org/", "ldap"}};
  for (const bool pinned : {false, true}) {
    for (const auto& [to, scheme] : targets) {
      const auto d = redirect_policy("http://h.org/x", to, pinned);
      EXPECT_EQ(d.rule, Rule::not_http) << to;
      EXPECT_FALSE(d.follow()) << to;
      EXPECT_NE(d.problem.find("scheme is '" + scheme + "'"), std::string::npos) << d.problem;
      EXPECT_NE(d.fix.find("--mirror"), std::string::npos) << d.fix;
    }
  }
  // Garbage names no scheme; an http URL libcurl cannot parse is not a URL.
  const auto g = redirect_policy("http://h.org/x", "%%% not a url", true);
  EXPECT_EQ(g.rule, Rule::not_http);
  EXPECT_NE(g.problem.find("names no scheme"), std::string::npos) << g.problem;
  EXPECT_EQ(redirect_policy("http://h.org/x", "http://[::1/x", true).rule, Rule::not_a_url);
  EXPECT_EQ(redirect_policy("http://h.org/x", "", true).rule, Rule::not_http);
}

TEST(RedirectPolicy, RefusalsNameBothUrlsAndTheFixButNoCredentials) {
  const auto d = redirect_policy("http://alice:s3cret@mirror.org/x", "http://bob:hunter2@evil.org/y", false);
  EXPECT_EQ(d.rule, Rule::other_origin);
  EXPECT_NE(d.problem.find("http://mirror.org/x"), std::string::npos) << d.problem;
  EXPECT_NE(d.problem.find("http://evil.org/y"), std::string::npos) << d.problem;
  EXPECT_NE(d.problem.find("http://mirror.org:80"), std::string::npos) << d.problem;  // the origin it may use
  EXPECT_NE(d.fix.find("--mirror"), std::string::npos) << d.fix;
  for (const char* secret : {"alice", "s3cret", "bob", "hunter2"})
    EXPECT_EQ(d.problem.find(secret), std::string::npos) << d.problem;
  // Other schemes and URLs no parser takes keep their passwords out of messages too.
  EXPECT_EQ(redirect_policy("http://h.org/x", "ftp://u:pw4ftp@h.org/x", true).problem.find("pw4ftp"),
            std::string::npos);
  EXPECT_EQ(url_for_messages("http://u:pw5@[::1/x").find("pw5"), std::string::npos)
      << url_for_messages("http://u:pw5@[::1/x");
  EXPECT_EQ(url_for_messages("https://u:p@h.org/a@b"), "https://h.org/a@b");
  EXPECT_EQ(url_for_messages("https://h.org/a"), "https://h.org/a");
  // A server's Location reaches the terminal escaped and bounded.
  const std::string shown = url_for_messages("http://h.org/\x1b[2J" + std::string(5000, 'a'));
  EXPECT_EQ(shown.find('\x1b'), std::string::npos);
  EXPECT_NE(shown.find("%1B[2J"), std::string::npos) << shown;
  EXPECT_EQ(shown.size(), 303u);
}

// ---- the project's registry ----------------------------------------------------------------------------

TEST(Registry, EveryDatasetNamesItsSource) {
  const auto sources = load_sources();
  ASSERT_GE(sources.size(), 20u);
  std::size_t pinned = 0;
  for (const auto& s : sources) {
    EXPECT_FALSE(s.citation.empty()) << s.name;
    if (s.pinned()) ++pinned;
    else EXPECT_FALSE(s.note.empty()) << s.name << ": an unpinned source says why";
    for (const auto* src : s.all_sources())
      for (const auto& in : src->inputs) {
        EXPECT_NO_THROW(parse_url(in.url)) << s.name;
        // GitHub sources are pinned to a commit (40 hex digits in the path) or a release tag, and by checksum
        // (a SHA-256, or a git blob id where only the repository's history pins the file).
        if (in.url.find("raw.githubusercontent.com") != std::string::npos) {
          EXPECT_TRUE(in.pinned()) << in.url;
          const std::string& u = in.url;
          bool has_commit = false;
          for (std::size_t i = 0; i + 41 < u.size(); ++i)
            if (u[i] == '/' && u[i + 41] == '/' && is_sha256_hex(u.substr(i + 1, 40) + std::string(24, '0')))
              has_commit = true;
          const bool release_tag = u.find("/scikit-learn/scikit-learn/1.2.1/") != std::string::npos;
          EXPECT_TRUE(has_commit || release_tag) << u;
        }
      }
  }
  // Pinned: the generated Circles, Moons, Blobs; Cluto t4/t5/t7/t8; Cabs and Cabs-tiny; DS1-DS3; R15,
  // Aggregation; Iris; the FIMI chess, mushroom and connect (by public copies); UCI Letter (a public copy in
  // UCI's row order); FastLloyd's wine and breast cancer (scikit-learn's bundled files), lsun, yeast and s1 (a pinned
  // commit of deric/clustering-benchmark). Unpinned: Gowalla, Crash, HAR70+, pumsb and accidents (their copies pinned
  // by git blob ids only), UCI Gas Turbine Emissions and Birch2 (no copy could be had).
  EXPECT_EQ(pinned, 24u);
  for (const char* fimi : {"chess", "mushroom", "connect", "pumsb", "accidents"}) {
    const auto* s = select_sources(sources, {fimi}).at(0);
    ASSERT_EQ(s->all_sources().size(), 2u) << fimi;
    EXPECT_EQ(s->inputs[0].url, std::string("http://fimi.uantwerpen.be/data/") + fimi + ".dat");
    EXPECT_TRUE(s->inputs[0].pinned()) << fimi << ": the official file is held to the copy's pin";
  }
  EXPECT_EQ(select_sources(sources, {"chess"}).at(0)->inputs[0].git_blob, "caa58ae911310ddc68433c9ccf9599084de2b686");
  EXPECT_EQ(select_sources(sources, {"accidents"}).at(0)->alternatives[0].inputs[0].git_blob,
            "3411322ed5f75b05a04a2e7f66f320bd8b358302");
  EXPECT_EQ(sources.size(), 31u);
  const auto gas = select_sources(sources, {"uci_gas_emissions"}).at(0);
  EXPECT_EQ(gas->derivation, "concat_csv");
  EXPECT_EQ(gas->members.size(), 5u);
  EXPECT_EQ(select_sources(sources, {"letter"}).at(0)->sha256,
            "ccaa0721f3c049c7a2f6617525d1ec46204279dfb67031a49bbfd057bdd12ba6");
  const auto cabs = select_sources(sources, {"cabs"}).at(0);
  EXPECT_EQ(cabs->kind, SourceKind::derived);
  EXPECT_EQ(cabs->inputs.size(), 536u);
  EXPECT_EQ(cabs->download_bytes(), 367767186u);
  EXPECT_EQ(cabs->sha256, "d8b6d1c95384d5631e858e272ba6953f1cd9ee410eed63ec05a190d604b6186b");
  EXPECT_EQ(select_sources(sources, {"cabs-tiny"}).at(0)->inputs.size(), 536u);
  EXPECT_EQ(select_sources(sources, {"circles"}).at(0)->kind, SourceKind::generated);
  for (const char* fimi : {"accidents", "mushroom", "chess", "connect", "pumsb"})
    EXPECT_EQ(select_sources(sources, {fimi}).size(), 1u);
  const auto har70 = select_sources(sources, {"har70"}).at(0);
  EXPECT_EQ(har70->members.size(), 18u);
  EXPECT_EQ(har70->options["select_rows"], "103860");
  EXPECT_NE(input_error([&] { select_sources(sources, {"cluto-t9"}); }).find("did you mean"), std::string::npos);
}

TEST(Registry, RejectsASourceWithoutChecksumOrCitation) {
  TempDir t("reg");
  const fs::path reg = dpclust::testing::write_file(
      t.path / "registry.yaml", "a:\n  data_file: a.csv\n  source:\n    url: https://x.org/a.csv\n    citation: x\n");
  EXPECT_NE(input_error([&] { load_sources(reg); }).find("missing sha256"), std::string::npos);
  dpclust::testing::write_file(reg, "a:\n  data_file: a.csv\n");
  EXPECT_NE(input_error([&] { load_sources(reg); }).find("does not say where its data comes from"), std::string::npos);
  dpclust::testing::write_file(
      reg, "a:\n  data_file: a.csv\n  source:\n    url: https://x.org/a.csv\n    sha256: unpinned\n    citation: x\n");
  EXPECT_NE(input_error([&] { load_sources(reg); }).find("needs a note"), std::string::npos);
  dpclust::testing::write_file(
      reg, "a:\n  data_file: a.csv\n  source:\n    url: https://x.org/a.csv\n    sha256: 1234\n    citation: x\n");
  EXPECT_NE(input_error([&] { load_sources(reg); }).find("not a SHA-256 digest"), std::string::npos);
}

// ---- downloads ----------------------------------------------------------------------------------------

TEST(Download, PlacesAVerifiedFile) {
  Mirror m;
  const std::string content = pattern_bytes(300000);
  const std::string up = m.add("example.org/data/x.bin", content);
  m.start();
  TempDir out("out");
  const fs::path dest = out.path / "sub" / "x.bin";
  const DownloadResult r =
      download_file({mirrored_url(up, m.url()), up, dest, sha256_hex(content), content.size()}, {});
  EXPECT_EQ(r.sha256, sha256_hex(content));
  EXPECT_EQ(r.bytes, content.size());
  EXPECT_EQ(slurp(dest), content);
  EXPECT_FALSE(fs::exists(dest.string() + ".part"));
  EXPECT_EQ(m.server->request_count("/example.org/data/x.bin"), 1u);
}

TEST(Download, ChecksumMismatchRejectsTheFileAndNamesUrlAndBothHashes) {
  Mirror m;
  const std::string content = pattern_bytes(5000);
  const std::string up = m.add("example.org/x.bin", content);
  m.start();
  m.server->corrupt_byte("/example.org/x.bin", 1234);
  TempDir out("out");
  const fs::path dest = out.path / "x.bin";
  std::string bad = content;
  bad[1234] = static_cast<char>(bad[1234] ^ 0xFF);
  const std::string msg = input_error([&] {
    download_file({mirrored_url(up, m.url()), up, dest, sha256_hex(content), content.size()}, {});
  });
  EXPECT_NE(msg.find("checksum mismatch"), std::string::npos) << msg;
  EXPECT_NE(msg.find(sha256_hex(content)), std::string::npos) << msg;
  EXPECT_NE(msg.find(sha256_hex(bad)), std::string::npos) << msg;
  EXPECT_NE(msg.find(mirrored_url(up, m.url())), std::string::npos) << msg;
  EXPECT_NE(msg.find(up), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dest));
  EXPECT_FALSE(fs::exists(dest.string() + ".part"));
}

TEST(Download, TruncatedTransferResumesWithARangeRequest) {
  Mirror m;
  const std::string content = pattern_bytes(200000);
  const std::string up = m.add("example.org/t.bin", content);
  m.start();
  m.server->truncate_once("/example.org/t.bin", 70000);
  TempDir out("out");
  const fs::path dest = out.path / "t.bin";
  const DownloadResult r =
      download_file({mirrored_url(up, m.url()), up, dest, sha256_hex(content), content.size()}, {});
  EXPECT_EQ(slurp(dest), content);
  EXPECT_EQ(r.attempts, 2);
  const auto ranges = m.server->range_headers("/example.org/t.bin");
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0], "");
  EXPECT_EQ(ranges[1], "bytes=70000-");
}

TEST(Download, APartialFileFromAKilledRunIsResumed) {
  Mirror m;
  const std::string content = pattern_bytes(100000);
  const std::string up = m.add("example.org/k.bin", content);
  m.start();
  TempDir out("out");
  const fs::path dest = out.path / "k.bin";
  dpclust::testing::write_file(dest.string() + ".part", content.substr(0, 41234));
  const DownloadResult r =
      download_file({mirrored_url(up, m.url()), up, dest, sha256_hex(content), content.size()}, {});
  EXPECT_EQ(r.resumed_from, 41234u);
  EXPECT_EQ(slurp(dest), content);
  EXPECT_EQ(m.server->range_headers("/example.org/k.bin"), std::vector<std::string>{"bytes=41234-"});
}

TEST(Download, NotFoundAndUnreachableHostAreClearErrors) {
  Mirror m;
  m.start();
  TempDir out("out");
  const std::string up = "https://example.org/missing.bin";
  const std::string msg = input_error([&] {
    download_file({mirrored_url(up, m.url()), up, out.path / "m.bin", "", 0}, {});
  });
  EXPECT_NE(msg.find("HTTP 404"), std::string::npos) << msg;
  EXPECT_NE(msg.find("--mirror"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(out.path / "m.bin"));
  EXPECT_FALSE(fs::exists(out.path / "m.bin.part"));

  const std::string dead = "http://127.0.0.1:" + std::to_string(closed_port());
  const std::string msg2 = input_error([&] {
    download_file({mirrored_url(up, dead), up, out.path / "m.bin", "", 0}, {});
  });
  EXPECT_NE(msg2.find("cannot reach the host"), std::string::npos) << msg2;
}

TEST(Download, AServerSendingMoreThanExpectedIsCutOff) {
  Mirror m;
  const std::string content = pattern_bytes(50000);
  const std::string up = m.add("example.org/big.bin", content);
  m.start();
  TempDir out("out");
  const std::string msg = input_error([&] {
    download_file({mirrored_url(up, m.url()), up, out.path / "b.bin", "", 1000}, {});
  });
  EXPECT_NE(msg.find("more than the expected 1000 bytes"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(out.path / "b.bin"));
}

TEST(Download, FullDiskSaysNoSpaceAndKeepsThePartialFileForResume) {
  TempDir out("tmpfs");
  const fs::path small = out.path / "small";
  fs::create_directories(small);
  if (::mount("tmpfs", small.c_str(), "tmpfs", 0, "size=64k") != 0)
    GTEST_SKIP() << "cannot mount a small tmpfs here (needs root and mount rights): " << std::strerror(errno);
  struct Unmount {
    fs::path p;
    ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
  } unmount{small};
  Mirror m;
  const std::string content = pattern_bytes(300000);
  const std::string up = m.add("example.org/f.bin", content);
  m.start();
  const fs::path dest = small / "f.bin";
  const std::string msg = input_error([&] {
    download_file({mirrored_url(up, m.url()), up, dest, sha256_hex(content), content.size()}, {});
  });
  EXPECT_NE(msg.find("no space left on device"), std::string::npos) << msg;
  EXPECT_NE(msg.find("resumes"), std::string::npos) << msg;
  EXPECT_FALSE(fs::exists(dest));
}

// ---- archives -----------------------------------------------------------------------------------------

namespace {
void write_zip(const fs::path& path, const std::vector<std::pair<std::string, std::string>>& members) {
  archive* a = archive_write_new();
  archive_write_set_format_zip(a);
  archive_write_open_filename(a, path.c_str());
  for (const auto& [name, text] : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_size(e, static_cast<la_int64_t>(text.size()));
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    archive_write_data(a, text.data(), text.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
}
}  // namespace

TEST(Archive, ExtractsWantedMembersFlatAndNeverOutsideTheFolder) {
  TempDir t("zip");
  const fs::path zip = t.path / "har.zip";
  write_zip(zip, {{"har70plus/501.csv", "a,b\n1,2\n"}, {"har70plus/502.csv", "a,b\n3,4\n"}, {"../../evil.csv", "x"}});
  const auto got = extract_members(zip, t.path / "out", {"502.csv", "evil.csv"});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(slurp(t.path / "out" / "502.csv"), "a,b\n3,4\n");
  EXPECT_EQ(slurp(t.path / "out" / "evil.csv"), "x");  // flattened into the folder
  EXPECT_FALSE(fs::exists(t.path / "evil.csv"));
  EXPECT_FALSE(fs::exists(t.path.parent_path() / "evil.csv"));
  EXPECT_FALSE(fs::exists(t.path / "out" / "501.csv"));
  EXPECT_NE(input_error([&] { extract_members(zip, t.path / "out2", {"503.csv"}); }).find("no member named '503.csv'"),
            std::string::npos);
  EXPECT_NE(input_error([&] { extract_members(zip, t.path / "out3", {}, 10); }).find("unpacks to more than 10 bytes"),
            std::string::npos);
}

TEST(Archive, CorruptArchiveIsAClearError) {
  TempDir t("zip");
  const fs::path zip = t.path / "bad.zip";
  write_zip(zip, {{"501.csv", pattern_bytes(20000)}});
  std::string bytes = slurp(zip);
  dpclust::testing::write_file(t.path / "truncated.zip", bytes.substr(0, bytes.size() / 2));
  dpclust::testing::write_file(t.path / "garbage.zip", pattern_bytes(3000));
  for (const char* name : {"truncated.zip", "garbage.zip"}) {
    const std::string msg = input_error([&] { extract_members(t.path / name, t.path / "out", {"501.csv"}); });
    EXPECT_NE(msg.find(name), std::string::npos) << msg;
    EXPECT_NE(msg.find("fetch"), std::string::npos) << msg;
    EXPECT_FALSE(fs::exists(t.path / "out" / "501.csv")) << name;
  }
}

// ---- `dpclust data` end to end, on a registry of fixture datasets ---------------------------------------

namespace {

// A registry with three datasets served by the test server: a file taken as it is, one derived from a
// manifest of two inputs (cabs_pickups_dropoffs on two tiny traces), and an unpinned one.
struct FixtureSite {
  Mirror mirror;
  TempDir root{"root"};
  TempDir regdir{"reg"};
  fs::path registry;
  std::string plain, tiny_expected;

  FixtureSite() {
    plain = "@relation x\n@attribute a numeric\n@data\n1\n2\n";
    const std::string up = mirror.add("example.org/c/plain.arff", plain);
    const std::string t1 = "37.75 -122.40 0 1\n37.76 -122.41 1 2\n37.77 -122.42 1 3\n37.78 -122.43 0 4\n";
    const std::string t2 = "37.70 -122.40 1 1\n37.80 -122.45 0 2\n";
    mirror.add("example.org/traces/new_a.txt", t1);
    mirror.add("example.org/traces/new_b.txt", t2);
    mirror.add("example.org/u/free.csv", "x,y\n1,2\n");
    // Pick-ups/drop-offs inside [-122.48,-122.38] x [37.72,37.82]: a's line 2 (pick-up) and line 4
    // (drop-off); b's pick-up at 37.70 is outside the box, its drop-off is kept.
    tiny_expected = "lon,lat\n-122.41,37.76\n-122.43,37.78\n-122.45,37.80\n";
    const fs::path manifest =
        dpclust::testing::write_file(regdir.path / "sources" / "traces.tsv",
                                     "# fixture\nnew_b.txt\t" + std::to_string(t2.size()) + "\t" + sha256_hex(t2) +
                                         "\nnew_a.txt\t" + std::to_string(t1.size()) + "\t" + sha256_hex(t1) + "\n");
    registry = dpclust::testing::write_file(
        regdir.path / "registry.yaml",
        "plain:\n  data_file: bench/plain.arff\n  source:\n    url: " + up + "\n    sha256: " + sha256_hex(plain) +
            "\n    size: " + std::to_string(plain.size()) +
            "\n    citation: fixture\n"
            "tiny:\n  data_file: geo/tiny.csv\n  source:\n    inputs:\n      - base_url: https://example.org/traces/\n"
            "        manifest: sources/traces.tsv\n    derive: cabs_pickups_dropoffs\n    sha256: " +
            sha256_hex(tiny_expected) +
            "\n    citation: fixture\n"
            "free:\n  data_file: u/free.csv\n  source:\n    url: https://example.org/u/free.csv\n    sha256: unpinned\n"
            "    citation: fixture\n    note: a fixture without a pinned checksum\n");
    mirror.start();
  }
  std::string env() const { return "DPCLUST_REGISTRY=" + registry.string() + " DPCLUST_MIRROR=" + mirror.url() + " "; }
  std::string data(const std::string& args) const {
    return env() + binary() + " data " + args + " --data-root " + root.path.string() + " --no-progress";
  }
};

}  // namespace

TEST(DataCommand, FetchAllListVerifyOnAFixtureRegistry) {
  FixtureSite site;
  Shell list = sh(site.data("list"));
  EXPECT_EQ(list.code, 0) << list.output;
  EXPECT_NE(list.output.find("3 missing"), std::string::npos) << list.output;

  Shell fetch = sh(site.data("fetch --all"));
  ASSERT_EQ(fetch.code, 0) << fetch.output;
  EXPECT_NE(fetch.output.find("3 fetched, 0 already present, 0 failed"), std::string::npos) << fetch.output;
  EXPECT_EQ(slurp(site.root.path / "bench/plain.arff"), site.plain);
  EXPECT_EQ(slurp(site.root.path / "geo/tiny.csv"), site.tiny_expected);
  EXPECT_TRUE(fs::exists(site.root.path / "downloads/example.org/traces/new_a.txt"));
  // The record says where the derived file came from and what the derivation counted.
  const auto rec = nlohmann::json::parse(slurp(site.root.path / ".dpclust/records/geo/tiny.csv.json"));
  EXPECT_EQ(rec["derivation"]["rows_written"], 3);
  EXPECT_EQ(rec["sha256"], sha256_hex(site.tiny_expected));

  list = sh(site.data("list"));
  EXPECT_EQ(list.code, 0);
  EXPECT_EQ(list.output.find("missing"), std::string::npos) << list.output;
  EXPECT_NE(list.output.find("ok (recorded)"), std::string::npos) << list.output;

  Shell again = sh(site.data("fetch --all"));
  EXPECT_EQ(again.code, 0);
  EXPECT_NE(again.output.find("0 fetched, 3 already present"), std::string::npos) << again.output;
  EXPECT_EQ(site.mirror.server->request_count("/example.org/c/plain.arff"), 1u);

  Shell verify = sh(site.data("verify"));
  EXPECT_EQ(verify.code, 0) << verify.output;

  // A damaged file: verify says so (exit 2), fetch refuses to overwrite it, --replace sets it aside.
  dpclust::testing::write_file(site.root.path / "bench/plain.arff", "changed\n");
  verify = sh(site.data("verify plain"));
  EXPECT_EQ(verify.code, 2) << verify.output;
  EXPECT_NE(verify.output.find("checksum mismatch"), std::string::npos) << verify.output;
  Shell refuse = sh(site.data("fetch plain"));
  EXPECT_EQ(refuse.code, 2) << refuse.output;
  EXPECT_NE(refuse.output.find("--replace"), std::string::npos) << refuse.output;
  Shell replace = sh(site.data("fetch plain --replace"));
  EXPECT_EQ(replace.code, 0) << replace.output;
  EXPECT_EQ(slurp(site.root.path / "bench/plain.arff"), site.plain);
  bool kept_aside = false;
  for (const auto& e : fs::directory_iterator(site.root.path / "bench"))
    if (e.path().filename().string().rfind("plain.arff.rejected-", 0) == 0) kept_aside = slurp(e.path()) == "changed\n";
  EXPECT_TRUE(kept_aside);
}

TEST(DataCommand, MismatchFromTheMirrorFailsWithExit2AndLeavesNothing) {
  FixtureSite site;
  site.mirror.server->corrupt_byte("/example.org/c/plain.arff", 3);
  Shell r = sh(site.data("fetch plain"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("checksum mismatch"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("retry: dpclust data fetch plain"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(site.root.path / "bench/plain.arff"));
  EXPECT_FALSE(fs::exists(site.root.path / "bench/plain.arff.part"));
}

TEST(DataCommand, UnreachableMirrorFailsEveryDatasetButKeepsGoing) {
  FixtureSite site;
  const std::string dead = "http://127.0.0.1:" + std::to_string(closed_port());
  Shell r = sh("DPCLUST_REGISTRY=" + site.registry.string() + " " + binary() + " data fetch --all --mirror " + dead +
               " --data-root " + site.root.path.string() + " --no-progress");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("cannot reach the host"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0 fetched, 0 already present, 3 failed"), std::string::npos) << r.output;
}

TEST(DataCommand, TwoFetchesOfOneDatasetAtOnceDownloadItOnce) {
  FixtureSite site;
  site.mirror.server->set_delay_ms("/example.org/traces/new_a.txt", 700);
  auto first = std::async(std::launch::async, [&] { return sh(site.data("fetch tiny")); });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  auto second = std::async(std::launch::async, [&] { return sh(site.data("fetch tiny")); });
  const Shell a = first.get(), b = second.get();
  EXPECT_EQ(a.code, 0) << a.output;
  EXPECT_EQ(b.code, 0) << b.output;
  EXPECT_EQ(slurp(site.root.path / "geo/tiny.csv"), site.tiny_expected);
  EXPECT_EQ(site.mirror.server->request_count("/example.org/traces/new_a.txt"), 1u);
  const std::string both = a.output + b.output;
  EXPECT_NE(both.find("waiting for another `dpclust data fetch`"), std::string::npos) << both;
  EXPECT_NE(both.find("already present"), std::string::npos) << both;
}

TEST(DataCommand, UsageErrorsExit2) {
  EXPECT_EQ(sh(binary() + " data").code, 2);
  Shell r = sh(binary() + " data fetsh");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("did you mean 'fetch'"), std::string::npos) << r.output;
  r = sh(binary() + " data fetch");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("--all"), std::string::npos) << r.output;
  TempDir root("root");
  r = sh(binary() + " data fetch --all --mirror ftp://x --data-root " + root.path.string() + " --no-progress");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--mirror"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::is_empty(root.path)) << "a bad mirror is refused before anything is fetched";
  EXPECT_EQ(sh(binary() + " data --help").code, 0);
  EXPECT_EQ(sh(binary() + " data fetch --help").code, 0);
}
