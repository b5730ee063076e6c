// The options that reproduce the DP WaveCluster authors' public code where it departs from the paper
// (docs/methods.md "The authors' code"): java.util.Random and Weka's folds (ocm_folds: weka), OCM's
// set-difference matching (ocm_matching: authors_set_difference), PrivTHR_EM's averaged thresholds
// (em_repeats, em_repeats_budget) and Baseline's flat_origin.py adaptive grid (ag_variant:
// flat_origin). Every expected value below is derived by hand or from the documented algorithm.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/ledger.hpp"
#include "privacy/mechanism.hpp"
#include "wavecluster/choice.hpp"
#include "wavecluster/flat_origin.hpp"
#include "wavecluster/java_random.hpp"
#include "wavecluster/measures.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/privthr_em.hpp"
#include "wavecluster/register.hpp"
#include "wavecluster/wc_test_util.hpp"
#include "wavecluster/weka_folds.hpp"

namespace dpclust::wavecluster {
namespace {

using dpclust::testing::blobs_dataset;
using dpclust::testing::make_dataset;
using dpclust::testing::wc_params;

ParamSet params_for(const std::string& method, double eps) {
  ParamSet ps = wc_params(24, 0.3);
  for (const auto& info : wavecluster_methods())
    if (info.name == method)
      for (const auto& spec : info.params)
        if (!ps.has(spec.name) && !spec.required()) ps.set(spec.name, spec.default_value);
  if (method != "wavecluster") ps.set("epsilon", eps);
  return ps;
}

const MethodInfo& method_info(const std::string& name) {
  static const std::vector<MethodInfo> all = wavecluster_methods();
  for (const auto& m : all)
    if (m.name == name) return m;
  throw std::logic_error("no method " + name);
}

bool has_note(const MethodResult& r, const std::string& part) {
  for (const auto& n : r.non_private_notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// --- declarations: every option defaults to the paper's reading --------------------------------------

TEST(AuthorsOptions, DeclaredWithThePapersReadingAsDefault) {
  auto spec = [](const std::string& method, const std::string& name) -> const ParamSpec* {
    for (const auto& p : method_info(method).params)
      if (p.name == name) return &p;
    return nullptr;
  };
  for (const char* m : {"wavecluster", "wc_baseline", "privqt", "privthr", "privthr_em"}) {
    ASSERT_NE(spec(m, "ocm_matching"), nullptr) << m;
    EXPECT_EQ(spec(m, "ocm_matching")->default_value, ParamValue(std::string("max_intersection")));
    EXPECT_EQ(spec(m, "ocm_matching")->choices,
              (std::vector<std::string>{"max_intersection", "authors_set_difference"}));
    ASSERT_NE(spec(m, "ocm_folds"), nullptr) << m;
    EXPECT_EQ(spec(m, "ocm_folds")->default_value, ParamValue(std::string("dpclust")));
    EXPECT_EQ(spec(m, "ocm_folds")->choices, (std::vector<std::string>{"dpclust", "weka"}));
  }
  ASSERT_NE(spec("wc_baseline", "ag_variant"), nullptr);
  EXPECT_EQ(spec("wc_baseline", "ag_variant")->default_value, ParamValue(std::string("paper")));
  EXPECT_EQ(spec("wc_baseline", "ag_variant")->choices, (std::vector<std::string>{"paper", "flat_origin"}));
  ASSERT_NE(spec("privthr_em", "em_repeats"), nullptr);
  EXPECT_EQ(spec("privthr_em", "em_repeats")->default_value, ParamValue(std::int64_t{1}));
  ASSERT_NE(spec("privthr_em", "em_repeats_budget"), nullptr);
  EXPECT_EQ(spec("privthr_em", "em_repeats_budget")->default_value, ParamValue(std::string("split")));
  EXPECT_EQ(spec("privthr", "em_repeats"), nullptr);  // only where it applies
  EXPECT_EQ(spec("privqt", "ag_variant"), nullptr);
}

TEST(AuthorsOptions, ChoiceOfRefusesAnUndeclaredName) {
  ParamSet ps;
  ps.set("ocm_folds", std::string("weka"));
  EXPECT_EQ(choice_of<CvFolds>(ps, "ocm_folds"), CvFolds::weka);
  ps.set("ocm_folds", std::string("Weka"));  // no silent fallback to the default
  EXPECT_THROW(choice_of<CvFolds>(ps, "ocm_folds"), std::logic_error);
  EXPECT_EQ(name_of(AgVariant::flat_origin), "flat_origin");
}

TEST(AuthorsOptions, FlatOriginNeedsTheAdaptiveGrid) {
  ParamSet ps = params_for("wc_baseline", 1.0);
  ps.set("ag_variant", std::string("flat_origin"));
  ps.set("synopsis", std::string("uniform"));
  DataShape shape;
  shape.d = 2;
  try {
    method_info("wc_baseline").check_shape(ps, shape);
    FAIL() << "flat_origin with the uniform grid was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "params.ag_variant");
  }
  ps.set("synopsis", std::string("adaptive"));
  EXPECT_NO_THROW(method_info("wc_baseline").check_shape(ps, shape));
}

// --- java.util.Random ------------------------------------------------------------------------------
// Expected values from the LCG of the Random Javadoc, computed with python3:
//   M = 2**48 - 1; s = (seed ^ 0x5DEECE66D) & M
//   next(bits): s = (s * 0x5DEECE66D + 0xB) & M; r = s >> (48 - bits); r - 2**32 if r >= 2**31 else r
//   nextInt(b): r = next(31); power of two: (b * r) >> 31; else u = r; while u - u % b + b - 1 >= 2**31: u = next(31)
// By hand for the first draw of new Random(1): s0 = 0x5DEECE66C, s1 = 0xBB1AD5732407,
// next(31) = s1 >> 17 = 1569548985, 1569548985 % 10 = 5 (no rejection: 1569548985 - 5 + 9 < 2^31).
// These are also the well-known first values of new Random(0).nextInt() = -1155484576 and
// new Random(1).nextInt() = -1155869325.

TEST(JavaRandom, NextIntMatchesTheDocumentedLcg) {
  JavaRandom r1(1);
  const std::vector<std::int32_t> ten = {5, 8, 7, 3, 4, 4, 4, 6, 8, 8};
  for (std::int32_t want : ten) EXPECT_EQ(r1.next_int(10), want);
  JavaRandom r0(0);
  for (std::int32_t want : {-1155484576, -723955400, 1033096058}) EXPECT_EQ(r0.next_int(), want);
  JavaRandom r1b(1);
  for (std::int32_t want : {-1155869325, 431529176, 1761283695}) EXPECT_EQ(r1b.next_int(), want);
  JavaRandom r42(42);
  for (std::int32_t want : {30, 63, 48, 84, 70}) EXPECT_EQ(r42.next_int(100), want);
}

TEST(JavaRandom, PowerOfTwoAndRejectionRules) {
  JavaRandom p(1);  // bound 16: the top 4 of the 31 bits, (16 * r) >> 31
  for (std::int32_t want : {11, 1, 6, 6, 3}) EXPECT_EQ(p.next_int(16), want);
  // Bound 1.5e9: the first 31-bit draw 1569548985 gives u - u % b + b - 1 = 2999999999 >= 2^31, so it
  // is rejected and the second draw is used (python3 above counts one rejection).
  JavaRandom r(1);
  for (std::int32_t want : {215764588, 880641847, 874970313, 446064254, 77814904, 714504434})
    EXPECT_EQ(r.next_int(1500000000), want);
  EXPECT_THROW(r.next_int(0), std::invalid_argument);
}

// --- Weka's folds ---------------------------------------------------------------------------------

TEST(WekaFolds, RandomizeStratifyAndTestBlocksByHand) {
  // Instances 0..9 with classes A A A B B B B C C A (A = 0, B = 1, C = 2).
  const Labels labels = {0, 0, 0, 1, 1, 1, 1, 2, 2, 0};
  // randomize(new Random(1)): j = 9..1 swaps j with nextInt(j + 1) (python3 above: the draws are
  // 5, 1, 3, 6, 4, 2, 0, 0, 0 ... giving) [6, 9, 7, 8, 4, 2, 0, 3, 1, 5].
  const std::vector<std::uint32_t> randomized = weka_randomize(10, 1);
  EXPECT_EQ(randomized, (std::vector<std::uint32_t>{6, 9, 7, 8, 4, 2, 0, 3, 1, 5}));
  // stratify(3), by hand. Classes of the randomized order: B A C C B A A B A B.
  //  pass 1 (class of position 0, B): j = 4 (4:B) -> swap(1, 4); j = 7 (3:B) -> swap(2, 7);
  //    j = 9 (5:B) -> swap(3, 9): [6 4 3 5 | 9 2 0 7 1 8], index 4 -> 5
  //  pass 2 (class of position 4, A): j = 5, 6 in place; j = 8 (1:A) -> swap(7, 8):
  //    [6 4 3 5 9 2 0 1 | 7 8], index 8 -> 9
  //  pass 3 (class of position 8, C): j = 9 in place.   Grouped: B B B B A A A A C C
  //  stratStep(3): positions 0 3 6 9 -> 6 5 0 8; 1 4 7 -> 4 9 1; 2 5 8 -> 3 2 7.
  const std::vector<std::uint32_t> strat = weka_stratify(randomized, labels, 3);
  EXPECT_EQ(strat, (std::vector<std::uint32_t>{6, 5, 0, 8, 4, 9, 1, 3, 2, 7}));
  EXPECT_EQ(weka_fold_order(labels, 3), strat);
  // testCV(3, f): n / 3 = 3, n % 3 = 1: fold 0 has 4 at 0, fold 1 has 3 at 3 + 1, fold 2 has 3 at 6 + 1.
  const FoldBlock b0 = weka_test_block(10, 3, 0), b1 = weka_test_block(10, 3, 1), b2 = weka_test_block(10, 3, 2);
  EXPECT_EQ(b0.first, 0u);
  EXPECT_EQ(b0.size, 4u);  // test = {6, 5, 0, 8}
  EXPECT_EQ(b1.first, 4u);
  EXPECT_EQ(b1.size, 3u);  // test = {4, 9, 1}
  EXPECT_EQ(b2.first, 7u);
  EXPECT_EQ(b2.size, 3u);  // test = {3, 2, 7}
  // Every class is spread over the folds: fold 0 = B B A C, fold 1 = B A A, fold 2 = B A C.
}

TEST(WekaFolds, CrossValidationNeedsLabels) {
  const Dataset ds = blobs_dataset(41, 100);  // no labels
  const ParamSet ps = params_for("privqt", 1.0);
  const WcParams wp = WcParams::from(ps, 2);
  CvOptions opt = CvOptions::from(ps);
  opt.fold_rule = CvFolds::weka;
  auto mech = make_mechanism("privqt");
  EXPECT_THROW(cross_validate(ds, wp, ps, *mech, true, 7, opt), InputError);
}

// The cross-validation runs all ten Weka folds on labelled data, whatever the metric seed (the folds
// are fixed: randomize(new Random(1)), not the seed); the non-private method agrees with itself.
TEST(WekaFolds, RunsOnLabelledData) {
  Dataset ds = blobs_dataset(42, 300);
  ds.labels.assign(ds.n, 0);
  for (std::size_t i = 0; i < ds.n; ++i) ds.labels[i] = static_cast<Label>(i / 300 < 3 ? i / 300 : 3);
  const ParamSet ps = params_for("wavecluster", 1.0);
  const WcParams wp = WcParams::from(ps, 2);
  CvOptions opt = CvOptions::from(ps);
  opt.fold_rule = CvFolds::weka;
  auto mech = make_mechanism("wavecluster");
  const CvResult a = cross_validate(ds, wp, ps, *mech, false, 1, opt),
                 b = cross_validate(ds, wp, ps, *mech, false, 99, opt);
  EXPECT_EQ(a.ocm, 0.0);
  EXPECT_EQ(a.two_ce, 0.0);
  EXPECT_EQ(a.folds, 10u);
  EXPECT_EQ(b.folds, 10u);
}

// --- OCM's matching ----------------------------------------------------------------------------------
// Test points by (true class, private class), C0 = 0; 16 points:
//            P0  P1  P2  P3
//     T0      1   1   0   0
//     T1      0   0   4   3
//     T2      0   2   0   0
//     T3      1   0   3   1
// Sizes (C0 of the other side included): |T1| = 7, |T2| = 2, |T3| = 5; |P1| = 3, |P2| = 7, |P3| = 4.
// Max intersection (Sec. 6.2): T1-P3 3 + T2-P1 2 + T3-P2 3 = 8 beats T1-P2 4 + T2-P1 2 + T3-P3 1 = 7,
//   OCM = 1 - (8 + 1) / 16 = 0.4375.
// Set difference max(|Ti| - n, |Pj| - n):
//     T1: P1 7, P2 3, P3 4;  T2: P1 1, P2 7, P3 4;  T3: P1 5, P2 4, P3 4.
//   The six matchings cost 18, 15, 8, 12, 9, 16: the unique minimum 8 is T1-P2, T2-P1, T3-P3, whose
//   intersections are 4 + 2 + 1 = 7: OCM = 1 - (7 + 1) / 16 = 0.5.
void expand(const std::vector<std::vector<int>>& m, std::vector<std::int32_t>& pt, std::vector<std::int32_t>& pp) {
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < m[i].size(); ++j)
      for (int c = 0; c < m[i][j]; ++c) {
        pt.push_back(static_cast<std::int32_t>(i));
        pp.push_back(static_cast<std::int32_t>(j));
      }
}

TEST(OcmAuthors, SetDifferenceMatchingOnAHandComputedExample) {
  std::vector<std::int32_t> pt, pp;
  expand({{1, 1, 0, 0}, {0, 0, 4, 3}, {0, 2, 0, 0}, {1, 0, 3, 1}}, pt, pp);
  ASSERT_EQ(pt.size(), 16u);
  EXPECT_DOUBLE_EQ(ocm(pt, pp), 0.4375);
  const std::optional<double> a = ocm_authors(pt, pp);
  ASSERT_TRUE(a.has_value());
  EXPECT_DOUBLE_EQ(*a, 0.5);
}

TEST(OcmAuthors, TheirSpecialCasesAndAgreementWithoutConflict) {
  // One cluster on each side: their code skips the fold.
  std::vector<std::int32_t> pt = {0, 1, 1, 1}, pp = {0, 1, 1, 0};
  EXPECT_FALSE(ocm_authors(pt, pp).has_value());
  // No private cluster: only the C0 / C0 points count: 1 - 1 / 4.
  pt = {0, 1, 2, 2};
  pp = {0, 0, 0, 0};
  ASSERT_TRUE(ocm_authors(pt, pp).has_value());
  EXPECT_DOUBLE_EQ(*ocm_authors(pt, pp), 0.75);
  // Identical classifications: both matchings are the identity, OCM 0.
  pt = {0, 1, 2, 2, 3};
  EXPECT_DOUBLE_EQ(*ocm_authors(pt, pt), 0.0);
  EXPECT_DOUBLE_EQ(ocm(pt, pt), 0.0);
}

// --- PrivTHR_EM: averaged thresholds and their ledger -------------------------------------------------

TEST(EmRepeats, SplitKeepsTheConfiguredEpsilon) {
  const Dataset ds = blobs_dataset(43, 400);
  ParamSet ps = params_for("privthr_em", 1.0);
  ps.set("em_repeats", std::int64_t{10});
  ps.set("em_repeats_budget", std::string("split"));
  BudgetLedger ledger(1.0);
  Rng rng(3);
  const MethodResult r = make_mechanism("privthr_em")->run(ds, ps, rng, ledger);
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_NEAR(ledger.spent_epsilon(), 1.0, 1e-12);  // 0.7 + 10 x 0.03
  EXPECT_EQ(ledger.excess_epsilon(), 0.0);
  ASSERT_EQ(ledger.entries().size(), 11u);
  for (std::size_t i = 1; i < 11; ++i) {
    EXPECT_EQ(ledger.entries()[i].mechanism, "exponential_exact");
    EXPECT_NEAR(ledger.entries()[i].epsilon, 0.03, 1e-15);
  }
  EXPECT_FALSE(has_note(r, "averaged"));
}

TEST(EmRepeats, AuthorsRecordsTheRealCostAndIsFlagged) {
  const Dataset ds = blobs_dataset(44, 400);
  ParamSet ps = params_for("privthr_em", 1.0);
  ps.set("em_repeats", std::int64_t{10});
  ps.set("em_repeats_budget", std::string("authors"));
  BudgetLedger ledger(1.0);
  Rng rng(3);
  const MethodResult r = make_mechanism("privthr_em")->run(ds, ps, rng, ledger);
  EXPECT_NO_THROW(ledger.verify());                            // against 1.0 + the declared excess
  EXPECT_NEAR(ledger.spent_epsilon(), 0.7 + 10 * 0.3, 1e-12);  // eps1 + 10 eps2 = 3.7
  EXPECT_NEAR(ledger.excess_epsilon(), 9 * 0.3, 1e-12);
  EXPECT_EQ(ledger.total_epsilon(), 1.0);  // the configured total is unchanged
  ASSERT_EQ(ledger.entries().size(), 11u);
  for (std::size_t i = 1; i < 11; ++i) EXPECT_NEAR(ledger.entries()[i].epsilon, 0.3, 1e-15);
  const auto j = ledger.to_json();
  EXPECT_NEAR(j["epsilon_excess"].get<double>(), 2.7, 1e-12);
  EXPECT_EQ(j["excess_reasons"].size(), 1u);
  EXPECT_TRUE(has_note(r, "em_repeats_budget: authors"));
  // A ledger without the declaration refuses the same spending; the declaration makes it add up.
  BudgetLedger plain(1.0);
  privacy::charge(plain, "counts", 0.7, "exponential", 1.0, "utility");
  privacy::charge(plain, "ten draws", 3.0, "exponential", 1.0, "utility");
  EXPECT_THROW(plain.verify(), std::logic_error);
  plain.declare_excess(2.7, "ten draws at the full threshold budget");
  EXPECT_NO_THROW(plain.verify());
  EXPECT_THROW(plain.declare_excess(0.1, ""), std::logic_error);  // an excess needs its reason
}

TEST(EmRepeats, OneRepeatIsThePapersSingleDraw) {
  const Dataset ds = blobs_dataset(45, 400);
  const ParamSet base = params_for("privthr_em", 0.6);
  ParamSet one = base;
  one.set("em_repeats", std::int64_t{1});
  one.set("em_repeats_budget", std::string("authors"));  // irrelevant for a single draw
  BudgetLedger l1(0.6), l2(0.6);
  Rng r1(9), r2(9);
  const MethodResult a = make_mechanism("privthr_em")->run(ds, base, r1, l1);
  const MethodResult b = make_mechanism("privthr_em")->run(ds, one, r2, l2);
  EXPECT_EQ(output_of(a)->k_prime, output_of(b)->k_prime);
  EXPECT_EQ(output_of(a)->threshold, output_of(b)->threshold);
  EXPECT_EQ(l2.entries().size(), 2u);
  EXPECT_EQ(l2.excess_epsilon(), 0.0);
  EXPECT_FALSE(has_note(b, "averaged"));
}

// Noiseless limit (noise scale 0): every draw lands in the same partition (W_{i+1}, W_i], the non-empty
// one nearest rank k, and so does their mean (an interval is convex): the averaged k' is the single
// draw's k' (which is k itself unless W_k ties with W_{k+1}).
TEST(EmRepeats, NoiselessMeanKeepsTheSingleDrawsRank) {
  const Dataset ds = blobs_dataset(46, 400);
  ParamSet one = params_for("privthr_em", 1.0), ten = one;
  ten.set("em_repeats", std::int64_t{10});
  BudgetLedger l1(1.0), l10(1.0);
  l1.set_noise_scale(0);
  l10.set_noise_scale(0);
  Rng r1(5), r10(5);
  const MethodResult a = make_mechanism("privthr_em")->run(ds, one, r1, l1);
  const MethodResult b = make_mechanism("privthr_em")->run(ds, ten, r10, l10);
  EXPECT_EQ(output_of(b)->k_prime, output_of(a)->k_prime);
  EXPECT_LE(output_of(a)->k_prime, output_of(a)->k);
}

// --- Baseline: the authors' flat_origin.py grid ---------------------------------------------------------

TEST(FlatOrigin, LeafCountsTruncateTowardZero) {
  EXPECT_EQ(flat_origin_leaf_points(2.9), 2u);  // "%d" % 2.9 = 2 (the paper's reading: 3)
  EXPECT_EQ(flat_origin_leaf_points(7.0), 7u);
  EXPECT_EQ(flat_origin_leaf_points(0.99), 0u);
  EXPECT_EQ(flat_origin_leaf_points(-0.5), 0u);  // "%d" = 0
  EXPECT_EQ(flat_origin_leaf_points(-3.7), 0u);  // "%d" = -3, skipped (count > 0)
}

// A tiny case without noise (noise scale 0). The data box is [0, 100]^2 (two corner points), widened
// by 1e-6: first-level cells 10.0000002 wide. eps = 1, alpha = 0.5, c2 = 5: a cell splits when its
// count is >= 20, into m2 = ceil(sqrt(v * 0.5 / 5)) per dimension:
//   cell (2,2): 40 points, 10 at each of (21,21), (21,26), (26,21), (26,26): m2 = ceil(sqrt(4)) = 2
//   cell (5,5): 19 points at (55,55): kept whole (19 < 20)
//   cell (8,1): 20 points at (85,15): m2 = ceil(sqrt(2)) = 2, all in its sub-cell (0,1)
//   cells (0,0) and (9,9): the corner points, kept whole
// Split cells 2, leaves 98 + 4 + 4 = 106, synthetic points = n = 81 (no noise: every leaf its count).
// Quantized into WaveCluster's g = 20 grid (cells 5 wide) the split cells' leaves are g-cells (up to
// 1e-6): the 2x2 block (4..5, 4..5) holds 10 + 10 + 10 + 10, g-cell (16, 3) the 20 points.
TEST(FlatOrigin, TinyGridByHand) {
  std::vector<double> c = {0, 0, 100, 100};
  for (const auto& p : std::vector<std::pair<double, double>>{{21, 21}, {21, 26}, {26, 21}, {26, 26}})
    for (int i = 0; i < 10; ++i) c.insert(c.end(), {p.first, p.second});
  for (int i = 0; i < 19; ++i) c.insert(c.end(), {55, 55});
  for (int i = 0; i < 20; ++i) c.insert(c.end(), {85, 15});
  const Dataset ds = make_dataset(c, 2, Bounds{{0, 0}, {100, 100}});
  ASSERT_EQ(ds.n, 81u);
  ParamSet ps = params_for("wc_baseline", 1.0);
  ps.set("g", 20.0);
  ps.set("ag_variant", std::string("flat_origin"));
  BudgetLedger ledger(1.0);
  ledger.set_noise_scale(0);
  Rng rng(11);
  const MethodResult r = make_mechanism("wc_baseline")->run(ds, ps, rng, ledger);
  EXPECT_NO_THROW(ledger.verify());
  ASSERT_EQ(ledger.entries().size(), 2u);  // no noisy N: the whole epsilon on the two levels
  EXPECT_DOUBLE_EQ(ledger.entries()[0].epsilon, 0.5);
  EXPECT_DOUBLE_EQ(ledger.entries()[1].epsilon, 0.5);
  const auto& syn = r.release["synopsis"];
  EXPECT_EQ(syn["variant"], "flat_origin");
  EXPECT_EQ(syn["m1"].get<int>(), 10);
  EXPECT_EQ(syn["split_cells"].get<int>(), 2);
  EXPECT_EQ(syn["m2_min"].get<int>(), 2);
  EXPECT_EQ(syn["m2_max"].get<int>(), 2);
  EXPECT_EQ(syn["leaves"].get<int>(), 106);
  EXPECT_EQ(syn["synthetic_points"].get<int>(), 81);
  EXPECT_FALSE(syn.value("true_n_used", false));  // no record count is used at all
  EXPECT_TRUE(has_note(r, "flat_origin"));
  // The synthetic points on the g = 20 grid (average subband 10 x 10: Haar level 1 sums 2 x 2 blocks).
  const WaveClusterOutput* out = output_of(r);
  ASSERT_NE(out, nullptr);
  // W' value of the 2x2 block (4..5, 4..5) = 40 / 2 at subband cell (2, 2); (16, 2..3) -> (8, 1): 20 / 2.
  EXPECT_DOUBLE_EQ(out->transformed[2 * 10 + 2], 20.0);
  EXPECT_DOUBLE_EQ(out->transformed[8 * 10 + 1], 10.0);
  double total = 0;
  for (double w : out->transformed) total += w;
  EXPECT_DOUBLE_EQ(total, 81.0 / 2);
}

TEST(FlatOrigin, PaperVariantUnchangedByDefault) {
  const Dataset ds = blobs_dataset(47, 400);
  const ParamSet ps = params_for("wc_baseline", 1.0);
  BudgetLedger ledger(1.0);
  Rng rng(3);
  const MethodResult r = make_mechanism("wc_baseline")->run(ds, ps, rng, ledger);
  EXPECT_EQ(ledger.entries().size(), 3u);  // noisy N, level 1, level 2
  EXPECT_FALSE(r.release["synopsis"].contains("variant"));
  EXPECT_FALSE(has_note(r, "flat_origin"));
}

}  // namespace
}  // namespace dpclust::wavecluster
