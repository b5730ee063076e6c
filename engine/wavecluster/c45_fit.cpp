// Growing a C4.5 tree as Weka's J48 does (c45.hpp): ClassifierTree.buildTree with C45ModelSelection on presorted
// attributes, then collapsing and pruning with subtree raising; Weka's comparisons with their tolerance (Utils.SMALL)
// and its pessimistic error estimate (Stats.addErrs).
#include "wavecluster/c45.hpp"
#include "wavecluster/c45_scratch.hpp"
#include "wavecluster/c45_weka.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace dpclust::wavecluster {

namespace {

using weka::add_errs;
using weka::eq;
using weka::gr;
using weka::gr_or_eq;
using weka::kLog2;
using weka::ln_func;
using weka::max_index;
using weka::num_incorrect;
using weka::sm;
using weka::sm_or_eq;
using weka::split_ent;
using weka::total;

// ln_func(c) for c = 0 .. at least n, per thread, grown on demand: a cross-validation builds thousands of trees
// on grids of the same size, and each would otherwise take n + 1 logarithms before its first split.
const std::vector<double>& xlogx_table(std::size_t n) {
  thread_local std::vector<double> table;
  for (std::size_t c = table.size(); c <= n; ++c) table.push_back(ln_func(static_cast<double>(c)));
  return table;
}

}  // namespace

struct C45Builder {
  const C45Presort& pre;
  const std::vector<std::int32_t>& y;
  std::size_t nc;
  C45Options opt;
  std::vector<C45Tree::Node>& nodes;
  std::vector<std::vector<std::uint32_t>> train;  // per node, its training instances (for pruning)
  // Per attribute, the instances of every node sorted by (value, index) -- the order J48's stable sort of
  // the node's instances gives -- in one contiguous range [lo, hi), the same range in every attribute. A
  // split partitions the range stably: the left child gets [lo, lo + left), the right one the rest, each
  // again sorted. Scratch buffers are sized once per thread: no allocation per instance or node while building.
  std::vector<std::vector<std::uint32_t>>& ord;
  std::vector<std::uint8_t>& goes_left;
  std::vector<std::uint32_t>& right_part;
  // Class counts of unit-weight instances are whole numbers: Weka's double counts hold them exactly, so
  // counting in integers gives the same numbers, and each count indexes the ln_func table directly.
  std::vector<std::uint32_t>& class_count;
  std::vector<std::uint32_t>& bag0;  // bag 1 of a cut is class_count - bag0
  std::vector<std::uint32_t>& present;
  // best_left[att * present.size() + j]: bag 0's count of class present[j] at attribute att's best cut,
  // i.e. the left child's class counts if that cut is chosen.
  std::vector<std::uint32_t>& best_left;
  // The class counts of the nodes whose parent handed them down: (class, count) pairs, ascending classes,
  // nonzero counts, pushed by the parent before it builds its children and dropped after.
  std::vector<std::uint32_t>& child_counts;
  std::vector<std::uint32_t>& node_lo;  // per node id, its range [node_lo, node_hi) of ord (before collapsing)
  std::vector<std::uint32_t>& node_hi;
  // ln_func(c) for the whole counts c = 0..n: the bags hold counts of unit-weight instances, so the
  // entropy of a candidate cut reads them here instead of taking 2 (classes + 1) logarithms -- the same
  // doubles as ln_func, summed in EntropyBasedSplitCrit.newEnt's order.
  const std::vector<double>& xlogx;  // at least n + 1 entries (xlogx_table)

  double val(std::uint32_t i, std::size_t att) const { return pre.value(i, att); }

  template <class Indices>
  std::vector<double> distribution(const Indices& idx) const {
    std::vector<double> d(nc, 0.0);
    for (auto i : idx) d[static_cast<std::size_t>(y[i])] += 1;
    return d;
  }

  struct Split {
    bool valid = false;
    double info_gain = 0, gain_ratio = 0, threshold = 0;
    std::size_t left = 0;  // instances of bag 0 (the left side before the threshold is reset)
  };

  // EntropyBasedSplitCrit.newEnt of the two bags (sizes t0, t1), in bits. Weka sums ln_func over every class
  // of bag 0, then of bag 1; a class absent from the node is 0 in both bags and adds ln_func(0) = +0.0, which
  // leaves the (never negative) sum unchanged, so the sum runs over the node's classes only (`present`,
  // ascending): the same additions in the same order, the same double.
  double new_ent_of_counts(std::size_t t0, std::size_t t1) const {
    double s = 0;
    for (std::uint32_t c : present) s += xlogx[bag0[c]];
    for (std::uint32_t c : present) s += xlogx[class_count[c] - bag0[c]];
    s -= xlogx[t0] + xlogx[t1];
    return -s / kLog2;
  }

  // C45Split.handleNumericAttribute on the instances of the node [lo, hi), read in their sorted order
  // ord[att][lo, hi); their class counts are in class_count (classes `present`).
  Split numeric_split(std::size_t lo, std::size_t hi, std::size_t att) {
    Split s;
    const std::uint32_t* sorted = ord[att].data() + lo;
    const std::size_t m = hi - lo;
    const double tot = static_cast<double>(m);
    double min_split = 0.1 * tot / static_cast<double>(nc);
    if (sm_or_eq(min_split, static_cast<double>(opt.min_leaf))) min_split = static_cast<double>(opt.min_leaf);
    else if (gr(min_split, 25)) min_split = 25;
    if (sm(tot, 2 * min_split)) return s;
    // EntropyBasedSplitCrit.oldEnt of the node's distribution: ln_func over every class, absent ones adding +0.0.
    double class_sum = 0;
    for (std::uint32_t c : present) class_sum += xlogx[class_count[c]];
    const double default_ent = (xlogx[m] - class_sum) / kLog2;
    std::size_t t0 = 0, best_next = 0, candidates = 0;
    double best = 0;
    std::size_t last = 0;
    bool found = false;
    const std::int32_t* cls = y.data();
    double prev_v = val(sorted[0], att);
    for (std::size_t next = 1; next < m; ++next) {
      const double v = val(sorted[next], att);
      if (prev_v + 1e-5 < v) {
        for (std::size_t i = last; i < next;) {  // shift [last, next) to bag 0, by runs of one class
          const std::int32_t c = cls[sorted[i]];
          const std::size_t start = i;
          for (++i; i < next && cls[sorted[i]] == c; ++i) {}
          bag0[static_cast<std::size_t>(c)] += static_cast<std::uint32_t>(i - start);
        }
        t0 = next;
        // gr_or_eq(t0, min_split) && gr_or_eq(t1, min_split), on the whole-number bag sizes as doubles
        if (gr_or_eq(static_cast<double>(t0), min_split) && gr_or_eq(static_cast<double>(m - t0), min_split)) {
          // InfoGainSplitCrit.splitCritValue(bags, total, oldEnt)
          const double num = default_ent - new_ent_of_counts(t0, m - t0);
          const double gain = eq(num, 0) ? 0.0 : num / tot;
          if (gr(gain, best)) {
            best = gain;
            best_next = next;
            found = true;
            std::uint32_t* keep = best_left.data() + att * present.size();
            for (std::size_t j = 0; j < present.size(); ++j) keep[j] = bag0[present[j]];
          }
          ++candidates;
        }
        last = next;
      }
      prev_v = v;
    }
    for (std::uint32_t c : present) bag0[c] = 0;
    if (candidates == 0) return s;
    double gain = best;
    if (opt.mdl_correction) gain -= std::log2(static_cast<double>(candidates)) / tot;
    if (sm_or_eq(gain, 0) || !found) return s;
    const std::size_t split_index = best_next - 1;
    const double lo_v = val(sorted[split_index], att), hi_v = val(sorted[split_index + 1], att);
    double t = (lo_v + hi_v) / 2;
    if (t == hi_v) t = lo_v;
    // Gain ratio of the best split (GainRatioSplitCrit).
    const double n0 = static_cast<double>(split_index + 1), n1 = tot - n0;
    const double se = split_ent(n0, n1);
    s.valid = true;
    s.info_gain = gain;
    s.gain_ratio = eq(se, 0) ? 0.0 : gain / (se / tot);
    s.threshold = t;
    s.left = split_index + 1;
    return s;
  }

  // C45Split.setSplitPoint: the largest value of the attribute in ALL training data <= t, i.e. Weka's
  // scan of the instances in index order keeping v when gr(v, best) and sm_or_eq(v, t).
  double reset_split_point_scan(std::size_t att, double t) const {
    double best = -std::numeric_limits<double>::max();
    for (std::uint32_t i = 0; i < pre.n; ++i) {
      const double v = val(i, att);
      if (gr(v, best) && sm_or_eq(v, t)) best = v;
    }
    return best;
  }
  // The same from the presorted values in O(log n). sm_or_eq(v, t) is monotone in v, so the values it
  // admits are a prefix of the sorted order; let vmax be the largest. When every other admitted value lies
  // more than 1e-5 below vmax, the scan ends at vmax whatever the index order (once vmax is read, no value
  // is gr than it; before, vmax is gr than the best so far). Otherwise (values within Weka's tolerance of
  // each other, or not finite) the scan itself decides.
  double reset_split_point(std::size_t att, double t) const {
    const std::vector<std::uint32_t>& o = pre.order[att];
    const auto end =
        std::partition_point(o.begin(), o.end(), [&](std::uint32_t i) { return sm_or_eq(val(i, att), t); });
    if (end == o.begin()) return reset_split_point_scan(att, t);
    const double vmax = val(*(end - 1), att);
    if (!std::isfinite(vmax) || !gr(vmax, -std::numeric_limits<double>::max())) return reset_split_point_scan(att, t);
    const auto below = std::partition_point(o.begin(), end, [&](std::uint32_t i) { return val(i, att) < vmax; });
    if (below == o.begin() || vmax - val(*(below - 1), att) > 1e-5) return vmax;
    return reset_split_point_scan(att, t);
  }

  // ClassifierTree.buildTree with C45ModelSelection.selectModel, on the node's range [lo, hi). `counts`:
  // where the node's (class, count) list starts in child_counts and how many pairs it has, or {0, npos}
  // when the node counts its instances itself.
  static constexpr std::size_t kCountHere = static_cast<std::size_t>(-1);
  // The node's class counts (Distribution) and classes, ascending: handed down by the parent, or counted.
  void count_classes(std::size_t lo, std::size_t hi, std::size_t counts_at, std::size_t counts_len) {
    present.clear();
    if (counts_len != kCountHere) {
      for (std::size_t j = 0; j < counts_len; ++j) {
        const std::uint32_t c = child_counts[counts_at + 2 * j];
        present.push_back(c);
        class_count[c] = child_counts[counts_at + 2 * j + 1];
      }
    } else {
      // Counted by runs of one class (mostly long: the grid's noise class C0), so that the count is not
      // stored and loaded again for every instance.
      const std::uint32_t* o0 = ord[0].data();
      for (std::size_t k = lo; k < hi;) {
        const std::int32_t c = y[o0[k]];
        const std::size_t start = k;
        for (++k; k < hi && y[o0[k]] == c; ++k) {}
        std::uint32_t& count = class_count[static_cast<std::size_t>(c)];
        if (count == 0) present.push_back(static_cast<std::uint32_t>(c));
        count += static_cast<std::uint32_t>(k - start);
      }
      std::sort(present.begin(), present.end());
    }
  }

  // The node itself: set_distribution (Distribution.maxClass is the first maximum, 0 for an empty node; the count
  // is the total, correct the majority's count), its range, and with pruning its training instances.
  std::int32_t add_node(std::size_t lo, std::size_t hi, std::uint32_t& majority_count) {
    std::int32_t majority = 0;
    majority_count = 0;
    for (std::uint32_t c : present)
      if (class_count[c] > majority_count) {
        majority_count = class_count[c];
        majority = static_cast<std::int32_t>(c);
      }
    C45Tree::Node nd;
    nd.majority = majority;
    nd.count = static_cast<double>(hi - lo);
    nd.correct = static_cast<double>(majority_count);
    nd.empty = lo == hi;
    nodes.push_back(nd);
    node_lo.push_back(static_cast<std::uint32_t>(lo));
    node_hi.push_back(static_cast<std::uint32_t>(hi));
    if (opt.prune) {  // the node's instances in index order, as J48 keeps them
      std::vector<std::uint32_t> idx(ord[0].begin() + static_cast<std::ptrdiff_t>(lo),
                                     ord[0].begin() + static_cast<std::ptrdiff_t>(hi));
      std::sort(idx.begin(), idx.end());
      train.push_back(std::move(idx));
    }
    return static_cast<std::int32_t>(nodes.size() - 1);
  }

  // C45ModelSelection.selectModel: the best gain ratio among the attributes whose gain is at least the average
  // gain - 1e-3 (the attributes' order: the same sums and the same first maximum as Weka's). No split (best -1) of
  // a node with fewer than 2 minNumObj instances or of a pure one (eq(tot, correct)).
  struct Chosen {
    std::int32_t best = -1;
    double threshold = 0;
    std::size_t cut_left = 0;
  };
  Chosen choose_split(std::size_t lo, std::size_t hi, std::uint32_t majority_count) {
    Chosen ch;
    std::int32_t& best = ch.best;
    const std::size_t m = hi - lo;
    const double tot = static_cast<double>(m);
    if (!sm(tot, 2.0 * static_cast<double>(opt.min_leaf)) && majority_count != m) {
      const std::size_t a = pre.a;
      Split splits_small[4];
      std::vector<Split> splits_large;
      Split* splits = splits_small;
      if (a > 4) {
        splits_large.resize(a);
        splits = splits_large.data();
      }
      double avg_gain = 0;
      std::size_t valid = 0;
      for (std::size_t att = 0; att < a; ++att) {
        splits[att] = numeric_split(lo, hi, att);
        if (splits[att].valid) {
          avg_gain += splits[att].info_gain;
          ++valid;
        }
      }
      if (valid > 0) {
        avg_gain /= static_cast<double>(valid);
        double best_ratio = 0;
        for (std::size_t att = 0; att < a; ++att)
          if (splits[att].valid && splits[att].info_gain >= avg_gain - 1e-3 && gr(splits[att].gain_ratio, best_ratio)) {
            best_ratio = splits[att].gain_ratio;
            best = static_cast<std::int32_t>(att);
          }
        if (best >= 0 && eq(best_ratio, 0)) best = -1;
        if (best >= 0) {
          ch.threshold = splits[best].threshold;
          ch.cut_left = splits[best].left;
        }
      }
    }
    return ch;
  }

  // Every attribute's range partitioned stably at t on attribute batt. Returns the instances sent left; left_is_prefix:
  // they are a prefix of the split attribute's order already.
  std::size_t partition(std::size_t lo, std::size_t hi, std::size_t batt, double t, bool& left_is_prefix) {
    // The side of every instance, read in the split attribute's order: there the left ones normally are a
    // prefix already (x <= t is monotone in x), and that range needs no partition.
    std::size_t n_left = 0;
    left_is_prefix = true;
    {
      const std::uint32_t* ob = ord[batt].data();
      for (std::size_t k = lo; k < hi; ++k) {
        const std::uint32_t i = ob[k];
        const bool left = val(i, batt) <= t;
        goes_left[i] = left;
        left_is_prefix &= !left || n_left == k - lo;
        n_left += left;
      }
    }
    for (std::size_t att = 0; att < pre.a; ++att) {  // stable partition of every attribute's range
      if (att == batt && left_is_prefix) continue;
      std::uint32_t* r = ord[att].data();
      std::uint32_t* right = right_part.data();
      std::size_t l = lo, rn = 0;
      for (std::size_t k = lo; k < hi; ++k) {  // without a branch: each side's write is kept or overwritten
        const std::uint32_t i = r[k];
        const std::size_t left = goes_left[i];
        r[l] = i;  // l <= k: a slot already read
        right[rn] = i;
        l += left;
        rn += 1 - left;
      }
      std::copy(right, right + rn, r + l);
    }
    return n_left;
  }

  // The children's class counts, handed down when the reset threshold sends exactly bag 0 of the chosen cut left;
  // else each child counts its own (len kCountHere).
  struct Handed {
    std::size_t left_at = 0, left_len = kCountHere, right_at = 0, right_len = kCountHere;
  };
  Handed hand_down_counts(std::size_t batt, std::size_t n_left, std::size_t best_cut_left, bool left_is_prefix) {
    Handed h;
    std::size_t& left_at = h.left_at;
    std::size_t& left_len = h.left_len;
    std::size_t& right_at = h.right_at;
    std::size_t& right_len = h.right_len;
    if (left_is_prefix && n_left == best_cut_left) {
      const std::uint32_t* kept = best_left.data() + batt * present.size();
      left_at = child_counts.size();
      left_len = 0;
      for (std::size_t j = 0; j < present.size(); ++j)
        if (kept[j] > 0) {
          child_counts.push_back(present[j]);
          child_counts.push_back(kept[j]);
          ++left_len;
        }
      right_at = child_counts.size();
      right_len = 0;
      for (std::size_t j = 0; j < present.size(); ++j)
        if (class_count[present[j]] > kept[j]) {
          child_counts.push_back(present[j]);
          child_counts.push_back(class_count[present[j]] - kept[j]);
          ++right_len;
        }
    }
    return h;
  }

  std::int32_t build(std::size_t lo, std::size_t hi, std::size_t counts_at = 0, std::size_t counts_len = kCountHere) {
    count_classes(lo, hi, counts_at, counts_len);
    std::uint32_t majority_count = 0;
    const std::int32_t id = add_node(lo, hi, majority_count);
    const Chosen ch = choose_split(lo, hi, majority_count);
    if (ch.best < 0) {
      for (std::uint32_t c : present) class_count[c] = 0;
      return id;
    }
    const auto batt = static_cast<std::size_t>(ch.best);
    const double t = reset_split_point(batt, ch.threshold);
    bool left_is_prefix = true;
    const std::size_t n_left = partition(lo, hi, batt, t, left_is_prefix);
    const std::size_t mark = child_counts.size();
    const Handed h = hand_down_counts(batt, n_left, ch.cut_left, left_is_prefix);
    for (std::uint32_t c : present) class_count[c] = 0;  // the children set their own
    const std::int32_t l = build(lo, lo + n_left, h.left_at, h.left_len);
    const std::int32_t r = build(lo + n_left, hi, h.right_at, h.right_len);
    child_counts.resize(mark);
    C45Tree::Node& node = nodes[static_cast<std::size_t>(id)];
    node.attribute = ch.best;
    node.threshold = t;
    node.left = l;
    node.right = r;
    return id;
  }

  C45Tree::Node& at(std::int32_t id) { return nodes[static_cast<std::size_t>(id)]; }
  bool leaf(std::int32_t id) { return at(id).attribute < 0; }
  void make_leaf(std::int32_t id) {
    at(id).attribute = -1;
    at(id).left = at(id).right = -1;
  }

  // training_errors (ClassifierTree.getTrainingErrors: a leaf's misclassified instances, an inner node's the sum
  // of its children's) of every node of the built tree, children before parents: the same sums as the
  // recursion, once per node instead of once per ancestor.
  std::vector<double>& subtree_errors;
  double fill_training_errors(std::int32_t id) {
    const double e = leaf(id) ? at(id).count - at(id).correct
                              : fill_training_errors(at(id).left) + fill_training_errors(at(id).right);
    return subtree_errors[static_cast<std::size_t>(id)] = e;
  }
  // ClassifierTree.collapse, after fill_training_errors(0): collapsing a node changes no subtree below it, so
  // the filled errors hold for every node it visits.
  void collapse(std::int32_t id) {
    if (leaf(id)) return;
    if (subtree_errors[static_cast<std::size_t>(id)] >= at(id).count - at(id).correct - 1e-3) make_leaf(id);
    else {
      collapse(at(id).left);
      collapse(at(id).right);
    }
  }

  double errors_for_distribution(const std::vector<double>& d) const {
    return errors_for_counts(total(d), num_incorrect(d));
  }
  double errors_for_node(std::int32_t id) { return errors_for_counts(at(id).count, at(id).count - at(id).correct); }
  double errors_for_counts(double t, double e) const {
    if (eq(t, 0)) return 0;
    return e + add_errs(t, e, opt.confidence);
  }
  double estimated_errors(std::int32_t id) {
    if (leaf(id)) return errors_for_node(id);
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
    C45Tree::set_distribution(at(id), distribution(data));
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
    const double n_left = at(at(id).left).count, n_right = at(at(id).right).count;
    const std::int32_t largest = gr(n_right, n_left) ? at(id).right : at(id).left;  // maxBag: first maximum
    const double err_largest = opt.subtree_raising
                                   ? estimated_errors_for_branch(largest, train[static_cast<std::size_t>(id)])
                                   : std::numeric_limits<double>::max();
    const double err_leaf = errors_for_node(id);
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

void C45Tree::set_distribution(Node& node, const std::vector<double>& per_class) {
  node.majority = max_index(per_class);
  node.count = total(per_class);
  node.correct = per_class.empty() ? 0.0 : per_class[static_cast<std::size_t>(node.majority)];
}

C45Tree C45Tree::fit_impl(const C45Presort& data, const std::vector<std::int32_t>& y, std::size_t num_classes,
                          const C45Options& opt, std::vector<std::int32_t>* training_classes) {
  if (data.order.size() != data.a) throw std::invalid_argument("C45Tree::fit: the presort has no order per attribute");
  for (const auto& o : data.order)
    if (o.size() != data.n)
      throw std::invalid_argument("C45Tree::fit: the presort's orders do not cover the instances");
  C45Tree tree;
  C45Scratch& sc = scratch();
  sc.ord.resize(data.a);
  for (std::size_t att = 0; att < data.a; ++att) sc.ord[att].assign(data.order[att].begin(), data.order[att].end());
  sc.goes_left.resize(data.n);
  sc.right_part.resize(data.n);
  sc.class_count.assign(num_classes, 0);
  sc.bag0.assign(num_classes, 0);
  sc.present.clear();
  sc.best_left.assign(data.a * num_classes, 0);
  sc.child_counts.clear();
  sc.lo.clear();
  sc.hi.clear();
  C45Builder b{data,
               y,
               num_classes,
               opt,
               tree.nodes_,
               {},
               sc.ord,
               sc.goes_left,
               sc.right_part,
               sc.class_count,
               sc.bag0,
               sc.present,
               sc.best_left,
               sc.child_counts,
               sc.lo,
               sc.hi,
               xlogx_table(data.n),
               sc.subtree_errors};
  b.build(0, data.n);
  if (opt.collapse) {
    b.subtree_errors.assign(tree.nodes_.size(), 0.0);
    b.fill_training_errors(0);
    b.collapse(0);
  }
  if (opt.prune) b.prune(0);
  if (training_classes) {
    training_classes->assign(data.n, 0);
    if (!opt.prune) {
      // Without pruning every node still holds the instances it was built on in its range of the orders
      // (collapsing only turns inner nodes into leaves), and predict() routes a training instance by the
      // same comparisons that partitioned it, so it ends in the (non-empty) leaf that holds it: each leaf's
      // class for the instances of its range, no walk per instance.
      std::vector<std::int32_t> stack{0};
      while (!stack.empty()) {
        const auto id = static_cast<std::size_t>(stack.back());
        stack.pop_back();
        const Node& nd = tree.nodes_[id];
        if (nd.attribute >= 0) {
          stack.push_back(nd.right);
          stack.push_back(nd.left);
          continue;
        }
        for (std::uint32_t k = sc.lo[id]; k < sc.hi[id]; ++k) (*training_classes)[sc.ord[0][k]] = nd.majority;
      }
    }
  }
  // Drop the nodes no longer reachable (collapsed or raised subtrees) to keep the tree compact.
  std::vector<Node> kept;  // preorder copy of the reachable nodes
  kept.reserve(tree.nodes_.size());
  std::function<std::int32_t(std::int32_t)> copy = [&](std::int32_t id) -> std::int32_t {
    const auto nid = static_cast<std::int32_t>(kept.size());
    kept.push_back(tree.nodes_[static_cast<std::size_t>(id)]);
    if (kept.back().attribute >= 0) {
      const std::int32_t l = copy(tree.nodes_[static_cast<std::size_t>(id)].left);
      const std::int32_t r = copy(tree.nodes_[static_cast<std::size_t>(id)].right);
      kept[static_cast<std::size_t>(nid)].left = l;
      kept[static_cast<std::size_t>(nid)].right = r;
    }
    return nid;
  };
  copy(0);
  tree.nodes_ = std::move(kept);
  if (training_classes && opt.prune)  // raised subtrees re-route instances: predict each one
    for (std::size_t i = 0; i < data.n; ++i) (*training_classes)[i] = tree.predict(&data.x[i * data.a]);
  release_if_large(sc, data.n);
  return tree;
}

}  // namespace dpclust::wavecluster
