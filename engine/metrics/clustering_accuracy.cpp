// Clustering accuracy (Hungarian) and purity; see clustering_accuracy.hpp.
#include "metrics/clustering_accuracy.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "metrics/assignment.hpp"
#include "metrics/contingency.hpp"

namespace dpclust {
namespace {

// Rows: the predicted labels (ascending), columns: the true labels; the row of noise (-1), if any, is row 0.
ContingencyTable predicted_by_true(const Labels& truth, const Labels& pred) {
  if (truth.size() != pred.size())
    throw std::invalid_argument("accuracy: " + std::to_string(pred.size()) + " predicted labels for " +
                                std::to_string(truth.size()) + " true labels");
  if (truth.empty()) throw std::invalid_argument("accuracy: no labels");
  return contingency_table(pred, truth);
}

}  // namespace

double clustering_accuracy(const Labels& truth, const Labels& pred) {
  const ContingencyTable t = predicted_by_true(truth, pred);
  const std::size_t skip = !t.row_labels.empty() && t.row_labels[0] == kNoise ? 1 : 0;  // noise is no cluster
  const std::size_t rows = t.rows() - skip, cols = t.cols();
  if (rows == 0) return 0.0;
  if (rows * cols > kAccuracyMaxCells)
    throw std::invalid_argument("accuracy: " + std::to_string(rows) + " clusters x " + std::to_string(cols) +
                                " classes is too large a matching (at most " + std::to_string(kAccuracyMaxCells) +
                                " pairs)");
  std::vector<double> weight(rows * cols, 0.0);
  for (const ContingencyCell& c : t.cells)
    if (static_cast<std::size_t>(c.row) >= skip)
      weight[(static_cast<std::size_t>(c.row) - skip) * cols + static_cast<std::size_t>(c.col)] =
          static_cast<double>(c.count);
  const Assignment a = max_weight_assignment(weight, rows, cols);
  // The matched counts are integers below 2^53: their sum is exact.
  return a.total / static_cast<double>(t.n);
}

double purity(const Labels& truth, const Labels& pred) {
  const ContingencyTable t = predicted_by_true(truth, pred);
  std::vector<std::int64_t> largest(t.rows(), 0);
  for (const ContingencyCell& c : t.cells)
    largest[static_cast<std::size_t>(c.row)] = std::max(largest[static_cast<std::size_t>(c.row)], c.count);
  std::int64_t agree = 0;
  for (std::size_t r = 0; r < t.rows(); ++r)
    if (t.row_labels[r] != kNoise) agree += largest[r];
  return static_cast<double>(agree) / static_cast<double>(t.n);
}

}  // namespace dpclust
