#include "wavecluster/measures.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <utility>

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
  const double all =
      std::accumulate(size_t_.begin(), size_t_.end(), 0.0) + std::accumulate(size_p.begin(), size_p.end(), 0.0);
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
  for (std::size_t i = 0; i < x.size(); ++i)
    t.n[static_cast<std::size_t>(x[i]) * t.cols + static_cast<std::size_t>(y[i])] += 1;
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

C45Presort lattice_presort(const GridShape& shape) {
  const std::size_t cells = shape.size(), d = shape.dims.size();
  std::vector<double> x(cells * d);
  std::vector<std::size_t> coord(d);
  for (std::size_t i = 0; i < cells; ++i) {
    unravel(i, shape, coord.data());
    for (std::size_t j = 0; j < d; ++j) x[i * d + j] = static_cast<double>(coord[j]);
  }
  return C45Presort::of(std::move(x), cells, d);
}

std::vector<std::int32_t> cell_classifier(const WaveClusterOutput& result, const C45Options& opt, C0Grids c0) {
  if (result.clustering.n_clusters == 0) return std::vector<std::int32_t>(result.clustering.cell_cluster.size(), 0);
  return cell_classifier(result, opt, c0, lattice_presort(result.clustering.shape));
}

std::vector<std::int32_t> cell_classifier(const WaveClusterOutput& result, const C45Options& opt, C0Grids c0,
                                          const C45Presort& lattice) {
  const Clustering& c = result.clustering;
  const std::size_t cells = c.cell_cluster.size(), d = c.shape.dims.size();
  std::vector<std::int32_t> table(cells, 0);
  if (c.n_clusters == 0) return table;  // a single class: every cell is C0
  if (lattice.n != cells || lattice.a != d)
    throw std::logic_error("cell_classifier: the presorted cells are of another grid");
  if (c0 == C0Grids::positive && result.transformed.size() != cells)
    throw std::logic_error("cell_classifier: the transformed values are missing");
  // Training instances: every cell (class: cluster id + 1, or 0 = C0), or with c0 = positive only the
  // significant cells and the positive non-significant ones, in row-major order either way.
  std::vector<std::int32_t> y;
  y.reserve(cells);
  std::vector<std::uint8_t> keep;
  if (c0 == C0Grids::positive) keep.assign(cells, 0);
  for (std::size_t i = 0; i < cells; ++i) {
    const std::int32_t cl = c.cell_cluster[i];
    if (c0 == C0Grids::positive) {
      if (cl < 0 && !(result.transformed[i] > 0)) continue;
      keep[i] = 1;
    }
    y.push_back(cl + 1);
  }
  // A training cell's class is the tree's prediction for it, given by the fit without walking the tree
  // (C45Tree::fit's training_classes); only the cells left out of the training data (c0 = positive) walk it.
  const std::size_t classes = c.n_clusters + 1;
  if (c0 == C0Grids::all) {
    C45Tree::fit(lattice, y, classes, opt, table);
    return table;
  }
  std::vector<std::int32_t> trained;
  const C45Tree tree = C45Tree::fit(lattice.subset(keep), y, classes, opt, trained);
  std::size_t k = 0;
  for (std::size_t i = 0; i < cells; ++i)
    table[i] = keep[i] ? trained[k++] : tree.predict(&lattice.x[i * d]);  // a cell's coordinates
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

namespace {

// The true WaveCluster of the training part, from its count matrix: run_wavecluster(train, wp) without
// quantizing the training points again (M_train = M - the held-out points' cells; whole-number counts,
// so the same doubles as counting the training points).
// The count matrix of a fold's training part: every point's counts minus the held-out points' cells.
std::vector<double> training_counts(const CvFixed& fixed, const std::vector<std::uint32_t>& perm, std::size_t lo,
                                    std::size_t hi) {
  std::vector<double> m = fixed.counts;
  for (std::size_t i = lo; i < hi; ++i) m[fixed.cell[perm[i]]] -= 1.0;
  return m;
}

WaveClusterOutput truth_from(const std::vector<double>& training, const CvFixed& fixed, const WcParams& wp) {
  return wavecluster_from_transform(approximation(training, fixed.grid, wp.wavelet), fixed.subband, wp);
}

void check_folds(const Dataset& data, const CvOptions& opt) {
  if (opt.folds < 2) throw std::invalid_argument("cross-validation needs at least 2 folds");
  if (opt.fold_rule == CvFolds::weka && !data.has_labels())
    throw InputError(
        "params.ocm_folds",
        "ocm_folds: weka stratifies the folds on the dataset's labels, but dataset '" + data.name + "' has none",
        "use a labelled dataset, or ocm_folds: dpclust");
}

// Fold f's held-out block [lo, hi) of the fold order.
std::pair<std::size_t, std::size_t> test_block(std::size_t n, std::size_t k, std::size_t f, CvFolds rule) {
  if (rule == CvFolds::weka) {
    const FoldBlock b = weka_test_block(n, k, f);  // testCV(k, f); trainCV = the rest, in order
    return {b.first, b.first + b.size};
  }
  return {f * n / k, (f + 1) * n / k};
}

}  // namespace

CvFixed CvFixed::of(const Dataset& data, const WcParams& wp, const CvOptions& opt) {
  check_folds(data, opt);
  CvFixed fx;
  const Quantizer q = make_quantizer(data, wp);
  const int level = wp.wavelet.level;
  fx.grid = q.shape();
  fx.subband = q.shape().coarsened(level);
  fx.cell.resize(data.n);
  fx.coarse.resize(data.n);
  fx.counts.assign(fx.grid.size(), 0.0);
  for (std::size_t i = 0; i < data.n; ++i) {  // cell indices < kMaxGridCells = 2^28
    const std::size_t c = q.cell_of(data.point(i));
    fx.cell[i] = static_cast<std::uint32_t>(c);
    fx.coarse[i] = static_cast<std::uint32_t>(q.cell_of(data.point(i), level));
    fx.counts[c] += 1.0;
  }
  fx.lattice = lattice_presort(fx.subband);
  const std::size_t n = data.n, k = std::min(opt.folds, n);
  if (opt.fold_rule == CvFolds::weka && k >= 2) {
    // The authors' folds: Weka's randomize(new Random(1)) + stratify(k) on the labels, the same in
    // every trial (weka_folds.hpp), and so is each fold's true classifier.
    fx.weka_order = weka_fold_order(data.labels, k);
    for (std::size_t f = 0; f < k; ++f) {
      const auto [lo, hi] = test_block(n, k, f, opt.fold_rule);
      fx.weka_truth.push_back(cell_classifier(truth_from(training_counts(fx, fx.weka_order, lo, hi), fx, wp), opt.tree,
                                              opt.c0, fx.lattice));
    }
  }
  return fx;
}

CvResult cross_validate(const Dataset& data, const WcParams& wp, const ParamSet& params, const WcMechanism& mechanism,
                        bool is_private, std::uint64_t seed, const CvOptions& opt, const CvFixed* fixed) {
  check_folds(data, opt);
  std::optional<CvFixed> local;
  if (!fixed) fixed = &local.emplace(CvFixed::of(data, wp, opt));
  const std::size_t n = data.n, d = data.d, k = std::min(opt.folds, n);
  std::vector<std::uint32_t> perm(n);
  if (opt.fold_rule == CvFolds::weka) {
    if (k >= 2) perm = fixed->weka_order;  // fold f tests the block weka_test_block(n, k, f)
  } else {
    Rng rng(seed);
    std::iota(perm.begin(), perm.end(), 0u);
    rng.shuffle(perm.data(), n);
  }

  Dataset train;
  train.name = data.name + " (training folds)";
  train.d = d;
  train.bounds = data.bounds;
  train.bounds_source = data.bounds_source;
  std::vector<std::int32_t> pt, pp;
  CvResult res;
  double sum_ocm = 0, sum_2ce = 0;
  for (std::size_t f = 0; f < k; ++f) {
    const auto [lo, hi] = test_block(n, k, f, opt.fold_rule);  // test part: perm[lo, hi)
    train.n = n - (hi - lo);
    // The training part's points are copied only for a mechanism that reads them (Baseline's synopsis);
    // the others get its count matrix (the same numbers quantizing the copied points would give).
    // (The buffer is kept from fold to fold: folds differ by at most one point, so resizing fills next to
    // nothing; each point is copied coordinate by coordinate, not by a memcpy call per point.)
    if (mechanism.reads_points()) {
      train.coords.resize(train.n * d);
      double* out = train.coords.data();
      for (std::size_t i = 0; i < n; ++i) {
        if (i >= lo && i < hi) continue;
        const double* p = data.point(perm[i]);
        if (d == 2) {
          out[0] = p[0];
          out[1] = p[1];
        } else {
          for (std::size_t j = 0; j < d; ++j) out[j] = p[j];
        }
        out += d;
      }
    }
    const std::vector<double> m_train = training_counts(*fixed, perm, lo, hi);
    // Clustering first: true WaveCluster (the same in every trial for weka folds) and the mechanism on the
    // training part.
    std::vector<std::int32_t> ct_local;
    if (opt.fold_rule != CvFolds::weka)
      ct_local = cell_classifier(truth_from(m_train, *fixed, wp), opt.tree, opt.c0, fixed->lattice);
    const std::vector<std::int32_t>& ct = opt.fold_rule == CvFolds::weka ? fixed->weka_truth[f] : ct_local;
    Rng fold_rng(splitmix64(seed ^ splitmix64(0x5743u + f)));
    BudgetLedger ledger = is_private ? BudgetLedger(params.real("epsilon")) : BudgetLedger();
    const auto started = std::chrono::steady_clock::now();
    const WaveClusterOutput priv = mechanism.run_wc(train, wp, params, fold_rng, ledger, &m_train);
    ledger.verify();
    res.mechanism_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // Then classification of the held-out points by the cell of each point.
    const std::vector<std::int32_t> cp = priv.clustering.shape == fixed->subband
                                             ? cell_classifier(priv, opt.tree, opt.c0, fixed->lattice)
                                             : cell_classifier(priv, opt.tree, opt.c0);
    pt.resize(hi - lo);
    pp.resize(hi - lo);
    for (std::size_t i = lo; i < hi; ++i) {
      const std::size_t cell = fixed->coarse[perm[i]];
      pt[i - lo] = ct[cell];
      pp[i - lo] = cp[cell];
    }
    if (pt.empty()) continue;
    const std::optional<double> o =
        opt.matching == OcmMatching::authors_set_difference ? ocm_authors(pt, pp) : ocm(pt, pp);
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
