// FastLloyd's central-DP k-means; see fastlloyd.hpp.
#include "fastlloyd/fastlloyd.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "cluster/kmeans/nearest_search.hpp"
#include "core/cell_streams.hpp"
#include "core/error.hpp"
#include "core/method.hpp"
#include "fastlloyd/initial_centres.hpp"
#include "privacy/gaussian_budget.hpp"

namespace dpclust::fastlloyd {

const char* to_string(IterationSource s) {
  switch (s) {
    case IterationSource::fixed: return "fixed";
    case IterationSource::noisy_n: return "rule on a noisy n";
    case IterationSource::public_n: return "rule on n_public";
    case IterationSource::true_n: return "rule on the true n";
  }
  return "?";
}

namespace {

using Idx = Eigen::Index;

// The lane of this method's streams (core/cell_streams.hpp) and the address of each use.
constexpr std::uint32_t kNoiseLane = 0x464c;  // "FL"
constexpr std::uint64_t kInitialCentresStream = 0, kNoisyCountStream = 1;
std::uint64_t sums_stream(std::size_t iteration) { return 2 + 2 * static_cast<std::uint64_t>(iteration); }
std::uint64_t counts_stream(std::size_t iteration) { return 3 + 2 * static_cast<std::uint64_t>(iteration); }

constexpr std::size_t kBlockRows = 2048;
// Below this many blocks a pass runs on one thread: waking a team costs more than it saves.
constexpr std::size_t kParallelBlocks = 4;
// variant authors: the fixed point of the authors' code (fixed.py: 16 fractional bits) and its count guard.
constexpr double kAuthorsFixedPoint = 65536.0;
constexpr double kAuthorsCountGuard = 1e-9;

const char* const kTrueSizeNote =
    "the iteration rule used the true number of points n (n_source: data), which add/remove DP does not make public";
const char* const kAuthorsNote =
    "variant: authors draws iteration i's noise from generators seeded with seed x i, the sums' and the counts' from "
    "the "
    "same seed (the authors' server.py): iteration 0 draws the same noise for every seed and the counts' noise replays "
    "the "
    "sums', so the composition the ledger records does not hold";

std::string iteration_text(std::size_t i) { return "iteration " + std::to_string(i + 1); }

bool relative_updates(const FastLloydOptions& o) { return o.radius_rule != RadiusRule::none; }

// Every coordinate clamped into the public bounds and mapped to [-1, 1]: u = (x - mid) / half (0 when the side is
// 0). Returns the number of points with a coordinate moved.
std::size_t scale_to_domain(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                            std::vector<double>& u) {
  u.resize(n * d);
  std::size_t clamped = 0;
  std::vector<double> mid(d), half(d);
  for (std::size_t j = 0; j < d; ++j) {
    mid[j] = bounds.lo[j] + (bounds.hi[j] - bounds.lo[j]) / 2;
    half[j] = (bounds.hi[j] - bounds.lo[j]) / 2;
  }
  for (std::size_t i = 0; i < n; ++i) {
    bool moved = false;
    for (std::size_t j = 0; j < d; ++j) {
      const double x = coords[i * d + j];
      const double c = std::min(std::max(x, bounds.lo[j]), bounds.hi[j]);
      moved = moved || c != x;
      u[i * d + j] = half[j] > 0 ? std::clamp((c - mid[j]) / half[j], -1.0, 1.0) : 0.0;
    }
    clamped += moved;
  }
  return clamped;
}

// Public initial centres mapped to [-1, 1]^d (checked inside the bounds by check_initial_centres).
RowMatrix to_domain(const RowMatrix& c, const Bounds& bounds) {
  RowMatrix u = c;
  for (Idx r = 0; r < c.rows(); ++r)
    for (Idx j = 0; j < c.cols(); ++j) {
      const auto jj = static_cast<std::size_t>(j);
      const double half = (bounds.hi[jj] - bounds.lo[jj]) / 2;
      u(r, j) = half > 0 ? (c(r, j) - bounds.lo[jj] - half) / half : 0.0;
    }
  return u;
}

RowMatrix to_data_units(const RowMatrix& c, const Bounds& bounds) {
  RowMatrix x = c;
  for (Idx r = 0; r < c.rows(); ++r)
    for (Idx j = 0; j < c.cols(); ++j) {
      const auto jj = static_cast<std::size_t>(j);
      const double half = (bounds.hi[jj] - bounds.lo[jj]) / 2;
      x(r, j) = bounds.lo[jj] + half + half * c(r, j);
    }
  return x;
}

// One iteration's integer sums and counts: every point to its nearest centre, left out beyond the radius (or the
// grid's norm cap), its contribution rounded to the grid. Integer sums are exact, so the threads' order does not
// matter.
struct IterationSums {
  std::vector<std::int64_t> sums;    // k x d grid units
  std::vector<std::int64_t> counts;  // k
  std::int64_t unassigned = 0;
};

IterationSums assign_and_sum(const std::vector<double>& u, std::size_t n, std::size_t d, const RowMatrix& centres,
                             double radius, bool relative, const OffsetGrid& grid) {
  const auto k = static_cast<std::size_t>(centres.rows());
  IterationSums out;
  out.sums.assign(k * d, 0);
  out.counts.assign(k, 0);
  const NearestSearch search(centres.data(), k, d);
  const double radius2 = std::isinf(radius) ? std::numeric_limits<double>::infinity() : radius * radius;
  const std::size_t blocks = (n + kBlockRows - 1) / kBlockRows;
#pragma omp parallel if (blocks >= kParallelBlocks)
  {
    std::vector<std::int64_t> sums(k * d, 0), counts(k, 0), z(d);
    std::int64_t unassigned = 0;
    std::vector<Label> labels(kBlockRows);
    std::vector<double> best(kBlockRows), scratch, offset(d);
#pragma omp for schedule(static)
    for (std::size_t b = 0; b < blocks; ++b) {
      const std::size_t start = b * kBlockRows, rows = std::min(kBlockRows, n - start);
      search.search(u.data() + start * d, rows, labels.data(), best.data(), nullptr, scratch);
      for (std::size_t r = 0; r < rows; ++r) {
        if (best[r] > radius2) {
          ++unassigned;
          continue;
        }
        const auto c = static_cast<std::size_t>(labels[r]);
        const double* x = u.data() + (start + r) * d;
        for (std::size_t j = 0; j < d; ++j)
          offset[j] = relative ? x[j] - centres(static_cast<Idx>(c), static_cast<Idx>(j)) : x[j];
        if (!grid_offset(offset.data(), grid, z.data())) {
          ++unassigned;
          continue;
        }
        for (std::size_t j = 0; j < d; ++j) sums[c * d + j] += z[j];
        ++counts[c];
      }
    }
#pragma omp critical
    {
      for (std::size_t i = 0; i < k * d; ++i) out.sums[i] += sums[i];
      for (std::size_t c = 0; c < k; ++c) out.counts[c] += counts[c];
      out.unassigned += unassigned;
    }
  }
  return out;
}

// The reflection of v into [-1, 1] (the authors' TruncationAndFolding.fold: (v + 1) mod 4, mirrored above 2).
double fold(double v) {
  double w = std::fmod(v + 1, 4.0);
  if (w < 0) w += 4;
  if (w > 2) w = 4 - w;
  return -1 + w;
}

// The mechanisms of every iteration, built from the ledger before the first draw.
struct Mechanisms {
  std::optional<privacy::GaussianBudget> budget;
  std::vector<privacy::JointGaussianNoise> gaussian_sums, gaussian_counts;
  std::vector<privacy::CountMechanism> laplace_sums, laplace_counts;
};

void noise_note_grid(std::string& note, const OffsetGrid& g) {
  note += "; contributions on the public grid 2^" + std::to_string(g.exponent) + " (sums and sensitivity in its units)";
}

Mechanisms build_mechanisms(const FastLloydOptions& o, const std::vector<IterationPlan>& plan,
                            double epsilon_iterations, BudgetLedger& ledger) {
  Mechanisms m;
  const std::string relation = relative_updates(o) ? "offsets x - c of the points within the radius r_i of their centre"
                                                   : "points of the domain [-1, 1]^d";
  if (o.noise == Noise::gaussian) {
    m.budget.emplace(
        ledger, o.sampler, epsilon_iterations, o.delta, "FastLloyd iterations (Gaussian)",
        "T iterations of sums and counts, one Gaussian mechanism of sensitivity 1 at (eps, delta) split into "
        "their shares of its precision (the authors' server.py dp_setup)");
    for (std::size_t i = 0; i < plan.size(); ++i) {
      const IterationPlan& p = plan[i];
      std::string note = "the k x d cluster sums of the " + relation + " (L2 <= " + short_number(p.contribution_bound) +
                         " per record, one cluster each)";
      noise_note_grid(note, p.grid);
      m.gaussian_sums.push_back(
          m.budget->release(p.share_sum, p.grid.sensitivity, "noisy sums, " + iteration_text(i), note));
      m.gaussian_counts.push_back(m.budget->release(p.share_count, 1.0, "noisy counts, " + iteration_text(i),
                                                    "the k cluster counts (one cluster per record)"));
    }
    return m;
  }
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const IterationPlan& p = plan[i];
    std::string note = "the k x d cluster sums of the " + relation + " as one vector: each coordinate at most " +
                       short_number(p.contribution_bound) + " (M = " + std::to_string(p.grid.coordinate_cap) +
                       " grid units), L1 d M per record (one cluster each); Laplace noise on every coordinate";
    noise_note_grid(note, p.grid);
    m.laplace_sums.push_back(privacy::CountMechanism::laplace(ledger, o.sampler, p.grid.sensitivity, p.epsilon_sum,
                                                              "noisy sums, " + iteration_text(i), note));
    m.laplace_counts.push_back(privacy::CountMechanism::laplace(ledger, o.sampler, 1.0, p.epsilon_count,
                                                                "noisy counts, " + iteration_text(i),
                                                                "the k cluster counts (one cluster per record)"));
  }
  return m;
}

// One draw of the sums' (counts') noise of iteration i, in grid units (counts: units of one record).
double sum_noise(const Mechanisms& m, std::size_t i, Rng& rng) {
  if (m.budget) {
    const auto& g = m.gaussian_sums[i];
    return g.sampler() == privacy::Sampler::secure ? static_cast<double>(g.integer_noise(rng)) : g.real_noise(rng);
  }
  return m.laplace_sums[i].noise(rng);
}
double count_noise(const Mechanisms& m, std::size_t i, Rng& rng) {
  if (m.budget) {
    const auto& g = m.gaussian_counts[i];
    return g.sampler() == privacy::Sampler::secure ? static_cast<double>(g.integer_noise(rng)) : g.real_noise(rng);
  }
  return m.laplace_counts[i].noise(rng);
}

// The new centres from the released sums and counts (UnmaskedClient.update), in place.
void update_centres(const FastLloydOptions& o, const IterationPlan& p, const std::vector<double>& noisy_sums,
                    const std::vector<double>& noisy_counts, RowMatrix& centres) {
  const auto k = static_cast<std::size_t>(centres.rows()), d = static_cast<std::size_t>(centres.cols());
  const bool authors = o.variant == Variant::authors;
  std::vector<double> next(d);
  for (std::size_t c = 0; c < k; ++c) {
    const double divisor = authors ? noisy_counts[c] + kAuthorsCountGuard : std::max(noisy_counts[c], 1.0);
    double move2 = 0;
    for (std::size_t j = 0; j < d; ++j) {
      const double mean = noisy_sums[c * d + j] * p.grid.spacing / divisor;
      const double old = centres(static_cast<Idx>(c), static_cast<Idx>(j));
      next[j] = relative_updates(o) ? old + mean : mean;
      move2 += (next[j] - old) * (next[j] - old);
    }
    if (relative_updates(o) && o.clip_moves && std::sqrt(move2) > p.radius) {
      const double shrink = p.radius / std::sqrt(move2);
      for (std::size_t j = 0; j < d; ++j) {
        const double old = centres(static_cast<Idx>(c), static_cast<Idx>(j));
        next[j] = old + (next[j] - old) * shrink;
      }
    }
    for (std::size_t j = 0; j < d; ++j) {
      double v = next[j];
      if (o.post == Post::fold) v = fold(v);
      else if (o.post == Post::truncate) v = std::clamp(v, -1.0, 1.0);
      centres(static_cast<Idx>(c), static_cast<Idx>(j)) = v;
    }
  }
}

double nearest_labels(const double* coords, std::size_t n, std::size_t d, const RowMatrix& centres, Labels& labels) {
  labels.assign(n, 0);
  const NearestSearch search(centres.data(), static_cast<std::size_t>(centres.rows()), d);
  std::vector<double> best(kBlockRows), scratch;
  double total = 0;
  for (std::size_t start = 0; start < n; start += kBlockRows) {
    const std::size_t rows = std::min(kBlockRows, n - start);
    search.search(coords + start * d, rows, labels.data() + start, best.data(), nullptr, scratch);
    for (std::size_t r = 0; r < rows; ++r) total += best[r];
  }
  return total;
}

// The inputs refused before any work: the bounds, the sizes, k, the initial centres, the authors' seeded noise.
void check_inputs(std::size_t n, std::size_t d, const Bounds& bounds, const FastLloydOptions& o, const Rng& rng) {
  if (bounds.dims() != d)
    throw InputError("bounds", "FastLloyd needs public bounds for each of the " + std::to_string(d) + " dimensions",
                     "set bounds: [[lo, hi], ...] in the dataset entry");
  if (d == 0) throw InputError("dataset", "FastLloyd needs at least one coordinate column");
  if (n >= (std::size_t{1} << 32))
    throw InputError("dataset", "FastLloyd takes at most 2^32 - 1 points", "sample the dataset (sample: N)");
  if (o.k > n)
    throw InputError("params.k",
                     "k = " + std::to_string(o.k) + " clusters but the dataset has " + std::to_string(n) + " points",
                     "choose k <= " + std::to_string(n) + ", or a larger dataset");
  if (o.initial_centres.size() > 0) {
    if (o.initial_centres.rows() != static_cast<Idx>(o.k) || o.initial_centres.cols() != static_cast<Idx>(d))
      throw InputError(
          "params.initial_centers",
          "the initial centres must be k x d = " + std::to_string(o.k) + " x " + std::to_string(d) + " numbers",
          "give k rows of d coordinates, row-major");
    for (Idx r = 0; r < o.initial_centres.rows(); ++r)
      for (Idx j = 0; j < o.initial_centres.cols(); ++j) {
        const double v = o.initial_centres(r, j);
        const auto jj = static_cast<std::size_t>(j);
        if (!(v >= bounds.lo[jj] && v <= bounds.hi[jj]))
          throw InputError("params.initial_centers",
                           "initial centre " + std::to_string(r + 1) + " has coordinate " + std::to_string(j + 1) +
                               " outside the bounds",
                           "give public initial centres inside the bounds, or none (the data-independent draw)");
      }
  }
  if (o.variant == Variant::authors && rng.is_secure())
    throw InputError("params.variant", "variant: authors seeds its noise with seed x iteration, which needs a seed",
                     "use randomness: seeded with variant: authors, or variant: fastlloyd");
}

// T: fixed, or the rule on N (a noisy count with n_fraction of the budget, n_public, or the true n).
void choose_iterations(std::size_t n, std::size_t d, const FastLloydOptions& o, CellCursor& cursor, FastLloydResult& r,
                       BudgetLedger& ledger) {
  r.epsilon_iterations = iterations_epsilon(o);
  if (o.iterations > 0) {
    r.iterations = o.iterations;
    r.iteration_source = IterationSource::fixed;
  } else {
    double size = 0;
    if (o.n_source == SizeSource::noisy) {
      r.epsilon_n = o.epsilon - r.epsilon_iterations;
      const privacy::CountMechanism count = privacy::CountMechanism::laplace(
          ledger, o.sampler, 1.0, r.epsilon_n, "noisy number of points", "N of the iteration rule (calculate_iters)");
      r.noisy_n = count.noisy(cursor.at(kNoisyCountStream), static_cast<double>(n));
      size = r.noisy_n;
      r.iteration_source = IterationSource::noisy_n;
    } else if (o.n_source == SizeSource::public_n) {
      size = static_cast<double>(o.n_public);
      r.iteration_source = IterationSource::public_n;
    } else {
      size = static_cast<double>(n);
      r.iteration_source = IterationSource::true_n;
      r.non_private_notes.push_back(kTrueSizeNote);
    }
    const double sigma0 = o.noise == Noise::gaussian
                              ? privacy::GaussianBudget::unit_sigma_for(o.sampler, r.epsilon_iterations, o.delta)
                              : 0.0;
    r.iterations = iteration_rule(o.noise, o.radius_rule, r.epsilon_iterations, sigma0, size, o.k, d, o.alpha, o.rho);
  }
}

// One iteration's noisy sums and counts: the authors' variant (an empty cluster reports count 1 and its old centre,
// both streams seeded with seed x iteration, the noise truncated toward zero) or FastLloyd's own streams.
void add_noise(const FastLloydOptions& o, const Mechanisms& mech, std::size_t i, const IterationPlan& p,
               const IterationSums& s, const RowMatrix& centres, bool relative, std::uint64_t authors_seed,
               CellCursor& cursor, std::vector<double>& noisy_sums, std::vector<double>& noisy_counts) {
  const std::size_t k = o.k, d = static_cast<std::size_t>(centres.cols());
  std::vector<double> base_sums(s.sums.begin(), s.sums.end()), base_counts(s.counts.begin(), s.counts.end());
  if (o.variant == Variant::authors) {
    // An empty cluster reports count 1 and its old centre as its sum (UnmaskedClient.local_step): 0 as an offset.
    for (std::size_t c = 0; c < k; ++c)
      if (s.counts[c] == 0) {
        base_counts[c] = 1;
        for (std::size_t j = 0; j < d; ++j)
          base_sums[c * d + j] = relative ? 0.0 : centres(static_cast<Idx>(c), static_cast<Idx>(j)) / p.grid.spacing;
      }
    // Both streams seeded with seed x iteration (server.py dp_setup), the noise truncated toward zero.
    Rng sums_rng(authors_seed * static_cast<std::uint64_t>(i)),
        counts_rng(authors_seed * static_cast<std::uint64_t>(i));
    const double fixed_units = kAuthorsFixedPoint * p.grid.spacing;
    for (std::size_t x = 0; x < k * d; ++x)
      noisy_sums[x] = base_sums[x] + std::trunc(sum_noise(mech, i, sums_rng) * fixed_units) / fixed_units;
    for (std::size_t c = 0; c < k; ++c) noisy_counts[c] = base_counts[c] + std::trunc(count_noise(mech, i, counts_rng));
  } else {
    Rng& sums_rng = cursor.at(sums_stream(i));
    for (std::size_t x = 0; x < k * d; ++x) noisy_sums[x] = base_sums[x] + sum_noise(mech, i, sums_rng);
    Rng& counts_rng = cursor.at(counts_stream(i));
    for (std::size_t c = 0; c < k; ++c) noisy_counts[c] = base_counts[c] + count_noise(mech, i, counts_rng);
  }
}

}  // namespace

void check_options(const FastLloydOptions& o) {
  if (!(o.epsilon > 0) || !std::isfinite(o.epsilon))
    throw InputError("params.epsilon", "epsilon must be finite and > 0");
  if (o.noise == Noise::gaussian && !(o.delta > 0 && o.delta < 1))
    throw InputError("params.delta", "noise: gaussian needs delta in (0, 1), got delta = " + short_number(o.delta),
                     "set delta, e.g. delta: 1e-6, or 1 / (n ln n) on a public n as the authors do; or noise: laplace "
                     "with delta: 0");
  if (o.noise == Noise::laplace && o.delta != 0)
    throw InputError("params.delta",
                     "noise: laplace is pure eps-DP and spends no delta, got delta = " + short_number(o.delta),
                     "set delta: 0 with noise: laplace");
  if (o.n_source == SizeSource::public_n && o.n_public == 0 && o.iterations == 0)
    throw InputError("params.n_public", "n_source: public needs n_public > 0 for the iteration rule",
                     "set n_public to the public number of points, or iterations: T");
  if (o.variant == Variant::authors && o.sampler != privacy::Sampler::textbook)
    throw InputError("params.sampler", "variant: authors draws the authors' continuous noise from seeded generators",
                     "set sampler: textbook with variant: authors (or use variant: fastlloyd)");
  if (!(o.alpha > 0) || !std::isfinite(o.alpha))
    throw InputError("params.radius_alpha", "radius_alpha must be finite and > 0", "the authors use 0.8");
}

double iterations_epsilon(const FastLloydOptions& o) {
  const bool noisy_count = o.iterations == 0 && o.n_source == SizeSource::noisy;
  return noisy_count ? o.epsilon - o.epsilon * o.n_fraction : o.epsilon;
}

std::int64_t planned_iterations(const FastLloydOptions& o, std::size_t d) {
  if (o.iterations > 0) return o.iterations;
  if (o.n_source != SizeSource::public_n || o.n_public == 0) return 0;
  const double eps = iterations_epsilon(o);
  const double sigma0 =
      o.noise == Noise::gaussian ? privacy::GaussianBudget::unit_sigma_for(o.sampler, eps, o.delta) : 0.0;
  return iteration_rule(o.noise, o.radius_rule, eps, sigma0, static_cast<double>(o.n_public), o.k, d, o.alpha, o.rho);
}

std::vector<IterationPlan> plan_iterations(const FastLloydOptions& o, std::size_t d, std::int64_t iterations,
                                           double epsilon_iterations) {
  std::vector<IterationPlan> plan(static_cast<std::size_t>(iterations));
  const double sigma0 = o.noise == Noise::gaussian
                            ? privacy::GaussianBudget::unit_sigma_for(o.sampler, epsilon_iterations, o.delta)
                            : 0.0;
  const LaplaceSplit split = laplace_split(epsilon_iterations, iterations, d, o.rho);
  const GaussianShares shares = gaussian_shares(o.radius_rule, iterations, d, o.rho);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    IterationPlan& p = plan[i];
    p.radius = radius_of(o.radius_rule, o.noise, i, o.alpha, o.k, d);
    if (o.noise == Noise::gaussian) {
      p.share_sum = shares.sum;
      p.share_count = shares.count;
      // GaussianBudget's sigma for a sensitivity of 1 (its margin included): sigma0 / sqrt(share).
      const double per_sensitivity = sigma0 / std::sqrt(shares.sum) * (1 + 0x1p-40);
      p.contribution_bound = contribution_l2_bound(o.radius_rule, p.radius, d);
      p.grid = gaussian_grid(p.contribution_bound, d, per_sensitivity);
      p.sum_scale = per_sensitivity * p.grid.sensitivity * p.grid.spacing;
      p.count_scale = sigma0 / std::sqrt(shares.count) * (1 + 0x1p-40);
      if (o.sampler == privacy::Sampler::secure && p.count_scale > 0x1p19)
        throw InputError(
            "params.epsilon",
            "the counts' Gaussian sigma " + short_number(p.count_scale) + " exceeds the exact sampler's 2^19",
            "raise epsilon or delta, or lower the iterations");
    } else {
      p.epsilon_sum = split.sum;
      p.epsilon_count = split.count;
      p.contribution_bound = contribution_coordinate_bound(o.radius_rule, p.radius);
      p.grid = laplace_grid(p.contribution_bound, d, 1.0 / split.sum);
      p.sum_scale = p.grid.sensitivity * p.grid.spacing / split.sum;
      p.count_scale = 1.0 / split.count;
      if (o.sampler == privacy::Sampler::secure && p.count_scale > 0x1p40)
        throw InputError(
            "params.epsilon",
            "the counts' Laplace scale " + short_number(p.count_scale) + " exceeds the exact sampler's 2^40",
            "raise epsilon, or lower the iterations");
    }
  }
  return plan;
}

FastLloydResult fastlloyd(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                          const FastLloydOptions& o, Rng& rng, BudgetLedger& ledger) {
  check_options(o);
  check_inputs(n, d, bounds, o, rng);
  // The exact samplers' limits before anything is drawn: at the planned T, or at the rule's largest (its noise
  // is the largest the rule can choose).
  const std::int64_t planned = planned_iterations(o, d);
  plan_iterations(o, d, planned > 0 ? planned : kMaxIterations, iterations_epsilon(o));
  FastLloydResult r;
  if (o.sampler == privacy::Sampler::textbook) r.non_private_notes.push_back(privacy::kTextbookSamplerNote);
  if (o.variant == Variant::authors) r.non_private_notes.push_back(kAuthorsNote);
  const std::uint64_t authors_seed = o.variant == Variant::authors ? rng.seed() : 0;

  std::vector<double> u;
  r.clamped_points = scale_to_domain(coords, n, d, bounds, u);
  const CellStreams streams = CellStreams::for_trial(rng, kNoiseLane);
  CellCursor cursor(streams);
  RowMatrix centres = o.initial_centres.size() > 0 ? to_domain(o.initial_centres, bounds)
                                                   : initial_centres(o.k, d, cursor.at(kInitialCentresStream));
  r.initial_centres = to_data_units(centres, bounds);
  r.trajectory.push_back(centres);

  choose_iterations(n, d, o, cursor, r, ledger);
  r.plan = plan_iterations(o, d, r.iterations, r.epsilon_iterations);
  const Mechanisms mech = build_mechanisms(o, r.plan, r.epsilon_iterations, ledger);
  if (mech.budget) r.unit_sigma = mech.budget->unit_sigma();

  const auto k = o.k;
  const bool relative = relative_updates(o);
  std::vector<double> noisy_sums(k * d), noisy_counts(k);
  for (std::size_t i = 0; i < r.plan.size(); ++i) {
    const IterationPlan& p = r.plan[i];
    IterationSums s = assign_and_sum(u, n, d, centres, p.radius, relative, p.grid);
    r.unassigned.push_back(s.unassigned);
    r.cluster_sizes.push_back(s.counts);
    add_noise(o, mech, i, p, s, centres, relative, authors_seed, cursor, noisy_sums, noisy_counts);
    r.noisy_counts.push_back(noisy_counts);
    update_centres(o, p, noisy_sums, noisy_counts, centres);
    r.trajectory.push_back(centres);
  }
  r.centres = to_data_units(centres, bounds);
  if (o.labels) {
    r.inertia = nearest_labels(coords, n, d, r.centres, r.labels);
  } else {
    r.labels.assign(n, kNoise);
    r.inertia = std::numeric_limits<double>::quiet_NaN();
  }
  return r;
}

}  // namespace dpclust::fastlloyd
