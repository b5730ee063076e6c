// Grid geometry and the alpha-neighbourhood NB(X): kappa for d = 1, 2, 3 and several eta, checked
// against a brute-force count of the cells whose minimum distance to a cell is below alpha.
#include "dpdbscan/grid.hpp"

#include <gtest/gtest.h>

#include <string>

#include <cmath>
#include <vector>

#include "core/error.hpp"

namespace dpclust::dpdbscan {
namespace {

// Minimum distance between the cells [0, w)^d and o + [0, w)^d, computed from the boxes' coordinates.
double min_box_distance(const std::vector<int>& o, double w) {
  double s = 0;
  for (int c : o) {
    const double a_lo = 0, a_hi = w, b_lo = c * w, b_hi = (c + 1) * w;
    const double gap = std::max({0.0, b_lo - a_hi, a_lo - b_hi});
    s += gap * gap;
  }
  return std::sqrt(s);
}

std::size_t brute_kappa(std::size_t d, double eta, double alpha = 1.0) {
  const double w = eta * alpha / (4.0 * std::sqrt(static_cast<double>(d)));
  const int reach = static_cast<int>(std::ceil(alpha / w)) + 2;
  std::size_t count = 0;
  std::vector<int> o(d, -reach);
  for (;;) {
    // Relative slack guards against the box arithmetic rounding exactly-alpha gaps below alpha.
    if (min_box_distance(o, w) < alpha * (1 - 1e-12)) ++count;
    std::size_t j = 0;
    while (j < d && ++o[j] > reach) o[j++] = -reach;
    if (j == d) break;
  }
  return count;
}

TEST(Neighbourhood, PaperKappaValues) {
  // eta = 4: w = alpha / sqrt(d). 2-D: the 21 cells of the paper's Figure 3.
  EXPECT_EQ(alpha_neighbourhood(1, 4.0).kappa(), 3u);
  EXPECT_EQ(alpha_neighbourhood(2, 4.0).kappa(), 21u);
  EXPECT_EQ(alpha_neighbourhood(3, 4.0).kappa(), 117u);
  // Hand counts in 2-D: eta = 8 (gap must be 0) -> 3x3; eta = 2 (squared gaps < 8) -> 45.
  EXPECT_EQ(alpha_neighbourhood(2, 8.0).kappa(), 9u);
  EXPECT_EQ(alpha_neighbourhood(2, 2.0).kappa(), 45u);
}

TEST(Neighbourhood, MatchesBruteForceForSeveralEta) {
  for (std::size_t d : {1u, 2u, 3u})
    for (double eta : {1.0, 2.0, 3.0, 4.0, 5.0, 8.0}) {
      SCOPED_TRACE("d=" + std::to_string(d) + " eta=" + std::to_string(eta));
      EXPECT_EQ(alpha_neighbourhood(d, eta).kappa(), brute_kappa(d, eta));
    }
}

TEST(Neighbourhood, SymmetricLexicographicAndRowForm) {
  const Neighbourhood nb = alpha_neighbourhood(3, 3.0);
  const std::size_t K = nb.kappa(), d = nb.d;
  // Zero offset in the middle, offset k mirrored by K-1-k.
  for (std::size_t j = 0; j < d; ++j) EXPECT_EQ(nb.offset(K / 2)[j], 0);
  for (std::size_t k = 0; k < K; ++k)
    for (std::size_t j = 0; j < d; ++j) EXPECT_EQ(nb.offset(k)[j], -nb.offset(K - 1 - k)[j]);
  // Rows: each prefix with its run [-r, r] reproduces the offset list.
  std::size_t total = 0;
  for (std::size_t r = 0; r < nb.rows(); ++r) total += static_cast<std::size_t>(2 * nb.half_width[r] + 1);
  EXPECT_EQ(total, K);
}

TEST(Grid, CellsCodesAndBoxes) {
  Bounds b{{0.0, -1.0}, {10.0, 1.0}};
  const CellGrid g = make_grid(b, std::sqrt(2.0), 4.0);  // w = 1
  EXPECT_DOUBLE_EQ(g.width, 1.0);
  EXPECT_EQ(g.dims, (std::vector<std::uint64_t>{11, 3}));  // floor(range / w) + 1: x = hi has a cell
  EXPECT_EQ(g.universe, 33u);
  const double p[2] = {3.5, 0.2};
  const std::uint64_t c = g.code(p);
  EXPECT_EQ(c, 3u * 3 + 1);
  std::int64_t idx[2];
  g.decode(c, idx);
  EXPECT_EQ(idx[0], 3);
  EXPECT_EQ(idx[1], 1);
  EXPECT_DOUBLE_EQ(g.cell_lo(0, 3), 3.0);
  EXPECT_DOUBLE_EQ(g.cell_hi(1, 1), 1.0);
  const double corner[2] = {10.0, 1.0};
  EXPECT_EQ(g.code(corner), g.universe - 1);
  const double outside[2] = {-5.0, 7.0};  // clamped onto the domain
  EXPECT_EQ(g.code(outside), 2u);
  EXPECT_FALSE(g.contains(outside));
}

TEST(Grid, RefusesUniversesBeyond64BitCodes) {
  Bounds b{{0.0, 0.0, 0.0}, {1e6, 1e6, 1e6}};
  EXPECT_THROW(make_grid(b, 1e-4, 4.0), InputError);  // (1.7e10)^3 cells
  EXPECT_NO_THROW(make_grid(b, 10.0, 4.0));           // (1.7e5)^3 = 5.2e15 cells
}

TEST(Grid, UniverseAtTheLimit) {
  // 2^31 x 2^31 = 2^62 cells is allowed, one more cell per dimension is not.
  const double w = 1.0;
  Bounds ok{{0.0, 0.0}, {std::ldexp(1.0, 31) - 1, std::ldexp(1.0, 31) - 1}};
  EXPECT_EQ(make_grid(ok, w * std::sqrt(2.0), 4.0).universe, std::uint64_t{1} << 62);
  Bounds too_big{{0.0, 0.0}, {std::ldexp(1.0, 31), std::ldexp(1.0, 31)}};
  EXPECT_THROW(make_grid(too_big, w * std::sqrt(2.0), 4.0), InputError);
}

// Regression: on 40-D data the 10^7-offset guard fired only after 10^7 x 40 offsets had been stored
// (gigabytes). kappa is now counted first (it is at least 3^d), and the refusal names eta.
TEST(Neighbourhood, HugeKappaIsRefusedBeforeStoringOffsets) {
  auto expect_refused = [](std::size_t d, double eta) {
    try {
      alpha_neighbourhood(d, eta);
      ADD_FAILURE() << "expected InputError for d = " << d << ", eta = " << eta;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("params.eta"), std::string::npos) << msg;
      // The fix names what works at this d: no eta when 3^d > 10^7, else the smallest eta, which
      // must then be accepted.
      const double three_d = std::pow(3.0, static_cast<double>(d));
      if (three_d > 1e7) {
        EXPECT_NE(msg.find("no eta can help"), std::string::npos) << msg;
        EXPECT_NE(msg.find("select at most"), std::string::npos) << msg;
      } else {
        const std::size_t at = msg.find("fix: eta: ");
        ASSERT_NE(at, std::string::npos) << msg;
        const double suggested = std::stod(msg.substr(at + 10));
        EXPECT_GT(suggested, eta);
        EXPECT_NO_THROW(alpha_neighbourhood(d, suggested)) << msg;
        EXPECT_THROW(alpha_neighbourhood(d, suggested * 0.9), InputError) << msg;  // and it is about the smallest
      }
    }
  };
  expect_refused(40, 4.0);
  expect_refused(15, 1e6);    // 3^15 > 10^7 whatever eta
  expect_refused(1, 1e-7);    // 1-D, about 8e7 offsets
  expect_refused(2, 1e-300);  // unbounded
  expect_refused(3, 0.01);
  EXPECT_EQ(alpha_neighbourhood(2, 4.0).kappa(), 21u);    // the paper's value is unchanged
  EXPECT_EQ(alpha_neighbourhood(8, 1e6).kappa(), 6561u);  // 3^8: only the gap-0 offsets
}

}  // namespace
}  // namespace dpclust::dpdbscan
