// Noisy pairwise-distance DBSCAN baseline; see pairwise.hpp.
#include "dpdbscan/pairwise.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace dpclust::dpdbscan {

namespace {

// The inputs refused before any work.
void check_inputs(std::size_t n, const Bounds& bounds, const PairwiseOptions& o, const BudgetLedger& ledger) {
  if (bounds.empty())
    throw InputError("dataset bounds",
                     "the pairwise baseline needs the public domain bounds (its sensitivity is the domain diameter)",
                     "add bounds: [[lo, hi], ...]");
  if (n > o.max_n)
    throw InputError("params.max_n",
                     "the pairwise-distance baseline perturbs all n(n-1)/2 distances; n = " + std::to_string(n) +
                         " exceeds max_n = " + std::to_string(o.max_n),
                     "run it on a smaller dataset (sample: N) or raise max_n (memory n^2/8 bytes, time ~n^2)");
  if (!(o.alpha > 0)) throw InputError("params.alpha", "alpha must be > 0");
  if (o.min_pts < 1) throw InputError("params.min_pts", "min_pts must be >= 1");
  if (ledger.relation() != NeighbourRelation::replace_one)
    throw std::logic_error(
        "the pairwise baseline's sensitivity (n - 1) D is computed under replace-one neighbours, but the "
        "ledger is " +
        std::string(to_string(ledger.relation())));
}

// A symmetric bit matrix, one row of `words` 64-bit words per point.
struct Adjacency {
  std::size_t words = 0;
  std::vector<std::uint64_t> bits;
};

// Neighbour bit matrix: noisy distance <= alpha (scikit-learn's radius query is inclusive).
// Every pair (i < j) gets its own draw, in row-major order, whatever its distance: under noise of scale
// (n - 1) D / eps any pair can come out as neighbours, so no pair can be skipped, and the draws must be
// consumed in this order for the seeded stream to give the same matrix. What is hoisted out of the draw
// loop is the arithmetic: the points are clamped into the domain once (not once per pair), and each
// row's exact distances are computed before its draws (the same operations in the same order, so the
// same doubles), leaving the loop over j to the mechanism.
Adjacency noisy_adjacency(const double* coords, std::size_t n, const Bounds& bounds, const PairwiseOptions& o,
                          const privacy::RealMechanism& mech, double diameter, Rng& rng) {
  const std::size_t d = bounds.dims();
  Adjacency a;
  std::vector<double> clamped(coords, coords + n * d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < d; ++k) clamped[i * d + k] = std::clamp(clamped[i * d + k], bounds.lo[k], bounds.hi[k]);
  const std::size_t words = (n + 63) / 64;
  a.words = words;
  a.bits.assign(n * words, 0);
  std::vector<std::uint64_t>& adj = a.bits;
  std::vector<double> dist(n);
  for (std::size_t i = 0; i < n; ++i) {
    adj[i * words + i / 64] |= std::uint64_t{1} << (i % 64);  // d(i, i) = 0
    const double* ci = &clamped[i * d];
    for (std::size_t j = i + 1; j < n; ++j) {
      const double* cj = &clamped[j * d];
      double s = 0;
      for (std::size_t k = 0; k < d; ++k) {
        const double t = ci[k] - cj[k];
        s += t * t;
      }
      dist[j] = std::sqrt(s);
    }
    for (std::size_t j = i + 1; j < n; ++j) {
      const double noisy = std::clamp(mech.noisy(rng, dist[j]), 0.0, diameter);
      if (noisy <= o.alpha) {
        adj[i * words + j / 64] |= std::uint64_t{1} << (j % 64);
        adj[j * words + i / 64] |= std::uint64_t{1} << (i % 64);
      }
    }
  }
  return a;
}

// scikit-learn's expansion: clusters started at unlabelled core points in index order, expanded breadth-first
// through core points; a border point joins the first cluster that reaches it (border: noise leaves it noise; the
// cluster ids are the same either way).
void expand_clusters(const Adjacency& a, const std::vector<char>& core, BorderRule border, PairwiseResult& r) {
  const std::size_t n = core.size(), words = a.words;
  const std::vector<std::uint64_t>& adj = a.bits;
  r.labels.assign(n, kNoise);
  std::vector<std::size_t> queue;
  for (std::size_t s = 0; s < n; ++s) {
    if (!core[s] || r.labels[s] != kNoise) continue;
    const auto id = static_cast<Label>(r.clusters++);
    r.labels[s] = id;
    queue.assign(1, s);
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::size_t i = queue[q];
      for (std::size_t w = 0; w < words; ++w) {
        std::uint64_t bits = adj[i * words + w];
        while (bits) {
          const std::size_t j = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
          bits &= bits - 1;
          if (r.labels[j] != kNoise || (!core[j] && border == BorderRule::noise)) continue;
          r.labels[j] = id;
          if (core[j]) queue.push_back(j);
        }
      }
    }
  }
}

}  // namespace

PairwiseResult pairwise_noisy_dbscan(const double* coords, std::size_t n, const Bounds& bounds,
                                     const PairwiseOptions& o, Rng& rng, BudgetLedger& ledger) {
  check_inputs(n, bounds, o, ledger);
  const std::size_t d = bounds.dims();
  PairwiseResult r;
  double diam2 = 0;
  for (std::size_t j = 0; j < d; ++j) diam2 += (bounds.hi[j] - bounds.lo[j]) * (bounds.hi[j] - bounds.lo[j]);
  r.diameter = std::sqrt(diam2);
  r.sensitivity = o.per_entry_sensitivity ? r.diameter : static_cast<double>(n > 1 ? n - 1 : 1) * r.diameter;
  r.noise_scale = r.sensitivity / o.epsilon;
  // The snapping bound (see the header), in units of the sensitivity: above lambda0 / sens = 1 / eps and
  // the diameter, below Mironov's 2^46 lambda.
  const double bound_units = std::min(std::max(r.diameter / r.sensitivity, 4.0 / o.epsilon), 0x1p45 / o.epsilon);
  const privacy::RealMechanism mech = privacy::RealMechanism::laplace(
      ledger, o.sampler, r.sensitivity, o.epsilon, bound_units * r.sensitivity, "noisy pairwise distance matrix",
      std::string(o.per_entry_sensitivity ? "sensitivity D per entry (NOT eps-DP for the matrix)"
                                          : "sensitivity (n-1) D of the matrix under replace-one (n public)") +
          ", entries clamped to [0, D]");
  // With sensitivity D per entry the matrix's noise has scale D / eps, while one replaced
  // record moves n - 1 entries by up to D each: the matrix is (n - 1) eps-DP. The ledger states that true
  // cost, (n - 2) eps beyond the configured one, so the accounting does not sum the configured epsilon.
  if (o.per_entry_sensitivity && n > 2)
    ledger.charge_excess(
        "sensitivity: entry (true cost of the matrix)", static_cast<double>(n - 2) * o.epsilon,
        "sensitivity: entry calibrates each distance to D, but one replaced record changes its n - 1 = " +
            std::to_string(n - 1) + " distances by up to D each: the matrix costs (n - 1) epsilon");

  const Adjacency a = noisy_adjacency(coords, n, bounds, o, mech, r.diameter, rng);
  std::vector<char> core(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t c = 0;
    for (std::size_t w = 0; w < a.words; ++w) c += std::popcount(a.bits[i * a.words + w]);
    core[i] = c >= o.min_pts;
    r.core_points += static_cast<std::size_t>(core[i]);
  }
  expand_clusters(a, core, o.border, r);
  return r;
}

}  // namespace dpclust::dpdbscan
