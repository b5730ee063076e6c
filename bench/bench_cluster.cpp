// Clustering benchmarks: one benchmark per algorithm at a few n, on the same generated data as
// the scikit-learn anchors (bench/anchors_sklearn.py): make_blobs(n, centers = 3, n_features = 2,
// cluster_std = 1, random_state = 0) drawn with numpy's stream (generator option stream: numpy), so the
// points are sklearn's own.
//   build-*/bench/bench_cluster [--benchmark_filter=...] [--benchmark_format=json]
//   python3 bench/anchors_sklearn.py --dpclust-json bench_cluster.json   (the side-by-side table)
// Non-private algorithms (the building blocks; parameters as in the anchors):
//   AffinityPropagation  damping 0.9, max_iter 1000, convergence_iter 15, preference = median (the
//                        ndlaplace_shared settings); counter n_iter = sklearn's n_iter_
//   Dbscan               alpha (sklearn eps) 0.3, MinPts 5
//   KMeans               k = 3, n_init 1, max_iter 300, tol 1e-4, k-means++ seeding (sklearn's lloyd)
// DP mechanisms not in bench_dpdbscan.cpp, run as a trial runs them (Method::run from the catalog, with
// the dataset's bounding box as its public domain; benchmark data only):
//   NdLaplace            nd_laplace, epsilon 1, cluster kmeans k = 3 (perturbation + clustering)
//   NdLaplacePerturb     the perturbation alone (NdLaplaceMechanism::perturb, secure grid sampler)
//   Drbt                 drbt, k_dims 2, k = 3
//   WaveCluster          wavecluster / privqt / privthr / privthr_em / wc_baseline, g = 64, p = 0.5, epsilon 1
//   DpKmeans             dp_kmeans, k = 3, epsilon 1
//   Pairwise             dp_dbscan_pairwise, alpha 0.3, MinPts 5, epsilon 1 (n^2 / 2 draws; small n only)
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "catalog/catalog.hpp"
#include "cluster/affinity/affinity_propagation.hpp"
#include "cluster/dbscan/dbscan.hpp"
#include "cluster/kmeans/kmeans.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "data/generators.hpp"
#include "ndlaplace/mechanism.hpp"

using namespace dpclust;

namespace {

// sklearn.datasets.make_blobs(n, centers=3, n_features=2, random_state=0); bounds = the bounding box.
const Dataset& blobs(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<Dataset>> cache;
  if (auto it = cache.find(n); it != cache.end()) return *it->second;
  BlobsOptions o;
  o.n_samples = n;
  o.n_centers = 3;
  o.n_features = 2;
  o.seed = 0;
  o.stream = RandomStream::numpy;
  auto d = std::make_unique<Dataset>(make_blobs(o));
  d->bounds = bounding_box(*d);
  d->bounds_source = BoundsSource::config;
  return *(cache[n] = std::move(d));
}

// --- non-private algorithms ---------------------------------------------------------------------

void BM_AffinityPropagation(benchmark::State& state) {
  const Dataset& d = blobs(static_cast<std::size_t>(state.range(0)));
  AffinityOptions o;
  o.damping = 0.9;
  o.max_iter = 1000;
  std::int64_t iterations = 0, clusters = 0;
  for (auto _ : state) {
    const AffinityResult r = affinity_propagation(d.coords.data(), d.n, d.d, o);
    iterations = r.n_iter;
    clusters = static_cast<std::int64_t>(r.exemplars.size());
    benchmark::DoNotOptimize(r.labels.data());
  }
  state.counters["points"] = static_cast<double>(d.n);
  state.counters["n_iter"] = static_cast<double>(iterations);
  state.counters["clusters"] = static_cast<double>(clusters);
}
BENCHMARK(BM_AffinityPropagation)->Arg(250)->Arg(500)->Arg(1000)->Arg(2000)->Unit(benchmark::kMillisecond);

void BM_Dbscan(benchmark::State& state) {
  const Dataset& d = blobs(static_cast<std::size_t>(state.range(0)));
  DbscanStats st;
  for (auto _ : state) benchmark::DoNotOptimize(dbscan(d.coords.data(), d.n, d.d, 0.3, 5, &st).data());
  state.counters["points"] = static_cast<double>(d.n);
  state.counters["core_points"] = static_cast<double>(st.core_points);
  state.SetItemsProcessed(static_cast<std::int64_t>(d.n) * state.iterations());
}
BENCHMARK(BM_Dbscan)->Arg(1000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

void BM_KMeans(benchmark::State& state) {
  const Dataset& d = blobs(static_cast<std::size_t>(state.range(0)));
  KMeansOptions o;
  std::uint64_t seed = 0;
  std::int64_t iterations = 0;
  for (auto _ : state) {
    Rng rng(seed++);
    const KMeansResult r = kmeans(d.coords.data(), d.n, d.d, 3, o, rng);
    iterations = r.n_iter;
    benchmark::DoNotOptimize(r.labels.data());
  }
  state.counters["points"] = static_cast<double>(d.n);
  state.counters["n_iter"] = static_cast<double>(iterations);
  state.SetItemsProcessed(static_cast<std::int64_t>(d.n) * state.iterations());
}
BENCHMARK(BM_KMeans)->Arg(1000)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// --- DP methods through the catalog (what one trial runs) -----------------------------------------

// The method's declared defaults, then `set` converted to each parameter's declared type; refuses a value
// its spec rejects (the benchmark must measure a valid configuration).
ParamSet params_for(const MethodInfo& info, const std::map<std::string, double>& set) {
  ParamSet p;
  for (const auto& spec : info.params)
    if (!spec.required()) p.set(spec.name, spec.default_value);
  for (const auto& [name, value] : set) {
    const ParamSpec* spec = nullptr;
    for (const auto& s : info.params)
      if (s.name == name) spec = &s;
    if (!spec) throw std::logic_error(info.name + " has no parameter " + name);
    ParamValue v;
    switch (spec->type) {
      case ParamType::integer: v = static_cast<std::int64_t>(value); break;
      case ParamType::real_vector: v = RealVector{value}; break;
      default: v = value; break;
    }
    if (const std::string why = spec->check(v); !why.empty())
      throw std::logic_error(info.name + "." + name + ": " + why);
    p.set(name, std::move(v));
  }
  return p;
}

void run_method(benchmark::State& state, const std::string& name, const std::map<std::string, double>& set,
                const std::map<std::string, std::string>& choices = {}) {
  const MethodInfo* info = find_method(name);
  if (!info) {
    state.SkipWithError(("no method " + name).c_str());
    return;
  }
  const Dataset& d = blobs(static_cast<std::size_t>(state.range(0)));
  ParamSet params = params_for(*info, set);
  for (const auto& [k, v] : choices) params.set(k, v);
  const std::unique_ptr<Method> method = info->make();
  const double epsilon = set.count("epsilon") ? set.at("epsilon") : 1.0;
  std::uint64_t seed = 0;
  for (auto _ : state) {
    Rng rng(seed++);
    BudgetLedger ledger = info->local_privacy ? BudgetLedger(epsilon, 0.0, info->relation, PrivacyMeasure::local)
                                              : BudgetLedger(epsilon, 0.0, info->relation);
    MethodResult r = method->run(d, params, rng, ledger);
    benchmark::DoNotOptimize(r.labels.data());
  }
  state.SetLabel(name);
  state.counters["points"] = static_cast<double>(d.n);
  state.SetItemsProcessed(static_cast<std::int64_t>(d.n) * state.iterations());
}

void BM_NdLaplace(benchmark::State& state) {
  run_method(state, "nd_laplace", {{"epsilon", 1.0}, {"k", 3}}, {{"cluster", "kmeans"}});
}
BENCHMARK(BM_NdLaplace)->Arg(1000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

// The perturbation alone (secure grid sampler, truncation by resampling, epsilon 1 per unit).
void BM_NdLaplacePerturb(benchmark::State& state) {
  const Dataset& d = blobs(static_cast<std::size_t>(state.range(0)));
  ndlaplace::NdLaplaceSettings set;
  set.epsilon = 1.0;
  std::uint64_t seed = 0;
  for (auto _ : state) {
    BudgetLedger ledger(1.0, 0.0, NeighbourRelation::add_remove, PrivacyMeasure::local);
    const ndlaplace::NdLaplaceMechanism mech = ndlaplace::NdLaplaceMechanism::create(ledger, set, d.d, d.bounds);
    Rng rng(seed++);
    benchmark::DoNotOptimize(mech.perturb(d.coords.data(), d.n, d.bounds, rng, nullptr).data());
  }
  state.counters["points"] = static_cast<double>(d.n);
  state.SetItemsProcessed(static_cast<std::int64_t>(d.n) * state.iterations());
}
BENCHMARK(BM_NdLaplacePerturb)->Arg(1000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

void BM_Drbt(benchmark::State& state) { run_method(state, "drbt", {{"k_dims", 2}, {"k", 3}}); }
BENCHMARK(BM_Drbt)->Arg(1000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

// Arg 1: 0 = wavecluster (non-private), 1 = privqt, 2 = privthr, 3 = privthr_em, 4 = wc_baseline.
void BM_WaveCluster(benchmark::State& state) {
  static const char* names[] = {"wavecluster", "privqt", "privthr", "privthr_em", "wc_baseline"};
  const std::string name = names[state.range(1)];
  std::map<std::string, double> set = {{"g", 64}, {"p", 0.5}};
  if (name != "wavecluster") set["epsilon"] = 1.0;
  run_method(state, name, set);
}
BENCHMARK(BM_WaveCluster)->ArgsProduct({{1000, 10'000, 100'000}, {0, 1, 2, 3, 4}})->Unit(benchmark::kMillisecond);

void BM_DpKmeans(benchmark::State& state) { run_method(state, "dp_kmeans", {{"k", 3}, {"epsilon", 1.0}}); }
BENCHMARK(BM_DpKmeans)->Arg(1000)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

void BM_Pairwise(benchmark::State& state) {
  run_method(state, "dp_dbscan_pairwise", {{"alpha", 0.3}, {"min_pts", 5}, {"epsilon", 1.0}});
}
BENCHMARK(BM_Pairwise)->Arg(1000)->Arg(2000)->Arg(4000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
