// Grid and alpha-neighbourhood offsets; see grid.hpp.
#include "dpdbscan/grid.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"

namespace dpclust::dpdbscan {

CellGrid make_grid(const Bounds& bounds, double alpha, double eta) {
  if (bounds.empty())
    throw InputError("dataset bounds", "DP-DBSCAN needs the public domain bounds of the data",
                     "add bounds: [[lo, hi], ...] to the dataset");
  if (!(std::isfinite(alpha) && alpha > 0)) throw InputError("params.alpha", "alpha must be a finite number > 0");
  if (!(std::isfinite(eta) && eta > 0)) throw InputError("params.eta", "eta must be a finite number > 0");
  CellGrid g;
  g.d = bounds.dims();
  g.lo = bounds.lo;
  g.hi = bounds.hi;
  g.width = eta * alpha / (4.0 * std::sqrt(static_cast<double>(g.d)));
  g.inv_width = 1.0 / g.width;
  g.dims.resize(g.d);
  g.strides.assign(g.d, 1);
  // |X| is accumulated in long double first, so a grid of 10^30 cells is refused, not wrapped around.
  long double total = 1;
  for (std::size_t j = 0; j < g.d; ++j) {
    const double range = g.hi[j] - g.lo[j];
    if (!(std::isfinite(range) && range >= 0))
      throw InputError("dataset bounds", "bounds of dimension " + std::to_string(j) + " are not a finite interval lo <= hi");
    const double q = std::floor(range * g.inv_width);  // +1 in integers below: exact beyond 2^53 cells
    total *= static_cast<long double>(q) + 1.0L;
    if (!(q >= 0) || total > static_cast<long double>(kMaxUniverse))
      throw InputError("params.alpha",
                       "the grid of cell width w = eta*alpha/(4 sqrt(d)) = " + std::to_string(g.width) +
                           " over the domain would have more than 2^62 cells, beyond the 64-bit cell code",
                       "increase alpha or eta, or give tighter bounds");
    g.dims[j] = static_cast<std::uint64_t>(q) + 1;
  }
  for (std::size_t j = g.d; j-- > 1;) g.strides[j - 1] = g.strides[j] * g.dims[j];
  g.universe = g.strides[0] * g.dims[0];
  return g;
}

namespace {

// Depth-first enumeration of the offsets in lexicographic order; `used` is the squared gap so far.
void enumerate(std::size_t d, std::size_t j, std::int64_t used, double limit, std::int32_t reach,
               std::vector<std::int32_t>& cur, std::vector<std::int32_t>& out) {
  if (j == d) {
    out.insert(out.end(), cur.begin(), cur.end());
    if (out.size() / d > 10'000'000)
      throw InputError("params.eta", "the alpha-neighbourhood has more than 10^7 cells (kappa)", "increase eta");
    return;
  }
  for (std::int32_t o = -reach; o <= reach; ++o) {
    const std::int64_t gap = std::max<std::int64_t>(0, std::abs(o) - 1);
    if (static_cast<double>(used + gap * gap) >= limit) continue;
    cur[j] = o;
    enumerate(d, j + 1, used + gap * gap, limit, reach, cur, out);
  }
}

}  // namespace

Neighbourhood alpha_neighbourhood(std::size_t d, double eta) {
  if (d == 0) throw InputError("dataset", "DP-DBSCAN needs at least one dimension");
  if (!(std::isfinite(eta) && eta > 0)) throw InputError("params.eta", "eta must be a finite number > 0");
  Neighbourhood nb;
  nb.d = d;
  // (alpha / w)^2 = 16 d / eta^2: exactly d for eta = 4.
  const double limit = 16.0 * static_cast<double>(d) / (eta * eta);
  // gap <= ceil(sqrt(limit)) - 1, so |o| <= ceil(sqrt(limit)).
  const auto reach = static_cast<std::int32_t>(std::ceil(std::sqrt(limit))) + 1;
  std::vector<std::int32_t> cur(d, 0);
  enumerate(d, 0, 0, limit, reach, cur, nb.offsets);
  // Row form: consecutive offsets with the same prefix form the run [-r, r] along the last dimension.
  const std::size_t k = nb.kappa();
  for (std::size_t i = 0; i < k;) {
    std::size_t e = i;
    auto same_prefix = [&](std::size_t a, std::size_t b) {
      for (std::size_t j = 0; j + 1 < d; ++j)
        if (nb.offsets[a * d + j] != nb.offsets[b * d + j]) return false;
      return true;
    };
    while (e < k && same_prefix(i, e)) ++e;
    nb.prefixes.insert(nb.prefixes.end(), nb.offsets.begin() + static_cast<std::ptrdiff_t>(i * d),
                       nb.offsets.begin() + static_cast<std::ptrdiff_t>(i * d + d - 1));
    nb.half_width.push_back(nb.offsets[(e - 1) * d + d - 1]);  // the run is -r..r
    i = e;
  }
  return nb;
}

}  // namespace dpclust::dpdbscan
