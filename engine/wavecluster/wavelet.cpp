#include "wavecluster/wavelet.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

namespace dpclust::wavecluster {

namespace {
template <class E>
E parse_choice(const std::string& name, const char* what) {
  std::string known;
  for (const auto& [v, n] : ChoiceNames<E>::names) {
    if (n == name) return v;
    known += (known.empty() ? "" : ", ") + std::string(n);
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + name + "' (one of: " + known + ")");
}
}  // namespace

Wavelet parse_wavelet(const std::string& name) { return parse_choice<Wavelet>(name, "wavelet"); }
Boundary parse_boundary(const std::string& name) { return parse_choice<Boundary>(name, "boundary mode"); }

const char* to_string(Wavelet w) { return name_of(w).data(); }  // the table's literals are NUL-terminated
const char* to_string(Boundary b) { return name_of(b).data(); }

LowpassFilter lowpass_filter(Wavelet w) {
  const double s = std::sqrt(2.0);
  switch (w) {
    case Wavelet::haar: return {{s / 2, s / 2}, 0};  // 1/sqrt 2 each
    case Wavelet::bior2_2: return {{-s / 8, s / 4, 3 * s / 4, s / 4, -s / 8}, 2};
    case Wavelet::db2: {  // Daubechies (1988), Table 1, N = 2: (1 +- sqrt3, 3 +- sqrt3) / (4 sqrt2)
      const double r3 = std::sqrt(3.0), d = 4 * s;
      return {{(1 + r3) / d, (3 + r3) / d, (3 - r3) / d, (1 - r3) / d}, 0};
    }
  }
  throw std::logic_error("lowpass_filter: unknown wavelet");
}

namespace {

// Index into [0, n) of virtual sample j under the boundary mode; -1 when it reads a zero.
std::ptrdiff_t boundary_index(std::ptrdiff_t j, std::ptrdiff_t n, Boundary b) {
  if (j >= 0 && j < n) return j;
  switch (b) {
    case Boundary::zero: return -1;
    case Boundary::periodic: return ((j % n) + n) % n;
    case Boundary::symmetric:
      // Half-sample reflection, repeated for filters longer than the signal: period 2n.
      j = ((j % (2 * n)) + 2 * n) % (2 * n);
      return j < n ? j : 2 * n - 1 - j;
  }
  return -1;
}

}  // namespace

void lowpass_1d(const double* x, std::size_t n, std::size_t in_stride, double* y, std::size_t out_stride,
                const LowpassFilter& f, Boundary b) {
  const auto sn = static_cast<std::ptrdiff_t>(n);
  const std::size_t m = (n + 1) / 2;
  const auto taps = static_cast<std::ptrdiff_t>(f.taps.size());
  for (std::size_t i = 0; i < m; ++i) {
    const std::ptrdiff_t first = 2 * static_cast<std::ptrdiff_t>(i) - f.offset;
    double s = 0;
    if (first >= 0 && first + taps <= sn) {  // interior: no boundary lookups
      const double* p = x + static_cast<std::size_t>(first) * in_stride;
      for (std::ptrdiff_t t = 0; t < taps; ++t)
        s += f.taps[static_cast<std::size_t>(t)] * p[static_cast<std::size_t>(t) * in_stride];
    } else {
      for (std::ptrdiff_t t = 0; t < taps; ++t) {
        const std::ptrdiff_t j = boundary_index(first + t, sn, b);
        if (j >= 0) s += f.taps[static_cast<std::size_t>(t)] * x[static_cast<std::size_t>(j) * in_stride];
      }
    }
    y[i * out_stride] = s;
  }
}

std::vector<double> approximation(const std::vector<double>& m, const GridShape& shape, const WaveletSpec& spec) {
  if (m.size() != shape.size()) throw std::invalid_argument("approximation: matrix size does not match its shape");
  if (spec.level < 1) throw std::invalid_argument("wavelet level must be >= 1");
  // Haar is computed as plain block sums (taps 1, 1), scaled once at the end by 2^(-d level / 2):
  // integer counts then give exactly sum / 2^(d level / 2), so equal blocks give bit-identical values.
  // Scaling by 1/sqrt 2 on every axis instead rounds differently per cell and would break the ties
  // that decide which cells are significant (DS3 has 50 cells tied at the threshold).
  const bool haar = spec.wavelet == Wavelet::haar;
  const LowpassFilter f = haar ? LowpassFilter{{1.0, 1.0}, 0} : lowpass_filter(spec.wavelet);
  std::vector<double> cur = m, next;
  std::vector<std::size_t> dims = shape.dims;
  for (int l = 0; l < spec.level; ++l) {
    for (std::size_t a = 0; a < dims.size(); ++a) {
      std::size_t outer = 1, inner = 1;
      for (std::size_t j = 0; j < a; ++j) outer *= dims[j];
      for (std::size_t j = a + 1; j < dims.size(); ++j) inner *= dims[j];
      const std::size_t n = dims[a], h = (n + 1) / 2;
      next.assign(outer * h * inner, 0.0);
      for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t in = 0; in < inner; ++in)
          lowpass_1d(cur.data() + o * n * inner + in, n, inner, next.data() + o * h * inner + in, inner, f,
                     spec.boundary);
      dims[a] = h;
      std::swap(cur, next);
    }
  }
  if (haar) {
    const int halvings = static_cast<int>(dims.size()) * spec.level;  // scale 2^(-halvings / 2)
    const double scale = std::ldexp(halvings % 2 ? std::sqrt(0.5) : 1.0, -(halvings / 2));
    for (double& x : cur) x *= scale;
  }
  return cur;
}

Sensitivity sensitivity(const GridShape& shape, const WaveletSpec& spec) {
  const LowpassFilter f = lowpass_filter(spec.wavelet);
  // Per dimension: the distinct (P, N) sign counts of the columns of the 1-D multi-level map.
  std::vector<std::set<std::pair<long, long>>> per_dim(shape.dims.size());
  for (std::size_t a = 0; a < shape.dims.size(); ++a) {
    const std::size_t n = shape.dims[a];
    std::vector<double> col, out;
    for (std::size_t c = 0; c < n; ++c) {
      col.assign(n, 0.0);
      col[c] = 1.0;
      std::size_t len = n;
      for (int l = 0; l < spec.level; ++l) {
        out.assign((len + 1) / 2, 0.0);
        lowpass_1d(col.data(), len, 1, out.data(), 1, f, spec.boundary);
        col.swap(out);
        len = col.size();
      }
      long p = 0, q = 0;
      for (double v : col) {
        if (v > 1e-12) ++p;
        else if (v < -1e-12) ++q;
      }
      per_dim[a].insert({p, q});
    }
  }
  // Sign counts of an outer product: with T = prod (P_j + N_j) and D = prod (P_j - N_j),
  // P = (T + D) / 2 and N = (T - D) / 2. Enumerate every combination of per-dimension columns.
  Sensitivity s{0, 0};
  std::vector<std::pair<long, long>> acc = {{1, 0}};  // (P, N) of the empty product
  for (const auto& options : per_dim) {
    std::set<std::pair<long, long>> next;
    for (const auto& [p, q] : acc)
      for (const auto& [pj, qj] : options) next.insert({p * pj + q * qj, p * qj + q * pj});
    acc.assign(next.begin(), next.end());
  }
  for (const auto& [p, q] : acc) {
    s.nonpositive_count = std::max(s.nonpositive_count, static_cast<double>(std::max(p, q)));
    s.rank_quality = std::max(s.rank_quality, static_cast<double>(p + q));
  }
  return s;
}

}  // namespace dpclust::wavecluster
