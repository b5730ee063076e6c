// DRBT random projection, partitioning and stress; definitions and citations in projection.hpp.
#include "drbt/projection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dpclust::drbt {

Projection parse_projection(const std::string& name) {
  if (name == "rp1") return Projection::rp1;
  if (name == "rp2") return Projection::rp2;
  throw std::invalid_argument("unknown projection '" + name + "' (rp1 | rp2)");
}

Normalization parse_normalization(const std::string& name) {
  if (name == "unit") return Normalization::unit;
  if (name == "orthonormal") return Normalization::orthonormal;
  if (name == "none") return Normalization::none;
  throw std::invalid_argument("unknown normalization '" + name + "' (unit | orthonormal | none)");
}

void zscore(RowMatrix& m) {
  const auto n = m.rows();
  const auto d = m.cols();
  if (n == 0) return;
  // Row by row over the row-major matrix (a column at a time strides across every row: on connect,
  // 67,557 x 43, that was 10% of a DRBT trial). Each column's sums still add its rows in index order,
  // so every mean, deviation and result is the same double as a column-wise pass gives.
  std::vector<double> mean(static_cast<std::size_t>(d), 0.0), var(static_cast<std::size_t>(d), 0.0);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < d; ++j) mean[static_cast<std::size_t>(j)] += m(i, j);
  for (double& x : mean) x /= static_cast<double>(n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < d; ++j) {
      const double c = m(i, j) - mean[static_cast<std::size_t>(j)];
      var[static_cast<std::size_t>(j)] += c * c;
    }
  std::vector<double> sd(static_cast<std::size_t>(d));
  std::vector<char> constant(static_cast<std::size_t>(d));
  for (std::size_t j = 0; j < sd.size(); ++j) {
    sd[j] = std::sqrt(var[j] / static_cast<double>(n));
    // A constant column (sd 0 up to rounding) is only centred, as StandardScaler does.
    constant[j] = !(sd[j] > 1e-12 * std::max(1.0, std::fabs(mean[j])));
  }
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < d; ++j) {
      const auto u = static_cast<std::size_t>(j);
      m(i, j) = constant[u] ? m(i, j) - mean[u] : (m(i, j) - mean[u]) / sd[u];
    }
}

namespace {

void draw_column(Projection kind, std::size_t d, Rng& rng, double* col) {
  for (std::size_t i = 0; i < d; ++i) {
    if (kind == Projection::rp1) {
      col[i] = rng.normal();  // Sec. 2.4: i.i.d. N(0, 1)
    } else {
      // Eq. 9 (Achlioptas 2001): sqrt(3) * (+1 w.p. 1/6, 0 w.p. 2/3, -1 w.p. 1/6).
      const std::uint64_t u = rng.below(6);
      col[i] = u == 0 ? std::sqrt(3.0) : (u == 1 ? -std::sqrt(3.0) : 0.0);
    }
  }
}

double norm_of(const std::vector<double>& v) {
  double s = 0.0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

}  // namespace

RowMatrix random_matrix(Projection kind, std::size_t d, std::size_t k, Normalization norm, Rng& rng) {
  if (d == 0 || k == 0) throw std::invalid_argument("random projection: d and k must be >= 1");
  if (norm == Normalization::orthonormal && k > d)
    throw std::invalid_argument("random projection: " + std::to_string(k) + " orthonormal columns do not exist in " +
                                std::to_string(d) + " dimensions");
  RowMatrix R(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(k));
  std::vector<double> col(d);
  constexpr int kMaxRedraws = 100000;
  for (std::size_t j = 0; j < k; ++j) {
    for (int attempt = 0;; ++attempt) {
      if (attempt >= kMaxRedraws) throw std::runtime_error("random projection: could not draw a usable column");
      draw_column(kind, d, rng, col.data());
      if (norm == Normalization::none) break;
      const double before = norm_of(col);
      if (!(before > 0)) continue;  // all-zero RP2 column: cannot be normalised, redraw it
      if (norm == Normalization::orthonormal) {
        // Modified Gram-Schmidt against the columns already accepted.
        for (std::size_t p = 0; p < j; ++p) {
          double dot = 0.0;
          for (std::size_t i = 0; i < d; ++i)
            dot += col[i] * R(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(p));
          for (std::size_t i = 0; i < d; ++i)
            col[i] -= dot * R(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(p));
        }
        if (!(norm_of(col) > 1e-8 * before)) continue;  // (nearly) dependent on the previous columns: redraw
      }
      const double len = norm_of(col);
      for (double& x : col) x /= len;
      break;
    }
    for (std::size_t i = 0; i < d; ++i) R(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = col[i];
  }
  return R;
}

RowMatrix project(const RowMatrix& data, const RowMatrix& R) {
  if (data.cols() != R.rows())
    throw std::invalid_argument("random projection: data has " + std::to_string(data.cols()) + " columns, the matrix " +
                                std::to_string(R.rows()) + " rows");
  // Coefficient-based product: a fixed summation order whatever the thread count (see header).
  return data.lazyProduct(R);
}

std::vector<Party> partition_attributes(std::size_t d, std::size_t parties, std::size_t k) {
  if (parties < 1 || parties > d)
    throw std::invalid_argument("vertical partitioning: " + std::to_string(parties) + " parties cannot share " +
                                std::to_string(d) + " attributes (need 1 <= parties <= d)");
  if (k < parties || k > d)
    throw std::invalid_argument("vertical partitioning: the target dimension k = " + std::to_string(k) +
                                " must be between the number of parties (" + std::to_string(parties) +
                                ") and the number of attributes (" + std::to_string(d) + ")");
  std::vector<Party> out(parties);
  std::size_t first = 0;
  for (std::size_t p = 0; p < parties; ++p) {
    out[p].first = first;
    out[p].cols = d / parties + (p < d % parties ? 1 : 0);  // numpy.array_split sizes
    first += out[p].cols;
  }
  // Largest remainders: floor(k d_p / d), then one more to the largest fractional parts. Exact integer
  // arithmetic on k * d_p (remainder r_p = k d_p mod d) so ties are real ties.
  std::size_t given = 0;
  std::vector<std::size_t> rem(parties);
  for (std::size_t p = 0; p < parties; ++p) {
    out[p].dims = k * out[p].cols / d;
    rem[p] = k * out[p].cols % d;
    given += out[p].dims;
  }
  while (given < k) {
    std::size_t best = parties;
    for (std::size_t p = 0; p < parties; ++p)
      if (rem[p] > 0 && (best == parties || rem[p] > rem[best])) best = p;
    ++out[best].dims;
    rem[best] = 0;
    ++given;
  }
  for (const auto& p : out)
    if (p.dims == 0 || p.dims > p.cols)
      throw std::invalid_argument("vertical partitioning: a party would project " + std::to_string(p.cols) +
                                  " attributes to " + std::to_string(p.dims) + " dimensions; choose a larger k");
  return out;
}

Disguised transform(const RowMatrix& data, Projection kind, Normalization norm, std::size_t parties, std::size_t k,
                    Rng& rng) {
  const auto d = static_cast<std::size_t>(data.cols());
  Disguised out;
  out.parties = partition_attributes(d, parties, k);
  out.data.resize(data.rows(), static_cast<Eigen::Index>(k));
  Eigen::Index col = 0;
  for (const Party& p : out.parties) {
    // Step 1 of Sec. 4.3: each party transforms its own attributes (Sec. 4.2) ...
    RowMatrix R = random_matrix(kind, p.cols, p.dims, norm, rng);
    const RowMatrix part = data.middleCols(static_cast<Eigen::Index>(p.first), static_cast<Eigen::Index>(p.cols));
    // ... step 2: the central party joins the disguised parts on the object IDs (same row order).
    out.data.middleCols(col, static_cast<Eigen::Index>(p.dims)) = project(part, R);
    col += static_cast<Eigen::Index>(p.dims);
    out.matrices.push_back(std::move(R));
  }
  return out;
}

std::uint64_t stress_sample_rows(std::uint64_t n, std::uint64_t max_pairs) {
  if (max_pairs == 0 || n < 2 || n * (n - 1) / 2 <= max_pairs) return n;
  // The largest m with m(m-1)/2 <= max_pairs: start from the real root and correct the rounding.
  auto m = static_cast<std::uint64_t>((1.0 + std::sqrt(1.0 + 8.0 * static_cast<double>(max_pairs))) / 2.0);
  while (m > 2 && m * (m - 1) / 2 > max_pairs) --m;
  while ((m + 1) * m / 2 <= max_pairs) ++m;
  return std::max<std::uint64_t>(2, m);
}

double stress(const RowMatrix& X, const RowMatrix& Y, const StressOptions& o, Rng& rng) {
  if (X.rows() != Y.rows()) throw std::invalid_argument("stress: the two data sets differ in their number of rows");
  const auto n = static_cast<std::uint64_t>(X.rows());
  if (n < 2) return 0.0;
  const double scale = o.scale ? std::sqrt(static_cast<double>(X.cols()) / static_cast<double>(Y.cols())) : 1.0;
  double num = 0.0, den = 0.0;
  const std::uint64_t all_pairs = n * (n - 1) / 2;
  if (o.max_pairs == 0 || all_pairs <= o.max_pairs) {
    // The pairs (i, j), j > i, a block of j at a time: first the block's squared distances (Eigen's
    // squaredNorm, the very sums its norm() takes the root of), then their roots and the two sums in
    // pair order. The same doubles as one pair at a time (the FIMI stress tables compared value for
    // value); the square roots no longer stall each pair's sums: 8% less time on those tables.
    constexpr Eigen::Index kBlock = 32;
    double sx[kBlock], sy[kBlock];
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      for (Eigen::Index j0 = i + 1; j0 < X.rows(); j0 += kBlock) {
        const Eigen::Index count = std::min<Eigen::Index>(kBlock, X.rows() - j0);
        for (Eigen::Index b = 0; b < count; ++b) {
          sx[b] = (X.row(i) - X.row(j0 + b)).squaredNorm();
          sy[b] = (Y.row(i) - Y.row(j0 + b)).squaredNorm();
        }
        for (Eigen::Index b = 0; b < count; ++b) {
          const double dij = std::sqrt(sx[b]);
          const double hat = scale * std::sqrt(sy[b]);
          num += (hat - dij) * (hat - dij);
          den += dij * dij;
        }
      }
    }
  } else {
    // Every pair among m rows drawn without replacement, m the largest with m(m-1)/2 <= max_pairs.
    // Each pair of the data is in the sample with the same probability m(m-1) / (n(n-1)), so the two
    // sums are unbiased estimates of the full ones up to one common factor, which cancels in their
    // ratio (the ratio itself, like any ratio estimate, has a bias of order 1/m: about -1.2% at m = 300
    // in tests/drbt, so about 0.2% at the default m = 2000 if it scales as 1/m). The m rows are
    // copied next to each other (in index order) and stay in cache while all their pairs are visited:
    // independent random pairs spread over a large table (connect: 67,557 rows of 43 doubles) spent
    // nearly all their time in cache misses (467 s of a whole paper sweep's DRBT runs).
    const std::uint64_t m = stress_sample_rows(n, o.max_pairs);
    std::vector<std::uint64_t> idx(n);
    for (std::uint64_t i = 0; i < n; ++i) idx[i] = i;
    for (std::uint64_t t = 0; t < m; ++t) std::swap(idx[t], idx[t + rng.below(n - t)]);  // partial Fisher-Yates
    idx.resize(m);
    std::sort(idx.begin(), idx.end());
    RowMatrix xs(static_cast<Eigen::Index>(m), X.cols()), ys(static_cast<Eigen::Index>(m), Y.cols());
    for (std::uint64_t t = 0; t < m; ++t) {
      xs.row(static_cast<Eigen::Index>(t)) = X.row(static_cast<Eigen::Index>(idx[t]));
      ys.row(static_cast<Eigen::Index>(t)) = Y.row(static_cast<Eigen::Index>(idx[t]));
    }
    return stress(xs, ys, StressOptions{o.squared, o.scale, 0}, rng);
  }
  if (!(den > 0)) return 0.0;  // all points equal: no distance to distort
  const double s2 = num / den;
  return o.squared ? s2 : std::sqrt(s2);
}

}  // namespace dpclust::drbt
