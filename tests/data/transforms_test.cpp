#include "data/transforms.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "data/generators.hpp"

namespace dpclust {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

Dataset indexed(std::size_t n) {  // point i = (i, -i), label i % 3
  Dataset ds;
  ds.n = n;
  ds.d = 2;
  for (std::size_t i = 0; i < n; ++i) {
    ds.coords.push_back(static_cast<double>(i));
    ds.coords.push_back(-static_cast<double>(i));
    ds.labels.push_back(static_cast<Label>(i % 3));
  }
  return ds;
}

TEST(StandardScale, ZeroMeanUnitPopulationStd) {
  Dataset ds = make_blobs(BlobsOptions{.n_samples = 1000, .n_features = 3, .cluster_std = {4.0}, .seed = 1});
  standard_scale(ds);
  for (std::size_t j = 0; j < 3; ++j) {
    double s = 0, ss = 0;
    for (std::size_t i = 0; i < ds.n; ++i) s += ds.point(i)[j];
    for (std::size_t i = 0; i < ds.n; ++i) ss += ds.point(i)[j] * ds.point(i)[j];
    EXPECT_NEAR(s / 1000.0, 0.0, 1e-12);
    EXPECT_NEAR(ss / 1000.0, 1.0, 1e-12);  // population variance
  }
  ASSERT_TRUE(ds.provenance["transforms"].is_array());
  EXPECT_EQ(ds.provenance["transforms"][0]["name"], "standard_scale");
  EXPECT_EQ(ds.provenance["transforms"][0]["note"], "standard scaling uses data mean/std");
}

TEST(StandardScale, ConstantColumnIsOnlyCentred) {
  Dataset ds;
  ds.n = 3;
  ds.d = 2;
  ds.coords = {1, 7, 2, 7, 3, 7};
  standard_scale(ds);
  EXPECT_EQ(ds.coords[1], 0.0);
  EXPECT_EQ(ds.coords[3], 0.0);
  EXPECT_NEAR(ds.coords[0], -std::sqrt(1.5), 1e-12);  // population std of {1,2,3} is sqrt(2/3)
  EXPECT_EQ(ds.provenance["transforms"][0]["scale"][1], 1.0);
}

TEST(MinmaxScale, EveryColumnToMinusOneOneAsFastLloydNormalises) {
  // FastLloyd's data_handler.normalize: (x - min) / (max - min) * 2 - 1 per column, a constant column 0.
  Dataset ds;
  ds.n = 3;
  ds.d = 3;
  ds.coords = {10, 7, -1, 20, 7, 0, 15, 7, 3};
  ds.bounds.lo = {0, 0, -5};
  ds.bounds.hi = {40, 10, 5};
  minmax_scale(ds);
  EXPECT_EQ(ds.coords, (std::vector<double>{-1, 0, -1, 1, 0, -0.5, 0, 0, 1}));
  // The bounds follow the same map: 0 -> -3, 40 -> 5 (column 0); the constant column's bounds to 0.
  EXPECT_EQ(ds.bounds.lo, (std::vector<double>{-3, 0, -3}));
  EXPECT_EQ(ds.bounds.hi, (std::vector<double>{5, 0, 2}));
  ASSERT_TRUE(ds.provenance["transforms"].is_array());
  EXPECT_EQ(ds.provenance["transforms"][0]["name"], "minmax_scale");
  EXPECT_EQ(ds.provenance["transforms"][0]["min"], nlohmann::json::parse("[10.0, 7.0, -1.0]"));
  Scaling s = Scaling::none;
  EXPECT_TRUE(parse_scaling("minmax", s));
  EXPECT_EQ(s, Scaling::minmax);
  EXPECT_FALSE(parse_scaling("min-max", s));
}

TEST(Subsample, KeepsOrderSizeAndLabels) {
  Dataset ds = indexed(1000);
  subsample(ds, 100, 5);
  EXPECT_EQ(ds.n, 100u);
  EXPECT_NO_THROW(ds.check_invariants());
  for (std::size_t i = 0; i < ds.n; ++i) {
    EXPECT_EQ(ds.point(i)[1], -ds.point(i)[0]);
    EXPECT_EQ(ds.labels[i], static_cast<Label>(static_cast<std::size_t>(ds.point(i)[0]) % 3));
    if (i) {
      EXPECT_LT(ds.point(i - 1)[0], ds.point(i)[0]);
    }
  }
  EXPECT_EQ(ds.provenance["transforms"][0]["from"], 1000);
}

TEST(Subsample, SeedDeterministicAndNoOpWhenLarge) {
  Dataset a = indexed(500), b = indexed(500), c = indexed(500);
  subsample(a, 50, 1);
  subsample(b, 50, 1);
  subsample(c, 50, 2);
  EXPECT_EQ(a.coords, b.coords);
  EXPECT_NE(a.coords, c.coords);
  Dataset d = indexed(20);
  subsample(d, 20, 1);
  EXPECT_EQ(d.coords, indexed(20).coords);
  EXPECT_FALSE(d.provenance.contains("transforms"));
}

TEST(Subsample, EveryPointEquallyLikely) {
  std::vector<int> hits(10, 0);
  for (std::uint64_t seed = 0; seed < 20000; ++seed) {
    Dataset ds = indexed(10);
    subsample(ds, 3, seed);
    for (std::size_t i = 0; i < ds.n; ++i) ++hits[static_cast<std::size_t>(ds.point(i)[0])];
  }
  for (int h : hits) EXPECT_NEAR(h / 20000.0, 0.3, 0.015);
}

TEST(Projection, KnownDistances) {
  Dataset ds;
  ds.n = 2;
  ds.d = 2;
  ds.coords = {10.0, 61.0, 11.0, 60.0};  // (lon, lat)
  ds.column_names = {"lon", "lat"};
  ds.bounds = Bounds{{10, 60}, {11, 61}};
  project_lonlat_to_km(ds, 0, 1, 60.0, 10.0, 60.0);
  EXPECT_NEAR(ds.point(0)[0], 0.0, 1e-12);
  EXPECT_NEAR(ds.point(0)[1], 111.2, 1e-9);  // 1 degree of latitude
  EXPECT_NEAR(ds.point(1)[0], 55.6, 1e-9);   // 1 degree of longitude at 60 degrees
  EXPECT_NEAR(ds.point(1)[1], 0.0, 1e-12);
  EXPECT_NEAR(ds.bounds.hi[0], 55.6, 1e-9);
  EXPECT_NEAR(ds.bounds.hi[1], 111.2, 1e-9);
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"x_km", "y_km"}));
  EXPECT_EQ(ds.provenance["transforms"][0]["name"], "project_lonlat_to_km");
  EXPECT_THROW(project_lonlat_to_km(ds, 0, 0, 0), InputError);
  EXPECT_THROW(project_lonlat_to_km(ds, 0, 1, 90), InputError);
}

TEST(Validate, NonFiniteNamesSourceAndIndex) {
  Dataset ds = indexed(5);
  ds.coords[7] = std::numeric_limits<double>::quiet_NaN();  // point 3
  try {
    validate_points(ds, "data/pts.csv");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "data/pts.csv")) << e.what();
    EXPECT_TRUE(contains(e.what(), "point 3")) << e.what();
  }
}

TEST(Validate, OutOfDomain) {
  Dataset ds = indexed(5);
  ds.bounds = Bounds{{0, -3}, {10, 0}};
  try {
    validate_points(ds, "cfg.yaml");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_TRUE(contains(msg, "cfg.yaml")) << msg;
    // Point 4 = (4, -4): coordinate 1 is the one outside; the public interval is shown, the value not.
    EXPECT_TRUE(contains(msg, "point 4 (0-based, in file order): coordinate 1 is outside the public bounds [-3, 0]"))
        << msg;
    EXPECT_FALSE(contains(msg, "-4")) << msg;
    EXPECT_TRUE(contains(msg, "clip_to_bounds: drop | clamp")) << msg;
  }
  ds.bounds = Bounds{{0, -4}, {4, 0}};
  EXPECT_NO_THROW(validate_points(ds, "cfg.yaml"));
}

TEST(OutOfBounds, DropKeepsTheInsideRowsInOrderAndClampMovesCoordinatesToTheNearestBound) {
  Dataset dropped = indexed(5);  // (i, -i), label i % 3
  dropped.bounds = Bounds{{0.5, -3}, {10, 0}};
  EXPECT_EQ(drop_outside_bounds(dropped), 2u);  // point 0 (x < 0.5) and point 4 (y < -3)
  EXPECT_EQ(dropped.coords, (std::vector<double>{1, -1, 2, -2, 3, -3}));
  EXPECT_EQ(dropped.labels, (Labels{1, 2, 0}));
  Dataset clamped = indexed(5);
  clamped.bounds = Bounds{{0.5, -3}, {10, 0}};
  EXPECT_EQ(clamp_to_bounds(clamped), 2u);
  EXPECT_EQ(clamped.coords, (std::vector<double>{0.5, 0, 1, -1, 2, -2, 3, -3, 4, -3}));
  EXPECT_EQ(clamped.labels, (Labels{0, 1, 2, 0, 1}));
  EXPECT_EQ(clamp_to_bounds(clamped), 0u);  // idempotent
}

TEST(ResamplePerClass, AsTheDpmArtifactDrawsItWithDefaultRng42) {
  // Seven 1-D points with text labels B A B C A B C (codes by first appearance: B 0, A 1, C 2). The artifact walks the
  // classes A, B, C; numpy: g = default_rng(42); per class xi[g.integers(0, len(xi), size=3)]; then g.permutation(9):
  // x = [13, 16, 14, 12, 11, 14, 13, 12, 15], labels C C A B A A C B B.
  Dataset ds;
  ds.n = 7;
  ds.d = 1;
  ds.coords = {10, 11, 12, 13, 14, 15, 16};
  ds.labels = {0, 1, 0, 2, 1, 0, 2};
  ds.provenance["label_map"] = {{"B", 0}, {"A", 1}, {"C", 2}};
  resample_per_class(ds, 3, 42);
  EXPECT_EQ(ds.n, 9u);
  EXPECT_EQ(ds.coords, (std::vector<double>{13, 16, 14, 12, 11, 14, 13, 12, 15}));
  EXPECT_EQ(ds.labels, (Labels{2, 2, 1, 0, 1, 1, 2, 0, 0}));
  EXPECT_EQ(ds.provenance["transforms"][0]["name"], "resample_per_class");
  ASSERT_EQ(ds.non_private_notes.size(), 1u);
  Dataset unlabelled = indexed(4);
  unlabelled.labels.clear();
  EXPECT_THROW(resample_per_class(unlabelled, 3, 42), InputError);
}

// No message may carry a record's values. Distinctive values (123456.789, 98765.4321)
// would appear verbatim (or as 123456.789 with precision 10) if a message printed the record.
Dataset private_record(double x, double y) {
  Dataset ds;
  ds.n = 3;
  ds.d = 2;
  ds.coords = {1, 1, 2, 2, x, y};
  ds.column_names = {"lon", "lat"};
  return ds;
}

TEST(ErrorPrivacy, OutOfBoundsRecordIsNamedByIndexNotValues) {
  Dataset ds = private_record(123456.789, 98765.4321);
  ds.bounds = Bounds{{0, 0}, {100, 100}};
  for (auto check : {+[](const Dataset& d) { validate_points(d, "pts.csv"); },
                     +[](const Dataset& d) { check_within_bounds(d, "pts.csv"); }}) {
    try {
      check(ds);
      FAIL() << "expected InputError";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_TRUE(
          contains(msg, "point 2 (0-based, in file order): coordinate 0 ('lon') is outside the public bounds [0, 100]"))
          << msg;
      for (const char* leak : {"123456", "98765", "1.23456", "9.8765", "4321"})
        EXPECT_FALSE(contains(msg, leak)) << msg;
    }
  }
}

TEST(ErrorPrivacy, NonFiniteRecordIsNamedByIndexAndColumn) {
  Dataset ds = private_record(123456.789, std::numeric_limits<double>::infinity());
  try {
    validate_points(ds, "pts.csv");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_TRUE(contains(msg, "point 2 (0-based, in file order): coordinate 1 ('lat') is not finite")) << msg;
    EXPECT_FALSE(contains(msg, "123456")) << msg;
  }
}

}  // namespace
}  // namespace dpclust
