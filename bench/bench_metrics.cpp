// Evaluation-metric benchmarks: one per metric the experiments compute, at a few n, on
// synthetic data (no files needed).
//   build/bench/bench_metrics [--benchmark_filter=...]
// WaveCluster's measures (DP WaveCluster Sec. 6-7): DSG_C, the C4.5 cell classifier behind OCM/2CE (with
// the grid's presorted cells computed per tree, as a lone call does, or shared, as a run does), OCM,
// the authors' OCM, 2CE, the F-measure, and a whole cross-validation (OCM + 2CE of one trial: 10 folds,
// each re-running the mechanism and building two trees), with CvFixed computed per trial or shared by
// the trials of a run. The external scores of engine/metrics: ARI, AMI, NMI, and all of them at once
// (score_labelings, what the clustering metrics of a trial share).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"
#include "metrics/clustering_scores.hpp"
#include "wavecluster/c45.hpp"
#include "wavecluster/measures.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/wavecluster.hpp"
#include "wavecluster/wc_test_util.hpp"

using namespace dpclust;
using namespace dpclust::wavecluster;

namespace {

// n points: 8 Gaussian blobs in [0, 100]^2 plus 5% uniform background; labels = blob (-1 background).
const Dataset& blobs(std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<Dataset>> cache;
  if (auto it = cache.find(n); it != cache.end()) return *it->second;
  auto d = std::make_unique<Dataset>();
  d->name = "blobs";
  d->d = 2;
  d->n = n;
  d->bounds = Bounds{{0, 0}, {100, 100}};
  d->bounds_source = BoundsSource::config;
  d->labels.resize(n);
  Rng rng(n);
  for (std::size_t i = 0; i < n; ++i) {
    double x, y;
    if (rng.below(20) == 0) {
      x = rng.uniform(0, 100), y = rng.uniform(0, 100);
      d->labels[i] = -1;
    } else {
      const auto b = static_cast<std::int32_t>(rng.below(8));
      x = std::clamp(rng.normal(12.0 + 25.0 * (b % 4), 4.0), 0.0, 100.0);
      y = std::clamp(rng.normal(30.0 + 40.0 * (b / 4), 5.0), 0.0, 100.0);
      d->labels[i] = b;
    }
    d->coords.push_back(x);
    d->coords.push_back(y);
  }
  return *(cache[n] = std::move(d));
}

// A labeling like a private result's: 10% of the labels changed to another cluster or to noise.
Labels perturbed(const Labels& truth, std::uint64_t seed) {
  Rng rng(seed);
  Labels out = truth;
  for (auto& l : out)
    if (rng.below(10) == 0) l = static_cast<Label>(rng.below(9)) - 1;
  return out;
}

// The test suite's WaveCluster parameters (tests/wavecluster/wc_test_util.hpp) plus PrivQT's budget and noise.
ParamSet wc_params(double g, double p) {
  ParamSet ps = dpclust::testing::wc_params(g, p);
  ps.set("epsilon", 1.0);
  ps.set("sampler", std::string("secure"));
  return ps;
}

// The true result and one PrivQT result (epsilon 1) on blobs(n) with g cells per dimension.
std::pair<WaveClusterOutput, WaveClusterOutput> results(std::size_t n, double g) {
  const Dataset& d = blobs(n);
  const ParamSet ps = wc_params(g, 0.6);
  const WcParams wp = WcParams::from(ps, 2);
  Rng rng(1);
  BudgetLedger ledger(1.0);
  return {run_wavecluster(d, wp), make_mechanism("privqt")->run_wc(d, wp, ps, rng, ledger)};
}

// Class predictions of n test points under two classifiers (as OCM/2CE see them): 9 classes, 0 = C0.
std::pair<std::vector<std::int32_t>, std::vector<std::int32_t>> predictions(std::size_t n) {
  Rng rng(n + 1);
  std::vector<std::int32_t> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<std::int32_t>(rng.below(9));
    b[i] = rng.below(5) == 0 ? static_cast<std::int32_t>(rng.below(9)) : a[i];
  }
  return {a, b};
}

void BM_DsgC(benchmark::State& state) {
  const auto [truth, priv] = results(100'000, static_cast<double>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(dsg_c(truth.clustering, priv.clustering));
  state.counters["cells"] = static_cast<double>(truth.clustering.cell_cluster.size());
}
// (Larger grids under noise give thousands of private clusters: the Hungarian matching is cubic in them.)
BENCHMARK(BM_DsgC)->Arg(48)->Arg(100)->Arg(200)->Unit(benchmark::kMicrosecond);

// Arg 0: g; arg 1: 1 = the grid's presorted cells shared (a run), 0 = computed for this tree.
void BM_C45CellClassifier(benchmark::State& state) {
  const auto [truth, priv] = results(100'000, static_cast<double>(state.range(0)));
  const C45Presort lattice = lattice_presort(priv.clustering.shape);
  const bool shared = state.range(1) != 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(shared ? cell_classifier(priv, C45Options{}, C0Grids::all, lattice)
                                    : cell_classifier(priv, C45Options{}, C0Grids::all));
  state.SetLabel(shared ? "presort shared" : "presort per tree");
  state.counters["cells"] = static_cast<double>(priv.clustering.cell_cluster.size());
}
BENCHMARK(BM_C45CellClassifier)->ArgsProduct({{48, 100, 200}, {0, 1}})->Unit(benchmark::kMicrosecond);

void BM_Ocm(benchmark::State& state) {
  const auto [a, b] = predictions(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(ocm(a, b));
  state.SetItemsProcessed(state.range(0) * state.iterations());
}
BENCHMARK(BM_Ocm)->Arg(3'000)->Arg(30'000)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);

void BM_OcmAuthors(benchmark::State& state) {
  const auto [a, b] = predictions(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(ocm_authors(a, b));
  state.SetItemsProcessed(state.range(0) * state.iterations());
}
BENCHMARK(BM_OcmAuthors)->Arg(3'000)->Arg(30'000)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);

void BM_TwoCe(benchmark::State& state) {
  const auto [a, b] = predictions(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(two_ce(a, b));
  state.SetItemsProcessed(state.range(0) * state.iterations());
}
BENCHMARK(BM_TwoCe)->Arg(3'000)->Arg(30'000)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);

void BM_FMeasure(benchmark::State& state) {
  const Labels& truth = blobs(static_cast<std::size_t>(state.range(0))).labels;
  const Labels pred = perturbed(truth, 3);
  for (auto _ : state) benchmark::DoNotOptimize(f_measure(truth, pred));
  state.SetItemsProcessed(state.range(0) * state.iterations());
}
BENCHMARK(BM_FMeasure)->Arg(30'000)->Arg(300'000)->Arg(3'000'000)->Unit(benchmark::kMicrosecond);

// OCM + 2CE of one trial (10 folds: PrivQT re-run and two trees per fold). Arg 0: n; arg 1: 1 = CvFixed
// shared across trials (a run), 0 = computed for this trial.
void BM_CrossValidate(benchmark::State& state) {
  const Dataset& d = blobs(static_cast<std::size_t>(state.range(0)));
  const ParamSet ps = wc_params(48, 0.6);
  const WcParams wp = WcParams::from(ps, 2);
  const CvOptions opt = CvOptions::from(ps);
  const auto mech = make_mechanism("privqt");
  const bool shared = state.range(1) != 0;
  const CvFixed fixed = CvFixed::of(d, wp, opt);
  std::uint64_t seed = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(cross_validate(d, wp, ps, *mech, true, seed++, opt, shared ? &fixed : nullptr));
  state.SetLabel(shared ? "CvFixed shared" : "CvFixed per trial");
}
BENCHMARK(BM_CrossValidate)->ArgsProduct({{30'000, 300'000}, {0, 1}})->Unit(benchmark::kMillisecond);

void BM_AdjustedRand(benchmark::State& state) {
  const Labels& truth = blobs(static_cast<std::size_t>(state.range(0))).labels;
  const Labels pred = perturbed(truth, 4);
  for (auto _ : state) benchmark::DoNotOptimize(adjusted_rand_score(truth, pred));
  state.SetItemsProcessed(state.range(0) * state.iterations());
}
BENCHMARK(BM_AdjustedRand)->Arg(30'000)->Arg(300'000)->Arg(3'000'000)->Unit(benchmark::kMicrosecond);

void BM_AdjustedMutualInfo(benchmark::State& state) {
  const Labels& truth = blobs(static_cast<std::size_t>(state.range(0))).labels;
  const Labels pred = perturbed(truth, 5);
  for (auto _ : state) benchmark::DoNotOptimize(adjusted_mutual_info_score(truth, pred));
  state.SetItemsProcessed(state.range(0) * state.iterations());
}
BENCHMARK(BM_AdjustedMutualInfo)->Arg(30'000)->Arg(300'000)->Arg(3'000'000)->Unit(benchmark::kMicrosecond);

void BM_NormalizedMutualInfo(benchmark::State& state) {
  const Labels& truth = blobs(static_cast<std::size_t>(state.range(0))).labels;
  const Labels pred = perturbed(truth, 6);
  for (auto _ : state) benchmark::DoNotOptimize(normalized_mutual_info_score(truth, pred));
  state.SetItemsProcessed(state.range(0) * state.iterations());
}
BENCHMARK(BM_NormalizedMutualInfo)->Arg(30'000)->Arg(300'000)->Arg(3'000'000)->Unit(benchmark::kMicrosecond);

void BM_ScoreLabelings(benchmark::State& state) {
  const Labels& truth = blobs(static_cast<std::size_t>(state.range(0))).labels;
  const Labels pred = perturbed(truth, 7);
  for (auto _ : state) benchmark::DoNotOptimize(score_labelings(truth, pred).ami);
  state.SetItemsProcessed(state.range(0) * state.iterations());
}
BENCHMARK(BM_ScoreLabelings)->Arg(30'000)->Arg(300'000)->Arg(3'000'000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
