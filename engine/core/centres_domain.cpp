// Released centres moved into the public domain; see centres_domain.hpp.
#include "core/centres_domain.hpp"

#include <algorithm>
#include <cmath>

namespace dpclust {

const char* to_string(CentresOutsideDomain c) { return c == CentresOutsideDomain::keep ? "keep" : "clamp"; }

std::size_t centres_outside_domain(RowMatrix& centres, const Bounds& box, CentresOutsideDomain what) {
  if (box.empty() || static_cast<std::size_t>(centres.cols()) != box.dims()) return 0;
  std::size_t outside = 0;
  for (Eigen::Index c = 0; c < centres.rows(); ++c) {
    bool out = false;
    for (Eigen::Index j = 0; j < centres.cols(); ++j) {
      const double lo = box.lo[static_cast<std::size_t>(j)], hi = box.hi[static_cast<std::size_t>(j)];
      double& x = centres(c, j);
      if (x >= lo && x <= hi) continue;  // false for NaN
      out = true;
      if (what == CentresOutsideDomain::clamp) x = std::isnan(x) ? lo + (hi - lo) / 2 : std::clamp(x, lo, hi);
    }
    outside += out;
  }
  return outside;
}

}  // namespace dpclust
