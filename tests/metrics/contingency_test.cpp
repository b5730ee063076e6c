#include "metrics/contingency.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <utility>

namespace dpclust {
namespace {

// Reference table built with std::map, for comparison with both storage paths.
std::map<std::pair<Label, Label>, std::int64_t> naive_counts(const Labels& x, const Labels& y) {
  std::map<std::pair<Label, Label>, std::int64_t> m;
  for (std::size_t i = 0; i < x.size(); ++i) ++m[{x[i], y[i]}];
  return m;
}

void expect_matches_naive(const Labels& x, const Labels& y) {
  const ContingencyTable t = contingency_table(x, y);
  const auto ref = naive_counts(x, y);
  ASSERT_EQ(t.cells.size(), ref.size());
  std::size_t k = 0;
  std::int64_t total = 0;
  for (const auto& [key, count] : ref) {  // std::map order is row-major in label order, as cells are
    const ContingencyCell& c = t.cells[k++];
    EXPECT_EQ(t.row_labels[static_cast<std::size_t>(c.row)], key.first);
    EXPECT_EQ(t.col_labels[static_cast<std::size_t>(c.col)], key.second);
    EXPECT_EQ(c.count, count);
    EXPECT_EQ(t.at(static_cast<std::size_t>(c.row), static_cast<std::size_t>(c.col)), count);
    total += count;
  }
  EXPECT_EQ(total, t.n);
  EXPECT_EQ(t.n, static_cast<std::int64_t>(x.size()));
  std::int64_t row_total = 0, col_total = 0;
  for (auto a : t.row_sums) row_total += a;
  for (auto b : t.col_sums) col_total += b;
  EXPECT_EQ(row_total, t.n);
  EXPECT_EQ(col_total, t.n);
}

TEST(Relabel, DenseIdsFollowAscendingLabelOrder) {
  const Labels labels = {7, -1, 7, 3, 100, -1, 3, 3};
  const DenseLabeling d = relabel_dense(labels);
  EXPECT_EQ(d.values, (Labels{-1, 3, 7, 100}));
  EXPECT_EQ(d.counts, (std::vector<std::int64_t>{2, 3, 2, 1}));
  EXPECT_EQ(d.ids, (std::vector<std::int32_t>{2, 0, 2, 1, 3, 0, 1, 1}));
}

TEST(Relabel, HugeLabelRangeUsesTheHashPathWithTheSameResult) {
  // Range ~4.3e9 with 6 points: far beyond direct indexing.
  const Labels labels = {2000000000, -2000000000, -1, 2000000000, 5, -2000000000};
  const DenseLabeling d = relabel_dense(labels);
  EXPECT_EQ(d.values, (Labels{-2000000000, -1, 5, 2000000000}));
  EXPECT_EQ(d.counts, (std::vector<std::int64_t>{2, 1, 1, 2}));
  EXPECT_EQ(d.ids, (std::vector<std::int32_t>{3, 0, 1, 3, 2, 0}));
}

TEST(Contingency, SmallTableByHand) {
  // truth [0,0,1,1] vs pred [0,0,1,2]: rows {0,1}, cols {0,1,2}; cells (0,0)=2, (1,1)=1, (1,2)=1.
  const ContingencyTable t = contingency_table({0, 0, 1, 1}, {0, 0, 1, 2});
  EXPECT_EQ(t.n, 4);
  EXPECT_EQ(t.row_sums, (std::vector<std::int64_t>{2, 2}));
  EXPECT_EQ(t.col_sums, (std::vector<std::int64_t>{2, 1, 1}));
  ASSERT_EQ(t.cells.size(), 3u);
  EXPECT_EQ(t.at(0, 0), 2);
  EXPECT_EQ(t.at(0, 1), 0);
  EXPECT_EQ(t.at(1, 1), 1);
  EXPECT_EQ(t.at(1, 2), 1);
}

TEST(Contingency, NoiseIsAnOrdinaryLabel) {
  const ContingencyTable t = contingency_table({-1, -1, 0, 0}, {-1, 0, 0, -1});
  EXPECT_EQ(t.row_labels, (Labels{-1, 0}));
  EXPECT_EQ(t.col_labels, (Labels{-1, 0}));
  EXPECT_EQ(t.at(0, 0), 1);
  EXPECT_EQ(t.at(0, 1), 1);
  EXPECT_EQ(t.at(1, 0), 1);
  EXPECT_EQ(t.at(1, 1), 1);
}

TEST(Contingency, DensePathMatchesNaive) {
  Labels x, y;
  for (std::int64_t i = 0; i < 5000; ++i) {
    x.push_back(static_cast<Label>((i * 7919 + i * i * 104729) % 5));
    y.push_back(static_cast<Label>((i * 13 + (i * i) % 17) % 9 - 1));
  }
  expect_matches_naive(x, y);
}

TEST(Contingency, SparsePathMatchesNaive) {
  // 1500 x 1200 distinct labels on 3000 points: 1.8M cells, far more than 2n + 64Ki, so the
  // non-zero cells are found by sorting; the labels span ~1.5e9 so relabelling uses the hash path.
  Labels x, y;
  for (std::int64_t i = 0; i < 3000; ++i) {
    x.push_back(static_cast<Label>(((i * i * 104729 + i * 7919) % 1500) * 1000000));
    y.push_back(static_cast<Label>((i * 13 + (i * i) % 17) % 1200 - 1));
  }
  const ContingencyTable t = contingency_table(x, y);
  EXPECT_GT(t.rows() * t.cols(), 2u * 3000u + 65536u);
  expect_matches_naive(x, y);
}

TEST(Contingency, RejectsMismatchedOrEmptyInput) {
  EXPECT_THROW(contingency_table({0, 1}, {0}), std::invalid_argument);
  EXPECT_THROW(contingency_table({}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace dpclust
