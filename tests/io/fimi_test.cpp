#include "io/fimi.hpp"

#include <gtest/gtest.h>

#include "io/io_test_util.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::vector<double> row(const Dataset& ds, std::size_t i) { return {ds.point(i), ds.point(i) + ds.d}; }

// Mushroom-like: equal lengths, trailing spaces (as in the FIMI files), a blank line and a tab.
const char* kEqual = "1 3 9 13 \n2 3 9 14 \n\n1 4 10\t13\n";
// Ragged: 3, 1, 2 items.
const char* kRagged = "5 6 7\n8 \n9 10\n";

TEST(Fimi, ItemsBecomeAttributesInLineOrder) {
  auto dir = temp_dir("fimi");
  Dataset ds = load_fimi(write_file(dir / "mushroom.dat", kEqual));
  EXPECT_EQ(ds.name, "mushroom");
  EXPECT_EQ(ds.n, 3u);
  EXPECT_EQ(ds.d, 4u);
  EXPECT_EQ(row(ds, 0), (std::vector<double>{1, 3, 9, 13}));
  EXPECT_EQ(row(ds, 1), (std::vector<double>{2, 3, 9, 14}));
  EXPECT_EQ(row(ds, 2), (std::vector<double>{1, 4, 10, 13}));
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"item0", "item1", "item2", "item3"}));
  EXPECT_FALSE(ds.has_labels());
  EXPECT_TRUE(ds.bounds.empty());
  EXPECT_EQ(ds.provenance["format"], "fimi");
  EXPECT_EQ(ds.provenance["ragged"], "error");
  EXPECT_EQ(ds.provenance["min_items"], 4);
  EXPECT_EQ(ds.provenance["max_items"], 4);
  ds.check_invariants();
  std::filesystem::remove_all(dir);
}

TEST(Fimi, GzipAndMaxRows) {
  auto dir = temp_dir("fimi");
  FimiOptions o;
  o.max_rows = 2;
  o.name = "m";
  Dataset ds = load_fimi(testing::write_gzip(dir / "mushroom.dat.gz", kEqual), o);
  EXPECT_EQ(ds.name, "m");
  EXPECT_EQ(ds.n, 2u);
  EXPECT_EQ(row(ds, 1), (std::vector<double>{2, 3, 9, 14}));
  EXPECT_EQ(ds.provenance["max_rows"], 2);
  // max_rows stops before a ragged line further down, as the loader never reads it.
  EXPECT_EQ(load_fimi(write_file(dir / "r.dat", "1 2\n3 4\n5\n"), o).n, 2u);
  std::filesystem::remove_all(dir);
}

TEST(Fimi, RaggedIsAnErrorByDefault) {
  auto dir = temp_dir("fimi");
  const std::string msg = input_error([&] { load_fimi(write_file(dir / "acc.dat", kRagged)); });
  EXPECT_TRUE(contains(msg, "acc.dat:2")) << msg;
  EXPECT_TRUE(contains(msg, "1 items")) << msg;
  EXPECT_TRUE(contains(msg, "(line 1) has 3")) << msg;
  EXPECT_TRUE(contains(msg, "`ragged: pad`")) << msg;
  EXPECT_TRUE(contains(msg, "items_per_row")) << msg;
  std::filesystem::remove_all(dir);
}

TEST(Fimi, RaggedPadWithZero) {
  auto dir = temp_dir("fimi");
  FimiOptions o;
  o.ragged = FimiRagged::pad;
  Dataset ds = load_fimi(write_file(dir / "acc.dat", kRagged), o);
  EXPECT_EQ(ds.n, 3u);
  EXPECT_EQ(ds.d, 3u);
  EXPECT_EQ(ds.coords, (std::vector<double>{5, 6, 7, 8, 0, 0, 9, 10, 0}));
  EXPECT_EQ(ds.provenance["ragged"], "pad");
  EXPECT_EQ(ds.provenance["padded_rows"], 2);
  EXPECT_EQ(ds.provenance["min_items"], 1);
  EXPECT_EQ(ds.provenance["max_items"], 3);
  ds.check_invariants();
  std::filesystem::remove_all(dir);
}

// DRBT's Accidents reading (docs/choices.md): a fixed number of attributes, the first N items of each
// line; shorter lines padded with item 0 under ragged: pad, refused otherwise.
TEST(Fimi, ItemsPerRowCutsLongAndPadsShortLines) {
  auto dir = temp_dir("fimi");
  FimiOptions o;
  o.ragged = FimiRagged::pad;
  o.items_per_row = 2;
  Dataset ds = load_fimi(write_file(dir / "acc.dat", kRagged), o);  // lines of 3, 1 and 2 items
  EXPECT_EQ(ds.n, 3u);
  EXPECT_EQ(ds.d, 2u);
  EXPECT_EQ(ds.coords, (std::vector<double>{5, 6, 8, 0, 9, 10}));
  EXPECT_EQ(ds.provenance["items_per_row"], 2);
  EXPECT_EQ(ds.provenance["cut_or_padded_rows"], 2);
  EXPECT_EQ(ds.provenance["min_items"], 1);  // of the file, not of the matrix
  EXPECT_EQ(ds.provenance["max_items"], 3);
  ds.check_invariants();
  // Without pad a short line is refused at its line.
  o.ragged = FimiRagged::error;
  const std::string msg = input_error([&] { load_fimi(write_file(dir / "acc2.dat", kRagged), o); });
  EXPECT_TRUE(contains(msg, "acc2.dat:2")) << msg;
  EXPECT_TRUE(contains(msg, "fewer than items_per_row 2")) << msg;
  // Only longer lines: cut, no pad needed.
  o.items_per_row = 1;
  Dataset one = load_fimi(write_file(dir / "acc3.dat", kRagged), o);
  EXPECT_EQ(one.coords, (std::vector<double>{5, 8, 9}));
  std::filesystem::remove_all(dir);
}

TEST(Fimi, RaggedTruncateToShortest) {
  auto dir = temp_dir("fimi");
  FimiOptions o;
  o.ragged = FimiRagged::truncate;
  Dataset ds = load_fimi(write_file(dir / "acc.dat", kRagged), o);
  EXPECT_EQ(ds.n, 3u);
  EXPECT_EQ(ds.d, 1u);
  EXPECT_EQ(ds.coords, (std::vector<double>{5, 8, 9}));
  EXPECT_EQ(ds.provenance["truncated_rows"], 2);
  // Equal lengths: nothing to pad or truncate, and no count is recorded.
  Dataset eq = load_fimi(write_file(dir / "eq.dat", kEqual), o);
  EXPECT_EQ(eq.d, 4u);
  EXPECT_FALSE(eq.provenance.contains("truncated_rows"));
  std::filesystem::remove_all(dir);
}

TEST(FimiErrors, BadTokensNameFileLineAndPositionNotToken) {
  auto dir = temp_dir("fimi");
  for (const std::string bad : {"-3", "+3", "3.5", "x1", "1e3", "9007199254740993", "nan"}) {
    const std::string msg = input_error([&] { load_fimi(write_file(dir / "bad.dat", "1 2 3\n4 " + bad + " 6\n")); });
    EXPECT_TRUE(contains(msg, "bad.dat:2")) << msg;
    EXPECT_TRUE(contains(msg, "record 1 (0-based), item 2: not a non-negative integer item id")) << msg;
    EXPECT_FALSE(contains(msg, "'" + bad + "'")) << msg;
  }
  // 2^53 itself is exact and accepted.
  Dataset big = load_fimi(write_file(dir / "big.dat", "9007199254740992\n"));
  EXPECT_EQ(big.coords[0], 9007199254740992.0);
  // Comma-separated text is not FIMI: the whole "1,2" is one bad token.
  std::string msg = input_error([&] { load_fimi(write_file(dir / "csv.dat", "1,2\n")); });
  EXPECT_TRUE(contains(msg, "csv.dat:1")) << msg;
  msg = input_error([&] { load_fimi(write_file(dir / "empty.dat", "\n  \n")); });
  EXPECT_TRUE(contains(msg, "no transactions")) << msg;
  msg = input_error([&] { load_fimi(dir / "missing.dat"); });
  EXPECT_TRUE(contains(msg, "file not found")) << msg;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dpclust
