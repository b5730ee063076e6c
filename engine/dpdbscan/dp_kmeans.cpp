// DP-k-means (DPLloyd, Su et al. 2016): the corrected eps-DP variant and diffprivlib's; see dp_kmeans.hpp.
#include "dpdbscan/dp_kmeans.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "core/method.hpp"
#include "dpdbscan/diffprivlib_samplers.hpp"
#include "dpdbscan/noise.hpp"
#include "privacy/samplers.hpp"

namespace dpclust::dpdbscan {
namespace {

constexpr double kRho = 0.225;
// The non_private note, and the ledger's data-derived reason, of diffprivlib's iteration rule on the true n.
constexpr const char* kTrueNIterationsNote =
    "diffprivlib DP-k-means: the number of iterations T is chosen from the true number of points n, which is not "
    "public under add/remove DP (set n_public or iterations)";

using Idx = Eigen::Index;

// Data-independent initial centres (diffprivlib's placement; see the header).
RowMatrix place_initial_centers(const Bounds& bounds, std::size_t k, Rng& rng) {
  const std::size_t d = bounds.dims();
  std::vector<double> range(d);
  for (std::size_t j = 0; j < d; ++j) range[j] = bounds.hi[j] - bounds.lo[j];
  // The margin from the non-constant dimensions only: a constant one (range 0) would make it 0 and no
  // placement would ever be tried. With every range positive this is diffprivlib's min over all.
  double margin = std::numeric_limits<double>::infinity();
  for (double r : range)
    if (r > 0) margin = std::min(margin, r / 2.0);
  RowMatrix centers = RowMatrix::Zero(static_cast<Idx>(k), static_cast<Idx>(d));
  if (k == 1 || std::isinf(margin)) {
    // One centre, or a one-point domain (every dimension constant): the midpoint, the only choice.
    for (std::size_t j = 0; j < d; ++j) centers.col(static_cast<Idx>(j)).setConstant(bounds.lo[j] + range[j] / 2.0);
    return centers;
  }
  while (margin > 0) {
    std::size_t have = 0;
    int retry = 0;
    std::vector<double> cand(d);
    while (retry < 100 && have < k) {
      // One uniform per dimension, as diffprivlib draws random(dims); a constant dimension keeps lo_j.
      for (std::size_t j = 0; j < d; ++j) {
        const double u = rng.uniform();
        cand[j] = range[j] > 0 ? u * (range[j] - 2.0 * margin) + bounds.lo[j] + margin : bounds.lo[j];
      }
      double min_d2 = std::numeric_limits<double>::infinity();
      for (std::size_t a = 0; a < have; ++a) {
        double s = 0;
        for (std::size_t j = 0; j < d; ++j) {
          const double t = centers(static_cast<Idx>(a), static_cast<Idx>(j)) - cand[j];
          s += t * t;
        }
        min_d2 = std::min(min_d2, s);
      }
      if (have == 0 || std::sqrt(min_d2) >= 2.0 * margin) {
        for (std::size_t j = 0; j < d; ++j) centers(static_cast<Idx>(have), static_cast<Idx>(j)) = cand[j];
        ++have;
        retry = 0;
      } else {
        ++retry;
      }
    }
    if (have == k) return centers;
    margin /= 2.0;
  }
  throw std::logic_error("dp_kmeans: could not place the initial centres");
}

std::string iteration_suffix(std::int64_t it) { return " (DP-k-means iteration " + std::to_string(it + 1) + ")"; }

// diffprivlib's models.KMeans iterations, bit for bit (see the header); labels are current on entry.
void run_diffprivlib(const double* coords, std::size_t n, const Bounds& bounds, DpKmeansResult& r, Rng& rng,
                     BudgetLedger& ledger) {
  const std::size_t d = bounds.dims(), k = static_cast<std::size_t>(r.centers.rows());
  const double factor = ledger.noise_scale();
  std::vector<double> sums(k * d);
  std::vector<std::int64_t> counts(k);
  r.noisy_sums = RowMatrix::Zero(static_cast<Idx>(k), static_cast<Idx>(d));
  // The entries below record diffprivlib's configured split, but its floating-point
  // samplers (Mironov 2012) and its sensitivity taken from the noisy count's range give no finite bound the
  // ledger could state: the accounting counts this trial as unbounded, not at its configured epsilon.
  ledger.declare_unbounded(
      "DP-k-means variant diffprivlib: floating-point geometric and bounded-Laplace samplers (Mironov 2012) and a sum "
      "sensitivity taken from the noisy count's range: no finite epsilon is proven for the release");
  for (std::int64_t it = 0; it < r.iterations; ++it) {
    const std::string t = iteration_suffix(it);
    // The epsilons the draws below use (diffprivlib_split, dp_kmeans.hpp): as_run records diffprivlib's real
    // ones, its count at the share its docstring gives each sum and each sum at the count's.
    privacy::charge(ledger, "noisy cluster counts" + t, r.epsilon_count,
                    "two_sided_geometric (diffprivlib, floating point)", 1.0, "l1",
                    "folded into [0.5, inf); disjoint clusters (parallel composition); empty clusters are skipped");
    for (std::size_t j = 0; j < d; ++j)
      if (r.sum_sensitivity[j] > 0)
        privacy::charge(ledger, "noisy cluster coordinate sums, dimension " + std::to_string(j) + t, r.epsilon_sum,
                        "bounded_laplace (Holohan et al. 2018; diffprivlib, floating point)", r.sum_sensitivity[j],
                        "l1", "diffprivlib's sensitivity hi - lo on [count~ lo, count~ hi]; disjoint clusters");
    std::fill(sums.begin(), sums.end(), 0.0);
    std::fill(counts.begin(), counts.end(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto c = static_cast<std::size_t>(r.labels[i]);
      ++counts[c];
      for (std::size_t j = 0; j < d; ++j) sums[c * d + j] += coords[i * d + j];
    }
    r.noisy_counts.assign(k, 0.0);
    for (std::size_t c = 0; c < k; ++c) {
      if (counts[c] == 0) continue;  // gap (b): the centre stays, without noise
      const std::int64_t z = factor == 0 ? 0 : two_sided_geometric(rng, r.epsilon_count / factor);
      double nc = static_cast<double>(counts[c] + z);
      while (nc < 0.5) nc = 1.0 - nc;  // fold at the lower bound 0.5
      r.noisy_counts[c] = nc;
      for (std::size_t j = 0; j < d; ++j) {
        const double lo = nc * bounds.lo[j], hi = nc * bounds.hi[j];
        double s;
        if (r.sum_sensitivity[j] > 0) {
          if (factor == 0) {
            s = std::clamp(sums[c * d + j], lo, hi);
          } else {
            const double b = bounded_laplace_scale(r.epsilon_sum, r.sum_sensitivity[j], hi - lo) * factor;
            s = bounded_laplace(rng, sums[c * d + j], lo, hi, b);
          }
        } else {
          s = lo;  // a constant dimension carries no information
        }
        r.noisy_sums(static_cast<Idx>(c), static_cast<Idx>(j)) = s;
        r.centers(static_cast<Idx>(c), static_cast<Idx>(j)) = s / nc;
      }
    }
    r.cluster_sizes = counts;
    r.inertia = assign_nearest(coords, n, d, r.centers, r.labels);
  }
}

// DPLloyd made eps-DP (see the header: centring, clamps, every cluster noised).
void run_dplloyd(const double* coords, std::size_t n, const Bounds& bounds, const DpKmeansOptions& o, DpKmeansResult& r,
                 Rng& rng, BudgetLedger& ledger) {
  const std::size_t d = bounds.dims(), k = static_cast<std::size_t>(r.centers.rows());
  std::vector<double> mid(d), half(d);
  for (std::size_t j = 0; j < d; ++j) {
    mid[j] = 0.5 * (bounds.lo[j] + bounds.hi[j]);
    half[j] = r.sum_sensitivity[j];
  }
  const double count_bound = o.n_public > 0 ? static_cast<double>(o.n_public) : kCountBound;
  std::vector<double> sums(k * d);
  std::vector<std::int64_t> counts(k);
  r.noisy_sums = RowMatrix::Zero(static_cast<Idx>(k), static_cast<Idx>(d));
  for (std::int64_t it = 0; it < r.iterations; ++it) {
    const std::string t = iteration_suffix(it);
    // The true counts and centred sums of the current clusters (records clamped into the domain), exact
    // on the public grid (see the header: a double accumulation's sensitivity exceeds h_j).
    centred_cluster_sums(coords, n, bounds, r.labels, k, count_bound, sums, counts);
    // Every cluster's count, empty or not.
    const privacy::CountMechanism count_mech = privacy::CountMechanism::laplace(
        ledger, o.sampler, 1.0, r.epsilon_count, "noisy cluster counts" + t,
        "every one of the k clusters, empty or not; disjoint clusters (parallel composition)");
    r.noisy_counts.assign(k, 0.0);
    for (std::size_t c = 0; c < k; ++c) r.noisy_counts[c] = count_mech.noisy(rng, static_cast<double>(counts[c]));
    // Every cluster's centred sums, dimension by dimension.
    for (std::size_t j = 0; j < d; ++j) {
      if (half[j] == 0) {
        for (std::size_t c = 0; c < k; ++c) r.noisy_sums(static_cast<Idx>(c), static_cast<Idx>(j)) = 0.0;
        continue;  // a constant dimension: no information, no budget
      }
      std::ostringstream note;
      note << "centred sums sum(clamp(x_j) - c_j) of every cluster; a record moves one of them by at most (hi_j - "
              "lo_j)/2; "
              "summed exactly as integers on the public grid of spacing "
           << sum_grid_spacing(half[j], count_bound)
           << " (Casacuberta et al. CCS 2022); clamped to +-N_bound (hi_j - lo_j)/2, N_bound = "
           << (o.n_public > 0 ? "n_public" : "2^32") << "; disjoint clusters";
      const privacy::RealMechanism sum_mech = privacy::RealMechanism::laplace(
          ledger, o.sampler, half[j], r.epsilon_sum, count_bound * half[j],
          "noisy cluster coordinate sums, dimension " + std::to_string(j) + t, note.str());
      for (std::size_t c = 0; c < k; ++c)
        r.noisy_sums(static_cast<Idx>(c), static_cast<Idx>(j)) = sum_mech.noisy(rng, sums[c * d + j]);
    }
    // The centres: post-processing of this iteration's noisy values.
    for (std::size_t c = 0; c < k; ++c) {
      const double nc = std::max(r.noisy_counts[c], 1.0);
      for (std::size_t j = 0; j < d; ++j) {
        const double offset =
            std::clamp(r.noisy_sums(static_cast<Idx>(c), static_cast<Idx>(j)) / nc, -half[j], half[j]);
        r.centers(static_cast<Idx>(c), static_cast<Idx>(j)) = mid[j] + offset;
      }
    }
    r.cluster_sizes = counts;
    r.inertia = assign_nearest(coords, n, d, r.centers, r.labels);
  }
}

}  // namespace

int sum_grid_bits(double count_bound) {
  if (!(count_bound >= 1 && count_bound <= 0x1p52) || count_bound != std::floor(count_bound))
    throw InputError("params.n_public", "the count bound of DP-k-means' sums must be an integer in [1, 2^52]",
                     "set n_public to the public number of points (at most 2^52)");
  int e = 0;
  std::frexp(count_bound, &e);  // 2^(e-1) <= N < 2^e
  const int ceil_log2 = count_bound == std::ldexp(1.0, e - 1) ? e - 1 : e;
  return 53 - ceil_log2;
}

double sum_grid_spacing(double half_width, double count_bound) {
  int e = 0;
  std::frexp(half_width, &e);  // 2^(e-1) <= h < 2^e
  const int ceil_log2 = half_width == std::ldexp(1.0, e - 1) ? e - 1 : e;
  return std::ldexp(1.0, ceil_log2 - sum_grid_bits(count_bound));
}

void centred_cluster_sums(const double* coords, std::size_t n, const Bounds& bounds, const Labels& labels,
                          std::size_t k, double count_bound, std::vector<double>& sums,
                          std::vector<std::int64_t>& counts) {
  __extension__ typedef __int128 I128;  // n records of up to 2^53 units each cannot overflow it (n < 2^74)
  const std::size_t d = bounds.dims();
  sums.assign(k * d, 0.0);
  counts.assign(k, 0);
  // Per dimension: the grid exponent (g_j = 2^shift_j), the largest unit count of one record (floor(h_j /
  // g_j) <= 2^K) and of a sum (N_bound times that, <= 2^53: every clamped sum is an exact double).
  std::vector<int> shift(d, 0);
  std::vector<std::int64_t> unit(d, 0);
  std::vector<double> mid(d), limit(d, 0.0);
  for (std::size_t j = 0; j < d; ++j) {
    mid[j] = 0.5 * (bounds.lo[j] + bounds.hi[j]);
    const double half = (bounds.hi[j] - bounds.lo[j]) / 2.0;
    if (!(half > 0)) continue;  // a constant dimension: its centred sum is 0
    shift[j] = std::ilogb(sum_grid_spacing(half, count_bound));
    unit[j] = static_cast<std::int64_t>(std::floor(std::ldexp(half, -shift[j])));  // exact: a power-of-two scaling
    limit[j] = count_bound * static_cast<double>(unit[j]);                         // <= 2^53, exact
  }
  std::vector<I128> acc(k * d, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<std::size_t>(labels[i]);
    ++counts[c];
    for (std::size_t j = 0; j < d; ++j) {
      if (unit[j] == 0) continue;
      const double v = std::clamp(coords[i * d + j], bounds.lo[j], bounds.hi[j]) - mid[j];
      // The record's value in grid units, rounded to nearest and clamped to +-floor(h_j / g_j): |q g_j| <=
      // h_j whatever the rounding of v (the subtraction above may exceed h_j by an ulp).
      const auto q = std::clamp<std::int64_t>(std::llround(std::ldexp(v, -shift[j])), -unit[j], unit[j]);
      acc[c * d + j] += q;
    }
  }
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t j = 0; j < d; ++j) {
      if (unit[j] == 0) continue;
      const auto lim = static_cast<I128>(limit[j]);
      const I128 s = std::clamp(acc[c * d + j], -lim, lim);
      sums[c * d + j] = std::ldexp(static_cast<double>(s), shift[j]);  // |s| <= 2^53: exact, then an exact scaling
    }
}

double assign_nearest(const double* x, std::size_t n, std::size_t d, const RowMatrix& c, Labels& labels) {
  const auto k = static_cast<std::size_t>(c.rows());
  double inertia = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double best = std::numeric_limits<double>::infinity();
    Label arg = 0;
    for (std::size_t a = 0; a < k; ++a) {
      double s = 0;
      for (std::size_t j = 0; j < d; ++j) {
        const double t = x[i * d + j] - c(static_cast<Idx>(a), static_cast<Idx>(j));
        s += t * t;
      }
      if (s < best) {
        best = s;
        arg = static_cast<Label>(a);
      }
    }
    labels[i] = arg;
    inertia += best;
  }
  return inertia;
}

const char* to_string(KmeansVariant v) { return v == KmeansVariant::dplloyd ? "dplloyd" : "diffprivlib"; }

const char* to_string(DiffprivlibSplit s) { return s == DiffprivlibSplit::as_run ? "as_run" : "as_documented"; }

const char* to_string(IterationRule r) {
  switch (r) {
    case IterationRule::fixed: return "iterations";
    case IterationRule::n_public: return "rule on n_public";
    case IterationRule::fixed_default: return "fixed default";
    case IterationRule::true_n: return "rule on the true n";
  }
  return "?";
}

double dplloyd_min_epsilon(std::size_t k, double n, std::size_t d) {
  const double kd = static_cast<double>(k), dd = static_cast<double>(d);
  return std::sqrt(500.0 * kd * kd * kd / (n * n) * std::pow(dd + std::cbrt(4.0 * dd * kRho * kRho), 3.0));
}

std::int64_t diffprivlib_iterations(double epsilon, std::size_t k, std::size_t n, std::size_t d) {
  const double eps_m = dplloyd_min_epsilon(k, static_cast<double>(n), d);
  return static_cast<std::int64_t>(std::max(std::min(epsilon / eps_m, 7.0), 2.0));
}

void diffprivlib_budget_split_as_run(double epsilon, std::int64_t iterations, std::size_t d, std::size_t informative,
                                     double& epsilon_sum, double& epsilon_count) {
  // diffprivlib 0.6.6 models/k_means.py: _split_epsilon returns (epsilon_i * normaliser, epsilon_0 * normaliser)
  // with epsilon_i = 1 and epsilon_0 = cbrt(4 d rho^2), and _update_centers reads them as (epsilon_0, epsilon_i):
  // the count's mechanism gets the first value, every dimension's sum the second.
  double documented_sum = 0, documented_count = 0;
  kmeans_budget_split(epsilon, iterations, d, informative, documented_sum, documented_count);
  epsilon_count = documented_sum;
  epsilon_sum = documented_count;
}

void kmeans_budget_split(double epsilon, std::int64_t iterations, std::size_t d, std::size_t informative,
                         double& epsilon_sum, double& epsilon_count) {
  // Su et al.: eps / T per iteration, cbrt(4 d rho^2) : 1 : ... : 1 between the counts and the informative
  // dimensions.
  const double e0 = std::cbrt(4.0 * static_cast<double>(d) * kRho * kRho);
  const double norm = epsilon / static_cast<double>(iterations) / (static_cast<double>(informative) + e0);
  epsilon_sum = norm;
  epsilon_count = e0 * norm;
}

namespace {

// The secure mechanisms' own conditions (privacy/mechanism.cpp) at the scales run_dplloyd will ask for.
bool scales_supported(double epsilon, std::int64_t iterations, const Bounds& bounds, double count_bound) {
  if (!(epsilon > 0) || !std::isfinite(epsilon)) return false;
  const std::size_t d = bounds.dims();
  std::size_t informative = 0;
  for (std::size_t j = 0; j < d; ++j) informative += bounds.hi[j] - bounds.lo[j] > 0;
  double eps_sum = 0, eps_count = 0;
  kmeans_budget_split(epsilon, iterations, d, informative, eps_sum, eps_count);
  // CountMechanism: the discrete Laplace of scale 1 / eps_count as a rational rounded up; for scales up to
  // 2^40 that rational is the double itself (rational_at_least), so the limit is the double's.
  const double count_scale = 1.0 / eps_count;
  if (!(count_scale <= 0x1p40)) return false;
  for (std::size_t j = 0; j < d; ++j) {
    const double half = (bounds.hi[j] - bounds.lo[j]) / 2.0;
    if (half == 0) continue;  // a constant dimension draws nothing
    try {
      privacy::SnappingLaplace(eps_sum, half, count_bound * half);  // throws when Mironov's conditions fail
    } catch (const std::invalid_argument&) {
      return false;
    }
  }
  return true;
}

// T: never the true n, except in the diffprivlib variant without n_public (gap (c)).
void choose_iterations(std::size_t n, std::size_t d, const DpKmeansOptions& o, DpKmeansResult& r,
                       BudgetLedger& ledger) {
  const bool diffprivlib = o.variant == KmeansVariant::diffprivlib;
  if (o.iterations > 0) {
    r.iterations = o.iterations;
    r.iteration_rule = IterationRule::fixed;
  } else if (o.n_public > 0) {
    r.iterations = diffprivlib_iterations(o.epsilon, o.k, static_cast<std::size_t>(o.n_public), d);
    r.iteration_rule = IterationRule::n_public;
  } else if (diffprivlib) {
    r.iterations = diffprivlib_iterations(o.epsilon, o.k, n, d);
    r.iteration_rule = IterationRule::true_n;
    // T moves with n (and with it the number of noisy steps, each at eps / T): a value of the true data.
    ledger.declare_data_derived(kTrueNIterationsNote);
  } else {
    r.iterations = kDefaultIterations;
    r.iteration_rule = IterationRule::fixed_default;
  }
}

// What diffprivlib's split spends in all, against the configured epsilon: the ledger states the real entries, and
// here the difference, so that its entries still add up (ledger.hpp).
void record_diffprivlib_split(std::size_t d, std::size_t informative, const DpKmeansOptions& o, DpKmeansResult& r,
                              BudgetLedger& ledger) {
  const double spent =
      static_cast<double>(r.iterations) * (r.epsilon_count + static_cast<double>(informative) * r.epsilon_sum);
  r.epsilon_unspent = o.epsilon - spent;
  std::ostringstream why;
  why.precision(4);
  why << "diffprivlib's KMeans draws its counts at eps / (T (d + e0)) and each sum at e0 eps / (T (d + e0)) "
         "(_split_epsilon's "
         "two values unpacked the other way round), e0 = cbrt(4 d 0.225^2) = "
      << std::cbrt(4.0 * static_cast<double>(d) * kRho * kRho) << ", d = " << d << ": " << spent / o.epsilon
      << " x the configured epsilon in all";
  if (std::fabs(r.epsilon_unspent) <= 1e-12 * o.epsilon) {
    r.epsilon_unspent = 0;
  } else if (r.epsilon_unspent > 0) {
    BudgetEntry e;
    e.step = "budget left unspent by diffprivlib's split (no noise drawn)";
    e.epsilon = r.epsilon_unspent;
    e.mechanism = "unspent";
    e.note = why.str();
    e.relation = ledger.relation();
    ledger.charge(std::move(e));
  } else {
    ledger.declare_excess(-r.epsilon_unspent, why.str());
  }
}

// The diffprivlib variant's gaps, said with every result.
void diffprivlib_gaps(double worst_ratio, DpKmeansResult& r) {
  if (worst_ratio > 1) {
    std::ostringstream s;
    s.precision(3);
    s << "diffprivlib DP-k-means: the coordinate sums are calibrated to hi - lo, but adding or removing a record moves "
         "its "
         "cluster's sum by the record itself, up to max(|lo|, |hi|) per dimension: here up to "
      << worst_ratio << "x the calibrated sensitivity (the domain does not contain 0)";
    r.privacy_gaps.push_back(s.str());
  }
  r.privacy_gaps.push_back(
      "diffprivlib DP-k-means: an empty cluster's centre is released unchanged, without noise (an atom revealing that "
      "its "
      "count is exactly 0, covered by no epsilon)");
  if (r.iteration_rule == IterationRule::true_n) r.privacy_gaps.push_back(kTrueNIterationsNote);
}

}  // namespace

bool secure_scales_supported(double epsilon, std::int64_t iterations, const Bounds& bounds, std::uint64_t n_public) {
  return scales_supported(epsilon, iterations, bounds, n_public > 0 ? static_cast<double>(n_public) : kCountBound);
}

EpsilonLimits secure_epsilon_limits(std::int64_t iterations, const Bounds& bounds, std::uint64_t n_public) {
  auto ok = [&](double e) { return secure_scales_supported(e, iterations, bounds, n_public); };
  EpsilonLimits l{0, std::numeric_limits<double>::infinity()};
  // A supported epsilon to start from: 1, else scan the powers of two (the supported range is an interval).
  double inside = 1.0;
  if (!ok(inside)) {
    inside = 0;
    for (int e = -1074; e <= 1023 && inside == 0; ++e)
      if (ok(std::ldexp(1.0, e))) inside = std::ldexp(1.0, e);
    if (inside == 0) return {std::numeric_limits<double>::infinity(), 0};  // nothing is supported
  }
  const double tiny = std::numeric_limits<double>::denorm_min(), huge = std::numeric_limits<double>::max();
  if (!ok(tiny)) l.min_epsilon = epsilon_boundary(tiny, inside, ok);
  if (!ok(huge)) l.max_epsilon = epsilon_boundary(huge, inside, ok);
  return l;
}

std::int64_t planned_iterations(const DpKmeansOptions& o, std::size_t d) {
  if (o.iterations > 0) return o.iterations;
  if (o.n_public > 0) return diffprivlib_iterations(o.epsilon, o.k, static_cast<std::size_t>(o.n_public), d);
  return kDefaultIterations;
}

void check_secure_epsilon(const DpKmeansOptions& o, const Bounds& bounds) {
  if (o.variant != KmeansVariant::dplloyd || o.sampler != privacy::Sampler::secure || bounds.empty()) return;
  const std::int64_t t = planned_iterations(o, bounds.dims());
  if (secure_scales_supported(o.epsilon, t, bounds, o.n_public)) return;
  const EpsilonLimits l = secure_epsilon_limits(t, bounds, o.n_public);
  const std::string setting =
      "T = " + std::to_string(t) + " iterations, d = " + std::to_string(bounds.dims()) +
      ", sum bound N = " + (o.n_public > 0 ? "n_public = " + std::to_string(o.n_public) : std::string("2^32"));
  if (o.epsilon < l.min_epsilon)
    throw InputError(
        "params.epsilon",
        "epsilon = " + short_number(o.epsilon) + " is below " + limit_text(l.min_epsilon, true) +
            ", the smallest epsilon whose noise the secure samplers can draw for dp_kmeans here (" + setting +
            "): eps / (T (d' + e0)) must give a snapping-Laplace scale below the sums' bound and a discrete "
            "Laplace count scale of at most 2^40 (dp_kmeans.hpp)",
        "use epsilon >= " + limit_text(l.min_epsilon, true) +
            ", fewer iterations, a larger n_public, or sampler: textbook "
            "(flagged non-private)");
  throw InputError("params.epsilon",
                   "epsilon = " + short_number(o.epsilon) + " is above " + limit_text(l.max_epsilon, false) +
                       ", the largest epsilon the secure snapping mechanism accepts for dp_kmeans here (" + setting +
                       "; Mironov 2012 Theorem 1 needs the sums' bound B < 2^46 lambda)",
                   "use epsilon <= " + limit_text(l.max_epsilon, false) + ", more iterations, or a smaller n_public");
}

DpKmeansResult dp_kmeans(const double* coords, std::size_t n, const Bounds& bounds, const DpKmeansOptions& o, Rng& rng,
                         BudgetLedger& ledger) {
  if (bounds.empty())
    throw InputError("dataset bounds", "DP-k-means needs the public domain bounds of the data",
                     "add bounds: [[lo, hi], ...]");
  if (o.k < 1) throw InputError("params.k", "k must be >= 1");
  if (!(o.epsilon > 0) || !std::isfinite(o.epsilon))
    throw InputError("params.epsilon", "epsilon must be a finite number > 0");
  if (n == 0) throw InputError("dataset", "DP-k-means needs at least one point");
  const std::size_t d = bounds.dims();
  const auto K = static_cast<Idx>(o.k), Dm = static_cast<Idx>(d);
  const bool diffprivlib = o.variant == KmeansVariant::diffprivlib;

  DpKmeansResult r;
  choose_iterations(n, d, o, r, ledger);

  // Sensitivities per dimension: diffprivlib's hi - lo, or half the width of the centred data.
  r.sum_sensitivity.resize(d);
  std::size_t informative = 0;
  double worst_ratio = 0;  // diffprivlib: max_j max(|lo_j|, |hi_j|) / (hi_j - lo_j)
  for (std::size_t j = 0; j < d; ++j) {
    const double width = bounds.hi[j] - bounds.lo[j];
    r.sum_sensitivity[j] = diffprivlib ? width : width / 2.0;
    if (width > 0) {
      ++informative;
      worst_ratio = std::max(worst_ratio, std::max(std::fabs(bounds.lo[j]), std::fabs(bounds.hi[j])) / width);
    }
  }
  if (diffprivlib && o.diffprivlib_split == DiffprivlibSplit::as_run)
    diffprivlib_budget_split_as_run(o.epsilon, r.iterations, d, informative, r.epsilon_sum, r.epsilon_count);
  else kmeans_budget_split(o.epsilon, r.iterations, d, informative, r.epsilon_sum, r.epsilon_count);
  if (!diffprivlib) check_secure_epsilon(o, bounds);

  if (o.initial_centers.size() > 0) {
    if (o.initial_centers.rows() != K || o.initial_centers.cols() != Dm)
      throw InputError("initial_centers", "initial centres must be k x d");
    r.initial_centers = o.initial_centers;
  } else {
    r.initial_centers = place_initial_centers(bounds, o.k, rng);
  }
  r.centers = r.initial_centers;
  r.labels.assign(n, 0);
  r.inertia = assign_nearest(coords, n, d, r.centers, r.labels);
  if (diffprivlib) run_diffprivlib(coords, n, bounds, r, rng, ledger);
  else run_dplloyd(coords, n, bounds, o, r, rng, ledger);
  if (diffprivlib && o.diffprivlib_split == DiffprivlibSplit::as_run)
    record_diffprivlib_split(d, informative, o, r, ledger);

  if (diffprivlib) diffprivlib_gaps(worst_ratio, r);
  return r;
}

}  // namespace dpclust::dpdbscan
