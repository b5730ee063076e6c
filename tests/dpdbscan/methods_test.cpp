// The config-facing methods: parameters with their defaults, ledger, release, labels, determinism.
#include "dpdbscan/methods.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "core/error.hpp"
#include "dpdbscan/register.hpp"

namespace dpclust::dpdbscan {
namespace {

ParamSet with_defaults(const MethodInfo& m, const std::map<std::string, ParamValue>& set) {
  ParamSet p;
  for (const ParamSpec& s : m.params)
    if (!s.required()) p.set(s.name, s.default_value);
  for (const auto& [k, v] : set) {
    bool known = false;
    for (const ParamSpec& s : m.params) known |= s.name == k;
    EXPECT_TRUE(known) << k;
    p.set(k, v);
  }
  for (const ParamSpec& s : m.params) EXPECT_EQ(s.check(p.get(s.name)), "") << s.name;
  return p;
}

Dataset two_blobs() {
  Dataset d;
  d.name = "toy";
  d.d = 2;
  Rng r(5);
  for (int i = 0; i < 2000; ++i) {
    const bool up = i % 2;
    d.coords.push_back(std::clamp((up ? 1.2 : -1.2) + 0.25 * r.normal(), -2.4, 2.4));
    d.coords.push_back(std::clamp((up ? 1.2 : -1.2) + 0.25 * r.normal(), -2.4, 2.4));
    d.labels.push_back(up ? 1 : 0);
  }
  d.n = 2000;
  d.bounds = Bounds{{-2.5, -2.5}, {2.5, 2.5}};
  d.bounds_source = BoundsSource::config;
  return d;
}

TEST(Methods, RegisteredWithSharedParameterNames) {
  const auto methods = dpclust::dpdbscan_methods();
  ASSERT_EQ(methods.size(), 3u);
  EXPECT_EQ(methods[0].name, "dp_dbscan");
  EXPECT_EQ(methods[1].name, "dp_kmeans");
  EXPECT_EQ(methods[2].name, "dp_dbscan_pairwise");
  for (const auto& m : methods) {
    EXPECT_TRUE(m.differentially_private);
    EXPECT_TRUE(m.needs_bounds);
  }
}

TEST(Methods, DpDbscanRunLedgerReleaseAndDeterminism) {
  const Dataset d = two_blobs();
  const MethodInfo& m = dp_dbscan_method_info();
  for (const std::string hist : {"naive", "linear", "auto"}) {
    SCOPED_TRACE(hist);
    const ParamSet p = with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{7}}, {"histogram", hist}});
    BudgetLedger ledger(1.0);
    Rng rng(42);
    const MethodResult r = m.make()->run(d, p, rng, ledger);
    EXPECT_NO_THROW(ledger.verify());
    ASSERT_EQ(r.labels.size(), d.n);
    EXPECT_FALSE(r.labels_are_release);
    EXPECT_EQ(r.diagnostics["kappa"], 21);
    EXPECT_EQ(r.diagnostics["histogram"], hist == "linear" ? "linear" : "naive");  // auto: n > |X|/2 here
    const auto spans = r.diagnostics["spans"].get<std::size_t>();
    EXPECT_GE(spans, 2u);
    EXPECT_EQ(r.release["spans"].size(), spans);
    // Every labelled point lies in a box of its span.
    const auto& rel = r.release["spans"];
    for (std::size_t i = 0; i < d.n; i += 37) {
      if (r.labels[i] == kNoise) continue;
      bool inside = false;
      for (const auto& box : rel[static_cast<std::size_t>(r.labels[i])]["boxes"]) {
        bool in = true;
        for (std::size_t j = 0; j < 2; ++j) in &= d.coords[2 * i + j] >= box[j][0].get<double>() && d.coords[2 * i + j] < box[j][1].get<double>();
        inside |= in;
      }
      EXPECT_TRUE(inside) << "point " << i;
    }
    Rng again(42);
    BudgetLedger l2(1.0);
    const MethodResult r2 = m.make()->run(d, p, again, l2);
    EXPECT_EQ(r.labels, r2.labels);
    EXPECT_EQ(r.release, r2.release);
  }
}

TEST(Methods, GaussianSpendsDeltaAndOtherNoisesRefuseIt) {
  const Dataset d = two_blobs();
  const MethodInfo& m = dp_dbscan_method_info();
  {
    const ParamSet p = with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{7}}, {"noise", std::string("gaussian")},
                                         {"epsilon", 0.9}, {"delta", 1e-5}});
    BudgetLedger ledger(0.9, 1e-5);
    Rng rng(1);
    m.make()->run(d, p, rng, ledger);
    EXPECT_NO_THROW(ledger.verify());
  }
  {
    const ParamSet p = with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{7}}, {"delta", 1e-5}});
    BudgetLedger ledger(1.0, 1e-5);
    Rng rng(1);
    EXPECT_THROW(m.make()->run(d, p, rng, ledger), InputError);
  }
}

TEST(Methods, DpKmeansAndPairwiseRun) {
  const Dataset d = two_blobs();
  {
    const MethodInfo& m = dp_kmeans_method_info();
    const ParamSet p = with_defaults(m, {{"k", std::int64_t{2}}});
    BudgetLedger ledger(1.0);
    Rng rng(3);
    const MethodResult r = m.make()->run(d, p, rng, ledger);
    EXPECT_NO_THROW(ledger.verify());
    EXPECT_EQ(r.release["centers"].size(), 2u);
    EXPECT_EQ(r.diagnostics["iterations"], 6);
  }
  {
    const MethodInfo& m = pairwise_method_info();
    const ParamSet p = with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{7}}, {"max_n", std::int64_t{1000}}});
    BudgetLedger ledger(1.0);
    Rng rng(3);
    EXPECT_THROW(m.make()->run(d, p, rng, ledger), InputError);  // n = 2000 > max_n
  }
}

}  // namespace
}  // namespace dpclust::dpdbscan
