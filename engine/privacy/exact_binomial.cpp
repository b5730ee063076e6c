// m ~ Bin(M, Pr[Z >= k]) drawn exactly; the argument is in exact_binomial.hpp.
#include "privacy/exact_binomial.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "privacy/mpfr_scoped.hpp"

namespace dpclust::privacy {

namespace {

using detail::Mpfr;
using detail::Mpz;
__extension__ typedef unsigned __int128 wide_t;  // the 2^64-scaled bounds of the thinning probability

constexpr std::uint64_t kMaxCandidateT = std::uint64_t{1} << 62;

mpfr_rnd_t opposite(mpfr_rnd_t r) { return r == MPFR_RNDD ? MPFR_RNDU : MPFR_RNDD; }

void check_param(ExactNoise noise, Rational p) {
  const char* what = noise == ExactNoise::discrete_laplace ? "scale" : "sigma2";
  if (p.num == 0 || p.den == 0 || static_cast<wide_t>(p.num) > static_cast<wide_t>(p.den) << 40)
    throw std::invalid_argument(std::string("binomial_tail_count: the ") + what + " " + std::to_string(p.num) + "/" +
                                std::to_string(p.den) + " must be a positive rational of at most 2^40");
}

// out = (a * b) / c rounded in `rnd`, a * b computed exactly (both below 2^64).
void ratio_of_product(mpfr_t out, std::uint64_t a, std::uint64_t b, std::uint64_t c, mpfr_rnd_t rnd) {
  Mpfr prod(192);
  mpfr_set_ui(prod.v, a, MPFR_RNDN);
  mpfr_mul_ui(prod.v, prod.v, b, MPFR_RNDN);  // exact: < 2^128 in 192 bits
  mpfr_div_ui(out, prod.v, c, rnd);
}

// q^j / (1 + q) for the discrete Laplace of scale num/den (q = exp(-den/num)), j >= 0, rounded towards `rnd`
// (MPFR_RNDD: a lower bound, MPFR_RNDU: an upper bound).
void laplace_upper_tail(mpfr_t out, Rational s, std::uint64_t j, mpfr_rnd_t rnd) {
  const mpfr_prec_t prec = mpfr_get_prec(out);
  const mpfr_rnd_t away = opposite(rnd);
  Mpfr a(prec), b(prec), num(prec), den(prec);
  ratio_of_product(a.v, j, s.den, s.num, away);  // a = j / scale, rounded so that exp(-a) errs towards rnd
  mpfr_neg(a.v, a.v, MPFR_RNDN);
  mpfr_exp(num.v, a.v, rnd);
  ratio_of_product(b.v, 1, s.den, s.num, rnd);  // b = 1 / scale: 1 + exp(-b) errs away from rnd
  mpfr_neg(b.v, b.v, MPFR_RNDN);
  mpfr_exp(den.v, b.v, away);
  mpfr_add_ui(den.v, den.v, 1, away);
  mpfr_div(out, num.v, den.v, rnd);
}

// Pr[Z >= k], Z discrete Laplace (exact_binomial.hpp), rounded towards `rnd`.
void laplace_tail(mpfr_t out, Rational s, std::int64_t k, mpfr_rnd_t rnd) {
  if (k >= 0) return laplace_upper_tail(out, s, static_cast<std::uint64_t>(k), rnd);
  // 1 - q^(1-k) / (1 + q): the subtracted term rounded the other way.
  const auto j = static_cast<std::uint64_t>(1) - static_cast<std::uint64_t>(k);  // 1 - k, exact for every k < 0
  Mpfr t(mpfr_get_prec(out));
  laplace_upper_tail(t.v, s, j, opposite(rnd));
  mpfr_ui_sub(out, 1, t.v, rnd);
}

// The Gaussian's sums: term(z) = exp(-z^2 / (2 sigma^2)) with sigma^2 = num/den.
struct GaussianSums {
  Rational s2;
  mpfr_prec_t prec;

  // exp(-x) for x = (a^2 den) / (2 num), rounded towards rnd (a^2 den < 2^190: exact in 256 bits).
  void term(mpfr_t out, std::uint64_t a, mpfr_rnd_t rnd) const {
    Mpfr x(256);
    mpfr_set_ui(x.v, a, MPFR_RNDN);
    mpfr_mul_ui(x.v, x.v, a, MPFR_RNDN);
    mpfr_mul_ui(x.v, x.v, s2.den, MPFR_RNDN);
    Mpfr y(prec);
    mpfr_div_ui(y.v, x.v, s2.num, opposite(rnd));
    mpfr_div_2ui(y.v, y.v, 1, opposite(rnd));
    mpfr_neg(y.v, y.v, MPFR_RNDN);
    mpfr_exp(out, y.v, rnd);
  }

  // sum_{z = from}^{to - 1} term(z) rounded towards rnd, by the recurrence term(z + 1) = term(z) f(z),
  // f(z) = exp(-(2z + 1) / (2 sigma^2)), f(z + 1) = f(z) exp(-1 / sigma^2): every factor positive and every
  // step rounded the same way, so the result is a bound in that direction.
  void partial(mpfr_t out, std::uint64_t from, std::uint64_t to, mpfr_rnd_t rnd) const {
    mpfr_set_ui(out, 0, MPFR_RNDN);
    if (from >= to) return;
    Mpfr t(prec), f(prec), g(prec), x(prec);
    term(t.v, from, rnd);
    ratio_of_product(x.v, 2 * from + 1, s2.den, s2.num, opposite(rnd));  // (2 from + 1) / sigma^2 ...
    mpfr_div_2ui(x.v, x.v, 1, opposite(rnd));                            // ... / 2
    mpfr_neg(x.v, x.v, MPFR_RNDN);
    mpfr_exp(f.v, x.v, rnd);
    ratio_of_product(x.v, 1, s2.den, s2.num, opposite(rnd));
    mpfr_neg(x.v, x.v, MPFR_RNDN);
    mpfr_exp(g.v, x.v, rnd);
    for (std::uint64_t z = from; z < to; ++z) {
      mpfr_add(out, out, t.v, rnd);
      mpfr_mul(t.v, t.v, f.v, rnd);
      mpfr_mul(f.v, f.v, g.v, rnd);
    }
  }

  // Where the direct sum from k can stop: the first Z with term(Z) below 2^-(prec + 8) term(k), i.e.
  // (Z^2 - k^2) / (2 sigma^2) > (prec + 8) ln 2 (estimated in doubles, then one more term: only the cost
  // depends on it, the remainder bound below is rigorous for any Z).
  std::uint64_t cutoff(std::uint64_t k) const {
    const double sigma2 = static_cast<double>(s2.num) / static_cast<double>(s2.den);
    const double kd = static_cast<double>(k);
    const double z = std::sqrt(kd * kd + 2.0 * sigma2 * static_cast<double>(prec + 8) * std::log(2.0));
    return std::max<std::uint64_t>(k + 1, static_cast<std::uint64_t>(std::ceil(z)) + 1);
  }

  // T(k) = sum_{z >= k} term(z), k >= 1, summed directly to Z = cutoff(k); the rest R lies in
  // [0, term(Z) / (1 - rho)], rho = exp(-(2Z + 1) / (2 sigma^2)) >= term(z + 1) / term(z) for z >= Z.
  void tail_direct(mpfr_t out, std::uint64_t k, mpfr_rnd_t rnd) const {
    const std::uint64_t Z = cutoff(k);
    partial(out, k, Z, rnd);
    if (rnd == MPFR_RNDD) return;
    Mpfr tz(prec), rho(prec), x(prec);
    term(tz.v, Z, MPFR_RNDU);
    ratio_of_product(x.v, 2 * Z + 1, s2.den, s2.num, MPFR_RNDD);
    mpfr_div_2ui(x.v, x.v, 1, MPFR_RNDD);
    mpfr_neg(x.v, x.v, MPFR_RNDN);
    mpfr_exp(rho.v, x.v, MPFR_RNDU);
    mpfr_ui_sub(rho.v, 1, rho.v, MPFR_RNDD);  // 1 - rho, rounded down
    mpfr_div(tz.v, tz.v, rho.v, MPFR_RNDU);
    mpfr_add(out, out, tz.v, MPFR_RNDU);
  }

  // N = sum_z term(z), rounded towards rnd.
  void normaliser(mpfr_t out, mpfr_rnd_t rnd) const {
    if (s2.num < s2.den) {  // sigma^2 < 1: 1 + 2 T(1), which converges fast
      tail_direct(out, 1, rnd);
      mpfr_mul_2ui(out, out, 1, rnd);
      mpfr_add_ui(out, out, 1, rnd);
      return;
    }
    // Poisson summation: N = sqrt(2 pi sigma^2) (1 + 2 S), S = sum_{m >= 1} e1^(m^2), e1 = exp(-2 pi^2 sigma^2),
    // e1 <= S <= e1 / (1 - e1^3) (m^2 - 1 >= 3 (m - 1)).
    const mpfr_rnd_t away = opposite(rnd);
    Mpfr pi(prec), sq(prec), x(prec), e1(prec);
    mpfr_const_pi(pi.v, rnd);
    mpfr_mul_ui(sq.v, pi.v, s2.num, rnd);  // 2 pi num / den
    mpfr_mul_2ui(sq.v, sq.v, 1, rnd);
    mpfr_div_ui(sq.v, sq.v, s2.den, rnd);
    mpfr_sqrt(sq.v, sq.v, rnd);
    mpfr_const_pi(pi.v, away);
    mpfr_sqr(x.v, pi.v, away);  // 2 pi^2 num / den, rounded away so that e1 errs towards rnd
    mpfr_mul_ui(x.v, x.v, s2.num, away);
    mpfr_mul_2ui(x.v, x.v, 1, away);
    mpfr_div_ui(x.v, x.v, s2.den, away);
    mpfr_neg(x.v, x.v, MPFR_RNDN);
    mpfr_exp(e1.v, x.v, rnd);
    if (rnd == MPFR_RNDU) {
      Mpfr c(prec);
      mpfr_pow_ui(c.v, e1.v, 3, MPFR_RNDU);  // 1 - e1^3 rounded down
      mpfr_ui_sub(c.v, 1, c.v, MPFR_RNDD);
      mpfr_div(e1.v, e1.v, c.v, MPFR_RNDU);
    }
    mpfr_mul_2ui(e1.v, e1.v, 1, rnd);
    mpfr_add_ui(e1.v, e1.v, 1, rnd);
    mpfr_mul(out, sq.v, e1.v, rnd);
  }

  // T(k), k >= 1: directly, or as (N - 1) / 2 - sum_{z=1}^{k-1} term(z) when that has fewer terms.
  void tail(mpfr_t out, std::uint64_t k, mpfr_rnd_t rnd) const {
    if (k - 1 >= cutoff(k) - k) return tail_direct(out, k, rnd);
    Mpfr head(prec);
    partial(head.v, 1, k, opposite(rnd));
    normaliser(out, rnd);
    mpfr_sub_ui(out, out, 1, rnd);
    mpfr_div_2ui(out, out, 1, rnd);
    mpfr_sub(out, out, head.v, rnd);
    if (mpfr_sgn(out) < 0) mpfr_set_ui(out, 0, MPFR_RNDN);  // a lower bound below 0 says nothing more than 0
  }
};

// Pr[Z >= k] for the discrete Gaussian, rounded towards `rnd`.
void gaussian_tail(mpfr_t out, Rational s2, std::int64_t k, mpfr_rnd_t rnd) {
  const mpfr_prec_t prec = mpfr_get_prec(out);
  const GaussianSums g{s2, prec};
  // By symmetry Pr[Z >= k] = 1 - Pr[Z >= 1 - k] for k <= 0.
  const bool upper = k >= 1;
  const std::uint64_t j =
      upper ? static_cast<std::uint64_t>(k) : static_cast<std::uint64_t>(1) - static_cast<std::uint64_t>(k);
  const mpfr_rnd_t dir = upper ? rnd : opposite(rnd);  // the direction of T(j) / N
  Mpfr t(prec), n(prec);
  g.tail(t.v, j, dir);
  g.normaliser(n.v, opposite(dir));
  mpfr_div(out, t.v, n.v, dir);
  if (!upper) mpfr_ui_sub(out, 1, out, rnd);
}

void tail_bound(mpfr_t out, ExactNoise noise, Rational param, std::int64_t k, mpfr_rnd_t rnd) {
  if (noise == ExactNoise::discrete_laplace) laplace_tail(out, param, k, rnd);
  else gaussian_tail(out, param, k, rnd);
}

// Bounds of the thinning probability r = p / c, c = 1 - exp(-1/t) (c = 1 for t = 0).
void thinning_bounds(mpfr_t lo, mpfr_t hi, ExactNoise noise, Rational param, std::int64_t k, std::uint64_t t) {
  tail_bound(lo, noise, param, k, MPFR_RNDD);
  tail_bound(hi, noise, param, k, MPFR_RNDU);
  if (t == 0) return;
  const mpfr_prec_t prec = mpfr_get_prec(lo);
  Mpfr x(prec), c(prec);
  // c_hi: 1/t rounded up, expm1(-x) rounded down; c_lo the other way. lo /= c_hi, hi /= c_lo.
  mpfr_set_ui(x.v, 1, MPFR_RNDN);
  mpfr_div_ui(x.v, x.v, t, MPFR_RNDU);
  mpfr_neg(x.v, x.v, MPFR_RNDN);
  mpfr_expm1(c.v, x.v, MPFR_RNDD);
  mpfr_neg(c.v, c.v, MPFR_RNDN);
  mpfr_div(lo, lo, c.v, MPFR_RNDD);
  mpfr_set_ui(x.v, 1, MPFR_RNDN);
  mpfr_div_ui(x.v, x.v, t, MPFR_RNDD);
  mpfr_neg(x.v, x.v, MPFR_RNDN);
  mpfr_expm1(c.v, x.v, MPFR_RNDU);
  mpfr_neg(c.v, c.v, MPFR_RNDN);
  mpfr_div(hi, hi, c.v, MPFR_RNDU);
}

// floor (or ceil) of x 2^64 for x in [0, 1], as a 65-bit integer.
wide_t scaled_64(const mpfr_t x, mpfr_rnd_t rnd) {
  if (mpfr_cmp_ui(x, 1) >= 0) return static_cast<wide_t>(1) << 64;
  if (mpfr_sgn(x) <= 0) return 0;
  Mpfr y(mpfr_get_prec(x) + 64);
  mpfr_mul_2ui(y.v, x, 64, MPFR_RNDN);  // exact
  mpfr_rint(y.v, y.v, rnd);             // exact integer in [0, 2^64]
  if (mpfr_cmp_ui_2exp(y.v, 1, 64) >= 0) return static_cast<wide_t>(1) << 64;
  return static_cast<wide_t>(mpfr_get_ui(y.v, MPFR_RNDN));  // unsigned long: 64 bits (exponential.cpp asserts it)
}

// Bernoulli(r) with r known through thinning_bounds: the fast decision on one random word against the
// 128-bit bounds, else the lazy comparison at increasing precision.
class Thinning {
 public:
  Thinning(ExactNoise noise, Rational param, std::int64_t k, std::uint64_t t, wide_t lo64, wide_t hi64)
      : noise_(noise), param_(param), k_(k), t_(t), lo64_(lo64), hi64_(hi64) {}

  bool draw(Rng& rng) const {
    const std::uint64_t w = rng.next_u64();  // U in [w, w + 1) / 2^64
    if (static_cast<wide_t>(w) + 1 <= lo64_) return true;
    if (static_cast<wide_t>(w) >= hi64_) return false;
    return slow(rng, w);
  }

 private:
  bool slow(Rng& rng, std::uint64_t first_word) const {
    Mpz v;
    mpz_set_ui(v.v, first_word);
    unsigned long bits = 64;
    for (mpfr_prec_t prec = 256; prec <= (mpfr_prec_t{1} << 16); prec *= 2) {
      Mpfr lo(prec), hi(prec);
      thinning_bounds(lo.v, hi.v, noise_, param_, k_, t_);
      while (bits < static_cast<unsigned long>(prec)) {
        mpz_mul_2exp(v.v, v.v, 64);
        mpz_add_ui(v.v, v.v, rng.next_u64());
        bits += 64;
      }
      Mpfr u_lo(static_cast<mpfr_prec_t>(bits) + 2), u_hi(static_cast<mpfr_prec_t>(bits) + 2);
      mpfr_set_z(u_lo.v, v.v, MPFR_RNDN);  // exact
      mpfr_div_2ui(u_lo.v, u_lo.v, bits, MPFR_RNDN);
      mpfr_set_z(u_hi.v, v.v, MPFR_RNDN);
      mpfr_add_ui(u_hi.v, u_hi.v, 1, MPFR_RNDN);
      mpfr_div_2ui(u_hi.v, u_hi.v, bits, MPFR_RNDN);
      if (mpfr_cmp(u_hi.v, lo.v) <= 0) return true;   // U < u_hi <= r
      if (mpfr_cmp(u_lo.v, hi.v) >= 0) return false;  // U >= u_lo >= r
    }
    // U agreeing with r on 2^16 bits: probability about 2^-65536.
    throw std::runtime_error("binomial_tail_count: the exact comparison did not resolve (nothing was released)");
  }

  ExactNoise noise_;
  Rational param_;
  std::int64_t k_;
  std::uint64_t t_;
  wide_t lo64_, hi64_;
};

double tail_estimate(ExactNoise noise, Rational param, std::int64_t k) {
  const double x = static_cast<double>(param.num) / static_cast<double>(param.den);
  return noise == ExactNoise::discrete_laplace ? discrete_laplace_tail_probability(x, k)
                                               : discrete_gaussian_tail_probability(x, k);
}

}  // namespace

namespace detail {

std::uint64_t candidate_t(double p) {
  if (p > 0.5) return 0;
  if (!(p > 0)) return kMaxCandidateT;
  // c = 1 - exp(-1/t) >= p  <=>  1/t >= -ln(1 - p): t = floor(1 / -ln(1 - p)), p taken 2^-20 larger so that
  // an estimate a little below the true p still gives c >= p (binomial_tail_count checks it exactly).
  const double x = -std::log1p(-p * (1 + 0x1p-20));
  const double inv = 1.0 / x;
  if (!(inv < static_cast<double>(kMaxCandidateT))) return kMaxCandidateT;
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::floor(inv)));
}

void tail_probability_bounds(ExactNoise noise, Rational param, std::int64_t k, long bits, double& lo, double& hi) {
  check_param(noise, param);
  Mpfr l(bits), h(bits);
  tail_bound(l.v, noise, param, k, MPFR_RNDD);
  tail_bound(h.v, noise, param, k, MPFR_RNDU);
  lo = mpfr_get_d(l.v, MPFR_RNDD);
  hi = mpfr_get_d(h.v, MPFR_RNDU);
}

}  // namespace detail

std::uint64_t binomial_tail_count(Rng& rng, std::uint64_t trials, ExactNoise noise, Rational param, std::int64_t k) {
  check_param(noise, param);
  if (trials == 0) return 0;
  // Step 1's t, certified: r = p / c <= 1 must hold exactly (r_hi <= 1); a larger c (smaller t) otherwise.
  std::uint64_t t = detail::candidate_t(tail_estimate(noise, param, k));
  wide_t lo64 = 0, hi64 = 0;
  for (;;) {
    Mpfr lo(128), hi(128);
    thinning_bounds(lo.v, hi.v, noise, param, k, t);
    if (t == 0 || mpfr_cmp_ui(hi.v, 1) <= 0) {
      lo64 = scaled_64(lo.v, MPFR_RNDD);
      hi64 = scaled_64(hi.v, MPFR_RNDU);
      break;
    }
    t /= 2;
  }
  const Thinning thin(noise, param, k, t, lo64, hi64);
  std::uint64_t count = 0, pos = 0;  // pos: the trials scanned so far
  for (;;) {
    if (t > 0) {
      const std::uint64_t gap = geometric_failures(rng, t);
      if (gap >= trials - pos) break;
      pos += gap;
    }
    count += thin.draw(rng);  // trial `pos` is a candidate
    if (++pos == trials) break;
  }
  return count;
}

}  // namespace dpclust::privacy
