// The DP WaveCluster paper's measures as metrics of the catalog (DSG_C, OCM, 2CE, F-measure, k', ...): each reads
// the trial's WaveClusterOutput and the true WaveCluster result on the same data; OCM and 2CE share one
// cross-validation. The runner hands a metric the cell's method parameters, so cv_folds, the C4.5 options and
// c0_grids are parameters of the methods (register.cpp).
#include "wavecluster/paper_metrics.hpp"

#include <any>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "wavecluster/measures.hpp"
#include "wavecluster/mechanism.hpp"

namespace dpclust {
namespace {

using namespace dpclust::wavecluster;

void require_wavecluster(const MetricInput& in, const char* metric) {
  if (!in.params.has("g") || !in.params.has("p") || !dynamic_cast<const WcMechanism*>(in.method.make().get()))
    throw InputError("metrics",
                     std::string("metric '") + metric +
                         "' applies to the WaveCluster methods only (wavecluster, "
                         "wc_baseline, privqt, privthr, privthr_em), not to '" +
                         in.method.name + "'",
                     "drop the metric for this method");
}

struct TrueResult {
  Clustering clustering;
  Labels labels;
};

// The run's cache key of what depends on the WaveCluster parameters (every field of WcParams that
// changes a true result; doubles in hexadecimal, exactly).
std::string wc_key(const WcParams& wp) {
  std::string k = "g=";
  for (std::size_t g : wp.g) k += std::to_string(g) + ",";
  char p[40];
  std::snprintf(p, sizeof p, "%a", wp.p);
  k += std::string(";p=") + p + ";wavelet=" + std::to_string(static_cast<int>(wp.wavelet.wavelet)) +
       ";level=" + std::to_string(wp.wavelet.level) +
       ";boundary=" + std::to_string(static_cast<int>(wp.wavelet.boundary)) +
       ";full=" + std::to_string(wp.full_connectivity) + ";ties=" + std::to_string(static_cast<int>(wp.ties));
  return k;
}
std::string cv_key(const CvOptions& o) {
  char cf[40];
  std::snprintf(cf, sizeof cf, "%a", o.tree.confidence);
  return "folds=" + std::to_string(o.folds) + ";rule=" + std::to_string(static_cast<int>(o.fold_rule)) +
         ";c0=" + std::to_string(static_cast<int>(o.c0)) + ";min_leaf=" + std::to_string(o.tree.min_leaf) +
         ";prune=" + std::to_string(o.tree.prune) + ";cf=" + cf + ";raising=" + std::to_string(o.tree.subtree_raising) +
         ";collapse=" + std::to_string(o.tree.collapse) + ";mdl=" + std::to_string(o.tree.mdl_correction);
}

// What does not change between the trials on a dataset, from the run's DatasetCache (computed by the
// first trial that needs it), or computed for this trial alone when the caller keeps no such cache.
template <class T, class Make>
std::shared_ptr<const T> reused(const MetricInput& in, const std::string& key, Make&& make) {
  if (in.dataset_cache) return in.dataset_cache->get<T>(key, std::forward<Make>(make));
  return std::make_shared<const T>(make());
}

// The true (non-private) WaveCluster result on the full data: the same in every trial with these
// parameters, so computed once per dataset and parameters.
const TrueResult& true_result(const MetricInput& in) {
  auto it = in.cache.find("wavecluster.true_full");
  if (it == in.cache.end()) {
    const WcParams wp = WcParams::from(in.params, in.data.d);
    auto t = reused<TrueResult>(in, "wavecluster.true_full|" + wc_key(wp), [&] {
      WaveClusterOutput out = run_wavecluster(in.data, wp);
      TrueResult r;
      r.labels = label_points(in.data, make_quantizer(in.data, wp), wp.wavelet.level, out.clustering);
      r.clustering = std::move(out.clustering);
      return r;
    });
    it = in.cache.emplace("wavecluster.true_full", std::move(t)).first;
  }
  return *std::any_cast<const std::shared_ptr<const TrueResult>&>(it->second);
}

// OCM and 2CE from one cross-validation per trial; what it reuses across trials (CvFixed) from the run's cache.
const CvResult& cv_result(const MetricInput& in) {
  auto it = in.cache.find("wavecluster.cv");
  if (it == in.cache.end()) {
    const WcParams wp = WcParams::from(in.params, in.data.d);
    const CvOptions opt = CvOptions::from(in.params);
    auto method = in.method.make();
    const auto* mech = dynamic_cast<const WcMechanism*>(method.get());
    const auto fixed = reused<CvFixed>(in, "wavecluster.cv_fixed|" + wc_key(wp) + "|" + cv_key(opt),
                                       [&] { return CvFixed::of(in.data, wp, opt); });
    CvResult r =
        cross_validate(in.data, wp, in.params, *mech, in.method.differentially_private, in.seed, opt, fixed.get());
    // The folds' mechanism runs are mechanism work done for the evaluation: reported apart (cell_trials.cpp).
    in.cache[kMechanismRerunSecondsKey] = r.mechanism_seconds;
    it = in.cache.emplace("wavecluster.cv", r).first;
  }
  return std::any_cast<const CvResult&>(it->second);
}

// The typed result of the trial (MethodResult::details): the metrics read numbers only from it.
const WaveClusterOutput& output(const MetricInput& in, const char* metric) {
  require_wavecluster(in, metric);
  const WaveClusterOutput* out = output_of(in.result);
  if (!out)
    throw std::logic_error(std::string("metric '") + metric + "': the WaveCluster result carries no WaveClusterOutput");
  return *out;
}

MetricInfo metric(std::string name, std::string summary, std::function<double(const MetricInput&)> f) {
  MetricInfo m;
  m.name = std::move(name);
  m.summary = std::move(summary);
  m.needs_truth = false;  // compared with the true WaveCluster result, not with ground-truth labels
  m.compute = std::move(f);
  m.methods = {"wavecluster", "wc_baseline", "privqt", "privthr", "privthr_em"};
  return m;
}

}  // namespace

std::vector<MetricInfo> wavecluster_metrics() {
  return {
      metric("dsg_c",
             "DSG_C: Hungarian-matched dissimilarity of significant grids and clusters, true vs private (DP "
             "WaveCluster Sec. 6.1)",
             [](const MetricInput& in) {
               require_wavecluster(in, "dsg_c");
               return dsg_c(true_result(in).clustering, output(in, "dsg_c").clustering);
             }),
      metric("ocm",
             "OCM: 1 - optimally matched share of test points classified by C4.5 trees from true and private results, "
             "k-fold (Sec. 6.2)",
             [](const MetricInput& in) {
               require_wavecluster(in, "ocm");
               return cv_result(in).ocm;
             }),
      metric("two_ce", "2CE: share of inconsistently classified test pairs, same cross-validation as OCM (Sec. 6.2)",
             [](const MetricInput& in) {
               require_wavecluster(in, "two_ce");
               return cv_result(in).two_ce;
             }),
      metric("f_measure", "F-measure of the private clusters against the true WaveCluster clusters (Sec. 7)",
             [](const MetricInput& in) {
               require_wavecluster(in, "f_measure");
               return f_measure(true_result(in).labels, in.result.labels);
             }),
      metric("kprime", "k': number of top values the (private) run declared significant (Sec. 5.2, 7)",
             [](const MetricInput& in) { return static_cast<double>(output(in, "kprime").k_prime); }),
      metric("k_true", "k = ceil((1-p)|L|) of the true transformed values (evaluation: a statistic of the true data)",
             [](const MetricInput& in) { return static_cast<double>(output(in, "k_true").k); }),
      metric("kprime_rel_error", "|k' - k| / k (Sec. 7)",
             [](const MetricInput& in) {
               const WaveClusterOutput& out = output(in, "kprime_rel_error");
               const double k = static_cast<double>(out.k), kp = static_cast<double>(out.k_prime);
               return k > 0 ? std::fabs(kp - k) / k : (kp == 0 ? 0.0 : 1.0);
             }),
      metric("significant_grids", "number of significant cells of the (private) result",
             [](const MetricInput& in) {
               return static_cast<double>(output(in, "significant_grids").clustering.n_significant);
             }),
      metric(
          "wc_clusters", "number of WaveCluster clusters of the (private) result",
          [](const MetricInput& in) { return static_cast<double>(output(in, "wc_clusters").clustering.n_clusters); }),
  };
}

}  // namespace dpclust
