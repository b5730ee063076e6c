#pragma once
// The C4.5 builder as it was before the presorted one (engine/wavecluster/c45.cpp): every node
// stable-sorts its instances per attribute and C45Split.setSplitPoint scans all the training data. Kept
// verbatim as the reference the presorted builder must equal split for split (c45_presort_test.cpp), with
// cell_classifier as it used it (measures_reuse_test.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "wavecluster/c45.hpp"
#include "wavecluster/measures.hpp"

namespace dpclust::wavecluster::reference {

namespace {  // NOLINT: one test translation unit includes it

constexpr double kSmall = 1e-6;  // weka.core.Utils.SMALL
bool eq(double a, double b) { return a - b < kSmall && b - a < kSmall; }
bool gr(double a, double b) { return a - b > kSmall; }
bool sm(double a, double b) { return a - b < -kSmall; }
bool gr_or_eq(double a, double b) { return b - a < kSmall; }
bool sm_or_eq(double a, double b) { return a - b < kSmall; }

double ln_func(double x) { return x < 1e-6 ? 0.0 : x * std::log(x); }
const double kLog2 = std::log(2.0);

std::int32_t max_index(const std::vector<double>& v) {  // first maximum (Distribution.maxClass)
  double best = 0;
  std::int32_t idx = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (gr(v[i], best)) {
      best = v[i];
      idx = static_cast<std::int32_t>(i);
    }
  return idx;
}
double total(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }
double num_incorrect(const std::vector<double>& v) { return total(v) - v[static_cast<std::size_t>(max_index(v))]; }

// Entropy-based criteria of EntropyBasedSplitCrit, in bits, for a two-bag distribution.
double old_ent(const std::vector<double>& per_class, double tot) {
  double s = 0;
  for (double c : per_class) s += ln_func(c);
  return (ln_func(tot) - s) / kLog2;
}
double new_ent(const std::vector<double>& bag0, const std::vector<double>& bag1, double t0, double t1) {
  double s = 0;
  for (double c : bag0) s += ln_func(c);
  for (double c : bag1) s += ln_func(c);
  s -= ln_func(t0) + ln_func(t1);
  return -s / kLog2;
}
double split_ent(double t0, double t1) { return (ln_func(t0 + t1) - ln_func(t0) - ln_func(t1)) / kLog2; }

// Stats.addErrs: upper confidence limit of the error count (C4.5's pessimistic estimate).
double normal_inverse(double p) {  // Phi^-1(p) by bisection on erfc: deterministic and exact enough
  double lo = -10, hi = 10;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}
double add_errs(double n, double e, double cf) {
  if (cf > 0.5) return 0;
  if (e < 1) {
    const double base = n * (1 - std::pow(cf, 1 / n));
    if (e == 0) return base;
    return base + e * (add_errs(n, 1, cf) - base);
  }
  if (e + 0.5 >= n) return std::max(n - e, 0.0);
  const double z = normal_inverse(1 - cf);
  const double f = (e + 0.5) / n;
  const double r =
      (f + (z * z) / (2 * n) + z * std::sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n);
  return (r * n) - e;
}

struct RefBuilder {
  const std::vector<double>& x;
  std::size_t n, a;
  const std::vector<std::int32_t>& y;
  std::size_t nc;
  C45Options opt;
  std::vector<C45Tree::Node>& nodes;
  std::vector<std::vector<std::uint32_t>> train;  // per node, its training instances (for pruning)
  std::vector<std::vector<double>> nd_dist;       // per node, its class counts (the tree keeps count and correct)
  std::vector<double>& dist_of(std::int32_t id) { return nd_dist[static_cast<std::size_t>(id)]; }

  double val(std::uint32_t i, std::size_t att) const { return x[i * a + att]; }

  std::vector<double> distribution(const std::vector<std::uint32_t>& idx) const {
    std::vector<double> d(nc, 0.0);
    for (auto i : idx) d[static_cast<std::size_t>(y[i])] += 1;
    return d;
  }

  struct Split {
    bool valid = false;
    double info_gain = 0, gain_ratio = 0, threshold = 0;
  };

  // C45Split.handleNumericAttribute on the instances `idx` (sorted copy in `sorted`).
  Split numeric_split(const std::vector<std::uint32_t>& idx, std::size_t att,
                      std::vector<std::uint32_t>& sorted) const {
    Split s;
    sorted = idx;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](std::uint32_t p, std::uint32_t q) { return val(p, att) < val(q, att); });
    const double tot = static_cast<double>(sorted.size());
    double min_split = 0.1 * tot / static_cast<double>(nc);
    if (sm_or_eq(min_split, static_cast<double>(opt.min_leaf))) min_split = static_cast<double>(opt.min_leaf);
    else if (gr(min_split, 25)) min_split = 25;
    if (sm(tot, 2 * min_split)) return s;
    std::vector<double> bag0(nc, 0.0), bag1 = distribution(sorted);
    const double default_ent = old_ent(bag1, tot);
    double t0 = 0, t1 = tot, best = 0;
    std::size_t last = 0, split_index = 0, candidates = 0;
    bool found = false;
    for (std::size_t next = 1; next < sorted.size(); ++next) {
      if (val(sorted[next - 1], att) + 1e-5 < val(sorted[next], att)) {
        for (std::size_t i = last; i < next; ++i) {  // shift [last, next) to bag 0
          const auto c = static_cast<std::size_t>(y[sorted[i]]);
          bag0[c] += 1;
          bag1[c] -= 1;
        }
        t0 += static_cast<double>(next - last);
        t1 -= static_cast<double>(next - last);
        if (gr_or_eq(t0, min_split) && gr_or_eq(t1, min_split)) {
          // InfoGainSplitCrit.splitCritValue(bags, total, oldEnt)
          const double num = default_ent - new_ent(bag0, bag1, t0, t1);
          const double gain = eq(num, 0) ? 0.0 : num / tot;
          if (gr(gain, best)) {
            best = gain;
            split_index = next - 1;
            found = true;
          }
          ++candidates;
        }
        last = next;
      }
    }
    if (candidates == 0) return s;
    double gain = best;
    if (opt.mdl_correction) gain -= std::log2(static_cast<double>(candidates)) / tot;
    if (sm_or_eq(gain, 0) || !found) return s;
    const double lo = val(sorted[split_index], att), hi = val(sorted[split_index + 1], att);
    double t = (lo + hi) / 2;
    if (t == hi) t = lo;
    // Gain ratio of the best split (GainRatioSplitCrit).
    const double n0 = static_cast<double>(split_index + 1), n1 = tot - n0;
    const double se = split_ent(n0, n1);
    s.valid = true;
    s.info_gain = gain;
    s.gain_ratio = eq(se, 0) ? 0.0 : gain / (se / tot);
    s.threshold = t;
    return s;
  }

  // C45Split.setSplitPoint: the largest value of the attribute in ALL training data <= t.
  double reset_split_point(std::size_t att, double t) const {
    double best = -std::numeric_limits<double>::max();
    for (std::size_t i = 0; i < n; ++i) {
      const double v = x[i * a + att];
      if (gr(v, best) && sm_or_eq(v, t)) best = v;
    }
    return best;
  }

  std::int32_t new_node(const std::vector<std::uint32_t>& idx) {
    C45Tree::Node nd;
    nd_dist.push_back(distribution(idx));
    C45Tree::set_distribution(nd, nd_dist.back());
    nd.empty = idx.empty();
    nodes.push_back(std::move(nd));
    train.push_back(opt.prune ? idx : std::vector<std::uint32_t>{});
    return static_cast<std::int32_t>(nodes.size() - 1);
  }

  // ClassifierTree.buildTree with C45ModelSelection.selectModel.
  std::int32_t build(const std::vector<std::uint32_t>& idx) {
    const std::int32_t id = new_node(idx);
    const std::vector<double> dist = nd_dist[static_cast<std::size_t>(id)];
    const double tot = static_cast<double>(idx.size());
    if (sm(tot, 2.0 * static_cast<double>(opt.min_leaf)) || eq(tot, dist[static_cast<std::size_t>(max_index(dist))]))
      return id;
    std::vector<Split> splits(a);
    std::vector<std::uint32_t> sorted;
    double avg_gain = 0;
    std::size_t valid = 0;
    for (std::size_t att = 0; att < a; ++att) {
      splits[att] = numeric_split(idx, att, sorted);
      if (splits[att].valid) {
        avg_gain += splits[att].info_gain;
        ++valid;
      }
    }
    if (valid == 0) return id;
    avg_gain /= static_cast<double>(valid);
    double best_ratio = 0;
    std::int32_t best = -1;
    for (std::size_t att = 0; att < a; ++att)
      if (splits[att].valid && splits[att].info_gain >= avg_gain - 1e-3 && gr(splits[att].gain_ratio, best_ratio)) {
        best_ratio = splits[att].gain_ratio;
        best = static_cast<std::int32_t>(att);
      }
    if (best < 0 || eq(best_ratio, 0)) return id;
    const auto batt = static_cast<std::size_t>(best);
    const double t = reset_split_point(batt, splits[batt].threshold);
    std::vector<std::uint32_t> left, right;
    for (auto i : idx) (val(i, batt) <= t ? left : right).push_back(i);
    const std::int32_t l = build(left);
    const std::int32_t r = build(right);
    C45Tree::Node& nd = nodes[static_cast<std::size_t>(id)];
    nd.attribute = best;
    nd.threshold = t;
    nd.left = l;
    nd.right = r;
    return id;
  }

  C45Tree::Node& at(std::int32_t id) { return nodes[static_cast<std::size_t>(id)]; }
  bool leaf(std::int32_t id) { return at(id).attribute < 0; }
  void make_leaf(std::int32_t id) {
    at(id).attribute = -1;
    at(id).left = at(id).right = -1;
  }

  double training_errors(std::int32_t id) {
    if (leaf(id)) return num_incorrect(dist_of(id));
    return training_errors(at(id).left) + training_errors(at(id).right);
  }
  // ClassifierTree.collapse
  void collapse(std::int32_t id) {
    if (leaf(id)) return;
    if (training_errors(id) >= num_incorrect(dist_of(id)) - 1e-3) make_leaf(id);
    else {
      collapse(at(id).left);
      collapse(at(id).right);
    }
  }

  double errors_for_distribution(const std::vector<double>& d) const {
    const double t = total(d);
    if (eq(t, 0)) return 0;
    const double e = num_incorrect(d);
    return e + add_errs(t, e, opt.confidence);
  }
  double estimated_errors(std::int32_t id) {
    if (leaf(id)) return errors_for_distribution(dist_of(id));
    return estimated_errors(at(id).left) + estimated_errors(at(id).right);
  }
  void split_by(std::int32_t id, const std::vector<std::uint32_t>& data, std::vector<std::uint32_t>& l,
                std::vector<std::uint32_t>& r) {
    const auto att = static_cast<std::size_t>(at(id).attribute);
    for (auto i : data) (val(i, att) <= at(id).threshold ? l : r).push_back(i);
  }
  double estimated_errors_for_branch(std::int32_t id, const std::vector<std::uint32_t>& data) {
    if (leaf(id)) return errors_for_distribution(distribution(data));
    std::vector<std::uint32_t> l, r;
    split_by(id, data, l, r);
    return estimated_errors_for_branch(at(id).left, l) + estimated_errors_for_branch(at(id).right, r);
  }
  void new_distribution(std::int32_t id, const std::vector<std::uint32_t>& data) {
    dist_of(id) = distribution(data);
    C45Tree::set_distribution(at(id), dist_of(id));
    train[static_cast<std::size_t>(id)] = data;
    if (!leaf(id)) {
      std::vector<std::uint32_t> l, r;
      split_by(id, data, l, r);
      new_distribution(at(id).left, l);
      new_distribution(at(id).right, r);
    } else {
      at(id).empty = data.empty();
    }
  }
  // C45PruneableClassifierTree.prune (with subtree raising).
  void prune(std::int32_t id) {
    if (leaf(id)) return;
    prune(at(id).left);
    prune(at(id).right);
    const double n_left = total(dist_of(at(id).left)), n_right = total(dist_of(at(id).right));
    const std::int32_t largest = gr(n_right, n_left) ? at(id).right : at(id).left;  // maxBag: first maximum
    const double err_largest = opt.subtree_raising
                                   ? estimated_errors_for_branch(largest, train[static_cast<std::size_t>(id)])
                                   : std::numeric_limits<double>::max();
    const double err_leaf = errors_for_distribution(dist_of(id));
    const double err_tree = estimated_errors(id);
    if (sm_or_eq(err_leaf, err_tree + 0.1) && sm_or_eq(err_leaf, err_largest + 0.1)) {
      make_leaf(id);
      return;
    }
    if (sm_or_eq(err_largest, err_tree + 0.1)) {
      const C45Tree::Node child = at(largest);
      at(id).attribute = child.attribute;
      at(id).threshold = child.threshold;
      at(id).left = child.left;
      at(id).right = child.right;
      new_distribution(id, std::vector<std::uint32_t>(train[static_cast<std::size_t>(id)]));
      prune(id);
    }
  }
};

inline std::vector<C45Tree::Node> reference_fit(const std::vector<double>& x, std::size_t n, std::size_t a,
                                                const std::vector<std::int32_t>& y, std::size_t num_classes,
                                                const C45Options& opt) {
  if (x.size() != n * a || y.size() != n) throw std::invalid_argument("C45Tree::fit: input sizes do not match");
  if (num_classes == 0) throw std::invalid_argument("C45Tree::fit: no classes");
  for (auto c : y)
    if (c < 0 || static_cast<std::size_t>(c) >= num_classes)
      throw std::invalid_argument("C45Tree::fit: class index out of range");
  std::vector<C45Tree::Node> tree_nodes;
  RefBuilder b{x, n, a, y, num_classes, opt, tree_nodes, {}, {}};
  std::vector<std::uint32_t> all(n);
  std::iota(all.begin(), all.end(), 0u);
  b.build(all);
  if (opt.collapse) b.collapse(0);
  if (opt.prune) b.prune(0);
  // Drop the nodes no longer reachable (collapsed or raised subtrees) to keep the tree compact.
  std::vector<C45Tree::Node> kept;  // preorder copy of the reachable nodes
  std::function<std::int32_t(std::int32_t)> copy = [&](std::int32_t id) -> std::int32_t {
    const auto nid = static_cast<std::int32_t>(kept.size());
    kept.push_back(tree_nodes[static_cast<std::size_t>(id)]);
    if (kept.back().attribute >= 0) {
      const std::int32_t l = copy(tree_nodes[static_cast<std::size_t>(id)].left);
      const std::int32_t r = copy(tree_nodes[static_cast<std::size_t>(id)].right);
      kept[static_cast<std::size_t>(nid)].left = l;
      kept[static_cast<std::size_t>(nid)].right = r;
    }
    return nid;
  };
  copy(0);
  return kept;
}

// C45Tree::predict on the reference's nodes.
std::int32_t reference_predict(const std::vector<C45Tree::Node>& nodes, const double* x) {
  std::size_t id = 0;
  while (nodes[id].attribute >= 0) {
    const C45Tree::Node& nd = nodes[id];
    const auto child = static_cast<std::size_t>(x[nd.attribute] <= nd.threshold ? nd.left : nd.right);
    if (nodes[child].empty) return nd.majority;
    id = child;
  }
  return nodes[id].majority;
}

// cell_classifier's training set, built the way it was before the presort (every cell, or the positive
// non-significant ones as C0), fitted by the reference builder and evaluated on every cell.
std::vector<std::int32_t> reference_cell_table(const WaveClusterOutput& result, const C45Options& opt, C0Grids c0) {
  const Clustering& c = result.clustering;
  const std::size_t cells = c.cell_cluster.size(), d = c.shape.dims.size();
  std::vector<std::int32_t> table(cells, 0);
  if (c.n_clusters == 0) return table;
  std::vector<double> x;
  std::vector<std::int32_t> y;
  std::vector<std::size_t> coord(d);
  for (std::size_t i = 0; i < cells; ++i) {
    const std::int32_t cl = c.cell_cluster[i];
    if (cl < 0 && c0 == C0Grids::positive && !(result.transformed[i] > 0)) continue;
    unravel(i, c.shape, coord.data());
    for (std::size_t v : coord) x.push_back(static_cast<double>(v));
    y.push_back(cl + 1);
  }
  const auto nodes = reference::reference_fit(x, y.size(), d, y, c.n_clusters + 1, opt);
  std::vector<double> f(d);
  for (std::size_t i = 0; i < cells; ++i) {
    unravel(i, c.shape, coord.data());
    for (std::size_t j = 0; j < d; ++j) f[j] = static_cast<double>(coord[j]);
    table[i] = reference_predict(nodes, f.data());
  }
  return table;
}

}  // namespace

}  // namespace dpclust::wavecluster::reference
