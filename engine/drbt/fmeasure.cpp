// Overall F-measure, DRBT Eq. 11-14; definitions in fmeasure.hpp.
#include "drbt/fmeasure.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "metrics/assignment.hpp"
#include "metrics/contingency.hpp"

namespace dpclust::drbt {

OfMatching parse_of_matching(const std::string& name) {
  if (name == "best") return OfMatching::best;
  if (name == "hungarian") return OfMatching::hungarian;
  throw std::invalid_argument("unknown of_matching '" + name + "' (best | hungarian)");
}

double overall_f_measure(const Labels& original, const Labels& transformed, OfMatching matching) {
  const ContingencyTable t = contingency_table(original, transformed);  // rows c_i, columns c'_j (Table 6)
  const std::size_t rows = t.rows(), cols = t.cols();
  std::vector<double> F(rows * cols, 0.0);
  for (const auto& cell : t.cells) {
    const double freq = static_cast<double>(cell.count);
    const double P = freq / static_cast<double>(t.col_sums[static_cast<std::size_t>(cell.col)]);  // Eq. 11
    const double R = freq / static_cast<double>(t.row_sums[static_cast<std::size_t>(cell.row)]);  // Eq. 12
    F[static_cast<std::size_t>(cell.row) * cols + static_cast<std::size_t>(cell.col)] =
        2.0 * P * R / (P + R);  // Eq. 13
  }
  std::vector<double> best(rows, 0.0);
  if (matching == OfMatching::best) {
    for (std::size_t i = 0; i < rows; ++i)
      best[i] = *std::max_element(F.begin() + static_cast<std::ptrdiff_t>(i * cols),
                                  F.begin() + static_cast<std::ptrdiff_t>((i + 1) * cols));
  } else {
    std::vector<double> w(rows * cols);
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j) w[i * cols + j] = static_cast<double>(t.row_sums[i]) * F[i * cols + j];
    const Assignment a = max_weight_assignment(w, rows, cols);
    for (std::size_t i = 0; i < rows; ++i)
      if (a.row_to_col[i] >= 0) best[i] = F[i * cols + static_cast<std::size_t>(a.row_to_col[i])];
  }
  double num = 0.0;  // Eq. 14
  for (std::size_t i = 0; i < rows; ++i) num += static_cast<double>(t.row_sums[i]) * best[i];
  return num / static_cast<double>(t.n);
}

}  // namespace dpclust::drbt
