#pragma once
// Released centres and the public domain. A private method may release a centre outside the public domain
// (DPM's noisy leaf average over a leaf whose noisy count is near zero or negative: -18,797 .. 29,433 in a
// [0, 16] domain). Moving each such centre to the nearest point of the domain -- the Euclidean projection onto
// the box, coordinate by coordinate the clamp to [lo_j, hi_j] -- is post-processing of the release with the
// public bounds: it costs no privacy and is never further from any point of the domain (so from any data point)
// than the centre was. It is the default (`centres_outside_domain: clamp`); `keep` leaves the centres as the
// method released them, the authors' behaviour where a reproduction needs it.
#include <cstddef>

#include "core/dataset.hpp"

namespace dpclust {

enum class CentresOutsideDomain { clamp, keep };
const char* to_string(CentresOutsideDomain c);

// How many of the k x d centres lie outside the box (a coordinate below lo or above hi; NaN counts as outside),
// and, with `clamp`, each moved to its nearest point of the box (a NaN coordinate to the box's centre). An empty
// box changes nothing.
std::size_t centres_outside_domain(RowMatrix& centres, const Bounds& box, CentresOutsideDomain what);

}  // namespace dpclust
