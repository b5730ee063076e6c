// Foundation benchmarks: CSV load throughput on Cabs (11M rows, gzip) and exact DBSCAN on Cabs-tiny
// (845,685 points, alpha = 50 m, MinPts = 1000) and Cluto-t4 (alpha = 9, MinPts = 11).
//   build/bench/bench_foundation [--benchmark_filter=...]
// Peak memory: /usr/bin/time -v build/bench/bench_foundation --benchmark_filter=Dbscan/CabsTiny
#include <benchmark/benchmark.h>

#include <filesystem>

#include "cluster/dbscan/dbscan.hpp"
#include "core/files.hpp"
#include "data/transforms.hpp"
#include "io/arff.hpp"
#include "io/csv.hpp"

using namespace dpclust;
namespace fs = std::filesystem;

namespace {

// The file under the data root, or empty (and the benchmark is skipped) when absent.
fs::path data_file(benchmark::State& state, const char* relative) {
  fs::path root = resolve_data_root();
  if (root.empty() || !fs::exists(root / relative)) {
    state.SkipWithError((std::string("data file ") + relative + " not found: set DPCLUST_DATA_ROOT").c_str());
    return {};
  }
  return root / relative;
}

void BM_LoadCsvGzip_Cabs(benchmark::State& state) {
  fs::path f = data_file(state, "geo/cabs.csv.gz");
  if (f.empty()) return;
  std::size_t rows = 0;
  for (auto _ : state) {
    Dataset d = load_csv(f);
    rows = d.n;
    benchmark::DoNotOptimize(d.coords.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(rows) * state.iterations());
  state.counters["rows"] = static_cast<double>(rows);
}
BENCHMARK(BM_LoadCsvGzip_Cabs)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_Dbscan_CabsTiny(benchmark::State& state) {
  fs::path f = data_file(state, "geo/cabs_tiny.csv");
  if (f.empty()) return;
  Dataset d = load_csv(f);
  project_lonlat_to_km(d, 0, 1, 37.8);
  DbscanStats stats;
  for (auto _ : state) benchmark::DoNotOptimize(dbscan(d, 0.05, 1000, &stats));
  state.counters["clusters"] = static_cast<double>(stats.clusters);
  state.counters["points"] = static_cast<double>(d.n);
}
BENCHMARK(BM_Dbscan_CabsTiny)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_Dbscan_ClutoT4(benchmark::State& state) {
  fs::path f = data_file(state, "benchmark/cluto-t4-8k.arff");
  if (f.empty()) return;
  Dataset d = load_arff(f);
  DbscanStats stats;
  for (auto _ : state) benchmark::DoNotOptimize(dbscan(d, 9.0, 11, &stats));
  state.counters["clusters"] = static_cast<double>(stats.clusters);
}
BENCHMARK(BM_Dbscan_ClutoT4)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
