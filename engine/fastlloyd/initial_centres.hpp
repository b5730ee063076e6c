#pragma once
// FastLloyd's initial centres (the authors' Params.init_centroids, "originally from" IBM diffprivlib's KMeans):
// data-independent, in the domain [-1, 1]^d. With a margin m (first 1, half the side):
//   draw a candidate uniformly in [-1 + m, 1 - m]^d (one uniform per coordinate); keep it when it is at least
//   2m from every centre kept so far (the first is always kept); after 100 rejections in a row, halve m and
//   start the placement again.
// Nothing here touches the data, so the centres cost no budget; the generator is the trial's stream for them.
#include <cstddef>

#include "core/dataset.hpp"
#include "core/rng.hpp"

namespace dpclust::fastlloyd {

inline constexpr int kPlacementRetries = 100;  // params.py MAX_RETRIES

// k x d centres in [-1, 1]^d. Throws std::invalid_argument for k = 0 or d = 0.
RowMatrix initial_centres(std::size_t k, std::size_t d, Rng& rng);

}  // namespace dpclust::fastlloyd
