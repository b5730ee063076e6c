// Grid and alpha-neighbourhood offsets; see grid.hpp.
#include "dpdbscan/grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "core/method.hpp"

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
      throw InputError("dataset bounds",
                       "bounds of dimension " + std::to_string(j) + " are not a finite interval lo <= hi");
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

// The number of offsets o in Z^(d-j) with used + sum_j max(0, |o_j| - 1)^2 < limit, the acceptance test of
// enumerate() below, computed without storing any offset and saturated at cap + 1: a coordinate with gap
// g has 3 offsets for g = 0 (-1, 0, 1) and 2 otherwise, and the last coordinate is counted in closed form.
// Every gap vector visited contributes at least 2^(d-j) offsets, so at most cap / 2^(d-j) + 1 are visited.
std::uint64_t count_offsets(std::size_t d, std::size_t j, std::int64_t used, double limit, std::uint64_t cap) {
  auto allowed = [&](std::int64_t g) { return static_cast<double>(used + g * g) < limit; };
  if (j + 1 == d) {
    if (!allowed(0)) return 0;
    const auto big = static_cast<std::int64_t>(cap);
    if (allowed(big)) return cap + 1;
    std::int64_t lo = 0, hi = big;  // allowed(lo), !allowed(hi)
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      (allowed(mid) ? lo : hi) = mid;
    }
    return std::min<std::uint64_t>(cap + 1, 2 * static_cast<std::uint64_t>(lo) + 3);
  }
  std::uint64_t total = 0;
  for (std::int64_t g = 0; allowed(g); ++g) {
    total += (g == 0 ? 3 : 2) * count_offsets(d, j + 1, used + g * g, limit, cap);
    if (total > cap) return cap + 1;
  }
  return total;
}

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

std::uint64_t neighbourhood_size(std::size_t d, double eta, std::uint64_t cap) {
  if (d == 0 || !(std::isfinite(eta) && eta > 0)) return cap + 1;
  const double limit = 16.0 * static_cast<double>(d) / (eta * eta);
  if (!std::isfinite(limit)) return cap + 1;
  return count_offsets(d, 0, 0, limit, cap);
}

Neighbourhood alpha_neighbourhood(std::size_t d, double eta) {
  if (d == 0) throw InputError("dataset", "DP-DBSCAN needs at least one dimension");
  if (!(std::isfinite(eta) && eta > 0)) throw InputError("params.eta", "eta must be a finite number > 0");
  // (alpha / w)^2 = 16 d / eta^2: exactly d for eta = 4.
  const double limit = 16.0 * static_cast<double>(d) / (eta * eta);
  if (!std::isfinite(limit))
    throw InputError("params.eta", "eta = " + short_number(eta) + " is too small: the alpha-neighbourhood is unbounded",
                     kappa_limit_fix(d, eta));
  // kappa is counted before any offset is stored: it is at least 3^d (every offset in {-1, 0, 1}^d),
  // so d >= 15 is always refused, whatever eta.
  const std::uint64_t kappa = count_offsets(d, 0, 0, limit, kMaxKappa);
  if (kappa > kMaxKappa)
    throw InputError("params.eta",
                     "the alpha-neighbourhood in d = " + std::to_string(d) + " dimensions with eta = " +
                         std::to_string(eta) + " has more than 10^7 cells (kappa; it is at least 3^d)",
                     kappa_limit_fix(d, eta));
  Neighbourhood nb;
  nb.d = d;
  nb.offsets.reserve(static_cast<std::size_t>(kappa) * d);  // kappa <= 10^7 and 3^d <= 10^7: d <= 14
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

std::string kappa_limit_fix(std::size_t d, double eta) {
  // The largest d with kappa <= kMaxKappa at this eta (kappa grows with d).
  std::size_t d_fit = 0;
  for (std::size_t k = 1; k <= 14 && neighbourhood_size(k, eta, kMaxKappa) <= kMaxKappa; ++k) d_fit = k;
  const std::string columns =
      d_fit > 0 ? "select at most " + std::to_string(d_fit) + " columns (columns: [...]) at eta = " + short_number(eta)
                : "";
  double three_d = 1;
  for (std::size_t k = 0; k < d; ++k) three_d *= 3;
  if (three_d > static_cast<double>(kMaxKappa))
    return "no eta can help at d = " + std::to_string(d) + ": kappa is at least 3^d = " + short_number(three_d) +
           " > 10^7 for every eta; " + (columns.empty() ? "select at most 14 columns" : columns) +
           " (a projection, e.g. drbt's, reduces the dimension too)";
  // Sums of squared gaps are integers and NB needs sum < 16 d / eta^2, so kappa only changes where that bound
  // crosses an integer m: eta_m = sqrt(16 d / m). The largest m (smallest eta) whose kappa fits:
  // kappa grows with m, so a bisection over m in [1, floor(limit)] (m = 1 is {-1, 0, 1}^d, 3^d <= 10^7 here).
  auto kappa_at = [&](double m) {
    return neighbourhood_size(d, std::sqrt(16.0 * static_cast<double>(d) / m), kMaxKappa);
  };
  // Above m = 1e14 kappa exceeds 10^7 in every d (already 2 sqrt(m) + 1 > 10^7 in 1-D).
  double lo = 1, hi = std::clamp(std::floor(16.0 * static_cast<double>(d) / (eta * eta)), 1.0, 1e14);
  while (hi - lo >= 1) {
    const double mid = std::floor((lo + hi + 1) / 2);
    if (kappa_at(mid) <= kMaxKappa) lo = mid;
    else hi = mid - 1;
  }
  const double e = std::sqrt(16.0 * static_cast<double>(d) / lo);
  if (e > eta) {
    // Rounded up to 3 significant digits (a larger eta only shrinks kappa).
    const double scale = std::pow(10.0, std::floor(std::log10(e)) - 2);
    return "eta: " + short_number(std::ceil(e / scale) * scale) + " or more (kappa " + std::to_string(kappa_at(lo)) +
           " at d = " + std::to_string(d) + ")" + (columns.empty() ? "" : ", or " + columns);
  }
  return columns.empty() ? "reduce the dimension of the data" : columns;
}

}  // namespace dpclust::dpdbscan
