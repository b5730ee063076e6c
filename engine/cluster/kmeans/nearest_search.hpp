#pragma once
// The exhaustive nearest-centre search of k-means -- every squared distance sum_j (x_j - c_j)^2
// (squared_distance.hpp), the first centre of the smallest one -- computed with a filter that skips the
// centres which provably cannot be it, so that the labels and distances are the exhaustive search's, double
// for double, at the speed of a matrix product.
//
// The filter: a = (||x||^2 - 2 x.c) + ||c||^2 from blocked inner products (core/cross_products.hpp) is
// within E = kappa (|x| + |c|)^2 of ||x - c||^2, kappa = 4 (d + 4) u, u = 2^-53 (the rounding of the three
// sums of d terms, gamma_d (|x| + |c|)^2, and of the two additions, 3 u (|x| + |c|)^2, with a factor 4 to
// spare for the norms |x|, |c| themselves being computed). The squared distance the exhaustive search
// computes is within (d + 3) u of the true one (relative). A centre whose a - E exceeds (1 + rho) times the
// smallest a + E, rho = 4 (d + 2) u, is then farther, in computed squared distance too, than some other
// centre: it is neither the smallest nor tied with it. Only the remaining centres (on separated data
// usually one) get their squared distance computed, in index order, with the exhaustive rule.
#include <cstddef>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust {

// The filter's constants for dimension d (see above).
struct ExpansionBound {
  double kappa = 0;  // |a - ||x - c||^2| <= kappa (|x| + |c|)^2
  double rho = 0;    // relative margin covering the computed squared distances
  explicit ExpansionBound(std::size_t d);
};

class NearestSearch {
 public:
  // centres: k x d row-major (kept by pointer: it must outlive the search).
  NearestSearch(const double* centres, std::size_t k, std::size_t d);

  // For `rows` contiguous points (rows x d): label (the first centre of smallest squared distance),
  // best (that squared distance, as squared_distance computes it) and, when second != nullptr, a lower
  // bound on the squared distance to every other centre (+inf when k = 1). scratch: reused buffer.
  void search(const double* points, std::size_t rows, Label* labels, double* best, double* second,
              std::vector<double>& scratch) const;

  std::size_t k() const { return k_; }
  std::size_t d() const { return d_; }

 private:
  const double* centres_;
  std::size_t k_, d_;
  ExpansionBound bound_;
  std::vector<double> transposed_;  // d x k
  std::vector<double> norm_, length_;
};

}  // namespace dpclust
