// OCM/2CE with what does not change between trials computed once (measures.hpp CvFixed)
// against the cross-validation as it was before: every fold quantized, clustered and classified from
// scratch, with the C4.5 builder it used (c45_reference.hpp). Every number must be the same double, for
// both fold rules, both C0 rules, both OCM matchings and every mechanism, whether CvFixed is computed per
// call or once and shared by many trials; and the registered metrics give the same values with and
// without the run's DatasetCache.
#include <gtest/gtest.h>

#include <algorithm>
#include <any>
#include <filesystem>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "c45_reference.hpp"
#include "core/error.hpp"
#include "core/ledger.hpp"
#include "core/metric.hpp"
#include "core/rng.hpp"
#include "test_support.hpp"
#include "wavecluster/measures.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/register.hpp"
#include "wavecluster/weka_folds.hpp"
#include "wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

// cross_validate before CvFixed, verbatim but for the reference cell classifier.
CvResult reference_cross_validate(const Dataset& data, const WcParams& wp, const ParamSet& params,
                                  const WcMechanism& mechanism, bool is_private, std::uint64_t seed,
                                  const CvOptions& opt) {
  const std::size_t n = data.n, d = data.d, k = std::min(opt.folds, n);
  std::vector<std::uint32_t> perm(n);
  if (opt.fold_rule == CvFolds::weka) {
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
    std::size_t lo = f * n / k, hi = (f + 1) * n / k;
    if (opt.fold_rule == CvFolds::weka) {
      const FoldBlock b = weka_test_block(n, k, f);
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
    const WaveClusterOutput truth = run_wavecluster(train, wp);
    Rng fold_rng(splitmix64(seed ^ splitmix64(0x5743u + f)));
    BudgetLedger ledger = is_private ? BudgetLedger(params.real("epsilon")) : BudgetLedger();
    const WaveClusterOutput priv = mechanism.run_wc(train, wp, params, fold_rng, ledger);
    ledger.verify();
    const std::vector<std::int32_t> ct = reference::reference_cell_table(truth, opt.tree, opt.c0);
    const std::vector<std::int32_t> cp = reference::reference_cell_table(priv, opt.tree, opt.c0);
    pt.resize(hi - lo);
    pp.resize(hi - lo);
    for (std::size_t i = lo; i < hi; ++i) {
      const std::size_t cell = q.cell_of(data.point(perm[i]), level);
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
  if (res.ocm_folds > 0) res.ocm = sum_ocm / static_cast<double>(res.ocm_folds);
  if (res.folds > 0) res.two_ce = sum_2ce / static_cast<double>(res.folds);
  return res;
}

// Blobs with their labels (blob index; -1 for the background), so that Weka's folds can stratify.
Dataset labelled_blobs(std::uint64_t seed) {
  Dataset ds = dpclust::testing::blobs_dataset(seed, 800);
  ds.labels.assign(ds.n, -1);
  for (std::size_t i = 0; i < 3 * 800; ++i) ds.labels[i] = static_cast<Label>(i / 800);
  return ds;
}

void expect_same(const CvResult& a, const CvResult& b, const std::string& what) {
  EXPECT_EQ(a.ocm, b.ocm) << what;
  EXPECT_EQ(a.two_ce, b.two_ce) << what;
  EXPECT_EQ(a.folds, b.folds) << what;
  EXPECT_EQ(a.ocm_folds, b.ocm_folds) << what;
}

TEST(CvReuse, EqualsEveryFoldFromScratch) {
  const Dataset ds = labelled_blobs(31);
  int compared = 0;
  for (const char* fold_rule : {"dpclust", "weka"})
    for (const char* c0 : {"all", "positive"})
      for (const char* matching : {"max_intersection", "authors_set_difference"}) {
        ParamSet ps = dpclust::testing::wc_params(30, 0.3);
        ps.set("c0_grids", std::string(c0));
        ps.set("ocm_folds", std::string(fold_rule));
        ps.set("ocm_matching", std::string(matching));
        ps.set("epsilon", 0.8);
        ps.set("rho", 0.8);
        ps.set("sampler", std::string("secure"));
        const WcParams wp = WcParams::from(ps, 2);
        const CvOptions opt = CvOptions::from(ps);
        const CvFixed fixed = CvFixed::of(ds, wp, opt);  // shared by every mechanism and seed below
        for (const char* name : {"wavecluster", "privqt", "privthr"}) {
          const auto mech = make_mechanism(name);
          const bool priv = std::string(name) != "wavecluster";
          for (std::uint64_t seed : {5u, 6u}) {
            const std::string what =
                std::string(name) + " " + fold_rule + " " + c0 + " " + matching + " seed " + std::to_string(seed);
            const CvResult ref = reference_cross_validate(ds, wp, ps, *mech, priv, seed, opt);
            expect_same(cross_validate(ds, wp, ps, *mech, priv, seed, opt), ref, what + " (own CvFixed)");
            expect_same(cross_validate(ds, wp, ps, *mech, priv, seed, opt, &fixed), ref, what + " (shared CvFixed)");
            ++compared;
          }
        }
      }
  EXPECT_EQ(compared, 2 * 2 * 2 * 3 * 2);
}

TEST(CvReuse, PapersDataEqualsEveryFoldFromScratch) {
  const auto path = dpclust::testing::data_root() / "wavecluster/aggregation-30k.arff";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "DS3 (aggregation-30k.arff) is not under the data root";
  Dataset ds = dpclust::testing::read_numeric_arff(path, 2);
  ParamSet ps = dpclust::testing::wc_params(50, 0.15);
  ps.set("epsilon", 1.0);
  ps.set("sampler", std::string("secure"));
  ps.set("synopsis", std::string("adaptive"));
  ps.set("ag_c", 10.0);
  ps.set("ag_alpha", 0.5);
  ps.set("n_share", 0.05);
  ps.set("ag_variant", std::string("paper"));
  const WcParams wp = WcParams::from(ps, 2);
  const CvOptions opt = CvOptions::from(ps);
  const CvFixed fixed = CvFixed::of(ds, wp, opt);
  const auto mech = make_mechanism("wc_baseline");
  for (std::uint64_t seed : {11u, 12u})
    expect_same(cross_validate(ds, wp, ps, *mech, true, seed, opt, &fixed),
                reference_cross_validate(ds, wp, ps, *mech, true, seed, opt),
                "DS3 wc_baseline seed " + std::to_string(seed));
}

TEST(CvReuse, WekaFoldsWithoutLabelsStillRefused) {
  const Dataset ds = dpclust::testing::blobs_dataset(3, 100);  // no labels
  ParamSet ps = dpclust::testing::wc_params(20, 0.3);
  ps.set("ocm_folds", std::string("weka"));
  const WcParams wp = WcParams::from(ps, 2);
  EXPECT_THROW(CvFixed::of(ds, wp, CvOptions::from(ps)), InputError);
  EXPECT_THROW(cross_validate(ds, wp, ps, *make_mechanism("wavecluster"), false, 1, CvOptions::from(ps)), InputError);
}

TEST(CvReuse, RegisteredMetricsAreTheSameWithTheRunsDatasetCache) {
  const Dataset ds = labelled_blobs(41);
  const std::vector<MethodInfo> methods = wavecluster_methods();
  const std::vector<MetricInfo> metrics = wavecluster_folder().metrics;
  for (const char* fold_rule : {"dpclust", "weka"}) {
    DatasetCache shared;  // one per dataset in a run: shared by every cell and trial below
    for (const auto& info : methods) {
      if (info.name == "wc_baseline") continue;  // its synopsis on 2,460 points: slow and adds nothing here
      ParamSet ps = dpclust::testing::wc_params(30, 0.3);
      ps.set("ocm_folds", std::string(fold_rule));
      for (const auto& spec : info.params)
        if (!ps.has(spec.name)) ps.set(spec.name, spec.required() ? ParamValue(1.0) : spec.default_value);
      for (std::uint64_t trial = 0; trial < 3; ++trial) {
        BudgetLedger ledger = info.differentially_private ? BudgetLedger(1.0) : BudgetLedger();
        Rng rng(100 + trial);
        const MethodResult res = info.make()->run(ds, ps, rng, ledger);
        std::map<std::string, std::any> alone_cache, with_cache;
        const MetricInput alone{ds, res, ps, info, 900 + trial, alone_cache};
        const MetricInput with{ds, res, ps, info, 900 + trial, with_cache, &shared};
        for (const auto& m : metrics)
          EXPECT_EQ(m.compute(with), m.compute(alone))
              << info.name << " " << m.name << " " << fold_rule << " trial " << trial;
      }
    }
    // One true result and one CvFixed for all: the WaveCluster parameters are the same in every cell.
    EXPECT_EQ(shared.size(), 2u);
  }
}

}  // namespace
}  // namespace dpclust::wavecluster
