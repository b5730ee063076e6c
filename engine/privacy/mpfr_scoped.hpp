#pragma once
// Scoped MPFR and GMP numbers for the exact samplers that compare a uniform with bounds computed by MPFR
// with directed rounding (exponential.cpp, exact_binomial.cpp). Internal to engine/privacy.
#include <gmp.h>
#include <mpfr.h>

namespace dpclust::privacy::detail {

struct Mpfr {
  mpfr_t v;
  explicit Mpfr(mpfr_prec_t prec) { mpfr_init2(v, prec); }
  ~Mpfr() { mpfr_clear(v); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
};

struct Mpz {
  mpz_t v;
  Mpz() { mpz_init(v); }
  ~Mpz() { mpz_clear(v); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
};

}  // namespace dpclust::privacy::detail
