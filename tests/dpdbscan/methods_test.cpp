// The config-facing methods: parameters with their defaults, ledger, release, labels, determinism.
#include "dpdbscan/register.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "core/error.hpp"
#include "dpdbscan/dp_kmeans.hpp"
#include "dpdbscan/pairwise.hpp"
#include "privacy/mechanism.hpp"

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
  const auto methods = dpclust::dpdbscan_folder().methods;
  ASSERT_EQ(methods.size(), 3u);
  EXPECT_EQ(methods[0].name, "dp_dbscan");
  EXPECT_EQ(methods[1].name, "dp_kmeans");
  EXPECT_EQ(methods[2].name, "dp_dbscan_pairwise");
  for (const auto& m : methods) {
    EXPECT_TRUE(m.differentially_private);
    EXPECT_TRUE(m.needs_bounds);
  }
}

// A core threshold above n finds nothing by construction: the result says so (and why), instead of a
// silent 0 spans; at the configured parameters of the paper it says nothing.
TEST(Methods, DpDbscanSaysWhenItCannotFindAnything) {
  const Dataset d = two_blobs();
  const MethodInfo& m = dp_dbscan_method_info();
  BudgetLedger ledger(1.0);
  Rng rng(3);
  const MethodResult none =
      m.make()->run(d, with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{5000}}}), rng, ledger);
  ASSERT_EQ(none.notes.size(), 1u);
  EXPECT_NE(none.notes[0].find("finds nothing by construction"), std::string::npos) << none.notes[0];
  // Without n_public the true n (2000) is not printed: the note names it in words.
  EXPECT_NE(none.notes[0].find("exceeds the number of points n"), std::string::npos) << none.notes[0];
  EXPECT_EQ(none.notes[0].find("2000"), std::string::npos) << none.notes[0];
  BudgetLedger l1(1.0);
  const MethodResult declared = m.make()->run(
      d, with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{5000}}, {"n_public", std::int64_t{2100}}}), rng,
      l1);
  ASSERT_EQ(declared.notes.size(), 1u);
  EXPECT_NE(declared.notes[0].find("exceeds n_public = 2100"), std::string::npos) << declared.notes[0];
  EXPECT_EQ(none.diagnostics["spans"], 0);
  BudgetLedger l2(1.0);
  const MethodResult some = m.make()->run(d, with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{7}}}), rng, l2);
  EXPECT_TRUE(some.notes.empty());
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
    ASSERT_EQ(ledger.entries().size(), 1u);
    EXPECT_EQ(ledger.entries()[0].mechanism, "discrete_laplace");  // the secure default
    EXPECT_EQ(ledger.entries()[0].sensitivity, 1.0);
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
        for (std::size_t j = 0; j < 2; ++j)
          in &= d.coords[2 * i + j] >= box[j][0].get<double>() && d.coords[2 * i + j] < box[j][1].get<double>();
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

// Gaussian noise spends delta; Laplace noise is pure eps-DP and leaves a delta set for the dataset unused (one delta
// for every (eps, delta) method of a comparison reaches dp_dbscan too): it runs and spends none.
TEST(Methods, GaussianSpendsDeltaAndOtherNoisesLeaveItUnused) {
  const Dataset d = two_blobs();
  const MethodInfo& m = dp_dbscan_method_info();
  {
    const ParamSet p = with_defaults(m, {{"alpha", 0.2},
                                         {"min_pts", std::int64_t{7}},
                                         {"noise", std::string("gaussian")},
                                         {"epsilon", 0.9},
                                         {"delta", 1e-5}});
    BudgetLedger ledger(0.9, 1e-5);
    Rng rng(1);
    m.make()->run(d, p, rng, ledger);
    EXPECT_NO_THROW(ledger.verify());
  }
  {
    const ParamSet p = with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{7}}, {"delta", 1e-5}});
    BudgetLedger ledger(1.0);
    Rng rng(1);
    EXPECT_NO_THROW(m.check_shape(p, DataShape{}));
    m.make()->run(d, p, rng, ledger);
    EXPECT_NO_THROW(ledger.verify());
    EXPECT_EQ(ledger.spent_delta(), 0.0);
  }
}

// Alg. 2 line 9's m ~ Bin(M, p) is drawn exactly with the secure sampler (privacy/exact_binomial.hpp); the
// histogram's ledger entry, which the secure allow-list accepts, said "approximate" while it was drawn by a
// floating-point binomial. The entry says how m is drawn: exactly (secure, geometric) or on doubles (textbook).
TEST(Methods, LinearHistogramEntrySaysTheBinomialIsExactWhenSecure) {
  const Dataset d = two_blobs();
  const MethodInfo& m = dp_dbscan_method_info();
  for (const std::string noise : {"laplace", "geometric"})
    for (const std::string sampler : {"secure", "textbook"}) {
      SCOPED_TRACE(noise + " " + sampler);
      const ParamSet p = with_defaults(m, {{"alpha", 0.2},
                                           {"min_pts", std::int64_t{7}},
                                           {"histogram", std::string("linear")},
                                           {"noise", noise},
                                           {"sampler", sampler},
                                           {"n_public", std::int64_t{2000}}});
      BudgetLedger ledger(1.0);
      Rng rng(6);
      m.make()->run(d, p, rng, ledger);
      ASSERT_EQ(ledger.entries().size(), 1u);
      const std::string& note = ledger.entries()[0].note;
      const bool exact = sampler == "secure" || noise == "geometric";
      EXPECT_EQ(ledger.entries()[0].mechanism, exact ? "discrete_laplace" : "laplace (textbook)");
      EXPECT_EQ(note.find("approximate"), std::string::npos) << note;
      EXPECT_EQ(note.find("is drawn exactly") != std::string::npos, exact) << note;
    }
}

// The trial's ledger as the runner builds it: the method's declared relation.
BudgetLedger ledger_for(const MethodInfo& m, double eps, double delta = 0) {
  return BudgetLedger(eps, delta, m.relation);
}

bool has_note(const MethodResult& r, const std::string& what) {
  for (const auto& s : r.non_private_notes)
    if (s.find(what) != std::string::npos) return true;
  return false;
}

TEST(Methods, DpDbscanFlagsTheTrueNOnlyWhenItShapesTheRelease) {
  // With n_public 0 every cell carried "n is treated as public", even when n is not read:
  // the naive histogram, or the linear one with an explicit theta.
  const Dataset d = two_blobs();
  const MethodInfo& m = dp_dbscan_method_info();
  const std::string note = "number of points n is treated as public";
  struct Case {
    std::string histogram;
    double theta;
    std::int64_t n_public;
    bool flagged;
  };
  for (const Case& c :
       {Case{"naive", -1.0, 0, false}, Case{"linear", 2.0, 0, false}, Case{"linear", -1.0, 0, true},
        Case{"auto", -1.0, 0, true}, Case{"linear", -1.0, 2000, false}, Case{"auto", -1.0, 2000, false}}) {
    SCOPED_TRACE(c.histogram + " theta " + std::to_string(c.theta) + " n_public " + std::to_string(c.n_public));
    const ParamSet p = with_defaults(m, {{"alpha", 0.2},
                                         {"min_pts", std::int64_t{7}},
                                         {"histogram", c.histogram},
                                         {"theta", c.theta},
                                         {"n_public", c.n_public}});
    BudgetLedger ledger(1.0);
    Rng rng(3);
    const MethodResult r = m.make()->run(d, p, rng, ledger);
    EXPECT_EQ(has_note(r, note), c.flagged);
    // A release that moves with the true n has no finite epsilon: the ledger says so (the accounting then
    // states none for it).
    EXPECT_EQ(ledger.unbounded(), c.flagged);
  }
  // The naive histogram's release is the same for any n it is told: n is really not used.
  const ParamSet a =
      with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{7}}, {"histogram", std::string("naive")}});
  const ParamSet b = with_defaults(m, {{"alpha", 0.2},
                                       {"min_pts", std::int64_t{7}},
                                       {"histogram", std::string("naive")},
                                       {"n_public", std::int64_t{5}}});
  BudgetLedger la(1.0), lb(1.0);
  Rng ra(8), rb(8);
  EXPECT_EQ(m.make()->run(d, a, ra, la).release, m.make()->run(d, b, rb, lb).release);
}

TEST(Methods, DpKmeansAndPairwiseRun) {
  const Dataset d = two_blobs();
  {
    const MethodInfo& m = dp_kmeans_method_info();
    for (const std::string variant : {"dplloyd", "diffprivlib"}) {
      const ParamSet p = with_defaults(m, {{"k", std::int64_t{2}}, {"variant", variant}});
      BudgetLedger ledger = ledger_for(m, 1.0);
      Rng rng(3);
      const MethodResult r = m.make()->run(d, p, rng, ledger);
      EXPECT_NO_THROW(ledger.verify());
      EXPECT_EQ(r.release["centers"].size(), 2u);
      // dplloyd: the fixed default (never the true n); diffprivlib: its rule on the true n = 2000, a function
      // of n: in the evaluation, and the ledger data-derived (a release withholds its sensitivities and notes).
      if (variant == "dplloyd") {
        EXPECT_EQ(r.diagnostics["iterations"], 5);
        EXPECT_FALSE(ledger.data_derived());
      } else {
        EXPECT_EQ(r.evaluation["iterations"], 6);
        for (const char* key :
             {"iterations", "epsilon_count_per_iteration", "epsilon_sum_per_iteration_and_dim", "epsilon_unspent"})
          EXPECT_FALSE(r.diagnostics.contains(key)) << key;
        EXPECT_EQ(r.diagnostics["iteration_rule"], "rule on the true n");
        EXPECT_TRUE(ledger.data_derived());
      }
    }
  }
  {
    const MethodInfo& m = pairwise_method_info();
    const ParamSet p = with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{7}}, {"max_n", std::int64_t{1000}}});
    BudgetLedger ledger = ledger_for(m, 1.0);
    Rng rng(3);
    EXPECT_THROW(m.make()->run(d, p, rng, ledger), InputError);  // n = 2000 > max_n
  }
}

TEST(Methods, ExactStatisticsGoToEvaluationAndTypedResultsToDetails) {
  const Dataset d = two_blobs();
  {
    const MethodInfo& m = dp_dbscan_method_info();
    const ParamSet p =
        with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{7}}, {"histogram", std::string("linear")}});
    BudgetLedger ledger = ledger_for(m, 1.0);
    Rng rng(42);
    const MethodResult r = m.make()->run(d, p, rng, ledger);
    for (const char* key : {"occupied_cells", "released_occupied_cells", "empty_cells_sampled"}) {
      EXPECT_FALSE(r.diagnostics.contains(key)) << key;
      EXPECT_TRUE(r.evaluation.contains(key)) << key;
    }
    const auto* res = std::any_cast<DpDbscanResult>(&r.details);
    ASSERT_NE(res, nullptr);
    EXPECT_EQ(r.evaluation["occupied_cells"].get<std::uint64_t>(), res->occupied);
    EXPECT_EQ(r.diagnostics["spans"].get<std::size_t>(), res->spans.n_spans);
    EXPECT_EQ(r.diagnostics["released_cells"].get<std::uint64_t>(), res->released_occupied + res->sampled_empty);
  }
  {
    const MethodInfo& m = dp_kmeans_method_info();
    const ParamSet p = with_defaults(m, {{"k", std::int64_t{2}}});
    BudgetLedger ledger = ledger_for(m, 1.0);
    Rng rng(3);
    const MethodResult r = m.make()->run(d, p, rng, ledger);
    EXPECT_FALSE(r.diagnostics.contains("inertia"));
    ASSERT_TRUE(r.evaluation.contains("inertia"));
    const auto* res = std::any_cast<DpKmeansResult>(&r.details);
    ASSERT_NE(res, nullptr);
    EXPECT_EQ(r.evaluation["inertia"].get<double>(), res->inertia);
  }
}

TEST(Methods, EveryMethodTakesTheSamplerAndFlagsTextbook) {
  const Dataset d = two_blobs();
  Dataset small = d;  // the pairwise baseline on 300 points
  small.n = 300;
  small.coords.resize(600);
  small.labels.resize(300);
  for (const MethodInfo* m : {&dp_dbscan_method_info(), &dp_kmeans_method_info(), &pairwise_method_info()}) {
    SCOPED_TRACE(m->name);
    bool has = false;
    for (const ParamSpec& s : m->params) has |= s.name == "sampler";
    ASSERT_TRUE(has);
    for (const std::string sampler : {"secure", "textbook"}) {
      std::map<std::string, ParamValue> set{{"sampler", sampler}};
      if (m->name == "dp_kmeans") set["k"] = std::int64_t{2};
      else {
        set["alpha"] = 0.2;
        set["min_pts"] = std::int64_t{7};
      }
      const ParamSet p = with_defaults(*m, set);
      BudgetLedger ledger = ledger_for(*m, 1.0);
      Rng rng(5);
      const MethodResult r = m->make()->run(m->name == "dp_dbscan_pairwise" ? small : d, p, rng, ledger);
      EXPECT_NO_THROW(ledger.verify());
      EXPECT_EQ(has_note(r, privacy::kTextbookSamplerNote), sampler == "textbook");
      // Every entry typed: the mechanism really used, and the relation the method declares.
      for (const BudgetEntry& e : ledger.entries()) {
        EXPECT_EQ(e.relation, m->relation) << e.step;
        EXPECT_EQ(e.mechanism.find("textbook") != std::string::npos, sampler == "textbook") << e.mechanism;
      }
    }
  }
}

TEST(Methods, GeometricNoiseIsAlwaysTheExactDiscreteLaplace) {
  const Dataset d = two_blobs();
  const MethodInfo& m = dp_dbscan_method_info();
  const ParamSet p = with_defaults(m, {{"alpha", 0.2},
                                       {"min_pts", std::int64_t{7}},
                                       {"noise", std::string("geometric")},
                                       {"sampler", std::string("textbook")}});
  BudgetLedger ledger = ledger_for(m, 1.0);
  Rng rng(1);
  const MethodResult r = m.make()->run(d, p, rng, ledger);
  ASSERT_EQ(ledger.entries().size(), 1u);
  EXPECT_EQ(ledger.entries()[0].mechanism, "discrete_laplace");
  EXPECT_EQ(ledger.entries()[0].sensitivity, 1.0);
  EXPECT_FALSE(has_note(r, privacy::kTextbookSamplerNote));
  EXPECT_EQ(r.diagnostics["sampler"], "secure");
}

TEST(Methods, PairwiseDeclaresReplaceOneAndItsLedgerEntryCarriesIt) {
  const MethodInfo& m = pairwise_method_info();
  EXPECT_EQ(m.relation, NeighbourRelation::replace_one);
  EXPECT_EQ(dp_dbscan_method_info().relation, NeighbourRelation::add_remove);
  EXPECT_EQ(dp_kmeans_method_info().relation, NeighbourRelation::add_remove);
  Dataset d = two_blobs();
  d.n = 200;
  d.coords.resize(400);
  d.labels.resize(200);
  const ParamSet p = with_defaults(m, {{"alpha", 0.2}, {"min_pts", std::int64_t{7}}});
  BudgetLedger ledger = ledger_for(m, 1.0);
  Rng rng(3);
  const MethodResult r = m.make()->run(d, p, rng, ledger);
  EXPECT_NO_THROW(ledger.verify());
  ASSERT_EQ(ledger.entries().size(), 1u);
  EXPECT_EQ(ledger.entries()[0].relation, NeighbourRelation::replace_one);
  EXPECT_EQ(ledger.entries()[0].sensitivity, r.diagnostics["sensitivity"].get<double>());
  EXPECT_NEAR(ledger.entries()[0].sensitivity, 199 * std::sqrt(50.0), 1e-9);
}

}  // namespace
}  // namespace dpclust::dpdbscan
