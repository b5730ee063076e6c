// DP-DBSCAN benchmarks (Qiu & Yi, Table 3 and Sec. 8.5): mechanism time = Algorithm 1 from the cell
// counts to the spans (grid, histogram, neighbourhood sums, core cells, union-find), after loading;
// the point-label extraction (evaluation only) is timed separately.
//   build/bench/bench_dpdbscan [--benchmark_filter=...]
// Targets (2 cores): Cabs (10,995,626 points, alpha = 20 m, MinPts = 500) < 0.5 s with peak memory
// < 1 GB including the points; Cabs-tiny (alpha = 50 m, MinPts = 1000) < 50 ms; Cluto-t4 (alpha = 9,
// MinPts = 11) < 2 ms. The paper's Python needed 27.9 s, 2.19 s and 18.7 ms.
// Scaling: uniform subsamples of Cabs with 1M, 3M and all 11M points (linear-time and automatic
// histogram). Peak memory: /usr/bin/time -v build/bench/bench_dpdbscan --benchmark_filter=Cabs/
// The data come from the data root ($DPCLUST_DATA_ROOT or ../shared/datasets); a case whose file is
// absent is skipped with a message.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "core/files.hpp"
#include "data/transforms.hpp"
#include "dpdbscan/dp_dbscan.hpp"
#include "dpdbscan/error_bounds.hpp"
#include "dpdbscan/histogram.hpp"
#include "dpdbscan/naive_histogram.hpp"
#include "io/arff.hpp"
#include "io/csv.hpp"

using namespace dpclust;
using namespace dpclust::dpdbscan;
namespace fs = std::filesystem;

namespace {

struct Case {
  const char* file;
  Bounds bounds;  // in the file's coordinates (lon/lat for the geo sets)
  bool geo;
};

// Loaded once per process (loading Cabs takes seconds and is not what is measured).
const Dataset* load(benchmark::State& state, const std::string& name) {
  static std::map<std::string, std::unique_ptr<Dataset>> cache;
  static const std::map<std::string, Case> cases = {
      {"cabs", {"geo/cabs.csv.gz", Bounds{{-122.6, 37.55}, {-122.3, 37.85}}, true}},
      {"cabs-tiny", {"geo/cabs_tiny.csv", Bounds{{-122.48, 37.72}, {-122.38, 37.82}}, true}},
      {"cluto-t4", {"benchmark/cluto-t4-8k.arff", Bounds{{0, 0}, {650, 350}}, false}},
  };
  if (auto it = cache.find(name); it != cache.end()) return it->second.get();
  const Case& c = cases.at(name);
  const fs::path root = resolve_data_root();
  if (root.empty() || !fs::exists(root / c.file)) {
    state.SkipWithError((std::string("data file ") + c.file + " not found: set DPCLUST_DATA_ROOT").c_str());
    return nullptr;
  }
  auto d = std::make_unique<Dataset>(c.geo ? load_csv(root / c.file) : load_arff(root / c.file));
  d->bounds = c.bounds;
  d->bounds_source = BoundsSource::config;
  if (c.geo) project_lonlat_to_km(*d, 0, 1, 37.8);  // km; the bounds are projected too
  return (cache[name] = std::move(d)).get();
}

const Dataset* subsample_of_cabs(benchmark::State& state, std::size_t n) {
  static std::map<std::size_t, std::unique_ptr<Dataset>> cache;
  if (auto it = cache.find(n); it != cache.end()) return it->second.get();
  const Dataset* full = load(state, "cabs");
  if (!full) return nullptr;
  auto d = std::make_unique<Dataset>(*full);
  subsample(*d, n, 7);
  return (cache[n] = std::move(d)).get();
}

DpDbscanOptions options(double alpha, std::int64_t min_pts, HistogramChoice h) {
  DpDbscanOptions o;
  o.alpha = alpha;
  o.min_pts = min_pts;
  o.histogram = h;
  return o;
}

void run_mechanism(benchmark::State& state, const Dataset* d, const DpDbscanOptions& o) {
  if (!d) return;
  std::size_t spans = 0, core = 0;
  bool linear = false;
  std::uint64_t seed = 0;
  for (auto _ : state) {
    Rng rng(seed++);
    BudgetLedger ledger(o.epsilon);
    DpDbscanResult r = dp_dbscan(d->coords.data(), d->n, d->bounds, o, rng, ledger);
    spans = r.spans.n_spans;
    core = r.core.codes.size();
    linear = r.linear;
    benchmark::DoNotOptimize(r.spans.span.data());
  }
  state.counters["points"] = static_cast<double>(d->n);
  state.counters["spans"] = static_cast<double>(spans);
  state.counters["core_cells"] = static_cast<double>(core);
  state.counters["linear"] = linear ? 1 : 0;
  state.SetItemsProcessed(static_cast<std::int64_t>(d->n) * state.iterations());
}

HistogramChoice hist_arg(std::int64_t a) {
  return a == 0 ? HistogramChoice::automatic : a == 1 ? HistogramChoice::naive : HistogramChoice::linear;
}
const char* hist_name(std::int64_t a) { return a == 0 ? "auto" : a == 1 ? "naive" : "linear"; }

// Arg: 0 = auto, 1 = naive, 2 = linear.
void BM_Mechanism_Cabs(benchmark::State& state) {
  state.SetLabel(hist_name(state.range(0)));
  run_mechanism(state, load(state, "cabs"), options(0.02, 500, hist_arg(state.range(0))));
}
BENCHMARK(BM_Mechanism_Cabs)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_Mechanism_CabsTiny(benchmark::State& state) {
  state.SetLabel(hist_name(state.range(0)));
  run_mechanism(state, load(state, "cabs-tiny"), options(0.05, 1000, hist_arg(state.range(0))));
}
BENCHMARK(BM_Mechanism_CabsTiny)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(20);

void BM_Mechanism_ClutoT4(benchmark::State& state) {
  state.SetLabel(hist_name(state.range(0)));
  run_mechanism(state, load(state, "cluto-t4"), options(9.0, 11, hist_arg(state.range(0))));
}
BENCHMARK(BM_Mechanism_ClutoT4)->Arg(0)->Arg(2)->Unit(benchmark::kMicrosecond);

// Linear growth in n: Cabs subsamples, alpha = 20 m, MinPts = 500 (same grid, |X| = 4.4M cells).
void BM_Mechanism_CabsScaling(benchmark::State& state) {
  state.SetLabel(hist_name(state.range(1)));
  run_mechanism(state, subsample_of_cabs(state, static_cast<std::size_t>(state.range(0))),
                options(0.02, 500, hist_arg(state.range(1))));
}
BENCHMARK(BM_Mechanism_CabsScaling)
    ->ArgsProduct({{1'000'000, 3'000'000, 10'995'626}, {0, 2}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

// The phases on Cabs (automatic = naive histogram here): cell counts, histogram, sums + core, merge.
void BM_Phases_Cabs(benchmark::State& state) {
  const Dataset* d = load(state, "cabs");
  if (!d) return;
  const CellGrid g = make_grid(d->bounds, 0.02, 4.0);
  const Neighbourhood nb = alpha_neighbourhood(2, 4.0);
  BudgetLedger ledger(1.0);
  const privacy::CountMechanism noise =
      histogram_mechanism(ledger, NoiseKind::laplace, privacy::Sampler::secure, 1.0, 0.0, false, "histogram", "");
  const double thr = 500 + gamma_noise(NoiseKind::laplace, noise, 1.0, 0.5, static_cast<double>(nb.kappa()),
                                       static_cast<double>(g.universe));
  const int phase = static_cast<int>(state.range(0));
  static const char* names[] = {"count_cells", "naive_histogram", "core_cells", "merge"};
  state.SetLabel(names[phase]);
  CellCounts counts = count_cells(g, d->coords.data(), d->n, true);
  Rng rng(1);
  const CellStreams cells = CellStreams::for_trial(rng, kHistogramNoiseLane);
  NoisyHistogram h = naive_histogram(counts, noise, cells);
  CoreCells core = find_core_cells(g, nb, h, thr);
  for (auto _ : state) {
    switch (phase) {
      case 0: benchmark::DoNotOptimize(count_cells(g, d->coords.data(), d->n, true).occupied); break;
      case 1: benchmark::DoNotOptimize(naive_histogram(counts, noise, cells).released); break;
      case 2: benchmark::DoNotOptimize(find_core_cells(g, nb, h, thr).codes.size()); break;
      default: benchmark::DoNotOptimize(merge_core_cells(g, nb, core.codes, true).n_spans); break;
    }
  }
}
BENCHMARK(BM_Phases_Cabs)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->Iterations(5);

// Point labels from the spans (evaluation only, not part of the mechanism), all 11M Cabs points.
void BM_Labels_Cabs(benchmark::State& state) {
  const Dataset* d = load(state, "cabs");
  if (!d) return;
  Rng rng(0);
  BudgetLedger ledger(1.0);
  const DpDbscanResult r =
      dp_dbscan(d->coords.data(), d->n, d->bounds, options(0.02, 500, HistogramChoice::automatic), rng, ledger);
  const SpanClassifier cls(r.grid, r.spans, r.dense);
  for (auto _ : state) benchmark::DoNotOptimize(cls.classify_all(d->coords.data(), d->n).data());
}
BENCHMARK(BM_Labels_Cabs)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
