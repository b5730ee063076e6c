// Algorithm 2 (the linear-time DP histogram); see linear_histogram.hpp for the line table.
#include "dpdbscan/linear_histogram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "dpdbscan/flat_map.hpp"

namespace dpclust::dpdbscan {

NoisyHistogram linear_histogram(const CellCounts& counts, const privacy::CountMechanism& mechanism, double theta,
                                const CellStreams& noise, Rng& rng) {
  if (!(theta >= 0) || !std::isfinite(theta)) throw std::invalid_argument("linear_histogram: theta must be >= 0");
  // theta = 0: the smallest positive theta (a released 0 is no release; see the header).
  const double t = theta > 0 ? theta : std::numeric_limits<double>::denorm_min();
  // Line 3.
  NoisyHistogram h;
  h.dense = counts.dense;
  h.linear = true;
  h.universe = counts.universe;
  h.theta = theta;
  const std::uint64_t X = counts.universe;

  // Lines 4-7: noise on each occupied cell, from the cell's own stream (the noise the naive histogram
  // gives it), kept when >= theta.
  CellCursor cursor(noise);
  if (counts.dense) {
    h.dense_values.assign(X, 0.0);
    for (std::uint64_t i = 0; i < X; ++i) {
      if (counts.dense_counts[i] == 0) continue;
      const double v = mechanism.noisy(cursor.at(i), static_cast<double>(counts.dense_counts[i]));
      if (v >= t) {
        h.dense_values[i] = v;
        ++h.released_occupied;
      }
    }
  } else {
    for (std::size_t k = 0; k < counts.codes.size(); ++k) {
      const double v = mechanism.noisy(cursor.at(counts.codes[k]), static_cast<double>(counts.counts[k]));
      if (v >= t) {
        h.codes.push_back(counts.codes[k]);
        h.values.push_back(v);
        ++h.released_occupied;
      }
    }
  }

  // Line 8: M empty cells, each independently above theta with probability p.
  const std::uint64_t M = X - counts.occupied;
  h.p = mechanism.tail_probability(t);
  // Line 9: exact with the secure sampler (geometric skips and an exact thinning, privacy/exact_binomial.hpp).
  const std::uint64_t m = mechanism.count_at_least(rng, M, t);
  h.sampled_empty = m;

  // Lines 10-13: a simple random sample of m empty cells, each with a value from the tail above theta.
  if (counts.dense) {
    std::vector<std::uint64_t> drawn((X + 63) / 64, 0);
    for (std::uint64_t s = 0; s < m; ++s) {
      std::uint64_t j;
      do {
        j = rng.below(X);
      } while (counts.dense_counts[j] != 0 || ((drawn[j >> 6] >> (j & 63)) & 1));
      drawn[j >> 6] |= std::uint64_t{1} << (j & 63);
      h.dense_values[j] = mechanism.draw_tail(rng, t);
    }
  } else {
    FlatMap<char> taken(counts.occupied + m);
    for (std::uint64_t code : counts.codes) taken.insert(code, 1);
    std::vector<std::pair<std::uint64_t, double>> extra;
    extra.reserve(m);
    for (std::uint64_t s = 0; s < m; ++s) {
      std::uint64_t j;
      do {
        j = rng.below(X);
      } while (!taken.insert(j, 1));
      extra.emplace_back(j, mechanism.draw_tail(rng, t));
    }
    // Line 14: the sampled cells merged into the ascending released list.
    std::sort(extra.begin(), extra.end());
    std::vector<std::uint64_t> codes;
    std::vector<double> values;
    codes.reserve(h.codes.size() + extra.size());
    values.reserve(h.codes.size() + extra.size());
    std::size_t a = 0, b = 0;
    while (a < h.codes.size() || b < extra.size()) {
      if (b == extra.size() || (a < h.codes.size() && h.codes[a] < extra[b].first)) {
        codes.push_back(h.codes[a]);
        values.push_back(h.values[a]);
        ++a;
      } else {
        codes.push_back(extra[b].first);
        values.push_back(extra[b].second);
        ++b;
      }
    }
    h.codes.swap(codes);
    h.values.swap(values);
  }
  h.released = h.released_occupied + m;
  return h;
}

}  // namespace dpclust::dpdbscan
