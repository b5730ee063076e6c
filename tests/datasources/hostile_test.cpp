// A fetcher no mirror can fool: 13 hostile-server cases, each
// replayed against the real HTTP test server on 127.0.0.1 (http_test_server, with its injected faults)
// and the real `dpclust data` binary. No test measures time: bounds and deadlines are set small through
// $DPCLUST_FETCH_* so that a case ends in a second or two after the fix (and, before it, ends wrongly).
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
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

// CSV-like text of about `n` bytes: lines of numbers, each ending in '\n'.
std::string csv_text(std::size_t n) {
  std::string s = "x,y\n";
  for (std::size_t i = 0; s.size() < n; ++i) s += std::to_string(i) + "," + std::to_string(i * 7 % 1000) + "\n";
  return s;
}

std::string gzip_bytes(const std::string& text) {
  const fs::path tmp = dpclust::testing::temp_dir("gz") / "x.gz";
  gzFile f = gzopen(tmp.c_str(), "wb9");
  std::size_t off = 0;
  while (off < text.size()) {
    const auto n = static_cast<unsigned>(std::min<std::size_t>(1 << 20, text.size() - off));
    gzwrite(f, text.data() + off, n);
    off += n;
  }
  gzclose(f);
  std::string out = read_text_file(tmp);
  std::error_code ec;
  fs::remove_all(tmp.parent_path(), ec);
  return out;
}

std::string zip_bytes(const std::vector<std::pair<std::string, std::string>>& members) {
  const fs::path tmp = dpclust::testing::temp_dir("zip") / "x.zip";
  archive* a = archive_write_new();
  archive_write_set_format_zip(a);
  archive_write_open_filename(a, tmp.c_str());
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
  std::string out = read_text_file(tmp);
  std::error_code ec;
  fs::remove_all(tmp.parent_path(), ec);
  return out;
}

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) : path(dpclust::testing::temp_dir(tag)) {}
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
};

std::string binary() {
  const char* b = std::getenv("DPCLUST_BINARY");
  return b ? b : DPCLUST_BINARY_PATH;
}

dpclust::testing::CommandResult sh(const std::string& cmd) { return dpclust::testing::run_command(cmd); }

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A mirror folder served on 127.0.0.1, a registry of fixture datasets and a data root. Each dataset is
// added with its registry text; `data(...)` runs the real binary on them.
struct Site {
  TempDir mirror_dir{"hmirror"};
  TempDir root{"hroot"};
  TempDir regdir{"hreg"};
  std::unique_ptr<HttpTestServer> server;
  std::string registry_text;
  std::string extra_env;

  Site() { server = std::make_unique<HttpTestServer>(mirror_dir.path); }
  // Serves `content` at https://example.org/<path> through the mirror; returns the upstream URL.
  std::string serve(const std::string& path, const std::string& content) {
    dpclust::testing::write_file(mirror_dir.path / "example.org" / path, content);
    return "https://example.org/" + path;
  }
  std::string mirror_path(const std::string& path) const { return "/example.org/" + path; }
  // An unpinned download taken as it is.
  void unpinned(const std::string& name, const std::string& data_file, const std::string& url) {
    registry_text += name + ":\n  data_file: " + data_file + "\n  source:\n    url: " + url +
                     "\n    sha256: unpinned\n    citation: fixture\n    note: a fixture without a pinned checksum\n";
  }
  void pinned(const std::string& name, const std::string& data_file, const std::string& url,
              const std::string& content) {
    registry_text += name + ":\n  data_file: " + data_file + "\n  source:\n    url: " + url +
                     "\n    sha256: " + sha256_hex(content) + "\n    size: " + std::to_string(content.size()) +
                     "\n    citation: fixture\n";
  }
  fs::path registry() const { return dpclust::testing::write_file(regdir.path / "registry.yaml", registry_text); }
  std::string data(const std::string& args, const fs::path& data_root = {}) const {
    return "DPCLUST_REGISTRY=" + quoted(registry().string()) + " DPCLUST_MIRROR=" + server->url() + " " + extra_env +
           binary() + " data " + args + " --data-root " + quoted((data_root.empty() ? root.path : data_root).string()) +
           " --no-progress 2>&1";
  }
  fs::path at(const std::string& rel) const { return root.path / rel; }
};

bool exists_no_follow(const fs::path& p) {
  struct stat st {};
  return ::lstat(p.c_str(), &st) == 0;
}

}  // namespace

// 1. A gzip stream cut in half but served as a complete response (an honest Content-Length for the half
// file) was accepted, recorded and later verified "ok": zlib's unexpected end of stream was ignored.
TEST(HostileServer, GzipCutInHalfIsRejectedAndNeverVerifiedOk) {
  Site site;
  const std::string gz = gzip_bytes(csv_text(200000));
  site.unpinned("g", "snap/g.txt.gz", site.serve("snap/g.txt.gz", gz.substr(0, gz.size() / 2)));
  const auto r = sh(site.data("fetch g"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("corrupt gzip data"), std::string::npos) << r.output;
  EXPECT_FALSE(exists_no_follow(site.at("snap/g.txt.gz")));
  EXPECT_FALSE(exists_no_follow(site.at("snap/g.txt.gz.part")));
  EXPECT_FALSE(fs::exists(site.at(".dpclust/records/snap/g.txt.gz.json")));
  // The checksum itself refuses a half stream, so a half file placed by hand is not "ok" either.
  dpclust::testing::write_file(site.at("snap/g.txt.gz"), gz.substr(0, gz.size() / 2));
  EXPECT_NE(input_error([&] { sha256_gunzipped_file(site.at("snap/g.txt.gz")); }).find("corrupt gzip data"),
            std::string::npos);
  const auto v = sh(site.data("verify g"));
  EXPECT_EQ(v.code, 2) << v.output;
}

// 2. A corrupt unpinned gzip was renamed to its real name before it was checked; afterwards `data list`
// failed for every dataset and a refetch refused to replace it.
TEST(HostileServer, CorruptUnpinnedGzipIsCheckedBeforeItIsPlaced) {
  Site site;
  const std::string good = gzip_bytes(csv_text(100000));
  std::string bad = good;
  bad[bad.size() / 2] = static_cast<char>(bad[bad.size() / 2] ^ 0x55);
  site.unpinned("g", "snap/g.txt.gz", site.serve("snap/g.txt.gz", bad));
  site.pinned("p", "p.csv", site.serve("p.csv", "a\n1\n"), "a\n1\n");
  auto r = sh(site.data("fetch g"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("corrupt gzip data"), std::string::npos) << r.output;
  EXPECT_FALSE(exists_no_follow(site.at("snap/g.txt.gz"))) << "a corrupt gzip must never stand under its real name";
  EXPECT_FALSE(exists_no_follow(site.at("snap/g.txt.gz.part")));
  r = sh(site.data("list"));
  EXPECT_EQ(r.code, 0) << r.output;
  // The server is fixed: the next fetch takes the good file without any manual cleanup.
  site.serve("snap/g.txt.gz", good);
  r = sh(site.data("fetch g"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(sh(site.data("verify g")).code, 0);
  // A corrupt gzip left by an older version: `list` still works and names it, --replace sets it aside.
  dpclust::testing::write_file(site.at("snap/g.txt.gz"), bad);
  r = sh(site.data("list"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("damaged"), std::string::npos) << r.output;
  r = sh(site.data("fetch g --replace"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(read_text_file(site.at("snap/g.txt.gz")), good);
}

// 3. A small gzip that inflates enormously was accepted (and inflated again by every list/verify: see
// 13a for the cache). An unpinned .gz may inflate to max(compressed size, 1 MiB) x 64 = 64 MiB here;
// the bomb is 100 MiB of zeros in ~100 kB.
TEST(HostileServer, GzipBombIsStoppedAtItsBound) {
  Site site;
  const std::string bomb = gzip_bytes(std::string(100u << 20, '0'));
  ASSERT_LT(bomb.size(), 1u << 20);
  site.unpinned("g", "snap/bomb.txt.gz", site.serve("snap/bomb.txt.gz", bomb));
  const auto r = sh(site.data("fetch g"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("inflates to more than"), std::string::npos) << r.output;
  EXPECT_FALSE(exists_no_follow(site.at("snap/bomb.txt.gz")));
  EXPECT_FALSE(exists_no_follow(site.at("snap/bomb.txt.gz.part")));
}

// 4. Unpinned downloads had no size bound (an endless body filled the disk and its .part was kept).
TEST(HostileServer, UnpinnedDownloadIsBoundedAndLeavesNoPart) {
  Site site;
  site.unpinned("u", "u/big.csv", site.serve("u/big.csv", csv_text(3000000)));
  site.extra_env = "DPCLUST_FETCH_MAX_BYTES=1000000 ";
  const auto r = sh(site.data("fetch u"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("more than 1000000 bytes"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("DPCLUST_FETCH_MAX_BYTES"), std::string::npos) << r.output;
  EXPECT_FALSE(exists_no_follow(site.at("u/big.csv")));
  EXPECT_FALSE(exists_no_follow(site.at("u/big.csv.part")));
  site.extra_env = "DPCLUST_FETCH_MAX_BYTES=1M ";  // 1048576
  EXPECT_NE(sh(site.data("fetch u")).output.find("more than 1048576 bytes"), std::string::npos);
  site.extra_env = "DPCLUST_FETCH_MAX_BYTES=lots ";
  const auto bad = sh(site.data("fetch u"));
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find("$DPCLUST_FETCH_MAX_BYTES: 'lots' is not a size in bytes"), std::string::npos)
      << bad.output;
}

// The bound is read by the rule of every size (io/byte_size.hpp): a fraction or a unit ending in B or iB
// was refused here before, while --max-memory took them.
TEST(HostileServer, UnpinnedBoundTakesTheSizesMaxMemoryTakes) {
  ::setenv("DPCLUST_FETCH_MAX_BYTES", "0.5MiB", 1);
  const std::uint64_t half_mib = download_options_from_environment().max_unpinned_bytes;
  ::setenv("DPCLUST_FETCH_MAX_BYTES", " 2gb", 1);
  const std::uint64_t two_gib = download_options_from_environment().max_unpinned_bytes;
  ::unsetenv("DPCLUST_FETCH_MAX_BYTES");
  EXPECT_EQ(half_mib, 524288u);
  EXPECT_EQ(two_gib, std::uint64_t{2} << 30);
  EXPECT_EQ(download_options_from_environment().max_unpinned_bytes, DownloadOptions::kDefaultMaxUnpinnedBytes);
}

// 5. A body cut short for an unpinned file, ended by closing the connection (no Content-Length, so it
// looks complete), was accepted and recorded.
TEST(HostileServer, UnpinnedBodyWithoutLengthCutShortIsRejected) {
  Site site;
  const std::string text = csv_text(50000);
  site.unpinned("u", "u/cut.csv", site.serve("u/cut.csv", text));
  site.server->close_delimited(site.mirror_path("u/cut.csv"), 20001);  // ends mid-line
  const auto r = sh(site.data("fetch u"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("no Content-Length"), std::string::npos) << r.output;
  EXPECT_FALSE(exists_no_follow(site.at("u/cut.csv")));
  EXPECT_FALSE(exists_no_follow(site.at("u/cut.csv.part")));
  EXPECT_FALSE(fs::exists(site.at(".dpclust/records/u/cut.csv.json")));
}

// 6. A trickling server had no overall deadline (and held the data root's lock meanwhile). The file
// takes ~6 s at 1 byte per 100 ms; the deadline is 1 s.
TEST(HostileServer, TrickleEndsAtTheOverallDeadline) {
  Site site;
  const std::string text = csv_text(60);
  site.pinned("t", "t.csv", site.serve("t.csv", text), text);
  site.pinned("p", "p.csv", site.serve("p.csv", "a\n1\n"), "a\n1\n");
  site.server->trickle(site.mirror_path("t.csv"), 1, 100);
  site.extra_env = "DPCLUST_FETCH_DEADLINE_SECONDS=1 ";
  const auto r = sh(site.data("fetch t p"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("did not finish within 1 s"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 fetched, 0 already present, 1 failed"), std::string::npos) << r.output;
  EXPECT_FALSE(exists_no_follow(site.at("t.csv")));
}

// 7. A server without Range support left a .part that made every later fetch fail ("cannot resume").
TEST(HostileServer, ServerWithoutRangeSupportRestartsThePartialFile) {
  TempDir mirror("hmirror"), out("hout");
  const std::string content = pattern_bytes(100000, 7);
  dpclust::testing::write_file(mirror.path / "example.org/n.bin", content);
  HttpTestServer server(mirror.path);
  server.ignore_range("/example.org/n.bin");
  const fs::path dest = out.path / "n.bin";
  dpclust::testing::write_file(dest.string() + ".part", content.substr(0, 30000));
  const std::string up = "https://example.org/n.bin";
  const DownloadResult r =
      download_file({mirrored_url(up, server.url()), up, dest, sha256_hex(content), content.size()}, {});
  EXPECT_EQ(read_text_file(dest), content);
  EXPECT_EQ(r.resumed_from, 0u);
  EXPECT_FALSE(exists_no_follow(dest.string() + ".part"));
}

// 8. A malformed zip left under downloads/ was reused by the next fetch from a good server; and a
// malformed zip from the server must not be left there in the first place.
TEST(HostileServer, MalformedArchiveUnderDownloadsIsNotReused) {
  Site site;
  const std::string member =
      "timestamp,back_x,back_y,back_z,thigh_x,thigh_y,thigh_z,label\n"
      "2021-03-24 14:42:03.839,-0.99,-0.01,-0.04,-0.99,-0.01,-0.04,6\n"
      "2021-03-24 14:42:03.859,-0.98,-0.02,-0.05,-0.98,-0.02,-0.05,6\n";
  const std::string zip = zip_bytes({{"har/501.csv", member}, {"har/502.csv", member}});
  const std::string url = site.serve("h/har.zip", zip);
  site.registry_text += "har:\n  data_file: har/har.csv\n  source:\n    inputs:\n      - url: " + url +
                        "\n        sha256: unpinned\n    members: [501.csv]\n    derive: har70\n    sha256: unpinned\n"
                        "    citation: fixture\n    note: fixture\n";
  const fs::path kept = site.at("downloads/example.org/h/har.zip");
  dpclust::testing::write_file(kept, zip.substr(0, zip.size() / 2));
  // Reading that zip made libarchive fail without a message; appending its NULL message crashed the
  // fetch (exit 139). It is an InputError naming the archive.
  {
    TempDir t("hzip");
    const fs::path cut = dpclust::testing::write_file(t.path / "cut.zip", zip.substr(0, zip.size() / 2));
    const std::string msg = input_error([&] { extract_members(cut, t.path / "out", {"501.csv"}); });
    EXPECT_NE(msg.find(cut.string()), std::string::npos) << msg;
  }
  auto r = sh(site.data("fetch har"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(read_text_file(kept), zip);
  EXPECT_TRUE(fs::exists(site.at("har/har.csv")));
  EXPECT_EQ(site.server->request_count(site.mirror_path("h/har.zip")), 1u);

  // The server now serves a truncated zip: it is rejected before it is placed under downloads/.
  Site bad;
  bad.registry_text = site.registry_text;
  bad.serve("h/har.zip", zip.substr(0, zip.size() / 2));
  r = sh(bad.data("fetch har"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_FALSE(exists_no_follow(bad.at("downloads/example.org/h/har.zip")));
  EXPECT_FALSE(exists_no_follow(bad.at("downloads/example.org/h/har.zip.part")));
}

// 9. Redirects to another host were followed (a mirror could make the client request any address).
// That holds for a file whose checksum is not pinned; a pinned one may be
// redirected anywhere over http(s) (below).
TEST(HostileServer, RedirectOfAnUnpinnedFileToAnotherHostIsRefused) {
  TempDir a_dir("ha"), b_dir("hb"), out("hout");
  const std::string content = pattern_bytes(5000, 7);
  dpclust::testing::write_file(a_dir.path / "example.org/moved.bin", content);
  dpclust::testing::write_file(b_dir.path / "example.org/r.bin", content);
  HttpTestServer a(a_dir.path), b(b_dir.path);
  a.set_redirect("/example.org/r.bin", b.url() + "/example.org/r.bin");
  const std::string up = "https://example.org/r.bin";
  const std::string msg = input_error([&] {
    download_file({mirrored_url(up, a.url()), up, out.path / "r.bin", "", 0}, {});
  });
  EXPECT_NE(msg.find("refused"), std::string::npos) << msg;
  EXPECT_NE(msg.find(a.url() + "/example.org/r.bin to " + b.url()), std::string::npos) << msg;  // both URLs
  EXPECT_NE(msg.find("--mirror"), std::string::npos) << msg;
  EXPECT_EQ(b.request_count("/example.org/r.bin"), 0u);
  EXPECT_FALSE(exists_no_follow(out.path / "r.bin"));
  EXPECT_FALSE(exists_no_follow(out.path / "r.bin.part"));
  // Within the same origin a redirect is still followed, and a relative Location resolves against the
  // URL that sent it (/example.org/r2.bin + "moved.bin" -> /example.org/moved.bin).
  a.set_redirect("/example.org/r2.bin", a.url() + "/example.org/moved.bin", 301);
  const std::string up2 = "https://example.org/r2.bin";
  download_file({mirrored_url(up2, a.url()), up2, out.path / "r2.bin", "", 0}, {});
  EXPECT_EQ(read_text_file(out.path / "r2.bin"), content);
  a.set_redirect("/example.org/r3.bin", "moved.bin", 307);
  const std::string up3 = "https://example.org/r3.bin";
  download_file({mirrored_url(up3, a.url()), up3, out.path / "r3.bin", "", 0}, {});
  EXPECT_EQ(read_text_file(out.path / "r3.bin"), content);
  EXPECT_EQ(a.request_count("/example.org/moved.bin"), 2u);
  // Credentials in the mirror URL stay out of the refusal (the server ignores them).
  const std::string with_password = "http://alice:s3cret@127.0.0.1:" + std::to_string(a.port()) + "/example.org/r.bin";
  const std::string msg2 = input_error([&] { download_file({with_password, up, out.path / "r.bin", "", 0}, {}); });
  EXPECT_NE(msg2.find("refused"), std::string::npos) << msg2;
  EXPECT_EQ(msg2.find("s3cret"), std::string::npos) << msg2;
  EXPECT_EQ(msg2.find("alice"), std::string::npos) << msg2;
}

// A pinned file follows a redirect to another origin (a second server on another port),
// and its checksum, not where it came from, decides whether it is placed.
TEST(HostileServer, RedirectOfAPinnedFileToAnotherOriginIsFollowedAndTheChecksumDecides) {
  TempDir a_dir("ha"), b_dir("hb"), out("hout");
  const std::string content = pattern_bytes(6000, 11);
  dpclust::testing::write_file(b_dir.path / "cdn/p.bin", content);
  dpclust::testing::write_file(b_dir.path / "cdn/other.bin", pattern_bytes(6000, 12));
  HttpTestServer a(a_dir.path), b(b_dir.path);
  a.set_redirect("/example.org/p.bin", b.url() + "/cdn/p.bin");
  const std::string up = "https://example.org/p.bin";
  const DownloadResult r =
      download_file({mirrored_url(up, a.url()), up, out.path / "p.bin", sha256_hex(content), content.size()}, {});
  EXPECT_EQ(r.sha256, sha256_hex(content));
  EXPECT_EQ(read_text_file(out.path / "p.bin"), content);
  EXPECT_EQ(b.request_count("/cdn/p.bin"), 1u);
  // The other server serves different bytes: followed, then rejected by the checksum and removed.
  a.set_redirect("/example.org/q.bin", b.url() + "/cdn/other.bin");
  const std::string upq = "https://example.org/q.bin";
  const std::string msg = input_error([&] {
    download_file({mirrored_url(upq, a.url()), upq, out.path / "q.bin", sha256_hex(content), content.size()}, {});
  });
  EXPECT_NE(msg.find("checksum mismatch"), std::string::npos) << msg;
  EXPECT_EQ(b.request_count("/cdn/other.bin"), 1u);
  EXPECT_FALSE(exists_no_follow(out.path / "q.bin"));
  EXPECT_FALSE(exists_no_follow(out.path / "q.bin.part"));
  // A file pinned by its git blob id only is pinned too.
  a.set_redirect("/example.org/g.bin", b.url() + "/cdn/p.bin");
  const std::string upg = "https://example.org/g.bin";
  download_file({mirrored_url(upg, a.url()), upg, out.path / "g.bin", "", 0, git_blob_hex(content)}, {});
  EXPECT_EQ(read_text_file(out.path / "g.bin"), content);
}

// The same through `dpclust data fetch`: the pinned dataset is placed, the unpinned one exits 2 naming
// both URLs, and the second server is never asked for it.
TEST(HostileServer, DataFetchFollowsAPinnedRedirectAndRefusesAnUnpinnedOne) {
  TempDir b_dir("hb");
  const std::string content = "a,b\n1,2\n3,4\n";
  dpclust::testing::write_file(b_dir.path / "cdn/p.csv", content);
  dpclust::testing::write_file(b_dir.path / "cdn/u.csv", content);
  HttpTestServer b(b_dir.path);
  Site site;
  site.pinned("p", "sub/p.csv", "https://example.org/p.csv", content);
  site.unpinned("u", "sub/u.csv", "https://example.org/u.csv");
  site.server->set_redirect(site.mirror_path("p.csv"), b.url() + "/cdn/p.csv");
  site.server->set_redirect(site.mirror_path("u.csv"), b.url() + "/cdn/u.csv");
  // A mirror URL with a password (the test server ignores it): the password is not written into the
  // fetch record (results.json copies it) nor into the refusal.
  site.extra_env = "DPCLUST_MIRROR=http://alice:s3cret@127.0.0.1:" + std::to_string(site.server->port()) + " ";
  auto r = sh(site.data("fetch p"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(read_text_file(site.at("sub/p.csv")), content);
  const std::string record = read_text_file(site.at(".dpclust/records/sub/p.csv.json"));
  EXPECT_NE(record.find("\"mirror\": \"" + site.server->url()), std::string::npos) << record;
  EXPECT_EQ(record.find("s3cret"), std::string::npos) << record;
  r = sh(site.data("fetch u"));
  EXPECT_EQ(r.code, 2) << r.output;
  const std::size_t error_line = r.output.find("error: u:");
  ASSERT_NE(error_line, std::string::npos) << r.output;
  const std::string error = r.output.substr(error_line, r.output.find("\nnot fetched", error_line) - error_line);
  EXPECT_NE(error.find("refused"), std::string::npos) << error;
  EXPECT_NE(error.find(b.url() + "/cdn/u.csv"), std::string::npos) << error;
  EXPECT_NE(error.find("fix:"), std::string::npos) << error;
  EXPECT_EQ(error.find("s3cret"), std::string::npos) << error;
  EXPECT_EQ(b.request_count("/cdn/u.csv"), 0u);
  EXPECT_FALSE(exists_no_follow(site.at("sub/u.csv")));
}

// No scheme but http(s), pinned or not: an ftp:// or file:// Location is refused and named.
TEST(HostileServer, RedirectToAnotherSchemeIsRefusedEvenForAPinnedFile) {
  TempDir a_dir("ha"), out("hout");
  const std::string content = pattern_bytes(3000, 5);
  HttpTestServer a(a_dir.path);
  a.set_redirect("/example.org/f.bin", "ftp://127.0.0.1/f.bin");
  a.set_redirect("/example.org/l.bin", "file:///etc/passwd");
  for (const std::string name : {"f.bin", "l.bin"}) {
    const std::string up = "https://example.org/" + name;
    const std::string msg = input_error([&] {
      download_file({mirrored_url(up, a.url()), up, out.path / name, sha256_hex(content), content.size()}, {});
    });
    EXPECT_NE(msg.find("refused"), std::string::npos) << msg;
    EXPECT_NE(msg.find(name == "f.bin" ? "scheme is 'ftp'" : "scheme is 'file'"), std::string::npos) << msg;
    EXPECT_FALSE(exists_no_follow(out.path / name));
  }
}

// At most 5 redirects whatever the policy allows: a chain of 5 ends at the file, one of 6 (or a loop)
// is refused with the last address.
TEST(HostileServer, RedirectChainsAreBoundedAtFiveHops) {
  TempDir a_dir("ha"), out("hout");
  const std::string content = pattern_bytes(2000, 3);
  dpclust::testing::write_file(a_dir.path / "end.bin", content);
  HttpTestServer a(a_dir.path);
  // /c0 -> /c1 -> ... -> /c5 -> /end.bin: six redirects; from /c1 it is five.
  for (int i = 0; i < 6; ++i)
    a.set_redirect("/c" + std::to_string(i), i == 5 ? a.url() + "/end.bin" : "/c" + std::to_string(i + 1));
  const std::string sha = sha256_hex(content);
  download_file({a.url() + "/c1", "", out.path / "five.bin", sha, content.size()}, {});
  EXPECT_EQ(read_text_file(out.path / "five.bin"), content);
  const std::string msg = input_error([&] {
    download_file({a.url() + "/c0", "", out.path / "six.bin", sha, content.size()}, {});
  });
  EXPECT_NE(msg.find("more than 5 redirects (last to " + a.url() + "/end.bin)"), std::string::npos) << msg;
  EXPECT_FALSE(exists_no_follow(out.path / "six.bin"));
  // A loop (through the password-carrying URL, which must not show).
  a.set_redirect("/loop", "/loop");
  const std::string looped = "http://u:pw9@127.0.0.1:" + std::to_string(a.port()) + "/loop";
  const std::string msg2 = input_error([&] { download_file({looped, "", out.path / "loop.bin", "", 0}, {}); });
  EXPECT_NE(msg2.find("more than 5 redirects"), std::string::npos) << msg2;
  EXPECT_EQ(msg2.find("pw9"), std::string::npos) << msg2;
  EXPECT_EQ(a.request_count("/loop"), 6u);
}

// A listener on 127.0.0.1 that answers each connection at once with a line of plain text and closes it:
// what a TLS client meets at a server that does not speak TLS (it fails in the handshake at once, where
// the HTTP test server would wait for a request line that never comes).
class PlainTextListener {
 public:
  PlainTextListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || ::listen(fd_, 4) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      throw std::runtime_error("cannot listen on 127.0.0.1");
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] {
      for (;;) {
        const int c = ::accept(fd_, nullptr, nullptr);
        if (c < 0) return;  // shut down by the destructor
        const char line[] = "this is not TLS\r\n";
        (void)!::write(c, line, sizeof line - 1);
        ::close(c);
      }
    });
  }
  ~PlainTextListener() {
    ::shutdown(fd_, SHUT_RDWR);  // wakes the blocked accept()
    thread_.join();
    ::close(fd_);
  }
  std::uint16_t port() const { return port_; }

 private:
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::thread thread_;
};

// An https redirect, when followed, is really fetched over TLS. No https server runs on 127.0.0.1, so a
// pinned file is sent to a plain-text listener named with https: it fails in the TLS handshake (not with
// a refusal). An unpinned one is refused there, since only http://H:80 -> https://H:443 is an upgrade
// (that rule itself is tested through redirect_policy in fetch_test.cpp).
TEST(HostileServer, AFollowedHttpsRedirectIsFetchedOverTls) {
  TempDir a_dir("ha"), out("hout");
  HttpTestServer a(a_dir.path);
  PlainTextListener tls_less;
  const std::string https_here = "https://127.0.0.1:" + std::to_string(tls_less.port()) + "/t.bin";
  a.set_redirect("/t.bin", https_here);
  const std::string content = pattern_bytes(1000, 2);
  const std::string pinned = input_error([&] {
    download_file({a.url() + "/t.bin", "", out.path / "t.bin", sha256_hex(content), content.size()}, {});
  });
  EXPECT_EQ(pinned.find("refused:"), std::string::npos) << pinned;
  EXPECT_NE(pinned.find("SSL"), std::string::npos) << pinned;
  const std::string unpinned = input_error([&] {
    download_file({a.url() + "/t.bin", "", out.path / "t.bin", "", 0}, {});
  });
  EXPECT_NE(unpinned.find("refused:"), std::string::npos) << unpinned;
  EXPECT_NE(unpinned.find(https_here), std::string::npos) << unpinned;
}

// 10. A read-only data root (or one under a file) ended the command with an uncaught filesystem error,
// exit 1 and no fix line.
TEST(HostileServer, UnwritableDataRootExits2WithAFix) {
  Site site;
  site.pinned("p", "sub/p.csv", site.serve("p.csv", "a\n1\n"), "a\n1\n");
  const fs::path file = dpclust::testing::write_file(site.root.path / "plain-file", "x");
  auto r = sh(site.data("fetch p", file / "root"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("fix:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--data-root"), std::string::npos) << r.output;

  const fs::path ro = site.root.path / "ro";
  fs::create_directories(ro);
  bool mounted = false;
  if (::geteuid() == 0) {
    mounted = ::mount("tmpfs", ro.c_str(), "tmpfs", MS_RDONLY, "size=64k") == 0;
    if (!mounted) GTEST_SKIP() << "root without mount rights: a read-only folder cannot be made here";
  } else {
    fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
  }
  struct Unmount {
    fs::path p;
    bool on;
    ~Unmount() {
      if (on) ::umount2(p.c_str(), MNT_DETACH);
    }
  } unmount{ro, mounted};
  r = sh(site.data("fetch p", ro));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("fix:"), std::string::npos) << r.output;
  r = sh(site.data("list", ro));
  EXPECT_EQ(r.code, 0) << r.output;
}

// 11. A data root whose name starts with a dash or holds quotes ended with exit 1.
TEST(HostileServer, DataRootNamedLikeAnOptionOrWithQuotes) {
  Site site;
  site.pinned("p", "sub/p.csv", site.serve("p.csv", "a\n1\n"), "a\n1\n");
  site.unpinned("g", "snap/g.txt.gz", site.serve("snap/g.txt.gz", gzip_bytes(csv_text(1000))));
  const std::string member =
      "timestamp,back_x,back_y,back_z,thigh_x,thigh_y,thigh_z,label\n"
      "2021-03-24 14:42:03.839,-0.99,-0.01,-0.04,-0.99,-0.01,-0.04,6\n";
  site.registry_text += "har:\n  data_file: har/har.csv\n  source:\n    inputs:\n      - url: " +
                        site.serve("h/har.zip", zip_bytes({{"har/501.csv", member}})) +
                        "\n        sha256: unpinned\n    members: [501.csv]\n    derive: har70\n    sha256: unpinned\n"
                        "    citation: fixture\n    note: fixture\n";
  for (const std::string name : {"-x", "a\"b'c", "-", "--x", "sp ace"}) {
    const fs::path root = site.root.path / name;
    auto r = sh("cd " + quoted(site.root.path.string()) + " && " + site.data("fetch --all", fs::path(name)));
    EXPECT_EQ(r.code, 0) << name << ": " << r.output;
    EXPECT_EQ(read_text_file(root / "sub/p.csv"), "a\n1\n") << name;
    r = sh("cd " + quoted(site.root.path.string()) + " && " + site.data("verify", fs::path(name)));
    EXPECT_EQ(r.code, 0) << name << ": " << r.output;
  }
}

// 12a. A registry data_file with ".." (or an absolute path) wrote outside the data root.
TEST(HostileServer, RegistryDataFileOutsideTheDataRootIsRefused) {
  TempDir t("hreg");
  for (const std::string bad : {"../outside.csv", "a/../../outside.csv", "/tmp/outside.csv"}) {
    const fs::path reg = dpclust::testing::write_file(
        t.path / "registry.yaml",
        "a:\n  data_file: " + bad +
            "\n  source:\n    url: https://x.org/a.csv\n    sha256: unpinned\n    citation: x\n    note: y\n");
    const std::string msg = input_error([&] { load_sources(reg); });
    EXPECT_NE(msg.find("not a relative path inside the data root"), std::string::npos) << bad << ": " << msg;
  }
}

// 12b. A planted `.part` symlink made the fetch append through it, outside the data root.
TEST(HostileServer, PlantedPartSymlinkIsNotFollowed) {
  TempDir mirror("hmirror"), out("hout"), elsewhere("helse");
  const std::string content = pattern_bytes(20000, 7);
  dpclust::testing::write_file(mirror.path / "example.org/s.bin", content);
  HttpTestServer server(mirror.path);
  const fs::path victim = dpclust::testing::write_file(elsewhere.path / "victim.txt", "do not touch\n");
  const fs::path dest = out.path / "s.bin";
  fs::create_symlink(victim, dest.string() + ".part");
  const std::string up = "https://example.org/s.bin";
  download_file({mirrored_url(up, server.url()), up, dest, sha256_hex(content), content.size()}, {});
  EXPECT_EQ(read_text_file(victim), "do not touch\n");
  EXPECT_EQ(read_text_file(dest), content);
  EXPECT_FALSE(fs::is_symlink(dest));
}

// 13a. A big file at a dataset's path was hashed again by every `data list`: the checksum is cached
// with the file's size, mtime, ctime, inode and device, and recomputed only when one of them changes.
TEST(HostileServer, ListDoesNotHashAnUnchangedFileAgain) {
  TempDir root("hroot"), reg("hreg");
  const std::string content = csv_text(3000000);
  const fs::path registry = dpclust::testing::write_file(
      reg.path / "registry.yaml",
      "p:\n  data_file: p.csv\n  source:\n    url: https://x.org/p.csv\n    sha256: " + sha256_hex(content) +
          "\n    size: " + std::to_string(content.size()) + "\n    citation: x\n");
  const auto sources = load_sources(registry);
  dpclust::testing::write_file(root.path / "p.csv", content);
  auto before = sha256_bytes_hashed();
  EXPECT_EQ(dataset_state(sources.at(0), root.path).status, DataStatus::ok);
  EXPECT_GE(sha256_bytes_hashed() - before, content.size());
  before = sha256_bytes_hashed();
  EXPECT_EQ(dataset_state(sources.at(0), root.path).status, DataStatus::ok);
  EXPECT_EQ(sha256_bytes_hashed() - before, 0u) << "an unchanged file is not hashed again";
  before = sha256_bytes_hashed();
  EXPECT_EQ(dataset_state(sources.at(0), root.path, /*use_cache=*/false).status, DataStatus::ok);  // verify --full
  EXPECT_GE(sha256_bytes_hashed() - before, content.size());
  // Same size, other bytes: hashed again and found out.
  std::string changed = content;
  changed[10] = 'Z';
  dpclust::testing::write_file(root.path / "p.csv", changed);
  EXPECT_EQ(dataset_state(sources.at(0), root.path).status, DataStatus::mismatch);
}

// 13b. A zero-byte file or a folder at a dataset's path was not reported clearly.
TEST(HostileServer, EmptyFileOrFolderAtThePathIsReportedClearly) {
  Site site;
  site.pinned("p", "p.csv", site.serve("p.csv", "a\n1\n"), "a\n1\n");
  site.pinned("q", "q.csv", site.serve("q.csv", "b\n2\n"), "b\n2\n");
  dpclust::testing::write_file(site.at("p.csv"), "");
  fs::create_directories(site.at("q.csv"));
  auto r = sh(site.data("verify p q"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("is empty (0 bytes)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("is a folder"), std::string::npos) << r.output;
  r = sh(site.data("list"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("--replace"), std::string::npos) << r.output;
  r = sh(site.data("fetch p q"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--replace"), std::string::npos) << r.output;
  r = sh(site.data("fetch p q --replace"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(read_text_file(site.at("q.csv")), "b\n2\n");
}

// Beyond the 13: an archive input is bounded like a gzip (64 x its size unpacked), and a symbolic link
// planted at the extraction folder's name (<archive>.d) is not followed.
TEST(HostileServer, ZipBombAndPlantedExtractionLinkStayInsideTheBounds) {
  Site site;
  const std::string zip = zip_bytes({{"har/501.csv", std::string(100u << 20, '0')}});
  ASSERT_LT(zip.size(), 1u << 20) << "the fixture must be a compressed zip";
  site.registry_text +=
      "har:\n  data_file: har/har.csv\n  source:\n    inputs:\n      - url: " + site.serve("h/har.zip", zip) +
      "\n        sha256: unpinned\n    members: [501.csv]\n    derive: har70\n    sha256: unpinned\n"
      "    citation: fixture\n    note: fixture\n";
  auto r = sh(site.data("fetch har"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("unpacks to more than"), std::string::npos) << r.output;
  EXPECT_FALSE(exists_no_follow(site.at("downloads/example.org/h/har.zip")));

  Site linked;
  const std::string member =
      "timestamp,back_x,back_y,back_z,thigh_x,thigh_y,thigh_z,label\n"
      "2021-03-24 14:42:03.839,-0.99,-0.01,-0.04,-0.99,-0.01,-0.04,6\n";
  linked.registry_text = site.registry_text;
  linked.serve("h/har.zip", zip_bytes({{"har/501.csv", member}}));
  TempDir elsewhere("helse");
  fs::create_directories(linked.at("downloads/example.org/h"));
  fs::create_directory_symlink(elsewhere.path, linked.at("downloads/example.org/h/har.zip.d"));
  r = sh(linked.data("fetch har"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(fs::is_empty(elsewhere.path)) << "nothing is extracted through the planted link";
  EXPECT_TRUE(fs::exists(linked.at("har/har.csv")));
}

// Crash is live: an unpinned file's first checksum stays in its record; a later fetch that
// gives a different file is reported (fetch output, record, `data list`), never taken silently.
TEST(LiveSource, ALaterFetchThatDiffersFromTheFirstIsReportedAndTheFirstChecksumKept) {
  Site site;
  const std::string first = csv_text(2000), second = csv_text(2100);
  site.unpinned("live", "nyc/live.csv", site.serve("nyc/live.csv", first));
  auto r = sh(site.data("fetch live"));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.find("WARNING"), std::string::npos) << r.output;
  const fs::path record = site.at(".dpclust/records/nyc/live.csv.json");
  ASSERT_TRUE(fs::exists(record)) << r.output;
  nlohmann::json rec = nlohmann::json::parse(read_text_file(record));
  EXPECT_EQ(rec["first_fetch"]["sha256"], sha256_hex(first));
  EXPECT_FALSE(rec.contains("differs_from_first_fetch"));

  // The same file again (deleted by hand, fetched again): no warning, the first fetch is kept.
  fs::remove(site.at("nyc/live.csv"));
  r = sh(site.data("fetch live"));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.find("WARNING"), std::string::npos) << r.output;

  // Upstream grew: the next fetch differs; it says so, and the record keeps the first checksum.
  site.serve("nyc/live.csv", second);
  fs::remove(site.at("nyc/live.csv"));
  r = sh(site.data("fetch live"));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("WARNING: live: this fetch gave a different file than the first fetch"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("warning: live:"), std::string::npos) << r.output;  // repeated at the end
  EXPECT_NE(r.output.find(sha256_hex(first)), std::string::npos) << r.output;
  rec = nlohmann::json::parse(read_text_file(record));
  EXPECT_EQ(rec["first_fetch"]["sha256"], sha256_hex(first));
  EXPECT_EQ(rec["sha256"], sha256_hex(second));
  EXPECT_TRUE(rec.value("differs_from_first_fetch", false));
  r = sh(site.data("list"));
  EXPECT_NE(r.output.find("live: differs from its first fetch"), std::string::npos) << r.output;
  r = sh(site.data("list --json"));
  const auto j = nlohmann::json::parse(r.output.substr(r.output.find('{')));
  EXPECT_EQ(j["datasets"][0]["first_fetch"]["sha256"], sha256_hex(first));
  EXPECT_TRUE(j["datasets"][0]["first_fetch"]["differs"].get<bool>());
}
