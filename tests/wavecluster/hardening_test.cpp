// Regression tests for schema-valid extremes that used to crash, wrap around or run forever:
// Baseline's synopsis sizes (epsilon, ag_c, n_share) and WaveCluster grids of more than 2^28 cells.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/ledger.hpp"
#include "wavecluster/grid.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/register.hpp"
#include "wavecluster/synopsis.hpp"
#include "wavecluster/wavecluster.hpp"
#include "wavecluster/wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

using dpclust::testing::blobs_dataset;
using dpclust::testing::wc_params;

// The InputError's text (where, problem, fix) contains `needle`.
template <class F>
void expect_input_error(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected InputError naming " << needle;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

const ParamSpec& spec_of(const std::string& method, const std::string& param) {
  static const std::vector<MethodInfo> methods = wavecluster_methods();
  const auto m = std::find_if(methods.begin(), methods.end(), [&](const MethodInfo& i) { return i.name == method; });
  EXPECT_NE(m, methods.end());
  const auto p = std::find_if(m->params.begin(), m->params.end(), [&](const ParamSpec& s) { return s.name == param; });
  EXPECT_NE(p, m->params.end());
  return *p;
}

TEST(Hardening, BaselineSpecsRefuseExtremeEpsilonAndAgC) {
  for (double eps : {1e300, 5e-324})
    EXPECT_FALSE(spec_of("wc_baseline", "epsilon").check(ParamValue{eps}).empty()) << eps;
  EXPECT_TRUE(spec_of("wc_baseline", "epsilon").check(ParamValue{1.0}).empty());
  EXPECT_FALSE(spec_of("wc_baseline", "ag_c").check(ParamValue{1e-300}).empty());
  EXPECT_TRUE(spec_of("wc_baseline", "ag_c").check(ParamValue{10.0}).empty());
  EXPECT_FALSE(spec_of("privqt", "epsilon").check(ParamValue{5e-324}).empty());
}

TEST(Hardening, BaselineSynopsisRefusesExtremesBeforeAllocating) {
  const Dataset ds = blobs_dataset(3, 200);
  const Quantizer q({40, 40}, ds.bounds);
  for (const char* type : {"adaptive", "uniform"}) {
    auto run = [&](double eps, double c, double n_share) {
      SynopsisOptions opt;
      opt.type = type;
      opt.c = c;
      opt.n_share = n_share;
      BudgetLedger l(eps);
      Rng rng(1);
      return synthetic_counts(ds, q, eps, opt, rng, l);
    };
    expect_input_error([&] { run(1.0, 10.0, 1e-300); }, "n_share");
    expect_input_error([&] { run(1.0, 1e-300, 0.05); }, "ag_c");
    expect_input_error([&] { run(1e300, 10.0, 0.05); }, "epsilon");
    expect_input_error([&] { run(5e-324, 10.0, 0.05); }, "epsilon");
    expect_input_error([&] { run(5e-324, 10.0, 0.0); }, "epsilon");
    EXPECT_NO_THROW(run(1.0, 10.0, 0.05)) << type;
  }
}

TEST(Hardening, BaselineMethodRefusesTinyNShare) {
  const Dataset ds = blobs_dataset(3, 200);
  ParamSet ps = wc_params(40, 0.1);
  ps.set("epsilon", 1.0);
  ps.set("sampler", std::string("secure"));
  ps.set("synopsis", std::string("adaptive"));
  ps.set("ag_c", 10.0);
  ps.set("ag_alpha", 0.5);
  ps.set("n_share", 1e-300);
  BudgetLedger l(1.0);
  Rng rng(1);
  expect_input_error([&] { make_mechanism("wc_baseline")->run(ds, ps, rng, l); }, "n_share");
}

Dataset cube_dataset(std::size_t d) {
  Dataset ds;
  ds.name = "cube";
  ds.n = 4;
  ds.d = d;
  for (std::size_t i = 0; i < ds.n * d; ++i) ds.coords.push_back(static_cast<double>((i * 7) % 10));
  ds.bounds.lo.assign(d, 0.0);
  ds.bounds.hi.assign(d, 10.0);
  ds.bounds_source = BoundsSource::config;
  return ds;
}

TEST(Hardening, GridWhoseCellCountWrapsIsRefused) {
  // 2^22 * 2^21 * 2^21 = 2^64: the unchecked product wrapped to 0.
  ParamSet ps = wc_params(40, 0.1);
  ps.set("g", RealVector{4194304, 2097152, 2097152});
  expect_input_error([&] { WcParams::from(ps, 3); }, "params.g");
  EXPECT_FALSE(spec_of("wavecluster", "g").check(ParamValue{RealVector{2e7, 40}}).empty());
  EXPECT_TRUE(spec_of("wavecluster", "g").check(ParamValue{RealVector{4194304, 2097152, 2097152}}).empty());
  expect_input_error([&] { Quantizer({4194304, 2097152, 2097152}, cube_dataset(3).bounds); }, "params.g");
  const Dataset ds = cube_dataset(3);
  ps.set("epsilon", 1.0);
  ps.set("sampler", std::string("secure"));
  for (const char* m : {"wavecluster", "privqt"}) {
    BudgetLedger l(1.0);
    Rng rng(1);
    expect_input_error([&] { make_mechanism(m)->run(ds, ps, rng, l); }, "params.g");
  }
}

TEST(Hardening, TenDimensionalGridAboveTheCapIsRefused) {
  ParamSet ps = wc_params(40, 0.1);  // 40^10 ~ 1e16 cells
  expect_input_error([&] { WcParams::from(ps, 10); }, "2^28");
  const Dataset ds = cube_dataset(10);
  BudgetLedger l(1.0);
  Rng rng(1);
  expect_input_error([&] { make_mechanism("wavecluster")->run(ds, ps, rng, l); }, "params.g");
  // Just under the cap still works: 2^28 cells would be 2 GiB, so check only the count.
  EXPECT_EQ(checked_cell_count({16384, 16384}), kMaxGridCells);
  expect_input_error([&] { checked_cell_count({16384, 16385}); }, "lower g");
}

TEST(Hardening, PointsFarOutsideTheDomainClampWithoutOverflow) {
  const Quantizer q({10, 10}, Bounds{{0.0, 0.0}, {1.0, 1.0}});
  EXPECT_EQ(q.cell_1d(0, 1e300), 9u);
  EXPECT_EQ(q.cell_1d(1, -1e300), 0u);
  EXPECT_EQ(q.cell_1d(0, 1.0), 9u);
  EXPECT_EQ(q.cell_1d(0, 0.55), 5u);
}

}  // namespace
}  // namespace dpclust::wavecluster
