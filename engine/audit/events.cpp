// Screening, event choice and counting; see events.hpp.
#include "audit/events.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>

#include "audit/clopper_pearson.hpp"

namespace dpclust::audit {
namespace {

struct Column {
  std::vector<double> values;  // non-missing, sorted
  std::size_t missing = 0, runs = 0;
};

Column column(const FeatureMatrix& m, std::size_t f, std::size_t from, std::size_t to) {
  Column c;
  c.runs = to - from;
  c.values.reserve(c.runs);
  for (std::size_t r = from; r < to; ++r) {
    const double v = m.at(r, f);
    if (std::isnan(v)) ++c.missing;
    else c.values.push_back(v);
  }
  std::sort(c.values.begin(), c.values.end());
  return c;
}

std::size_t count_ge(const Column& c, double t) {
  return static_cast<std::size_t>(c.values.end() - std::lower_bound(c.values.begin(), c.values.end(), t));
}
std::size_t count_le(const Column& c, double t) {
  return static_cast<std::size_t>(std::upper_bound(c.values.begin(), c.values.end(), t) - c.values.begin());
}
std::size_t count_eq(const Column& c, double v) {
  const auto r = std::equal_range(c.values.begin(), c.values.end(), v);
  return static_cast<std::size_t>(r.second - r.first);
}

// The most frequent value of a sorted column and its count.
std::pair<double, std::size_t> mode_of(const Column& c) {
  double best = std::numeric_limits<double>::quiet_NaN();
  std::size_t best_n = 0;
  for (std::size_t i = 0; i < c.values.size();) {
    std::size_t j = i;
    while (j < c.values.size() && c.values[j] == c.values[i]) ++j;
    if (j - i > best_n) best_n = j - i, best = c.values[i];
    i = j;
  }
  return {best, best_n};
}

void mean_var(const Column& c, double& mean, double& var) {
  mean = 0;
  var = 0;
  if (c.values.empty()) return;
  for (double v : c.values) mean += v;
  mean /= static_cast<double>(c.values.size());
  for (double v : c.values) var += (v - mean) * (v - mean);
  var /= static_cast<double>(c.values.size());
}

std::vector<std::size_t> top(const std::vector<double>& score, std::size_t k) {
  std::vector<std::size_t> idx(score.size());
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
  std::vector<std::size_t> out;
  for (std::size_t i : idx) {
    if (out.size() >= k || !(score[i] > 0)) break;
    out.push_back(i);
  }
  return out;
}

}  // namespace

const char* to_string(EventKind k) {
  switch (k) {
    case EventKind::ge: return ">=";
    case EventKind::le: return "<=";
    case EventKind::eq: return "==";
    case EventKind::missing: return "missing";
    case EventKind::in_set: return "in";
  }
  return "?";
}

bool Event::contains(double v) const {
  switch (kind) {
    case EventKind::ge: return v >= threshold;  // NaN: false
    case EventKind::le: return v <= threshold;
    case EventKind::eq: return v == threshold;
    case EventKind::missing: return std::isnan(v);
    case EventKind::in_set: return std::binary_search(values.begin(), values.end(), v);  // NaN: false
  }
  return false;
}

std::string event_family(const Event& e, Representation rep) {
  return e.kind == EventKind::in_set ? "support" : family_of(rep);
}

std::string describe_event(const std::string& column, const Event& e) {
  std::ostringstream s;
  s.precision(17);
  s << column << " " << to_string(e.kind);
  if (e.kind == EventKind::in_set) s << " {" << e.values.size() << (e.values.size() == 1 ? " value}" : " values}");
  else if (e.kind != EventKind::missing) s << " " << e.threshold;
  return s.str();
}

std::vector<std::size_t> screen_features(const FeatureMatrix& d, const FeatureMatrix& dp, std::size_t per_criterion) {
  const std::size_t F = d.features;
  std::vector<double> mean_gap(F, 0), missing_gap(F, 0), atom_gap(F, 0);
  for (std::size_t f = 0; f < F; ++f) {
    const Column a = column(d, f, 0, d.runs), b = column(dp, f, 0, dp.runs);
    missing_gap[f] = std::fabs(static_cast<double>(a.missing) / static_cast<double>(a.runs) -
                               static_cast<double>(b.missing) / static_cast<double>(b.runs));
    if (a.values.empty() || b.values.empty()) continue;
    double ma, va, mb, vb;
    mean_var(a, ma, va);
    mean_var(b, mb, vb);
    const double pooled = std::sqrt(0.5 * (va + vb));
    if (pooled > 0) mean_gap[f] = std::fabs(ma - mb) / pooled;
    else if (ma != mb) mean_gap[f] = std::numeric_limits<double>::max();  // two different constants
    for (const Column* side : {&a, &b}) {
      const auto [v, n] = mode_of(*side);
      if (n < 2) continue;
      const double fa = static_cast<double>(count_eq(a, v)) / static_cast<double>(a.runs);
      const double fb = static_cast<double>(count_eq(b, v)) / static_cast<double>(b.runs);
      atom_gap[f] = std::max(atom_gap[f], std::fabs(fa - fb));
    }
  }
  std::vector<std::size_t> out;
  for (const auto* score : {&mean_gap, &missing_gap, &atom_gap})
    for (std::size_t f : top(*score, per_criterion))
      if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
// Integer-valued in the pilot: every finite value an integer of magnitude <= 2^53 (there mod m is exact).
bool integer_valued(const Column& a, const Column& b) {
  for (const Column* c : {&a, &b})
    for (double v : c->values)
      if (std::isfinite(v) && (v != std::nearbyint(v) || std::fabs(v) > 9007199254740992.0)) return false;
  return true;
}
}  // namespace

std::vector<FeatureRef> screen_representations(const FeatureMatrix& d, const FeatureMatrix& dp,
                                               std::size_t per_criterion) {
  constexpr double kMinZ = 3.0;
  struct Scored {
    double z;
    FeatureRef ref;
  };
  std::vector<Scored> scored, real_features;  // real_features: {best z of the feature, {feature, value}}
  std::vector<double> ra, rb;
  for (std::size_t f = 0; f < d.features; ++f) {
    const Column a = column(d, f, 0, d.runs), b = column(dp, f, 0, dp.runs);
    if (a.values.empty() || b.values.empty()) continue;
    if (a.values.front() == a.values.back() && b.values.front() == b.values.back() &&
        a.values.front() == b.values.front())
      continue;
    const bool integer = integer_valued(a, b);
    double feature_best = 0;
    for (Representation rep : representations_for(integer)) {
      ra.clear();
      rb.clear();
      // Non-finite values have no representation (NaN): left out, as missing values are (NaN cannot be sorted).
      for (double v : a.values)
        if (const double x = represent(rep, v); !std::isnan(x)) ra.push_back(x);
      for (double v : b.values)
        if (const double x = represent(rep, v); !std::isnan(x)) rb.push_back(x);
      std::sort(ra.begin(), ra.end());
      std::sort(rb.begin(), rb.end());
      // Two-proportion z over the distinct values: atoms (== v) and upper sets (>= v), runs as denominators.
      const double na = static_cast<double>(a.runs), nb = static_cast<double>(b.runs);
      auto z = [&](double ka, double kb) {
        const double p = (ka + kb) / (na + nb);
        if (!(p > 0 && p < 1)) return 0.0;
        return std::fabs(ka / na - kb / nb) / std::sqrt(p * (1 - p) * (1 / na + 1 / nb));
      };
      double best = 0;
      std::size_t i = 0, j = 0;
      while (i < ra.size() || j < rb.size()) {
        const double v = j >= rb.size() || (i < ra.size() && ra[i] < rb[j]) ? ra[i] : rb[j];
        std::size_t i2 = i, j2 = j;
        while (i2 < ra.size() && ra[i2] == v) ++i2;
        while (j2 < rb.size() && rb[j2] == v) ++j2;
        best = std::max({best, z(static_cast<double>(i2 - i), static_cast<double>(j2 - j)),
                         z(static_cast<double>(ra.size() - i), static_cast<double>(rb.size() - j))});
        i = i2;
        j = j2;
      }
      if (best >= kMinZ) scored.push_back({best, {f, rep}});
      feature_best = std::max(feature_best, best);
    }
    if (!integer) real_features.push_back({feature_best, {f, Representation::value}});
  }
  const auto by_z = [](const Scored& x, const Scored& y) { return x.z > y.z; };
  std::stable_sort(scored.begin(), scored.end(), by_z);
  std::stable_sort(real_features.begin(), real_features.end(), by_z);
  std::vector<FeatureRef> out;
  for (std::size_t i = 0; i < scored.size() && i < per_criterion; ++i) out.push_back(scored[i].ref);
  for (std::size_t i = 0; i < real_features.size() && i < per_criterion; ++i)
    for (Representation rep : representations_for(false))
      if (const FeatureRef ref{real_features[i].ref.feature, rep}; std::find(out.begin(), out.end(), ref) == out.end())
        out.push_back(ref);
  std::sort(out.begin(), out.end(), [](const FeatureRef& x, const FeatureRef& y) {
    return x.feature < y.feature || (x.feature == y.feature && x.rep < y.rep);
  });
  return out;
}

EventCounts count_event(const Event& e, const FeatureMatrix& d, const FeatureMatrix& dp, std::size_t from,
                        std::size_t to) {
  EventCounts c;
  for (std::size_t r = from; r < to && r < d.runs; ++r) c.in_d += e.contains(d.at(r, e.feature)), ++c.runs_d;
  for (std::size_t r = from; r < to && r < dp.runs; ++r)
    c.in_d_prime += e.contains(dp.at(r, e.feature)), ++c.runs_d_prime;
  return c;
}

Event choose_event(const FeatureMatrix& d, const FeatureMatrix& dp, std::size_t half, double delta, double confidence) {
  Event best;
  double best_eps = -1, best_ratio = -1;
  auto consider = [&](const Event& e, std::size_t in_d, std::size_t in_dp, std::size_t n_d, std::size_t n_dp) {
    for (bool num_d : {true, false}) {
      const std::size_t k_num = num_d ? in_d : in_dp, k_den = num_d ? in_dp : in_d;
      const std::size_t n_num = num_d ? n_d : n_dp, n_den = num_d ? n_dp : n_d;
      const double eps = epsilon_lower_bound(k_num, n_num, k_den, n_den, delta, confidence).eps_lower;
      // Tie-break on the plain ratio with add-one smoothing (prefers the sharper event when no bound > 0).
      const double ratio = (static_cast<double>(k_num) + 1) / (static_cast<double>(k_den) + 1);
      if (eps > best_eps || (eps == best_eps && ratio > best_ratio)) {
        best_eps = eps;
        best_ratio = ratio;
        best = e;
        best.numerator_is_d = num_d;
      }
    }
  };
  for (std::size_t f = 0; f < d.features; ++f) {
    const Column a = column(d, f, 0, half), b = column(dp, f, 0, half);
    consider(Event{f, EventKind::missing, 0, true, {}}, a.missing, b.missing, a.runs, b.runs);
    std::vector<double> pooled;
    pooled.reserve(a.values.size() + b.values.size());
    std::merge(a.values.begin(), a.values.end(), b.values.begin(), b.values.end(), std::back_inserter(pooled));
    if (pooled.empty()) continue;
    for (int q = 1; q < 64; ++q) {
      const double t = pooled[std::min(pooled.size() - 1, pooled.size() * static_cast<std::size_t>(q) / 64)];
      consider(Event{f, EventKind::ge, t, true, {}}, count_ge(a, t), count_ge(b, t), a.runs, b.runs);
      consider(Event{f, EventKind::le, t, true, {}}, count_le(a, t), count_le(b, t), a.runs, b.runs);
    }
    // The extremes of each side: a value never reached by the other side is the sharpest event.
    for (const Column* side : {&a, &b}) {
      if (side->values.empty()) continue;
      const double lo = side->values.front(), hi = side->values.back();
      consider(Event{f, EventKind::ge, hi, true, {}}, count_ge(a, hi), count_ge(b, hi), a.runs, b.runs);
      consider(Event{f, EventKind::le, lo, true, {}}, count_le(a, lo), count_le(b, lo), a.runs, b.runs);
    }
    // Support differences: the distinct values of one side absent from the other. Scored on the second
    // quarter with S from the first (an in-sample S would contain every value of a continuous feature and
    // score perfectly); the event kept is S from the whole first half.
    {
      const std::size_t quarter = half / 2;
      const Column a1 = column(d, f, 0, quarter), b1 = column(dp, f, 0, quarter);
      const Column a2 = column(d, f, quarter, half), b2 = column(dp, f, quarter, half);
      // The distinct values of x that y never takes (std::set_difference on the multisets themselves
      // would keep a value x has more often than y: a frequency difference, not a support one).
      auto only_in = [](const Column& x, const Column& y) {
        std::vector<double> xs = x.values, ys = y.values, s;
        xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
        ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
        std::set_difference(xs.begin(), xs.end(), ys.begin(), ys.end(), std::back_inserter(s));
        return s;
      };
      auto count_in = [](const Column& c, const std::vector<double>& s) {
        std::size_t k = 0;
        for (double v : c.values) k += std::binary_search(s.begin(), s.end(), v);
        return k;
      };
      for (int side = 0; side < 2; ++side) {
        const std::vector<double> s1 = side == 0 ? only_in(a1, b1) : only_in(b1, a1);
        if (s1.empty()) continue;
        const std::size_t k_a = count_in(a2, s1), k_b = count_in(b2, s1);
        if ((side == 0 ? k_a : k_b) == 0) continue;
        consider(Event{f, EventKind::in_set, 0, true, side == 0 ? only_in(a, b) : only_in(b, a)}, k_a, k_b, a2.runs,
                 b2.runs);
      }
    }
    // Atoms: values with frequency >= 0.5% on either side, the 16 most frequent.
    std::map<double, std::size_t> atoms;
    for (const Column* side : {&a, &b})
      for (std::size_t i = 0; i < side->values.size();) {
        std::size_t j = i;
        while (j < side->values.size() && side->values[j] == side->values[i]) ++j;
        if (static_cast<double>(j - i) >= 0.005 * static_cast<double>(side->runs))
          atoms[side->values[i]] = std::max(atoms[side->values[i]], j - i);
        i = j;
      }
    std::vector<std::pair<std::size_t, double>> by_freq;
    for (const auto& [v, n] : atoms) by_freq.emplace_back(n, v);
    std::sort(by_freq.begin(), by_freq.end(), [](const auto& x, const auto& y) {
      return x.first > y.first || (x.first == y.first && x.second < y.second);
    });
    for (std::size_t i = 0; i < by_freq.size() && i < 16; ++i) {
      const double v = by_freq[i].second;
      consider(Event{f, EventKind::eq, v, true, {}}, count_eq(a, v), count_eq(b, v), a.runs, b.runs);
    }
  }
  return best;
}

}  // namespace dpclust::audit
