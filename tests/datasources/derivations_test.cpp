#include "datasources/derivations.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <zlib.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "test_support.hpp"

namespace dpclust::datasources {
namespace {

namespace fs = std::filesystem;
using dpclust::testing::input_error;
using testing::temp_dir;
using testing::write_file;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The uncompressed text of a plain or gzip file (zlib reads plain files transparently).
std::string read_text(const fs::path& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  EXPECT_NE(f, nullptr) << path;
  if (!f) return "";
  std::string text;
  char buf[1 << 16];
  int got = 0;
  while ((got = gzread(f, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(got));
  gzclose(f);
  return text;
}

bool is_gzip(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  unsigned char m[2] = {0, 0};
  in.read(reinterpret_cast<char*>(m), 2);
  return m[0] == 0x1f && m[1] == 0x8b;
}

// SHA-256 (hex) of a file's uncompressed text, streamed through OpenSSL's EVP interface.
std::string sha256_of_text(const fs::path& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return "cannot open";
  gzbuffer(f, 1u << 20);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  std::vector<char> buf(std::size_t{4} << 20);
  int got = 0;
  while ((got = gzread(f, buf.data(), static_cast<unsigned>(buf.size()))) > 0)
    EVP_DigestUpdate(ctx, buf.data(), static_cast<std::size_t>(got));
  gzclose(f);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx, md, &len);
  EVP_MD_CTX_free(ctx);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

// ---- Cabs and Cabs-tiny ----------------------------------------------------------------------------
// Two cabs. new_a.txt walks the box edges and the pick-up/drop-off flag; it ends loaded, so the first
// line of new_b.txt (occupied = 1) is a pick-up only if the flag starts afresh for each file. The files
// sit in directories whose order is the reverse of the file names', and are passed in reverse order:
// the derivations must order them by file name.
struct CabFixture {
  fs::path dir;
  std::vector<fs::path> files;
  CabFixture() : dir(temp_dir("cabs")) {
    const fs::path b = write_file(dir / "a_dir" / "new_b.txt",
                                  "37.75 -122.40 1 10\n"   // tiny: pick-up (fresh flag), kept
                                  "37.75 -122.40 0 9\n");  // tiny: drop-off, kept
    const fs::path a = write_file(
        dir / "z_dir" / "new_a.txt",
        "37.55 -122.6 0 100\n"      // cabs: lower-left corner, kept; tiny: not loaded, occupied 0: nothing
        "37.85000 -122.30 1 99\n"   // cabs: upper-right corner, original text kept; tiny: pick-up outside its box
        "37.549999 -122.5 1 98\n"   // cabs: just below; tiny: still loaded, nothing
        "37.7200 -122.4800 0 97\n"  // tiny: drop-off on its lower-left corner, kept as written
        "37.8 -122.2999 1 96\n"     // cabs: just east; tiny: pick-up outside its box
        "37.82 -122.38 0 95\n"      // tiny: drop-off on its upper-right corner
        "37.82 -122.38 0 94\n"      // tiny: empty again, nothing
        "37.76 -122.41 1 93\n");    // tiny: pick-up, kept; the cab ends loaded
    files = {b, a};
  }
  ~CabFixture() { fs::remove_all(dir); }
};

TEST(DeriveCabs, PositionsInsideTheBoxWithOriginalText) {
  CabFixture fx;
  const fs::path out = fx.dir / "cabs.csv.gz.part";
  const DerivationReport r = derive_cabs_positions(fx.files, out);
  EXPECT_TRUE(is_gzip(out));
  EXPECT_EQ(read_text(out),
            "lon,lat\n"
            "-122.6,37.55\n"
            "-122.30,37.85000\n"
            "-122.4800,37.7200\n"
            "-122.38,37.82\n"
            "-122.38,37.82\n"
            "-122.41,37.76\n"
            "-122.40,37.75\n"
            "-122.40,37.75\n");
  EXPECT_EQ(r.rows_read, 10u);
  EXPECT_EQ(r.rows_written, 8u);
  EXPECT_EQ(r.details["dropped_outside_box"], 2);
  EXPECT_EQ(r.details["files"], 2);
}

TEST(DeriveCabs, PickupsAndDropoffsFlagPerFile) {
  CabFixture fx;
  const fs::path out = fx.dir / "cabs_tiny.csv.part";
  const DerivationReport r = derive_cabs_pickups_dropoffs(fx.files, out);
  EXPECT_FALSE(is_gzip(out));
  EXPECT_EQ(read_text(out),
            "lon,lat\n"
            "-122.4800,37.7200\n"
            "-122.38,37.82\n"
            "-122.41,37.76\n"
            "-122.40,37.75\n"
            "-122.40,37.75\n");
  EXPECT_EQ(r.rows_read, 10u);
  EXPECT_EQ(r.rows_written, 5u);
  EXPECT_EQ(r.details["pickups"], 4);
  EXPECT_EQ(r.details["dropoffs"], 3);
  EXPECT_EQ(r.details["dropped_outside_box"], 2);
}

TEST(DeriveCabs, CallerOrderDoesNotMatter) {
  CabFixture fx;
  const std::vector<fs::path> reversed(fx.files.rbegin(), fx.files.rend());
  derive_cabs_pickups_dropoffs(fx.files, fx.dir / "one.csv");
  derive_cabs_pickups_dropoffs(reversed, fx.dir / "two.csv");
  EXPECT_EQ(read_text(fx.dir / "one.csv"), read_text(fx.dir / "two.csv"));
}

TEST(DeriveCabs, MalformedLinesNameFileAndLine) {
  const fs::path dir = temp_dir("cabs_bad");
  const std::string good = "37.75 -122.40 1 10\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"37.7 -122.4 2 5\n", "occupied flag is not 0 or 1"},   {"37.7 -122.4 1\n", "expected 4 fields"},
      {"37.7 -122.4 1 5 9\n", "more than 4 fields"},          {"37.7x -122.4 1 5\n", "latitude is not a finite number"},
      {"37.7 nan 1 5\n", "longitude is not a finite number"}, {"37.7 -122.4 1 5.5\n", "unix time is not an integer"},
  };
  for (const auto& [line, what] : cases) {
    const fs::path f = write_file(dir / "new_x.txt", good + line);
    std::string msg = input_error([&] { derive_cabs_positions({f}, dir / "o.csv.gz"); });
    EXPECT_TRUE(contains(msg, "new_x.txt:2")) << msg;
    EXPECT_TRUE(contains(msg, what)) << msg;
    // The bad field's text is not shown: the line's fields never appear.
    for (const char* field : {"'2'", "37.7x", "'nan'", "5.5"}) EXPECT_FALSE(contains(msg, field)) << msg;
    msg = input_error([&] { derive_cabs_pickups_dropoffs({f}, dir / "o.csv"); });
    EXPECT_TRUE(contains(msg, "new_x.txt:2")) << msg;
  }
  EXPECT_TRUE(contains(input_error([&] { derive_cabs_positions({}, dir / "o.csv.gz"); }), "no trace files"));
  EXPECT_TRUE(
      contains(input_error([&] { derive_cabs_positions({dir / "absent.txt"}, dir / "o.csv.gz"); }), "file not found"));
  fs::remove_all(dir);
}

// The real traces (QiuTedYuan/DpDBSCAN @ ba4d5f43..., datasets/cabspottingdata/new_*.txt): both outputs
// must reach the published checksums. 368 MB, so only when the directory is given.
TEST(DeriveCabs, RealTracesGiveThePublishedChecksums) {
  const char* env = std::getenv("DPCLUST_CABTRACES_DIR");
  if (!env || !*env)
    GTEST_SKIP() << "set DPCLUST_CABTRACES_DIR to the directory holding the 536 cabspotting new_*.txt files "
                    "(QiuTedYuan/DpDBSCAN @ ba4d5f43f1c59ea0def05a15b5cffe6f801858e7, datasets/cabspottingdata)";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(env))
    if (e.is_regular_file() && e.path().extension() == ".txt") files.push_back(e.path());
  ASSERT_EQ(files.size(), 536u) << env;
  const fs::path dir = temp_dir("cabs_real");
  using clock = std::chrono::steady_clock;

  auto t0 = clock::now();
  DerivationReport cabs = derive_cabs_positions(files, dir / "cabs.csv.gz");
  auto t1 = clock::now();
  DerivationReport tiny = derive_cabs_pickups_dropoffs(files, dir / "cabs_tiny.csv");
  auto t2 = clock::now();
  std::cout << "cabs: " << std::chrono::duration<double>(t1 - t0).count()
            << " s, cabs_tiny: " << std::chrono::duration<double>(t2 - t1).count() << " s\n";

  EXPECT_EQ(cabs.rows_written, 10995626u);
  EXPECT_EQ(tiny.rows_written, 845685u);
  EXPECT_EQ(cabs.rows_read, tiny.rows_read);
  EXPECT_EQ(sha256_of_text(dir / "cabs.csv.gz"), "d8b6d1c95384d5631e858e272ba6953f1cd9ee410eed63ec05a190d604b6186b");
  EXPECT_EQ(sha256_of_text(dir / "cabs_tiny.csv"), "62f786f82977dc6213ed1b274bf9e357bd41c4b5e454f5bdc804b446043a01e3");
  fs::remove_all(dir);
}

// ---- Crash ------------------------------------------------------------------------------------------
// The shape of the NYC OpenData export: quoted header names, quoted text with commas and doubled quotes,
// a line break inside a quoted field, empty and 0.0 coordinates, quoted numbers, a CRLF line end.
const char* kCrash =
    "\"CRASH DATE\",\"CRASH TIME\",BOROUGH,\"ZIP CODE\",LATITUDE,LONGITUDE,LOCATION,\"ON STREET NAME\"\n"
    "09/11/2021,2:39,,,,,,\"WHITESTONE EXPRESSWAY\"\n"                                                 // 2: missing
    "03/26/2022,11:45,BROOKLYN,11201,40.69,-73.99,\"(40.69, -73.99)\",\"COURT ST, \"\"A\"\" SIDE\"\n"  // 3: kept
    "06/29/2022,6:55,,,0.0,0.0,\"(0.0, 0.0)\",X\n"                                                     // 4: outside
    "07/01/2022,1:00,QUEENS,11101,40.7440000,-73.9400000,\"(40.744, -73.94)\",\"LINE ONE\n"            // 5-7: kept
    "LINE TWO, WITH A COMMA\n"
    "\"\n"
    "07/02/2022,1:00,,,40.5,,\"\",Y\r\n"                              // 8: missing (no longitude)
    "07/03/2022,1:00,,,41.0,-75.0,\"(41, -75)\",Z\n"                  // 9: kept (corner)
    "07/04/2022,1:00,,,41.0001,-74,\"(41.0001, -74)\",Z\n"            // 10: outside
    "07/05/2022,1:00,,,\"40.1\",\"-74.5\",,\"\"\"QUOTED\"\" AVE\"\n"  // 11: kept
    "\n";

TEST(DeriveCrash, QuotedFieldsMissingAndOutsideCounted) {
  const fs::path dir = temp_dir("crash");
  const fs::path in = write_file(dir / "crashes.csv", kCrash);
  const DerivationReport r = derive_nyc_crash(in, dir / "crash.csv.part");
  EXPECT_EQ(read_text(dir / "crash.csv.part"),
            "lon,lat\n"
            "-73.99,40.69\n"
            "-73.9400000,40.7440000\n"
            "-75.0,41.0\n"
            "-74.5,40.1\n");
  EXPECT_EQ(r.rows_read, 8u);
  EXPECT_EQ(r.rows_written, 4u);
  EXPECT_EQ(r.details["dropped_missing_location"], 2);
  EXPECT_EQ(r.details["dropped_outside_box"], 2);
  // The SODA API export names the columns in lower case; gzip input is read transparently.
  std::string lower = kCrash;
  lower.replace(lower.find("LATITUDE,LONGITUDE"), 18, "latitude,longitude");
  gzFile gz = gzopen((dir / "api.csv.gz").c_str(), "wb");
  gzwrite(gz, lower.data(), static_cast<unsigned>(lower.size()));
  gzclose(gz);
  EXPECT_EQ(derive_nyc_crash(dir / "api.csv.gz", dir / "api.out").rows_written, 4u);
  fs::remove_all(dir);
}

// The paper's date cutoff (registry option last_crash_date): crashes dated after it are dropped before
// the location checks, in both date formats (site MM/DD/YYYY, SODA API YYYY-MM-DDT...).
TEST(DeriveCrash, DateCutoffDropsLaterCrashesInBothFormats) {
  const fs::path dir = temp_dir("crash_cutoff");
  const fs::path in = write_file(dir / "crashes.csv", kCrash);
  // kCrash's dates: 09/11/2021 (no location), 03/26/2022, 06/29/2022 (outside), 07/01, 07/02 (no
  // longitude), 07/03, 07/04 (outside), 07/05/2022. Cutoff 2022-07-02 keeps the first five rows' dates.
  DerivationReport r = derive_nyc_crash(in, dir / "a.out", parse_crash_cutoff("t", "2022-07-02"));
  EXPECT_EQ(read_text(dir / "a.out"), "lon,lat\n-73.99,40.69\n-73.9400000,40.7440000\n");
  EXPECT_EQ(r.rows_read, 8u);
  EXPECT_EQ(r.details["dropped_after_cutoff"], 3);
  EXPECT_EQ(r.details["dropped_missing_location"], 2);
  EXPECT_EQ(r.details["dropped_outside_box"], 1);
  // The cutoff day itself is kept (on or before).
  r = derive_nyc_crash(in, dir / "b.out", parse_crash_cutoff("t", "2022-07-03"));
  EXPECT_EQ(r.rows_written, 3u);
  EXPECT_EQ(r.details["dropped_after_cutoff"], 2);
  // Without a cutoff nothing is dropped for its date and the count is not reported.
  r = derive_nyc_crash(in, dir / "c.out");
  EXPECT_EQ(r.rows_written, 4u);
  EXPECT_FALSE(r.details.contains("dropped_after_cutoff"));
  // The SODA API export: lower-case names, ISO timestamps.
  const std::string api =
      "crash_date,crash_time,latitude,longitude\n"
      "2024-09-28T00:00:00.000,1:00,40.5,-74.0\n"
      "2024-09-29T00:00:00.000,1:00,40.6,-74.0\n";
  r = derive_nyc_crash(write_file(dir / "api.csv", api), dir / "d.out", parse_crash_cutoff("t", "2024-09-28"));
  EXPECT_EQ(read_text(dir / "d.out"), "lon,lat\n-74.0,40.5\n");
  EXPECT_EQ(r.details["dropped_after_cutoff"], 1);
  // A date that is not one is an error at its line (never silently kept or dropped), naming no value.
  std::string msg = input_error([&] {
    derive_nyc_crash(write_file(dir / "e.csv", "CRASH DATE,LATITUDE,LONGITUDE\n13/45/2020,40.5,-74\n"), dir / "o",
                     parse_crash_cutoff("t", "2024-09-28"));
  });
  EXPECT_TRUE(contains(msg, "e.csv:2")) << msg;
  EXPECT_TRUE(contains(msg, "CRASH DATE is not a date")) << msg;
  EXPECT_FALSE(contains(msg, "13/45")) << msg;
  msg = input_error([&] { parse_crash_cutoff("registry.yaml:12", "28.09.2024"); });
  EXPECT_TRUE(contains(msg, "registry.yaml:12")) << msg;
  EXPECT_TRUE(contains(msg, "YYYY-MM-DD")) << msg;
  fs::remove_all(dir);
}

TEST(DeriveCrash, ErrorsNameTheRecordsFirstLine) {
  const fs::path dir = temp_dir("crash_bad");
  const std::string header = "CRASH DATE,LATITUDE,LONGITUDE,NOTE\n";
  const std::string multi = "1/1/2020,40.5,-74,\"two\nlines\"\n";  // lines 2-3
  std::string msg = input_error(
      [&] { derive_nyc_crash(write_file(dir / "a.csv", header + multi + "1/2/2020,4O.5,-74,x\n"), dir / "o"); });
  EXPECT_TRUE(contains(msg, "a.csv:4")) << msg;
  EXPECT_TRUE(contains(msg, "LATITUDE is not a finite number")) << msg;
  EXPECT_FALSE(contains(msg, "4O.5")) << msg;  // a record's values stay out of messages
  msg = input_error(
      [&] { derive_nyc_crash(write_file(dir / "b.csv", header + multi + "1/2/2020,40.5,-74\n"), dir / "o"); });
  EXPECT_TRUE(contains(msg, "b.csv:4")) << msg;
  EXPECT_TRUE(contains(msg, "expected 4 fields")) << msg;
  msg = input_error([&] {
    derive_nyc_crash(write_file(dir / "c.csv", header + multi + "1/2/2020,40.5,-74,\"open\nnever closed\n"), dir / "o");
  });
  EXPECT_TRUE(contains(msg, "c.csv:4")) << msg;
  EXPECT_TRUE(contains(msg, "never closed")) << msg;
  msg = input_error(
      [&] { derive_nyc_crash(write_file(dir / "d.csv", header + "1/2/2020,40.5,-74,\"x\"y\n"), dir / "o"); });
  EXPECT_TRUE(contains(msg, "d.csv:2")) << msg;
  EXPECT_TRUE(contains(msg, "after the closing quote")) << msg;
  msg =
      input_error([&] { derive_nyc_crash(write_file(dir / "e.csv", "CRASH DATE,LAT,LONGITUDE\n1,2,3\n"), dir / "o"); });
  EXPECT_TRUE(contains(msg, "e.csv:1")) << msg;
  EXPECT_TRUE(contains(msg, "no column named LATITUDE")) << msg;
  msg = input_error([&] { derive_nyc_crash(write_file(dir / "f.csv", ""), dir / "o"); });
  EXPECT_TRUE(contains(msg, "empty")) << msg;
  fs::remove_all(dir);
}

// ---- HAR70+ -----------------------------------------------------------------------------------------
TEST(DeriveHar70, BackSensorAndLabelOfTheGivenFilesInOrder) {
  const fs::path dir = temp_dir("har70");
  const std::string header = "timestamp,back_x,back_y,back_z,thigh_x,thigh_y,thigh_z,label\n";
  const fs::path p501 = write_file(
      dir / "501.csv", header +
                           "2021-03-24 14:42:03.839,-0.999023,-0.063477,0.140625,-0.980469,-0.112061,-0.048096,6\n"
                           "2021-03-24 14:42:03.859,-0.980225,-0.079346,0.140625,-0.961182,-0.121582,-0.051758,6\n");
  // Another column order: columns are found by name in each file. CRLF line ends are read as well.
  const fs::path p502 = write_file(dir / "502.csv",
                                   "timestamp,label,thigh_x,back_z,back_y,back_x,thigh_y,thigh_z\r\n"
                                   "2021-03-25 10:00:00.000,1,0.5,-0.25,0.125,-1.000,0.1,0.2\r\n");
  const DerivationReport r = derive_har70({p502, p501}, dir / "har70.csv.part");
  EXPECT_EQ(read_text(dir / "har70.csv.part"),
            "back_x,back_y,back_z,label\n"
            "-1.000,0.125,-0.25,1\n"
            "-0.999023,-0.063477,0.140625,6\n"
            "-0.980225,-0.079346,0.140625,6\n");
  EXPECT_EQ(r.rows_read, 3u);
  EXPECT_EQ(r.rows_written, 3u);
  EXPECT_EQ(r.details["files"], 2);
  EXPECT_EQ(r.details["rows_per_file"],
            nlohmann::json::parse(R"([{"file":"502.csv","rows":1},{"file":"501.csv","rows":2}])"));

  std::string msg =
      input_error([&] { derive_har70({write_file(dir / "503.csv", header + "t,1,2,3,4,5,6,walking\n")}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "503.csv:2")) << msg;
  EXPECT_TRUE(contains(msg, "the label is not an integer")) << msg;
  EXPECT_FALSE(contains(msg, "walking")) << msg;  // never a record's value
  msg = input_error([&] { derive_har70({write_file(dir / "504.csv", header + "t,1,x,3,4,5,6,1\n")}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "504.csv:2")) << msg;
  EXPECT_TRUE(contains(msg, "back_y is not a finite number")) << msg;
  EXPECT_FALSE(contains(msg, "'x'")) << msg;
  msg = input_error([&] { derive_har70({write_file(dir / "505.csv", header + "t,1,2,3\n")}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "505.csv:2")) << msg;
  msg = input_error([&] { derive_har70({write_file(dir / "506.csv", "timestamp,x,y,z,label\n")}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "506.csv:1")) << msg;
  EXPECT_TRUE(contains(msg, "no column 'back_x'")) << msg;
  EXPECT_TRUE(contains(input_error([&] { derive_har70({}, dir / "o"); }), "no participant files"));
  fs::remove_all(dir);
}

// ---- Several CSV files of one layout (UCI Gas Turbine Emissions) -------------------------------------
TEST(DeriveConcatCsv, OneHeaderThenEveryFilesRowsInTheGivenOrder) {
  const fs::path dir = temp_dir("concat");
  const std::string header = "AT,AP,AH,AFDP,GTEP,TIT,TAT,TDP,CO,NOX\n";
  const fs::path y2011 = write_file(
      dir / "gt_2011.csv", header + "4.5878,1018.7,83.675,3.5758,23.979,1086.2,549.83,11.898,0.32663,81.952\n");
  const fs::path y2012 = write_file(
      dir / "gt_2012.csv",
      "AT,AP,AH,AFDP,GTEP,TIT,TAT,TDP,CO,NOX\r\n1,2,3,4,5,6,7,8,9,10\r\n\r\n11,12,13,14,15,16,17,18,19,20\r\n");
  const DerivationReport r = derive_concat_csv({y2012, y2011}, dir / "gas.csv.part");
  EXPECT_EQ(read_text(dir / "gas.csv.part"),
            header +
                "1,2,3,4,5,6,7,8,9,10\n11,12,13,14,15,16,17,18,19,20\n"
                "4.5878,1018.7,83.675,3.5758,23.979,1086.2,549.83,11.898,0.32663,81.952\n");
  EXPECT_EQ(r.rows_read, 3u);
  EXPECT_EQ(r.rows_written, 3u);
  EXPECT_EQ(r.details["rows_per_file"],
            nlohmann::json::parse(R"([{"file":"gt_2012.csv","rows":2},{"file":"gt_2011.csv","rows":1}])"));
  // A file of another layout (or without a header) is refused, naming it, never printing its first line.
  const std::string msg = input_error([&] {
    derive_concat_csv({y2011, write_file(dir / "gt_2013.csv", "1.5,2,3\n")}, dir / "o");
  });
  EXPECT_TRUE(contains(msg, "gt_2013.csv:1")) << msg;
  EXPECT_FALSE(contains(msg, "1.5")) << msg;
  EXPECT_TRUE(contains(input_error([&] { derive_concat_csv({}, dir / "o"); }), "no input files"));
  fs::remove_all(dir);
}

// ---- Iris -------------------------------------------------------------------------------------------
TEST(DeriveIris, HeaderReplacedAndNumbersInShortestForm) {
  const fs::path dir = temp_dir("iris");
  const fs::path in = write_file(dir / "iris.csv",
                                 "3,4,setosa,versicolor,virginica\n"
                                 "5.1,3.5,1.4,0.2,0\n"
                                 "4.9,3.0,1.4,0.2,0\n"
                                 "6.3,3.3,6.0,2.5,2\n");
  const DerivationReport r = derive_sklearn_iris(in, dir / "iris.out");
  EXPECT_EQ(read_text(dir / "iris.out"),
            "sepal_length,sepal_width,petal_length,petal_width,label\n"
            "5.1,3.5,1.4,0.2,0\n"
            "4.9,3,1.4,0.2,0\n"
            "6.3,3.3,6,2.5,2\n");
  EXPECT_EQ(r.rows_read, 3u);
  EXPECT_EQ(r.rows_written, 3u);
  EXPECT_EQ(r.details["numbers_reprinted"], 2);

  std::string msg = input_error(
      [&] { derive_sklearn_iris(write_file(dir / "a.csv", "sepal_length,sepal_width\n5.1,3.5\n"), dir / "o"); });
  EXPECT_TRUE(contains(msg, "a.csv:1")) << msg;
  msg =
      input_error([&] { derive_sklearn_iris(write_file(dir / "b.csv", "2,4,a,b,c\n5.1,3.5,1.4,0.2,0\n"), dir / "o"); });
  EXPECT_TRUE(contains(msg, "b.csv:1")) << msg;
  EXPECT_TRUE(contains(msg, "declares 2 rows but the file has 1")) << msg;
  msg =
      input_error([&] { derive_sklearn_iris(write_file(dir / "c.csv", "1,4,a,b,c\n5.1,3.5,1.4,0.2,3\n"), dir / "o"); });
  EXPECT_TRUE(contains(msg, "c.csv:2")) << msg;
  EXPECT_TRUE(contains(msg, "the label is not a class index 0..2")) << msg;
  EXPECT_FALSE(contains(msg, "'3'")) << msg;  // never a record's value
  msg = input_error([&] { derive_sklearn_iris(write_file(dir / "d.csv", "1,3,a,b,c\n5.1,3.5,1.4,0\n"), dir / "o"); });
  EXPECT_TRUE(contains(msg, "d.csv:1")) << msg;
  fs::remove_all(dir);
}

// scikit-learn's own file (Debian's python3-sklearn, or the file named by DPCLUST_SKLEARN_IRIS) must give
// the published checksum.
TEST(DeriveIris, ScikitLearnsFileGivesThePublishedChecksum) {
  const char* env = std::getenv("DPCLUST_SKLEARN_IRIS");
  const fs::path in =
      env && *env ? fs::path(env) : fs::path("/usr/lib/python3/dist-packages/sklearn/datasets/data/iris.csv");
  if (!fs::exists(in))
    GTEST_SKIP() << "scikit-learn's iris.csv not found at " << in
                 << ": install python3-sklearn or set DPCLUST_SKLEARN_IRIS to sklearn/datasets/data/iris.csv";
  const fs::path dir = temp_dir("iris_real");
  const DerivationReport r = derive_sklearn_iris(in, dir / "iris.csv");
  EXPECT_EQ(r.rows_written, 150u);
  EXPECT_EQ(sha256_of_text(dir / "iris.csv"), "c76446d7595036b79f4e16e537de7ceb22c452a1adbed4f9a1498b4ba18133a7");
  fs::remove_all(dir);
}

// ---- scikit-learn's bundled CSVs (wine, breast cancer) -----------------------------------------------
TEST(DeriveSklearnCsv, HeaderFromTheRegistryAndRowsAsWritten) {
  const fs::path dir = temp_dir("sklearn_csv");
  const fs::path in = write_file(dir / "wine_data.csv",
                                 "2,3,class_0,class_1\r\n"
                                 "14.23,1.71,1065,0\r\n"
                                 "13.20,1.78,1050.0,1\r\n");
  const DerivationReport r = derive_sklearn_csv(in, {"alcohol", "malic_acid", "proline"}, dir / "wine.csv");
  // The numbers keep their text (13.20, 1050.0), the CR goes.
  EXPECT_EQ(read_text(dir / "wine.csv"), "alcohol,malic_acid,proline,label\n14.23,1.71,1065,0\n13.20,1.78,1050.0,1\n");
  EXPECT_EQ(r.rows_read, 2u);
  EXPECT_EQ(r.rows_written, 2u);
  EXPECT_EQ(r.details["classes"], 2);

  // A column count that is not the file's features, a short file, a label that is no class index, a field that is not a
  // number: each refused at its line, never printing a value.
  std::string msg = input_error([&] { derive_sklearn_csv(in, {"a", "b"}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "wine_data.csv:1")) << msg;
  EXPECT_TRUE(contains(msg, "declares 3 features; the registry names 2 columns")) << msg;
  msg = input_error([&] { derive_sklearn_csv(write_file(dir / "b.csv", "3,1,x,y\n1.5,0\n"), {"a"}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "declares 3 rows but the file has 1")) << msg;
  msg = input_error([&] { derive_sklearn_csv(write_file(dir / "c.csv", "1,1,x,y\n1.5,2\n"), {"a"}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "c.csv:2")) << msg;
  EXPECT_TRUE(contains(msg, "the label is not a class index 0..1")) << msg;
  msg = input_error([&] { derive_sklearn_csv(write_file(dir / "d.csv", "1,1,x,y\nseven,0\n"), {"a"}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "d.csv:2")) << msg;
  EXPECT_FALSE(contains(msg, "seven")) << msg;
  msg = input_error([&] { derive_sklearn_csv(write_file(dir / "e.csv", "alcohol,proline\n1,2\n"), {"a"}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "is not scikit-learn's `n_samples,n_features,class names`")) << msg;
  fs::remove_all(dir);
}

// scikit-learn's own files (Debian's python3-sklearn 1.2.1) give the registry's checksums (datasets/registry.yaml
// wine, breast_cancer).
TEST(DeriveSklearnCsv, ScikitLearnsFilesGiveTheRegisteredChecksums) {
  const fs::path data = "/usr/lib/python3/dist-packages/sklearn/datasets/data";
  if (!fs::exists(data / "wine_data.csv") || !fs::exists(data / "breast_cancer.csv"))
    GTEST_SKIP() << "scikit-learn's bundled CSVs not found under " << data << ": install python3-sklearn";
  const fs::path dir = temp_dir("sklearn_csv_real");
  const DerivationReport wine = derive_sklearn_csv(
      data / "wine_data.csv",
      {"alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols", "flavanoids",
       "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue", "od280_od315_of_diluted_wines", "proline"},
      dir / "wine.csv");
  EXPECT_EQ(wine.rows_written, 178u);
  EXPECT_EQ(sha256_of_text(dir / "wine.csv"), "23e4194a5c52a750cd051677786d41f8de435bb6fc210f597f07080b5d910ef7");
  // scikit-learn's feature names with '_' for ' ': the ten means, their errors, the ten worst values.
  const std::vector<std::string> features{"radius",     "texture",          "perimeter", "area",
                                          "smoothness", "compactness",      "concavity", "concave_points",
                                          "symmetry",   "fractal_dimension"};
  std::vector<std::string> columns;
  for (const auto& f : features) columns.push_back("mean_" + f);
  for (const auto& f : features) columns.push_back(f + "_error");
  for (const auto& f : features) columns.push_back("worst_" + f);
  const DerivationReport breast = derive_sklearn_csv(data / "breast_cancer.csv", columns, dir / "breast_cancer.csv");
  EXPECT_EQ(breast.rows_written, 569u);
  EXPECT_EQ(sha256_of_text(dir / "breast_cancer.csv"),
            "5c3e458a6f8780b7dd2bc07e65dc975d149b6f8324cb7442a6ead4c5c9858d07");
  fs::remove_all(dir);
}

// ---- Tables of blank-separated numbers (UEF's s1.txt, birch2.txt) --------------------------------------
TEST(DeriveWhitespaceColumns, BlanksAndTabsBecomeCommas) {
  const fs::path dir = temp_dir("whitespace");
  const fs::path in = write_file(dir / "birch2.txt", "    38049    49520\n\n 12\t 7.50\r\n");
  DerivationReport r = derive_whitespace_columns(in, {"x", "y"}, dir / "birch2.csv");
  EXPECT_EQ(read_text(dir / "birch2.csv"), "x,y\n38049,49520\n12,7.50\n");
  EXPECT_EQ(r.rows_written, 2u);
  // Without names: x0, x1, ... by the first line's width.
  r = derive_whitespace_columns(write_file(dir / "t.txt", "1 2 3\n4 5 6\n"), {}, dir / "t.csv");
  EXPECT_EQ(read_text(dir / "t.csv"), "x0,x1,x2\n1,2,3\n4,5,6\n");
  EXPECT_EQ(r.details["columns"], 3);
  std::string msg =
      input_error([&] { derive_whitespace_columns(write_file(dir / "u.txt", "1 2\n3\n"), {}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "u.txt:2")) << msg;
  EXPECT_TRUE(contains(msg, "expected 2 numbers, found 1")) << msg;
  msg = input_error([&] { derive_whitespace_columns(write_file(dir / "v.txt", "1 2\n3 abc\n"), {}, dir / "o"); });
  EXPECT_TRUE(contains(msg, "v.txt:2")) << msg;
  EXPECT_FALSE(contains(msg, "abc")) << msg;
  EXPECT_TRUE(
      contains(input_error([&] { derive_whitespace_columns(write_file(dir / "w.txt", "\n \n"), {}, dir / "o"); }),
               "no rows of numbers"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dpclust::datasources
