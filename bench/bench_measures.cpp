// The k-means measures (engine/metrics/kmeans_measures.hpp) at the size of DPM's synth_big1 and Google's
// synthetic benchmark: 100,000 points in 100 dimensions, k = 64 (scikit-learn make_blobs, 64 centres in
// (-100, 100), seed 42: dpclust's numpy stream draws sklearn's points); the /10 cases are synth_10d's d = 10.
//   build/bench/bench_measures [--benchmark_filter=...]
// Released centres: the true blob centres moved by N(0, 1) per coordinate (what a good private method gives).
//   BM_NearestCentres       inertia (and the nearest-centre labels the other measures read): n k d
//   BM_Silhouette           the default estimate (silhouette_sample 2,000, stratified, with its standard error)
//   BM_SilhouetteSubset     scikit-learn's subset of 2,000 points (silhouette_sampling: subset)
//   BM_Accuracy / Purity    the contingency table and the Hungarian matching (64 x 64)
//   BM_KMeansReference      the non-private reference: 10 k-means++ restarts (computed once per dataset and k)
//   BM_KMeansRestart        one restart, exhaustive search against triangle pruning (the same result)
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <vector>

#include "cluster/kmeans/kmeans.hpp"
#include "cluster/kmeans/kmeans_reference.hpp"
#include "core/rng.hpp"
#include "data/generators.hpp"
#include "metrics/clustering_accuracy.hpp"
#include "metrics/kmeans_measures.hpp"
#include "metrics/nearest_centre.hpp"
#include "metrics/silhouette.hpp"

using namespace dpclust;

namespace {

const std::size_t kDefaultSample = EvaluationSettings{}.silhouette_sample;

struct Case {
  Dataset data;
  RowMatrix released;               // 64 x d
  Labels labels;                    // nearest released centre
  std::vector<std::size_t> sample;  // the subset
  std::vector<std::size_t> order;   // the permutation the stratified estimate reads
};

const Case& synth(std::size_t d) {
  static std::map<std::size_t, std::unique_ptr<Case>> cases;
  if (auto it = cases.find(d); it != cases.end()) return *it->second;
  auto c = std::make_unique<Case>();
  BlobsOptions o;
  o.n_samples = 100'000;
  o.n_features = d;
  o.n_centers = 64;
  o.center_box = {-100.0, 100.0};
  o.seed = 42;
  o.stream = RandomStream::numpy;
  c->data = make_blobs(o);
  const auto& centres = c->data.provenance.at("generator").at("centers");
  c->released.resize(64, static_cast<Eigen::Index>(d));
  Rng rng(7);
  for (Eigen::Index k = 0; k < 64; ++k)
    for (Eigen::Index j = 0; j < static_cast<Eigen::Index>(d); ++j)
      c->released(k, j) =
          centres.at(static_cast<std::size_t>(k)).at(static_cast<std::size_t>(j)).get<double>() + rng.normal();
  c->labels = nearest_centres(c->data.coords.data(), c->data.n, d, c->released).labels;
  c->sample = silhouette_sample(c->data.n, kDefaultSample, 1);
  c->order = silhouette_order(c->data.n, 1);
  return *cases.emplace(d, std::move(c)).first->second;
}

void BM_NearestCentres(benchmark::State& state) {
  const Case& c = synth(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(nearest_centres(c.data.coords.data(), c.data.n, c.data.d, c.released).cost);
}
BENCHMARK(BM_NearestCentres)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond);

void BM_Silhouette(benchmark::State& state) {
  const Case& c = synth(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(
        silhouette_stratified(c.data.coords.data(), c.data.n, c.data.d, c.labels, c.order, kDefaultSample).score);
}
BENCHMARK(BM_Silhouette)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond);

void BM_SilhouetteSubset(benchmark::State& state) {
  const Case& c = synth(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(silhouette_estimate(c.data.coords.data(), c.data.n, c.data.d, c.labels, c.sample).score);
}
BENCHMARK(BM_SilhouetteSubset)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond);

void BM_Accuracy(benchmark::State& state) {
  const Case& c = synth(100);
  for (auto _ : state) benchmark::DoNotOptimize(clustering_accuracy(c.data.labels, c.labels));
}
BENCHMARK(BM_Accuracy)->Unit(benchmark::kMillisecond);

void BM_Purity(benchmark::State& state) {
  const Case& c = synth(100);
  for (auto _ : state) benchmark::DoNotOptimize(purity(c.data.labels, c.labels));
}
BENCHMARK(BM_Purity)->Unit(benchmark::kMillisecond);

void BM_KMeansReference(benchmark::State& state) {
  const Case& c = synth(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(kmeans_reference(c.data.coords.data(), c.data.n, c.data.d, 64, 1).best_cost());
}
BENCHMARK(BM_KMeansReference)->Arg(10)->Arg(100)->Unit(benchmark::kSecond)->Iterations(1);

// One restart, arg 1 = triangle pruning on.
void BM_KMeansRestart(benchmark::State& state) {
  const Case& c = synth(static_cast<std::size_t>(state.range(0)));
  KMeansOptions o;
  o.triangle_pruning = state.range(1) != 0;
  for (auto _ : state) {
    Rng rng(1);
    benchmark::DoNotOptimize(kmeans(c.data.coords.data(), c.data.n, c.data.d, 64, o, rng).inertia);
  }
}
BENCHMARK(BM_KMeansRestart)->ArgsProduct({{10, 100}, {0, 1}})->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
