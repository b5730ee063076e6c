// scikit-learn's generators and StandardScaler on numpy's stream, against numpy 1.24.2 / scikit-learn
// 1.2.1 (Debian 12) run on an AVX-512 CPU, and against the shared reference files
// synthetic/{circles,moons,blobs}.csv. Every literal is Python's output: '%.17g' % v for numbers,
// float.hex for doubles, hashlib.sha256 for whole files.
#include "data/sklearn_datasets.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/error.hpp"
#include "data/generators.hpp"
#include "data/points_csv.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

// SHA-256 through OpenSSL's libcrypto (the library `dpclust data` verifies downloads with).
std::string sha256_hex(std::string_view message) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int len = 0;
  EVP_Digest(message.data(), message.size(), md.data(), &len, EVP_sha256(), nullptr);
  std::string hex;
  for (unsigned i = 0; i < len; ++i) {
    hex += "0123456789abcdef"[md[i] >> 4];
    hex += "0123456789abcdef"[md[i] & 15];
  }
  return hex;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The DP-DBSCAN data sets as the registry defines them (datasets/registry.yaml), generated and scaled.
Dataset circles_2000() {
  Dataset ds = make_circles(CirclesOptions{
      .n_samples = 2000, .noise = 0.05, .factor = 0.5, .shuffle = true, .seed = 30, .stream = RandomStream::numpy});
  sklearn_standard_scale(ds);
  return ds;
}
Dataset moons_2000() {
  Dataset ds = make_moons(
      MoonsOptions{.n_samples = 2000, .noise = 0.05, .shuffle = true, .seed = 30, .stream = RandomStream::numpy});
  sklearn_standard_scale(ds);
  return ds;
}
Dataset blobs_2000() {
  BlobsOptions o;
  o.n_samples = 2000;
  o.centers = {{1, 1}, {-1, -1}, {1.5, -1.5}};
  o.cluster_std = {0.4, 0.1, 0.75};
  o.seed = 30;
  o.stream = RandomStream::numpy;
  Dataset ds = make_blobs(o);
  sklearn_standard_scale(ds);
  return ds;
}

// The generated text against the published digest and some literal rows (checked without the data root).
void expect_published_text(const Dataset& ds, const std::string& sha256, const std::vector<std::string>& first_rows,
                           const std::string& last_row) {
  const std::string text = points_csv_text(ds);
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_EQ(lines.size(), 2001u);
  EXPECT_EQ(lines[0], "x,y,label");
  for (std::size_t i = 0; i < first_rows.size(); ++i) EXPECT_EQ(lines[i + 1], first_rows[i]) << "row " << i;
  EXPECT_EQ(lines.back(), last_row);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(sha256_hex(text), sha256);
}

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(SklearnDatasets, CirclesMatchesThePublishedDigest) {
  expect_published_text(circles_2000(), "a614ac35fe49f5099b2865bfeb2240693dd57eaeac8c53f8bf576c6bc5f01263",
                        {"0.40405553364610325,-0.72176435274673223,1", "-1.1010306974192388,1.573976727656506,0",
                         "0.75440182425613111,-0.37598891730704015,1"},
                        "0.36974982575650062,-0.71638946604064424,1");
}

TEST(SklearnDatasets, MoonsMatchesThePublishedDigest) {
  expect_published_text(moons_2000(), "aa209a456e6622e2381ddc6672decafa2dd4a12fcfa98b89d592c9cf5eef71e9",
                        {"1.5205599455307874,-0.39605790185866252,1", "-0.056478301285774038,1.5910615542186013,0",
                         "1.657655554907411,0.080246429785785903,1"},
                        "1.533725207717928,-0.44700440979744566,1");
}

TEST(SklearnDatasets, BlobsMatchesThePublishedDigest) {
  expect_published_text(blobs_2000(), "7abd7ddfa8283ab86135df2765721e70df19895b5165a1a52e09bbbe2647557d",
                        {"-1.213779889110286,-0.52996392719136431,1", "0.28188417032415297,0.93923133579322293,0",
                         "0.69317230560519272,0.81836973372019894,0"},
                        "-1.3107439445700546,-0.47478027481756424,1");
}

TEST(SklearnDatasets, CirclesEqualsTheSharedFile) {
  DPCLUST_REQUIRE_DATA("synthetic/circles.csv");
  EXPECT_TRUE(read_bytes(testing::data_root() / "synthetic/circles.csv") == points_csv_text(circles_2000()));
}

TEST(SklearnDatasets, MoonsEqualsTheSharedFile) {
  DPCLUST_REQUIRE_DATA("synthetic/moons.csv");
  EXPECT_TRUE(read_bytes(testing::data_root() / "synthetic/moons.csv") == points_csv_text(moons_2000()));
}

TEST(SklearnDatasets, BlobsEqualsTheSharedFile) {
  DPCLUST_REQUIRE_DATA("synthetic/blobs.csv");
  EXPECT_TRUE(read_bytes(testing::data_root() / "synthetic/blobs.csv") == points_csv_text(blobs_2000()));
}

TEST(SklearnDatasets, ProvenanceNamesTheStreamAndEveryParameter) {
  const Dataset ds = circles_2000();
  const auto& gen = ds.provenance["generator"];
  EXPECT_EQ(gen["name"], "make_circles");
  EXPECT_EQ(gen["stream"], "numpy");
  EXPECT_EQ(gen["seed"], 30);
  EXPECT_EQ(gen["factor"], 0.5);
  EXPECT_EQ(gen["noise"], 0.05);
  EXPECT_EQ(gen["n_samples"], 2000);
  EXPECT_EQ(gen["shuffle"], true);
  EXPECT_EQ(gen["numpy_memory_order"], "C");
  ASSERT_EQ(ds.provenance["transforms"].size(), 1u);
  EXPECT_EQ(ds.provenance["transforms"][0]["name"], "sklearn_standard_scale");
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"x0", "x1"}));
  EXPECT_EQ(blobs_2000().provenance["generator"]["stream"], "numpy");
  // The default stream is untouched: no "stream" key, dpclust's points.
  EXPECT_FALSE(make_moons(MoonsOptions{.n_samples = 10}).provenance["generator"].contains("stream"));
}

// Unshuffled moons/circles are Fortran-ordered arrays in sklearn, and numpy then sums each column
// pairwise: digests of make_*(2000, ..., shuffle=False), raw and after StandardScaler.
TEST(SklearnDatasets, UnshuffledOutputIsScaledWithPairwiseSums) {
  Dataset moons = make_moons(
      MoonsOptions{.n_samples = 2000, .noise = 0.05, .shuffle = false, .seed = 30, .stream = RandomStream::numpy});
  EXPECT_EQ(moons.provenance["generator"]["numpy_memory_order"], "F");
  EXPECT_EQ(sha256_hex(points_csv_text(moons)), "534d91a60ec30ea0c669034d347d580b0649dffe3aba6c21602bc86bd7c137da");
  sklearn_standard_scale(moons);
  EXPECT_EQ(sha256_hex(points_csv_text(moons)), "4bb50bb16f95c7cd808a67ed2ca2766c253b94ef1d51f6ca9274917b285c5f63");

  Dataset circles = make_circles(CirclesOptions{
      .n_samples = 2000, .noise = 0.05, .factor = 0.5, .shuffle = false, .seed = 30, .stream = RandomStream::numpy});
  EXPECT_EQ(sha256_hex(points_csv_text(circles)), "0c9b60d67f33e8d599a3d26bbbd8a48679c814068dd1367fed592331831428b2");
  sklearn_standard_scale(circles);
  EXPECT_EQ(sha256_hex(points_csv_text(circles)), "6523a88ba4ea78128b421956b90db6a9497b9ed347447d67aae77d6a9ec5eb21");
}

TEST(SklearnDatasets, StreamNumpyRejectsSeedsOf2To32AndAbove) {
  const std::uint64_t too_big = std::uint64_t{1} << 32;
  try {
    make_moons(
        MoonsOptions{.n_samples = 10, .noise = 0.1, .shuffle = true, .seed = too_big, .stream = RandomStream::numpy});
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(e.problem().find("below 2^32"), std::string::npos) << e.problem();
    EXPECT_NE(e.problem().find("4294967296"), std::string::npos) << e.problem();
    EXPECT_NE(e.fix().find("stream: dpclust"), std::string::npos) << e.fix();
  }
  EXPECT_THROW(make_circles(CirclesOptions{.n_samples = 10, .seed = too_big, .stream = RandomStream::numpy}),
               InputError);
  BlobsOptions blobs;
  blobs.seed = too_big;
  blobs.stream = RandomStream::numpy;
  EXPECT_THROW(make_blobs(blobs), InputError);
  blobs.seed = too_big - 1;  // 2^32 - 1 is numpy's largest seed
  EXPECT_NO_THROW(make_blobs(blobs));
  // The dpclust stream takes any 64-bit seed.
  EXPECT_NO_THROW(make_moons(MoonsOptions{.n_samples = 10, .seed = too_big}));
}

TEST(SklearnDatasets, StreamParameterDeclaresBothChoicesDefaultDpclust) {
  const ParamSpec spec = random_stream_param();
  EXPECT_EQ(spec.name, "stream");
  EXPECT_EQ(spec.choices, (std::vector<std::string>{"dpclust", "numpy"}));
  EXPECT_EQ(std::get<std::string>(spec.default_value), "dpclust");
  ParamSet params;
  EXPECT_EQ(random_stream_of(params), RandomStream::dpclust);
  params.set("stream", std::string("numpy"));
  EXPECT_EQ(random_stream_of(params), RandomStream::numpy);
  EXPECT_STREQ(to_string(RandomStream::numpy), "numpy");
}

TEST(SklearnDatasets, BlobsWithDrawnCentres) {
  // make_blobs(n_samples=1003, centers=4, n_features=3, cluster_std=1.5, center_box=(-5, 7),
  //            random_state=4294967295) then StandardScaler: first row.
  BlobsOptions o;
  o.n_samples = 1003;
  o.n_centers = 4;
  o.n_features = 3;
  o.cluster_std = {1.5};
  o.center_box = {-5, 7};
  o.seed = 4294967295u;
  o.stream = RandomStream::numpy;
  Dataset ds = make_blobs(o);
  sklearn_standard_scale(ds);
  const std::vector<std::string> lines = lines_of(points_csv_text(ds));
  EXPECT_EQ(lines[0], "x0,x1,x2,label");
  EXPECT_EQ(lines[1], "0.65371518466719025,-0.56331577370894026,0.54556652637564995,2");
}

TEST(SklearnStandardScaler, MatchesSklearnOnASmallArrayWithAConstantColumn) {
  Dataset ds;
  ds.name = "small";
  ds.n = 4;
  ds.d = 3;
  ds.coords = {1, 2, 5, 3, 5, 5, 4, 9, 5, 0.1, -3, 5};
  sklearn_standard_scale(ds, NumpyMemoryOrder::c_contiguous);
  // StandardScaler().fit_transform(np.array([[1, 2, 5], [3, 5, 5], [4, 9, 5], [0.1, -3, 5]], dtype=float))
  EXPECT_EQ(points_csv_text(ds),
            "x0,x1,x2\n"
            "-0.6613763552776305,-0.28536507276767481,0\n"
            "0.62911409404457552,0.3995111018747447,0\n"
            "1.2743593187056785,1.3126793347313042,0\n"
            "-1.2420970574726231,-1.4268253638383739,0\n");
  const auto& entry = ds.provenance["transforms"][0];
  EXPECT_EQ(entry["mean"][0].get<double>(), 0x1.0333333333333p+1);   // sc.mean_
  EXPECT_EQ(entry["scale"][0].get<double>(), 0x1.8cbf9613a685ap+0);  // sc.scale_
  EXPECT_EQ(entry["scale"][1].get<double>(), 0x1.1857b7bee690dp+2);
  EXPECT_EQ(entry["scale"][2].get<double>(), 1.0);  // constant feature: only centred
}

TEST(SklearnStandardScaler, RejectsNonFiniteValues) {
  Dataset ds;
  ds.n = 2;
  ds.d = 1;
  ds.coords = {1.0, std::nan("")};
  EXPECT_THROW(sklearn_standard_scale(ds), InputError);
}

TEST(NumpyTrig, MatchesNumpysAvx512SinCosWhereGlibcDiffers) {
  // t = np.linspace(0, 2*np.pi, 1000, endpoint=False): np.cos(t[1]) and np.sin(t[5]) on an AVX-512
  // CPU, each one ulp from the C library's correctly rounded value (...b99d, ...860).
  EXPECT_EQ(numpy_cos(0x1.9bc65b68b71c3p-8), 0x1.fffd69aa0b99ep-1);
  EXPECT_EQ(numpy_cos(0x1.9bc65b68b71c3p-7), 0x1.fff5a6aee0081p-1);
  EXPECT_EQ(numpy_sin(0x1.015bf9217271ap-5), 0x1.015122df75861p-5);
  EXPECT_EQ(numpy_sin(0x1.4e912a4514c6ep-4), 0x1.4e31f50588b54p-4);
  EXPECT_EQ(numpy_sin(0x1.921fb54442d18p+1), 0x1.1a62633145c07p-53);  // np.sin(np.pi)
  EXPECT_EQ(numpy_cos(0x1.921fb54442d18p+1), -1.0);
  EXPECT_EQ(numpy_cos(1e-10), 1.0);
  EXPECT_TRUE(std::signbit(numpy_sin(-0.0)));
  EXPECT_TRUE(std::isnan(numpy_sin(std::nan(""))));
}

TEST(NumpyTrig, Linspace) {
  const std::vector<double> circle = numpy_linspace(0, 2 * 3.141592653589793, 1000, false);
  EXPECT_EQ(circle[1], 0x1.9bc65b68b71c3p-8);
  EXPECT_EQ(circle[999], 0x1.91b8c3ad68a3cp+2);
  const std::vector<double> half = numpy_linspace(0, 3.141592653589793, 1000, true);
  EXPECT_EQ(half[998], 0x1.91b8a94c22f9cp+1);
  EXPECT_EQ(half[999], 3.141592653589793);  // the endpoint is stop itself
  EXPECT_EQ(numpy_linspace(2, 5, 1, true), (std::vector<double>{2}));
  EXPECT_TRUE(numpy_linspace(2, 5, 0, true).empty());
}

TEST(PointsCsv, FormatsLikePythonPercent17g) {
  Dataset ds;
  ds.n = 2;
  ds.d = 3;
  ds.coords = {0.1, -0.0, 1e-300, 123456789012345678.0, 1.0 / 3, 2};
  ds.labels = {-1, 7};
  // '%.17g' % v in Python for the same values.
  EXPECT_EQ(points_csv_text(ds),
            "x0,x1,x2,label\n0.10000000000000001,-0,1e-300,-1\n1.2345678901234568e+17,0.33333333333333331,2,7\n");
  ds.labels.clear();
  ds.d = 2;
  ds.n = 3;
  EXPECT_EQ(points_csv_text(ds), "x,y\n0.10000000000000001,-0\n1e-300,1.2345678901234568e+17\n0.33333333333333331,2\n");
}

}  // namespace
}  // namespace dpclust
