// FastLloyd's data-independent initial centres; see initial_centres.hpp.
#include "fastlloyd/initial_centres.hpp"

#include <limits>
#include <stdexcept>
#include <vector>

namespace dpclust::fastlloyd {

RowMatrix initial_centres(std::size_t k, std::size_t d, Rng& rng) {
  if (k == 0 || d == 0) throw std::invalid_argument("fastlloyd: initial centres need k >= 1 and d >= 1");
  RowMatrix centres = RowMatrix::Zero(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
  std::vector<double> candidate(d);
  // The margin halves until k centres at pairwise distance >= 2 m fit; it reaches 0 only after about 1075
  // halvings, long after any k centres fit, so the loop always returns.
  for (double margin = 1.0; margin > 0; margin /= 2) {
    std::size_t placed = 0;
    int retries = 0;
    while (placed < k && retries < kPlacementRetries) {
      for (std::size_t j = 0; j < d; ++j) candidate[j] = rng.uniform() * (2 - 2 * margin) - 1 + margin;
      double nearest2 = std::numeric_limits<double>::infinity();
      for (std::size_t c = 0; c < placed; ++c) {
        double s = 0;
        for (std::size_t j = 0; j < d; ++j) {
          const double t = centres(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(j)) - candidate[j];
          s += t * t;
        }
        nearest2 = std::min(nearest2, s);
      }
      if (placed == 0 || std::sqrt(nearest2) >= 2 * margin) {
        for (std::size_t j = 0; j < d; ++j)
          centres(static_cast<Eigen::Index>(placed), static_cast<Eigen::Index>(j)) = candidate[j];
        ++placed;
        retries = 0;
      } else {
        ++retries;
      }
    }
    if (placed == k) return centres;
  }
  throw std::logic_error("fastlloyd: could not place the initial centres");
}

}  // namespace dpclust::fastlloyd
