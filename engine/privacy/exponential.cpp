// The exact exponential mechanism; the argument is in exponential.hpp.
#include "privacy/exponential.hpp"

#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "privacy/mechanism.hpp"
#include "privacy/mpfr_scoped.hpp"

namespace dpclust::privacy {

using detail::uint128;

namespace detail {

double dyadic_at_most(double x) {
  if (!(x >= 0) || !std::isfinite(x))
    throw std::invalid_argument("exponential mechanism: gamma must be finite and >= 0");
  if (x < 0x1p-63) return 0.0;
  int e = 0;
  std::frexp(x, &e);                   // x = m 2^e, m in [1/2, 1)
  const int k = std::min(63, 63 - e);  // x 2^k < 2^63
  return std::ldexp(std::floor(std::ldexp(x, k)), -k);
}

uint128 below128(Rng& rng, uint128 n) {
  if (n == 0) throw std::invalid_argument("below128: empty range");
  if ((n >> 64) == 0) return rng.below(static_cast<std::uint64_t>(n));
  // Bit length of n - 1: draw that many bits and reject values >= n (acceptance > 1/2).
  const uint128 top = n - 1;
  const int high_bits = 128 - __builtin_clzll(static_cast<std::uint64_t>(top >> 64));  // 65..128
  const std::uint64_t high_mask = high_bits >= 128 ? ~std::uint64_t{0} : (std::uint64_t{1} << (high_bits - 64)) - 1;
  for (;;) {
    const std::uint64_t hi = rng.next_u64() & high_mask, lo = rng.next_u64();
    const uint128 v = (static_cast<uint128>(hi) << 64) | lo;
    if (v < n) return v;
  }
}

namespace {

void set_u128(mpfr_t out, uint128 q) {  // exact: out has >= 128 bits
  mpfr_set_ui(out, static_cast<unsigned long>(q >> 64), MPFR_RNDN);
  mpfr_mul_2ui(out, out, 64, MPFR_RNDN);
  mpfr_add_ui(out, out, static_cast<unsigned long>(q & ~std::uint64_t{0}), MPFR_RNDN);
}

// Bounds of p = 2^40 count exp(-x) / q at precision `prec`, rounding towards `rnd`.
void bound(mpfr_t out, const mpfr_t neg_x, std::uint64_t count, const mpfr_t q, mpfr_rnd_t rnd) {
  mpfr_exp(out, neg_x, rnd);
  mpfr_mul_ui(out, out, static_cast<unsigned long>(count), rnd);
  mpfr_mul_2ui(out, out, 40, rnd);
  mpfr_div(out, out, q, rnd);
}

}  // namespace

bool bernoulli_exp_ratio(Rng& rng, double gamma, std::uint64_t delta, std::uint64_t count, uint128 q) {
  static_assert(sizeof(unsigned long) == 8, "MPFR's _ui functions must take 64-bit values");
  // x = gamma delta exactly: gamma has at most 63 significant bits after dyadic_at_most (53 as a
  // double), delta at most 41: 128 bits hold the product.
  Mpfr neg_x(192), qf(192);
  mpfr_set_d(neg_x.v, gamma, MPFR_RNDN);
  mpfr_mul_ui(neg_x.v, neg_x.v, static_cast<unsigned long>(delta), MPFR_RNDN);
  mpfr_neg(neg_x.v, neg_x.v, MPFR_RNDN);
  set_u128(qf.v, q);
  // V uniform on [0, 1), its bits drawn 64 at a time: V in [v / 2^k, (v + 1) / 2^k).
  Mpz v;
  unsigned long k = 0;
  for (mpfr_prec_t prec = 64; prec <= (mpfr_prec_t{1} << 16); prec *= 2) {
    Mpfr lo(prec), hi(prec);
    bound(lo.v, neg_x.v, count, qf.v, MPFR_RNDD);
    bound(hi.v, neg_x.v, count, qf.v, MPFR_RNDU);
    if (mpfr_cmp_ui(lo.v, 1) > 0)
      throw std::logic_error(
          "exponential mechanism: the proposal does not dominate the target (a bug; nothing was released)");
    // Enough bits of V to resolve to about the precision of the bounds.
    while (k < static_cast<unsigned long>(prec)) {
      mpz_mul_2exp(v.v, v.v, 64);
      mpz_add_ui(v.v, v.v, static_cast<unsigned long>(rng.next_u64()));
      k += 64;
    }
    Mpfr v_lo(static_cast<mpfr_prec_t>(k) + 2), v_hi(static_cast<mpfr_prec_t>(k) + 2);
    mpfr_set_z(v_lo.v, v.v, MPFR_RNDN);  // exact (k + 2 bits)
    mpfr_div_2ui(v_lo.v, v_lo.v, k, MPFR_RNDN);
    mpfr_set_z(v_hi.v, v.v, MPFR_RNDN);
    mpfr_add_ui(v_hi.v, v_hi.v, 1, MPFR_RNDN);
    mpfr_div_2ui(v_hi.v, v_hi.v, k, MPFR_RNDN);
    if (mpfr_cmp(v_hi.v, lo.v) <= 0) return true;   // V < (v + 1) / 2^k <= p
    if (mpfr_cmp(v_lo.v, hi.v) >= 0) return false;  // V >= v / 2^k >= p
  }
  // Reaching here needs V to agree with p on 2^16 bits: probability about 2^-65536.
  throw std::runtime_error("exponential mechanism: the exact comparison did not resolve (nothing was released)");
}

}  // namespace detail

namespace {

double gamma_for(double epsilon, double quality_sensitivity) {
  if (!(quality_sensitivity > 0) || !std::isfinite(quality_sensitivity))
    throw std::invalid_argument("exponential mechanism: the quality sensitivity must be finite and > 0");
  // eps / (2 Delta_q), one step below the rounded quotient so it is never above the exact value, then
  // down to a dyadic with a 63-bit numerator: never more concentrated than the budget allows.
  const double q = epsilon / (2.0 * quality_sensitivity);
  return detail::dyadic_at_most(std::nextafter(q, 0.0));
}

}  // namespace

ExponentialMechanism ExponentialMechanism::unrecorded(double epsilon, double quality_sensitivity, double noise_scale) {
  if (!(epsilon > 0) || !std::isfinite(epsilon))
    throw std::invalid_argument("exponential mechanism: epsilon must be finite and > 0");
  ExponentialMechanism m;
  if (noise_scale == 0) {
    m.noiseless_ = true;
    return m;
  }
  m.gamma_ = gamma_for(epsilon / noise_scale, quality_sensitivity);
  return m;
}

ExponentialMechanism ExponentialMechanism::build(BudgetLedger& ledger, double epsilon, double quality_sensitivity,
                                                 std::string step, std::string note) {
  ExponentialMechanism m = unrecorded(epsilon, quality_sensitivity, ledger.noise_scale());
  charge(ledger, std::move(step), epsilon, "exponential_exact", quality_sensitivity, "utility", std::move(note));
  return m;
}

namespace {
void check_blocks(const std::vector<std::uint64_t>& counts, const std::vector<std::uint64_t>& distance) {
  if (counts.size() != distance.size() || counts.empty())
    throw std::invalid_argument("exponential mechanism: one count and one distance per block, at least one block");
  bool any = false;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    if (counts[b] > (std::uint64_t{1} << 40) || distance[b] > (std::uint64_t{1} << 40))
      throw std::invalid_argument("exponential mechanism: a block count or distance above 2^40");
    any = any || counts[b] > 0;
  }
  if (!any) throw std::invalid_argument("exponential mechanism: every block is empty");
}
}  // namespace

ExponentialMechanism::Choice ExponentialMechanism::choose(const std::vector<std::uint64_t>& counts,
                                                          const std::vector<std::uint64_t>& distance, Rng& rng) const {
  check_blocks(counts, distance);
  const std::size_t m = counts.size();
  std::uint64_t d_min = std::numeric_limits<std::uint64_t>::max();
  std::size_t nearest = m;
  for (std::size_t b = 0; b < m; ++b)
    if (counts[b] > 0 && distance[b] < d_min) d_min = distance[b], nearest = b;
  Choice c;
  if (noiseless_) {  // the noiseless limit: the first non-empty block at the smallest distance
    c.block = nearest;
    c.offset = rng.below(counts[nearest]);
    return c;
  }
  // Proposal weights Q_b >= T_b = 2^40 counts[b] exp(-gamma (distance[b] - d_min)) (see the header).
  std::vector<uint128> q(m, 0);
  uint128 total = 0;
  for (std::size_t b = 0; b < m; ++b) {
    if (counts[b] == 0) continue;
    const double t =
        std::ldexp(static_cast<double>(counts[b]), 40) * std::exp(-(gamma_ * static_cast<double>(distance[b] - d_min)));
    q[b] = static_cast<uint128>(std::floor(t * (1.0 + 0x1p-30))) + 1;
    total += q[b];
  }
  for (int attempt = 0; attempt < 1'000'000; ++attempt) {
    uint128 u = detail::below128(rng, total);
    std::size_t b = 0;
    while (u >= q[b]) u -= q[b++];
    if (detail::bernoulli_exp_ratio(rng, gamma_, distance[b] - d_min, counts[b], q[b])) {
      c.block = b;
      c.offset = rng.below(counts[b]);
      return c;
    }
  }
  // Acceptance is above 1 - 2^-29 per proposal: a million rejections means a broken generator.
  throw std::runtime_error("exponential mechanism: a million proposals rejected (nothing was released)");
}

std::vector<double> ExponentialMechanism::block_probabilities(const std::vector<std::uint64_t>& counts,
                                                              const std::vector<std::uint64_t>& distance) const {
  check_blocks(counts, distance);
  std::vector<double> p(counts.size(), 0.0);
  std::vector<long double> lw(counts.size(), -std::numeric_limits<long double>::infinity());
  long double mx = -std::numeric_limits<long double>::infinity();
  std::uint64_t d_min = std::numeric_limits<std::uint64_t>::max();
  for (std::size_t b = 0; b < counts.size(); ++b)
    if (counts[b] > 0) d_min = std::min(d_min, distance[b]);
  if (noiseless_) {  // the first non-empty block at the smallest distance, with certainty
    for (std::size_t b = 0; b < counts.size(); ++b)
      if (counts[b] > 0 && distance[b] == d_min) {
        p[b] = 1.0;
        break;
      }
    return p;
  }
  for (std::size_t b = 0; b < counts.size(); ++b) {
    if (counts[b] == 0) continue;
    lw[b] = std::log(static_cast<long double>(counts[b])) -
            static_cast<long double>(gamma_) * static_cast<long double>(distance[b]);
    mx = std::max(mx, lw[b]);
  }
  long double total = 0;
  std::vector<long double> w(counts.size(), 0.0L);
  for (std::size_t b = 0; b < counts.size(); ++b) total += (w[b] = std::isinf(lw[b]) ? 0.0L : std::exp(lw[b] - mx));
  for (std::size_t b = 0; b < counts.size(); ++b) p[b] = static_cast<double>(w[b] / total);
  return p;
}

}  // namespace dpclust::privacy
