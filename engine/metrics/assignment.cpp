#include "metrics/assignment.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dpclust {

namespace {

// Solves the r x c problem with r <= c; a(i, j) reads the cost. Returns, for each row, its column.
// Classic potential-based Hungarian algorithm: rows are added one at a time, each by a Dijkstra-like
// search for the shortest augmenting path in reduced costs; potentials u, v keep reduced costs >= 0.
template <class Cost>
std::vector<std::ptrdiff_t> solve(std::size_t r, std::size_t c, Cost a) {
  const double inf = std::numeric_limits<double>::infinity();
  // 1-based columns, column 0 is the virtual start; p[j] = row (1-based) matched to column j.
  std::vector<double> u(r + 1, 0.0), v(c + 1, 0.0), minv(c + 1);
  std::vector<std::size_t> p(c + 1, 0), way(c + 1, 0);
  std::vector<char> used(c + 1);
  for (std::size_t i = 1; i <= r; ++i) {
    p[0] = i;
    std::size_t j0 = 0;
    std::fill(minv.begin(), minv.end(), inf);
    std::fill(used.begin(), used.end(), 0);
    do {
      used[j0] = 1;
      const std::size_t i0 = p[j0];
      double delta = inf;
      std::size_t j1 = 0;
      for (std::size_t j = 1; j <= c; ++j) {
        if (used[j]) continue;
        const double cur = a(i0 - 1, j - 1) - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (std::size_t j = 0; j <= c; ++j) {
        if (used[j]) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] != 0);
    do {  // augment along the path
      const std::size_t j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  std::vector<std::ptrdiff_t> row_to_col(r, -1);
  for (std::size_t j = 1; j <= c; ++j)
    if (p[j] != 0) row_to_col[p[j] - 1] = static_cast<std::ptrdiff_t>(j - 1);
  return row_to_col;
}

}  // namespace

Assignment min_cost_assignment(const std::vector<double>& cost, std::size_t rows, std::size_t cols) {
  if (cost.size() != rows * cols)
    throw std::invalid_argument("min_cost_assignment: matrix has " + std::to_string(cost.size()) +
                                " entries, expected " + std::to_string(rows) + " x " + std::to_string(cols));
  for (double x : cost)
    if (!std::isfinite(x)) throw std::invalid_argument("min_cost_assignment: non-finite cost entry");
  Assignment out;
  out.row_to_col.assign(rows, -1);
  out.col_to_row.assign(cols, -1);
  if (rows == 0 || cols == 0) return out;
  if (rows <= cols) {
    out.row_to_col = solve(rows, cols, [&](std::size_t i, std::size_t j) { return cost[i * cols + j]; });
    for (std::size_t i = 0; i < rows; ++i)
      out.col_to_row[static_cast<std::size_t>(out.row_to_col[i])] = static_cast<std::ptrdiff_t>(i);
  } else {
    out.col_to_row = solve(cols, rows, [&](std::size_t i, std::size_t j) { return cost[j * cols + i]; });
    for (std::size_t j = 0; j < cols; ++j)
      out.row_to_col[static_cast<std::size_t>(out.col_to_row[j])] = static_cast<std::ptrdiff_t>(j);
  }
  for (std::size_t i = 0; i < rows; ++i)
    if (out.row_to_col[i] >= 0) out.total += cost[i * cols + static_cast<std::size_t>(out.row_to_col[i])];
  return out;
}

Assignment max_weight_assignment(const std::vector<double>& weight, std::size_t rows, std::size_t cols) {
  std::vector<double> neg(weight.size());
  for (std::size_t i = 0; i < weight.size(); ++i) neg[i] = -weight[i];
  Assignment a = min_cost_assignment(neg, rows, cols);
  a.total = -a.total;
  return a;
}

}  // namespace dpclust
