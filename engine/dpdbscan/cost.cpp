#include "dpdbscan/cost.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "cluster/kmeans/cost.hpp"
#include "core/error.hpp"
#include "core/method.hpp"
#include "dpdbscan/grid.hpp"

namespace dpclust::dpdbscan {

DpDbscanCost dp_dbscan_cost(const ParamSet& p, double n, std::size_t d, const Bounds& bounds) {
  DpDbscanCost c;
  const double eta = number_or(p, "eta", 4);
  c.kappa = static_cast<double>(neighbourhood_size(d, eta, kMaxKappa));
  c.universe = -1;
  double slab = -1;  // cells with a given first grid coordinate: |X| / dims[0]
  if (!bounds.empty() && bounds.dims() == d) {
    try {
      const CellGrid g = make_grid(bounds, number_or(p, "alpha", 1), eta);
      c.universe = static_cast<double>(g.universe);
      slab = c.universe / static_cast<double>(g.dims[0]);
    } catch (const InputError&) {
      c.universe = -1;  // check_shape reports it
    }
  }
  const std::string hist = p.has("histogram") ? p.string("histogram") : "auto";
  const std::string storage = p.has("storage") ? p.string("storage") : "auto";
  const double n_pub = number_or(p, "n_public", 0) > 0 ? number_or(p, "n_public", 0) : n;
  c.naive = hist == "naive" || (hist == "auto" && c.universe >= 0 && n_pub > c.universe / 2);
  c.dense =
      c.universe >= 0 && (c.naive || storage == "dense" ||
                          (storage == "auto" && c.universe <= std::min(33554432.0, std::max(1048576.0, 32 * n_pub))));
  const double dd = static_cast<double>(d);
  // The offsets of NB (d int32 each, the row form) and, once the sums split, their run ends (d uint32 each).
  const double offsets = 12 * dd * c.kappa;
  if (c.dense) {
    // Counts (4), released values (8), the merge and classifier tables (4 + 4), a row of sums: 24 |X|.
    c.memory = 24 * c.universe + 16 * n + offsets;
    // Naive: one exact draw (~50 operations) per cell; the row sums: kappa additions per cell.
    c.work = n * dd + c.kappa * c.universe + (c.naive ? 50 * c.universe : 0);
    c.released = c.naive ? c.universe : 2 * n;
  } else {
    // Linear-time histogram (Alg. 2): about n occupied cells released plus m ~ n empty ones (theta =
    // ln(|X|/n)/eps' makes E[m] about n); when |X| is small every cell may be released.
    c.released = c.universe >= 0 ? std::min(2 * n, c.universe) : 2 * n;
    c.pairs = c.released * c.kappa;
    // Bounded neighbourhood sums (dpdbscan/neighbourhood_sums.hpp): one group's map, the released cells'
    // coordinates and lists, the core cells. A group's targets are distinct cells: at most its pairs
    // (<= 2^21) and |X|; once the sums surely split (at least min(n, |X|) / 2 cells are released, the
    // occupied ones or E[m] ~ n/2 empty ones), a group shares its first grid coordinate, so at most
    // |X| / dims[0] (2^21 counted 5x what clustered 3-D and 4-D data touch, bench/dpdbscan_memory.py).
    // Groups hold at most 2^16 pairs (neighbourhood_sums.hpp), or a box of 2^18 cells (9 bytes a cell).
    double group = std::min(c.pairs, 65536.0);
    if (c.universe >= 0) {
      group = std::min(group, c.universe);
      if (std::min(n, c.universe) / 2 * c.kappa > 65536.0) group = std::min(group, slab);
    }
    c.memory += 9 * 262144.0;
    // The map (flat_map.hpp) of T targets: a power-of-two capacity >= 2T (at least 2^17 slots), 16 bytes
    // a slot, and the old half alive while it grows: 24 bytes a slot (96 MiB for 2^21 targets).
    const double slots = std::exp2(std::ceil(std::log2(std::max(131072.0, 2 * group))));
    c.memory += 56 * n + c.released * (8 * dd + 96) + offsets + 24 * slots;
    // Every (released cell, offset) pair is one hash-map addition (~10 ns, counted as 10 operations).
    c.work = n * dd + 10 * c.pairs + c.kappa * c.released / 2;
  }
  // The release (register.cpp, spans_release): every core cell's coordinates and box as JSON values, about
  // 64 + 96 d bytes a core cell (800 measured in 8-D). The core cells are not known from the shape (up to
  // every cell a released one reaches); 2n covers every run of bench/dpdbscan_memory.py (at most 1.98 n,
  // in 8-D with n = 10^4) but overstates dense 8-D data with n = 10^6 (0.15 n) about 6x.
  const double core =
      std::min(c.dense ? c.universe : (c.universe >= 0 ? std::min(c.universe, c.pairs) : c.pairs), 2 * n);
  c.memory += core * (64 + 96 * dd);
  return c;
}

TrialCost dp_dbscan_trial_cost(const CostInputs& in) {
  const DpDbscanCost c = dp_dbscan_cost(in.params, in.n(), *in.shape.d, in.shape.bounds);
  return {c.memory, c.work};
}

CostAdvice dp_dbscan_cost_advice(const CostInputs& in) {
  CostAdvice a;
  const DpDbscanCost now = dp_dbscan_cost(in.params, in.n(), *in.shape.d, in.shape.bounds);
  a.memory_detail = now.dense ? " (dense storage of |X| = " + format_count(now.universe) + " grid cells)"
                              : " (kappa = " + format_count(now.kappa) + " neighbour cells per released cell)";
  // Dense storage: the linear-time histogram in sparse storage holds O(n) cells instead of O(|X|).
  if (now.dense) {
    std::vector<ParamChange> sparse;
    if (!now.naive) sparse.push_back({{{"storage", std::string("sparse")}}, "storage: sparse"});
    sparse.push_back({{{"storage", std::string("sparse")}, {"histogram", std::string("linear")}},
                      "histogram: linear with storage: sparse (Algorithm 2, O(n) cells)"});
    a.memory_fixes.push_back(std::move(sparse));
  }
  // A larger eta: a coarser grid and fewer neighbours.
  const double eta_now = in.number("eta", 4);
  std::vector<ParamChange> coarser;
  for (double eta : {6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 64.0, 128.0})
    if (eta > eta_now) coarser.push_back({{{"eta", eta}}, "eta: " + round_up_2(eta)});
  a.memory_fixes.push_back(std::move(coarser));
  if (!(in.params.has("storage") && in.params.string("storage") == "sparse"))
    a.private_memory_fixes.push_back(
        "histogram: linear with storage: sparse (Algorithm 2: memory in the number of points, not in |X|)");
  a.private_memory_fixes.push_back("a larger eta (a coarser grid, fewer neighbour cells)");
  a.time_detail = ": kappa = " + format_count(now.kappa) + " neighbour cells in d = " + std::to_string(*in.shape.d);
  for (double eta : {6.0, 8.0, 12.0, 16.0, 24.0, 32.0}) {
    if (eta <= eta_now) continue;
    ParamSet alt = in.params;
    alt.set("eta", eta);
    a.speedups.push_back({{{"eta", eta}},
                          "eta: " + round_up_2(eta) + " (kappa " +
                              format_count(dp_dbscan_cost(alt, in.n(), *in.shape.d, in.shape.bounds).kappa) + ")"});
  }
  return a;
}

TrialCost dp_kmeans_trial_cost(const CostInputs& in) {
  const double t = in.number("iterations", 0) > 0 ? in.number("iterations", 0) : 7;
  return kmeans_cost(in.n(), in.d(), in.number("k", 1), 1, t);
}

TrialCost pairwise_trial_cost(const CostInputs& in) {
  const double n = in.n();
  return {n * n / 8 + 48 * n, 2 * n * n * in.d()};
}

}  // namespace dpclust::dpdbscan
