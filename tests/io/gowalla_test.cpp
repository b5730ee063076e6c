#include "io/gowalla.hpp"

#include <gtest/gtest.h>

#include "io/io_test_util.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const char* kCheckins =
    "0\t2010-10-19T23:55:27Z\t30.2359091167\t-97.7951395833\t22847\n"
    "0\t2010-10-18T22:17:43Z\t30.2691029532\t-97.7493953705\t420315\n"
    "1\t2010-10-17T23:42:03Z\t-33.86\t151.21\t316637\n";

TEST(Gowalla, LoadsLonLatAndMaxRows) {
  auto dir = temp_dir("gw");
  Dataset ds = load_gowalla(write_file(dir / "g.txt", kCheckins));
  EXPECT_EQ(ds.n, 3u);
  EXPECT_EQ(ds.d, 2u);
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"lon", "lat"}));
  EXPECT_DOUBLE_EQ(ds.point(0)[0], -97.7951395833);
  EXPECT_DOUBLE_EQ(ds.point(0)[1], 30.2359091167);
  EXPECT_DOUBLE_EQ(ds.point(2)[0], 151.21);
  EXPECT_FALSE(ds.has_labels());
  EXPECT_EQ(ds.provenance["format"], "gowalla");
  GowallaOptions o;
  o.max_rows = 2;
  EXPECT_EQ(load_gowalla(testing::write_gzip(dir / "g.txt.gz", kCheckins), o).n, 2u);
}

TEST(GowallaErrors, RangeFieldCountAndNumbers) {
  auto dir = temp_dir("gw");
  std::string base = kCheckins;
  std::string msg = input_error([&] { load_gowalla(write_file(dir / "lat.txt", base + "2\tt\t91.0\t10\t5\n")); });
  EXPECT_TRUE(contains(msg, "lat.txt:4")) << msg;
  EXPECT_TRUE(contains(msg, "latitude")) << msg;
  msg = input_error([&] { load_gowalla(write_file(dir / "lon.txt", base + "2\tt\t10\t-180.5\t5\n")); });
  EXPECT_TRUE(contains(msg, "lon.txt:4")) << msg;
  EXPECT_TRUE(contains(msg, "longitude")) << msg;
  msg = input_error([&] { load_gowalla(write_file(dir / "cnt.txt", base + "2,t,10,10,5\n")); });
  EXPECT_TRUE(contains(msg, "cnt.txt:4")) << msg;
  EXPECT_TRUE(contains(msg, "expected 5 tab-separated fields")) << msg;
  msg = input_error([&] { load_gowalla(write_file(dir / "num.txt", "2\tt\tabc\t10\t5\n")); });
  EXPECT_TRUE(contains(msg, "num.txt:1")) << msg;
  EXPECT_TRUE(contains(msg, "record 0 (0-based), latitude: the value is not a number")) << msg;
  EXPECT_FALSE(contains(msg, "abc")) << msg;
  msg = input_error([&] { load_gowalla(write_file(dir / "nan.txt", "2\tt\tnan\t10\t5\n")); });
  EXPECT_TRUE(contains(msg, "nan.txt:1")) << msg;
}

}  // namespace
}  // namespace dpclust
