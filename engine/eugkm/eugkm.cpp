// EUGkM: the noisy uniform grid and its weighted k-means; see eugkm.hpp.
#include "eugkm/eugkm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "core/cell_streams.hpp"
#include "core/error.hpp"
#include "core/method.hpp"
#include "dpdbscan/dp_kmeans.hpp"

namespace dpclust::eugkm {
namespace {

using Idx = Eigen::Index;

// The lane of the histogram's cell streams (core/cell_streams.hpp): separates this use of a trial's key.
constexpr std::uint32_t kHistogramNoiseLane = 0x45554701;  // "EUG", 1
// Cells noised per parallel task: each task walks its cells in ascending order (bulk keystream).
constexpr std::uint64_t kNoiseChunk = std::uint64_t{1} << 16;

std::size_t informative_dims(const Bounds& b) {
  std::size_t n = 0;
  for (std::size_t j = 0; j < b.dims(); ++j) n += b.hi[j] > b.lo[j];
  return n;
}

}  // namespace

const char* to_string(SizeSource s) {
  switch (s) {
    case SizeSource::noisy: return "noisy";
    case SizeSource::public_n: return "public";
    case SizeSource::data: return "data";
  }
  return "?";
}

SizeEstimate estimate_size(std::size_t n, SizeSource source, double epsilon, std::uint64_t n_public,
                           privacy::Sampler sampler, Rng& rng, BudgetLedger& ledger) {
  SizeEstimate s;
  s.source = source;
  switch (source) {
    case SizeSource::public_n:
      if (n_public == 0)
        throw InputError("params.n_public", "n_source: public needs the public number of points n_public (> 0)",
                         "set n_public to a number of points known without the data, or n_source: noisy");
      s.value = static_cast<double>(n_public);
      return s;
    case SizeSource::data:
      // One record more can move the grid (m = floor((N eps / theta)^(2/(2+d))) jumps at a threshold of N)
      // and with it every centre: a deterministic function of n that no epsilon prices.
      ledger.declare_data_derived(kTrueSizeNote);
      s.value = static_cast<double>(n);
      return s;
    case SizeSource::noisy: break;
  }
  if (!(epsilon > 0) || !std::isfinite(epsilon))
    throw InputError("params.n_fraction", "the noisy number of points needs a budget > 0", "set n_fraction in (0, 1)");
  const privacy::CountMechanism mech = privacy::CountMechanism::laplace(
      ledger, sampler, 1.0, epsilon, "noisy number of points N (EUGkM grid rule)",
      "one count; adding or removing a record changes it by 1; N~ only sets the grid size (and the hybrid's split)");
  s.value = mech.noisy(rng, static_cast<double>(n));
  s.epsilon = epsilon;
  return s;
}

double grid_rule(double n, double epsilon, std::size_t d, double theta) {
  return std::pow(n * epsilon / theta, 2.0 / (2.0 + static_cast<double>(d)));
}

std::uint64_t grid_cells(std::int64_t m, std::size_t d) {
  const auto mu = static_cast<std::uint64_t>(std::max<std::int64_t>(m, 1));
  std::uint64_t c = 1;
  for (std::size_t j = 0; j < d; ++j) {
    if (c > std::numeric_limits<std::uint64_t>::max() / mu) return std::numeric_limits<std::uint64_t>::max();
    c *= mu;
  }
  return c;
}

std::int64_t largest_cells_per_dim(std::size_t d, std::uint64_t max_cells) {
  if (d == 0) return 1;
  auto m =
      static_cast<std::int64_t>(std::floor(std::pow(static_cast<double>(max_cells), 1.0 / static_cast<double>(d))));
  m = std::max<std::int64_t>(m, 1);
  while (m > 1 && grid_cells(m, d) > max_cells) --m;  // the power's rounding, either way
  while (grid_cells(m + 1, d) <= max_cells) ++m;
  return m;
}

GridSize grid_size(double n, double epsilon, std::size_t d, std::size_t k, double theta, std::int64_t fixed,
                   std::uint64_t max_cells) {
  GridSize g;
  if (d == 0) return g;  // one cell: the domain is a point
  if (fixed > 0) {
    g.cells_per_dim = fixed;
    g.cells = grid_cells(fixed, d);
    return g;
  }
  g.rule = grid_rule(n, epsilon, d, theta);
  constexpr double kLargest = 4611686018427387904.0;  // 2^62: any m past it is capped below anyway
  g.cells_per_dim = g.rule >= kLargest ? std::int64_t{1} << 62
                                       : std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(g.rule)));
  if (grid_cells(g.cells_per_dim, d) < k) {
    // The smallest m with m^d >= k: k and d are public, so the raise is too.
    auto m = static_cast<std::int64_t>(std::ceil(std::pow(static_cast<double>(k), 1.0 / static_cast<double>(d))));
    m = std::max<std::int64_t>(m, 1);
    while (m > 1 && grid_cells(m - 1, d) >= k) --m;
    while (grid_cells(m, d) < k) ++m;
    g.cells_per_dim = m;
    g.raised_for_k = true;
  }
  if (grid_cells(g.cells_per_dim, d) > max_cells) {
    g.cells_per_dim = largest_cells_per_dim(d, max_cells);
    g.capped = true;
  }
  g.cells = grid_cells(g.cells_per_dim, d);
  return g;
}

void check_options(const EugkmOptions& o, std::size_t informative) {
  check_parameters(o, informative);
  check_grid_hosts_k(o, informative);
}

void check_parameters(const EugkmOptions& o, std::size_t informative) {
  if (o.k < 1) throw InputError("params.k", "k must be >= 1");
  if (!(o.epsilon > 0) || !std::isfinite(o.epsilon))
    throw InputError("params.epsilon", "epsilon must be a finite number > 0");
  if (o.n_source == SizeSource::noisy && !(o.n_fraction > 0 && o.n_fraction < 1))
    throw InputError("params.n_fraction",
                     "n_fraction must be in (0, 1): the share of epsilon for the noisy number of points",
                     "use e.g. n_fraction: 0.05, or n_source: public with n_public");
  if (o.n_source == SizeSource::public_n && o.n_public == 0)
    throw InputError("params.n_public", "n_source: public needs the public number of points n_public (> 0)",
                     "set n_public to a number of points known without the data, or n_source: noisy");
  if (!(o.grid_constant > 0) || !std::isfinite(o.grid_constant))
    throw InputError("params.grid_constant", "the grid rule's constant theta must be a finite number > 0",
                     "use the paper's 10");
  if (o.grid_size < 0) throw InputError("params.grid_size", "grid_size must be >= 0 (0 = the grid rule)");
  if (o.max_cells < 1) throw InputError("params.max_grid_cells", "max_grid_cells must be >= 1");
  if (o.grid_size > 0 && informative > 0) {
    const std::uint64_t cells = grid_cells(o.grid_size, informative);
    if (cells < o.k)
      throw InputError("params.grid_size",
                       "grid_size = " + std::to_string(o.grid_size) + " gives " + std::to_string(cells) + " cells in " +
                           std::to_string(informative) + " dimensions, fewer than k = " + std::to_string(o.k) +
                           " centres",
                       "raise grid_size, or set grid_size: 0 (the grid rule, which raises m to host k)");
    if (cells > o.max_cells)
      throw InputError("params.grid_size",
                       "grid_size = " + std::to_string(o.grid_size) + " gives " +
                           (cells == std::numeric_limits<std::uint64_t>::max() ? std::string("more than 1.8e19")
                                                                               : std::to_string(cells)) +
                           " cells in " + std::to_string(informative) +
                           " dimensions, more than max_grid_cells = " + std::to_string(o.max_cells),
                       "use grid_size <= " + std::to_string(largest_cells_per_dim(informative, o.max_cells)) +
                           ", or raise max_grid_cells (16 bytes a cell)");
  }
}

void check_grid_hosts_k(const EugkmOptions& o, std::size_t informative) {
  if (informative == 0 || o.grid_size > 0) return;
  const std::int64_t fits = largest_cells_per_dim(informative, o.max_cells);
  if (fits < 2 && o.k > 1)  // not even 2 cells a dimension: no max_grid_cells up to 2^28 changes that beyond d = 28
    throw InputError(
        "params.max_grid_cells",
        "EUGkM's uniform grid cannot hold k = " + std::to_string(o.k) +
            " centres in d = " + std::to_string(informative) + " dimensions: 2 cells per dimension are 2^" +
            std::to_string(informative) + " cells, above max_grid_cells = " + std::to_string(o.max_cells),
        informative > 28
            ? "EUGkM is a method for few dimensions; use dp_kmeans, or hybrid_kmeans (which then runs DPLloyd alone)"
            : "raise max_grid_cells to at least 2^" + std::to_string(informative) + ", or use dp_kmeans");
  if (grid_cells(fits, informative) < o.k)
    throw InputError("params.max_grid_cells",
                     "max_grid_cells = " + std::to_string(o.max_cells) +
                         " leaves fewer grid cells than k = " + std::to_string(o.k) + " centres",
                     "raise max_grid_cells to at least k");
}

void cell_indices(const double* coords, std::size_t n, const Bounds& bounds, std::int64_t m,
                  std::vector<std::uint64_t>& cell) {
  const std::size_t d = bounds.dims();
  cell.assign(n, 0);
  const auto mu = static_cast<std::uint64_t>(m);
  const double md = static_cast<double>(m);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t index = 0;
    for (std::size_t j = 0; j < d; ++j) {
      const double width = bounds.hi[j] - bounds.lo[j];
      if (!(width > 0)) continue;  // a constant dimension: one cell
      // The interval of x_j among m equal ones of [lo_j, hi_j]; a record outside is clamped into the domain.
      const double t = std::floor((coords[i * d + j] - bounds.lo[j]) / width * md);
      const std::uint64_t c = t <= 0 ? 0 : (t >= md ? mu - 1 : static_cast<std::uint64_t>(t));
      index = index * mu + c;
    }
    cell[i] = index;
  }
}

void cell_centre(std::uint64_t index, const Bounds& bounds, std::int64_t m, double* out) {
  const std::size_t d = bounds.dims();
  const auto mu = static_cast<std::uint64_t>(m);
  for (std::size_t jj = d; jj-- > 0;) {
    const double width = bounds.hi[jj] - bounds.lo[jj];
    if (!(width > 0)) {
      out[jj] = bounds.lo[jj];
      continue;
    }
    const std::uint64_t c = index % mu;
    index /= mu;
    out[jj] = bounds.lo[jj] + (static_cast<double>(c) + 0.5) * (width / static_cast<double>(m));
  }
}

EugkmResult eugkm_on_grid(const double* coords, std::size_t n, const Bounds& bounds, const EugkmOptions& o,
                          const SizeEstimate& size, double epsilon, Rng& rng, BudgetLedger& ledger) {
  if (bounds.empty())
    throw InputError("dataset bounds", "EUGkM needs the public domain bounds of the data",
                     "add bounds: [[lo, hi], ...]");
  if (n == 0) throw InputError("dataset", "EUGkM needs at least one point");
  if (!(epsilon > 0) || !std::isfinite(epsilon))
    throw InputError("params.epsilon", "EUGkM's histogram needs a budget > 0");
  const std::size_t d = bounds.dims();
  EugkmResult r;
  r.size = size;
  r.epsilon_histogram = epsilon;
  r.informative_dims = informative_dims(bounds);
  check_options(o, r.informative_dims);
  r.grid = grid_size(size.usable(), epsilon, r.informative_dims, o.k, o.grid_constant, o.grid_size, o.max_cells);
  const std::int64_t m = r.grid.cells_per_dim;
  const std::uint64_t cells = r.grid.cells;

  // The true histogram (records clamped into the domain).
  std::vector<std::uint64_t> cell;
  cell_indices(coords, n, bounds, m, cell);
  std::vector<std::int64_t> counts(cells, 0);
  for (std::size_t i = 0; i < n; ++i) ++counts[cell[i]];
  for (std::int64_t c : counts) r.occupied_cells += c > 0;

  // Every cell's noisy count, empty or not, each from its own stream.
  std::ostringstream note;
  note << "every one of the " << cells << " cells (" << m
       << " per non-constant dimension), empty or not; a record is in one cell "
       << "(parallel composition)";
  const privacy::CountMechanism mech =
      privacy::CountMechanism::laplace(ledger, o.sampler, 1.0, epsilon, "noisy grid histogram (EUGkM)", note.str());
  const CellStreams noise = CellStreams::for_trial(rng, kHistogramNoiseLane);
  r.noisy_counts.assign(cells, 0.0);
  const std::uint64_t chunks = (cells + kNoiseChunk - 1) / kNoiseChunk;
  const auto nc = static_cast<std::int64_t>(chunks);
#pragma omp parallel for schedule(dynamic, 1) if (chunks > 1)
  for (std::int64_t b = 0; b < nc; ++b) {
    CellCursor cursor(noise);
    const std::uint64_t lo = static_cast<std::uint64_t>(b) * kNoiseChunk, hi = std::min(cells, lo + kNoiseChunk);
    for (std::uint64_t c = lo; c < hi; ++c)
      r.noisy_counts[c] = mech.noisy(cursor.at(c), static_cast<double>(counts[c]));
  }
  std::vector<std::int64_t>().swap(counts);
  std::vector<std::uint64_t>().swap(cell);

  // The synopsis: cell centres weighted by max(count~, 0); add-one smoothing when fewer than k cells carry mass.
  for (double v : r.noisy_counts) r.positive_cells += v > 0;
  r.smoothed = r.positive_cells < o.k;
  const std::uint64_t points = r.smoothed ? cells : r.positive_cells;
  std::vector<double> centres(points * d), weights(points);
  std::uint64_t at = 0;
  for (std::uint64_t c = 0; c < cells; ++c) {
    const double w = std::max(r.noisy_counts[c], 0.0);
    if (!r.smoothed && !(w > 0)) continue;
    cell_centre(c, bounds, m, &centres[at * d]);
    weights[at] = r.smoothed ? w + 1.0 : w;
    ++at;
  }
  const auto K = static_cast<Idx>(o.k), D = static_cast<Idx>(d);
  if (points < o.k) {
    // Only a one-cell grid (every dimension constant): the domain is one point, and so is every centre.
    r.centers = RowMatrix(K, D);
    for (Idx c = 0; c < K; ++c)
      for (Idx j = 0; j < D; ++j) r.centers(c, j) = centres[static_cast<std::size_t>(j)];
  } else {
    const KMeansResult km =
        kmeans(centres.data(), static_cast<std::size_t>(points), d, o.k, o.kmeans, rng, weights.data());
    r.centers = km.centers;
    r.synopsis_inertia = km.inertia;
    r.kmeans_iterations = km.n_iter;
  }
  r.labels.assign(n, 0);
  r.inertia = dpdbscan::assign_nearest(coords, n, d, r.centers, r.labels);
  return r;
}

EugkmResult eugkm(const double* coords, std::size_t n, const Bounds& bounds, const EugkmOptions& o, Rng& rng,
                  BudgetLedger& ledger) {
  if (bounds.empty())
    throw InputError("dataset bounds", "EUGkM needs the public domain bounds of the data",
                     "add bounds: [[lo, hi], ...]");
  check_options(o, informative_dims(bounds));
  const double eps_n = o.n_source == SizeSource::noisy ? o.n_fraction * o.epsilon : 0.0;
  const SizeEstimate size = estimate_size(n, o.n_source, eps_n, o.n_public, o.sampler, rng, ledger);
  return eugkm_on_grid(coords, n, bounds, o, size, o.epsilon - eps_n, rng, ledger);
}

}  // namespace dpclust::eugkm
