#include "wavecluster/measures.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "core/error.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "metrics/assignment.hpp"
#include "wavecluster/weka_folds.hpp"

namespace dpclust::wavecluster {

double dsg_c(const Clustering& truth, const Clustering& priv) {
  if (!(truth.shape == priv.shape)) throw std::invalid_argument("dsg_c: the two clusterings have different grids");
  const std::size_t t = truth.n_clusters, s = priv.n_clusters;
  std::vector<double> size_t_(t, 0), size_p(s, 0), inter(t * s, 0);
  for (std::size_t c = 0; c < truth.cell_cluster.size(); ++c) {
    const std::int32_t a = truth.cell_cluster[c], b = priv.cell_cluster[c];
    if (a >= 0) size_t_[static_cast<std::size_t>(a)] += 1;
    if (b >= 0) size_p[static_cast<std::size_t>(b)] += 1;
    if (a >= 0 && b >= 0) inter[static_cast<std::size_t>(a) * s + static_cast<std::size_t>(b)] += 1;
  }
  // Leaving Ci and Cj both unmatched costs |Ci| + |Cj| >= max(|Ci \ Cj|, |Cj \ Ci|), so matching
  // min(t, s) pairs is optimal: minimise sum (d_ij - |Ci| - |Cj|) over the pairs, then add back all sizes.
  std::vector<double> cost(t * s);
  for (std::size_t i = 0; i < t; ++i)
    for (std::size_t j = 0; j < s; ++j) {
      const double x = inter[i * s + j];
      cost[i * s + j] = std::max(size_t_[i] - x, size_p[j] - x) - size_t_[i] - size_p[j];
    }
  const Assignment a = min_cost_assignment(cost, t, s);
  const double all = std::accumulate(size_t_.begin(), size_t_.end(), 0.0) + std::accumulate(size_p.begin(), size_p.end(), 0.0);
  const double m_cost = all + a.total;
  return m_cost / std::max(1.0, static_cast<double>(truth.n_significant));
}

namespace {

struct Table {
  std::size_t rows = 0, cols = 0;
  std::vector<double> n;  // rows x cols
  std::size_t total = 0;
};
Table table_of(const std::vector<std::int32_t>& x, const std::vector<std::int32_t>& y) {
  if (x.size() != y.size()) throw std::invalid_argument("classifier comparison: prediction lists differ in length");
  Table t;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] < 0 || y[i] < 0) throw std::invalid_argument("classifier comparison: negative class");
    t.rows = std::max(t.rows, static_cast<std::size_t>(x[i]) + 1);
    t.cols = std::max(t.cols, static_cast<std::size_t>(y[i]) + 1);
  }
  t.n.assign(t.rows * t.cols, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) t.n[static_cast<std::size_t>(x[i]) * t.cols + static_cast<std::size_t>(y[i])] += 1;
  t.total = x.size();
  return t;
}
double pairs(double m) { return m * (m - 1) / 2; }

}  // namespace

double ocm(const std::vector<std::int32_t>& pt, const std::vector<std::int32_t>& pp) {
  if (pt.empty()) return 0.0;
  const Table t = table_of(pt, pp);
  const double c0 = t.n[0];  // C0 matched to C0
  // Hungarian method on the non-C0 classes (rows 1.., cols 1..), maximising the common test points.
  const std::size_t r = t.rows - 1, c = t.cols > 0 ? t.cols - 1 : 0;
  std::vector<double> w(r * c);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) w[i * c + j] = t.n[(i + 1) * t.cols + (j + 1)];
  const double ct = max_weight_assignment(w, r, c).total;
  return 1.0 - (ct + c0) / static_cast<double>(t.total);
}

std::optional<double> ocm_authors(const std::vector<std::int32_t>& pt, const std::vector<std::int32_t>& pp) {
  if (pt.empty()) return 0.0;
  const Table t = table_of(pt, pp);
  const double c0 = t.n[0];  // computeNoiseSet: test points both classifiers put in C0
  // The clusters each classifier gives to at least one test point (their clusters(): keys of the
  // predictions, C0 left out), with their sizes (C0 of the other side included).
  std::vector<std::size_t> rows, cols;
  std::vector<double> a(t.rows, 0), b(t.cols, 0);
  for (std::size_t i = 0; i < t.rows; ++i)
    for (std::size_t j = 0; j < t.cols; ++j) {
      a[i] += t.n[i * t.cols + j];
      b[j] += t.n[i * t.cols + j];
    }
  for (std::size_t i = 1; i < t.rows; ++i)
    if (a[i] > 0) rows.push_back(i);
  for (std::size_t j = 1; j < t.cols; ++j)
    if (b[j] > 0) cols.push_back(j);
  if (rows.size() == 1 && cols.size() == 1) return std::nullopt;  // their "SPECIAL CASE": the fold is skipped
  // ArrayEditDistances: |larger \ smaller| = max(|Ci \ Cj|, |Cj \ Ci|); Hungarian "min" on it.
  std::vector<double> cost(rows.size() * cols.size());
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < cols.size(); ++c) {
      const double x = t.n[rows[r] * t.cols + cols[c]];
      cost[r * cols.size() + c] = std::max(a[rows[r]] - x, b[cols[c]] - x);
    }
  const Assignment m = min_cost_assignment(cost, rows.size(), cols.size());
  double intersect = 0;  // the intersections of the matched pairs (trueset.retainAll(privateset))
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (m.row_to_col[r] >= 0) intersect += t.n[rows[r] * t.cols + cols[static_cast<std::size_t>(m.row_to_col[r])]];
  return 1.0 - (intersect + c0) / static_cast<double>(t.total);
}

double two_ce(const std::vector<std::int32_t>& pt, const std::vector<std::int32_t>& pp) {
  if (pt.size() < 2) return 0.0;
  const Table t = table_of(pt, pp);
  double both = 0, same_t = 0, same_p = 0;
  std::vector<double> a(t.rows, 0), b(t.cols, 0);
  for (std::size_t i = 0; i < t.rows; ++i)
    for (std::size_t j = 0; j < t.cols; ++j) {
      const double x = t.n[i * t.cols + j];
      both += pairs(x);
      a[i] += x;
      b[j] += x;
    }
  for (double x : a) same_t += pairs(x);
  for (double x : b) same_p += pairs(x);
  return (same_t + same_p - 2 * both) / pairs(static_cast<double>(t.total));
}

double f_measure(const Labels& truth, const Labels& pred) {
  if (truth.size() != pred.size()) throw std::invalid_argument("f_measure: labelings differ in length");
  std::int32_t nt = 0, np = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    nt = std::max(nt, truth[i] + 1);
    np = std::max(np, pred[i] + 1);
  }
  if (nt == 0) return np == 0 ? 1.0 : 0.0;
  const auto rt = static_cast<std::size_t>(nt), cp = static_cast<std::size_t>(np);
  std::vector<double> n(rt * cp, 0), a(rt, 0), b(cp, 0);
  double total = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    if (pred[i] >= 0) b[static_cast<std::size_t>(pred[i])] += 1;
    if (truth[i] < 0) continue;
    a[static_cast<std::size_t>(truth[i])] += 1;
    total += 1;
    if (pred[i] >= 0) n[static_cast<std::size_t>(truth[i]) * cp + static_cast<std::size_t>(pred[i])] += 1;
  }
  double f = 0;
  for (std::size_t i = 0; i < rt; ++i) {
    if (a[i] == 0) continue;
    double best = 0;
    for (std::size_t j = 0; j < cp; ++j) {
      const double x = n[i * cp + j];
      if (x == 0) continue;
      const double prec = x / b[j], rec = x / a[i];
      best = std::max(best, 2 * prec * rec / (prec + rec));
    }
    f += a[i] / total * best;
  }
  return f;
}

std::vector<std::int32_t> cell_classifier(const WaveClusterOutput& result, const C45Options& opt, C0Grids c0) {
  const Clustering& c = result.clustering;
  const std::size_t cells = c.cell_cluster.size(), d = c.shape.dims.size();
  std::vector<std::int32_t> table(cells, 0);
  if (c.n_clusters == 0) return table;  // a single class: every cell is C0
  if (c0 == C0Grids::positive && result.transformed.size() != cells)
    throw std::logic_error("cell_classifier: the transformed values are missing");
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
  const C45Tree tree = C45Tree::fit(x, y.size(), d, y, c.n_clusters + 1, opt);
  std::vector<double> f(d);
  for (std::size_t i = 0; i < cells; ++i) {
    unravel(i, c.shape, coord.data());
    for (std::size_t j = 0; j < d; ++j) f[j] = static_cast<double>(coord[j]);
    table[i] = tree.predict(f.data());
  }
  return table;
}

CvOptions CvOptions::from(const ParamSet& params) {
  CvOptions o;
  o.folds = static_cast<std::size_t>(params.integer("cv_folds"));
  o.tree.prune = params.boolean("c45_pruning");
  o.tree.confidence = params.real("c45_cf");
  o.tree.min_leaf = static_cast<std::size_t>(params.integer("c45_min_leaf"));
  o.c0 = params.string("c0_grids") == "positive" ? C0Grids::positive : C0Grids::all;
  if (params.has("ocm_matching")) o.matching = choice_of<OcmMatching>(params, "ocm_matching");
  if (params.has("ocm_folds")) o.fold_rule = choice_of<CvFolds>(params, "ocm_folds");
  return o;
}

CvResult cross_validate(const Dataset& data, const WcParams& wp, const ParamSet& params, const WcMechanism& mechanism,
                        bool is_private, std::uint64_t seed, const CvOptions& opt) {
  if (opt.folds < 2) throw std::invalid_argument("cross-validation needs at least 2 folds");
  const std::size_t n = data.n, d = data.d, k = std::min(opt.folds, n);
  std::vector<std::uint32_t> perm(n);
  if (opt.fold_rule == CvFolds::weka) {
    // The authors' folds: Weka's randomize(new Random(1)) + stratify(k) on the labels, the same in
    // every trial (weka_folds.hpp); fold f tests the block weka_test_block(n, k, f).
    if (!data.has_labels())
      throw InputError("params.ocm_folds", "ocm_folds: weka stratifies the folds on the dataset's labels, but dataset '" +
                                               data.name + "' has none",
                       "use a labelled dataset, or ocm_folds: dpclust");
    if (k >= 2) perm = weka_fold_order(data.labels, k);
  } else {
    Rng rng(seed);
    std::iota(perm.begin(), perm.end(), 0u);
    rng.shuffle(perm.data(), n);
  }
  const Quantizer q = make_quantizer(data, wp);
  const int level = wp.wavelet.level;

  Dataset train;
  train.name = data.name + " (training folds)";
  train.d = d;
  train.bounds = data.bounds;
  train.bounds_source = data.bounds_source;
  std::vector<std::int32_t> pt, pp;
  CvResult res;
  double sum_ocm = 0, sum_2ce = 0;
  for (std::size_t f = 0; f < k; ++f) {
    std::size_t lo = f * n / k, hi = (f + 1) * n / k;  // test part: perm[lo, hi)
    if (opt.fold_rule == CvFolds::weka) {
      const FoldBlock b = weka_test_block(n, k, f);  // testCV(k, f); trainCV = the rest, in order
      lo = b.first, hi = b.first + b.size;
    }
    train.n = n - (hi - lo);
    train.coords.resize(train.n * d);
    double* out = train.coords.data();
    for (std::size_t i = 0; i < n; ++i) {
      if (i >= lo && i < hi) continue;
      const double* p = data.point(perm[i]);
      out = std::copy(p, p + d, out);
    }
    // Clustering first: true WaveCluster and the mechanism on the training part.
    const WaveClusterOutput truth = run_wavecluster(train, wp);
    Rng fold_rng(splitmix64(seed ^ splitmix64(0x5743u + f)));
    BudgetLedger ledger = is_private ? BudgetLedger(params.real("epsilon")) : BudgetLedger();
    const WaveClusterOutput priv = mechanism.run_wc(train, wp, params, fold_rng, ledger);
    ledger.verify();
    // Then classification of the held-out points by the cell of each point.
    const std::vector<std::int32_t> ct = cell_classifier(truth, opt.tree, opt.c0);
    const std::vector<std::int32_t> cp = cell_classifier(priv, opt.tree, opt.c0);
    pt.resize(hi - lo);
    pp.resize(hi - lo);
    for (std::size_t i = lo; i < hi; ++i) {
      const std::size_t cell = q.cell_of(data.point(perm[i]), level);
      pt[i - lo] = ct[cell];
      pp[i - lo] = cp[cell];
    }
    if (pt.empty()) continue;
    const std::optional<double> o = opt.matching == OcmMatching::authors_set_difference ? ocm_authors(pt, pp) : ocm(pt, pp);
    if (o) {
      sum_ocm += *o;
      ++res.ocm_folds;
    }
    sum_2ce += two_ce(pt, pp);
    ++res.folds;
  }
  // OCM is 0 when no fold counted (ocm_authors skipped them all: one cluster on each side everywhere).
  if (res.ocm_folds > 0) res.ocm = sum_ocm / static_cast<double>(res.ocm_folds);
  if (res.folds > 0) res.two_ce = sum_2ce / static_cast<double>(res.folds);
  return res;
}

}  // namespace dpclust::wavecluster
