// Core building blocks: the platform-independent random stream, seed derivation, the budget ledger,
// parameter specs and typo suggestions.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "core/dataset.hpp"
#include "core/error.hpp"
#include "core/ledger.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"

using namespace dpclust;

TEST(Rng, Mt19937_64StreamIsTheStandardOne) {
  // The C++ standard fixes the 10000th output of mt19937_64 with the default seed 5489.
  Rng rng(5489);
  std::uint64_t x = 0;
  for (int i = 0; i < 10000; ++i) x = rng.next_u64();
  EXPECT_EQ(x, 9981545732273789042ULL);
}

TEST(Rng, UniformIsInUnitIntervalWithMeanHalf) {
  Rng rng(1);
  double sum = 0;
  for (int i = 0; i < 200000; ++i) {
    double u = rng.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
  }
  EXPECT_NEAR(sum / 200000, 0.5, 0.003);  // sd of the mean = 0.289/sqrt(2e5) = 0.00065
}

TEST(Rng, BelowIsUnbiasedOverSmallRange) {
  Rng rng(2);
  std::vector<int> counts(7, 0);
  const int n = 70000;
  for (int i = 0; i < n; ++i) counts[rng.below(7)]++;
  // Chi-square with 6 degrees of freedom; the 0.999 quantile is 22.46.
  double chi2 = 0;
  for (int c : counts) chi2 += (c - 10000.0) * (c - 10000.0) / 10000.0;
  EXPECT_LT(chi2, 22.46);
}

TEST(Rng, LaplaceHasTheRightScale) {
  // Laplace(0, b): mean 0, E|X| = b, Var = 2 b^2.
  Rng rng(3);
  const double b = 2.5;
  const int n = 400000;
  double s = 0, s_abs = 0, s2 = 0;
  for (int i = 0; i < n; ++i) {
    double x = rng.laplace(b);
    s += x;
    s_abs += std::fabs(x);
    s2 += x * x;
  }
  EXPECT_NEAR(s / n, 0.0, 0.02);
  EXPECT_NEAR(s_abs / n, b, 0.02);
  EXPECT_NEAR(s2 / n, 2 * b * b, 0.25);
}

TEST(Rng, LaplaceTailMatchesCdf) {
  // P(X > t) = exp(-t/b) / 2.
  Rng rng(4);
  const int n = 200000;
  int above = 0;
  for (int i = 0; i < n; ++i) above += rng.laplace(1.0) > 2.0;
  const double p = 0.5 * std::exp(-2.0);
  EXPECT_NEAR(static_cast<double>(above) / n, p, 4 * std::sqrt(p * (1 - p) / n));
}

TEST(Rng, NormalMoments) {
  Rng rng(5);
  const int n = 200000;
  double s = 0, s2 = 0;
  for (int i = 0; i < n; ++i) {
    double x = rng.normal(1.0, 2.0);
    s += x;
    s2 += (x - 1.0) * (x - 1.0);
  }
  EXPECT_NEAR(s / n, 1.0, 0.02);
  EXPECT_NEAR(s2 / n, 4.0, 0.06);
}

TEST(Rng, BinomialMeanForHugeTrials) {
  Rng rng(6);
  const std::uint64_t trials = 1000000000000ULL;  // 1e12 cells, p = 1e-9: mean 1000
  double s = 0;
  for (int i = 0; i < 2000; ++i) s += static_cast<double>(rng.binomial(trials, 1e-9));
  EXPECT_NEAR(s / 2000, 1000.0, 3.0);  // sd of the mean = sqrt(1000/2000) = 0.71
}

TEST(Rng, SameSeedSameStream) {
  Rng a(42), b(42), c(43);
  for (int i = 0; i < 100; ++i) {
    double x = a.normal();
    EXPECT_EQ(x, b.normal());
    (void)c;
  }
  EXPECT_NE(Rng(42).next_u64(), Rng(43).next_u64());
}

TEST(Seeds, DeriveSeedDependsOnEveryInput) {
  const auto s = derive_seed(1, "dataset=a|method=m|eps=1", 0);
  EXPECT_EQ(s, derive_seed(1, "dataset=a|method=m|eps=1", 0));
  EXPECT_NE(s, derive_seed(2, "dataset=a|method=m|eps=1", 0));
  EXPECT_NE(s, derive_seed(1, "dataset=b|method=m|eps=1", 0));
  EXPECT_NE(s, derive_seed(1, "dataset=a|method=m|eps=1", 1));
}

TEST(Seeds, Fnv1aKnownValues) {
  // Published FNV-1a 64 test vectors.
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(Ledger, PartsMustSumToTotal) {
  BudgetLedger l(1.0);
  l.spend("counts", 0.9);
  EXPECT_THROW(l.verify(), std::logic_error);  // 0.1 unaccounted
  l.spend("threshold", 0.1);
  EXPECT_NO_THROW(l.verify());
  EXPECT_DOUBLE_EQ(l.spent_epsilon(), 1.0);
  EXPECT_EQ(l.to_json()["steps"].size(), 2u);
}

TEST(Ledger, JointAccountsAddUpThroughTheirAccountEntry) {
  // Steps calibrated together (core/ledger.hpp, "Joint accounts"): each records 0 and names its account;
  // the account entry records the total.
  auto step = [](const char* name, const char* joint) {
    BudgetEntry e;
    e.step = name;
    e.mechanism = "discrete_laplace";
    e.joint = joint;
    return e;
  };
  BudgetLedger l(1.0, 1e-6);
  l.charge(step("counts", "acct"));
  l.charge(step("sums", "acct"));
  EXPECT_THROW(l.verify(), std::logic_error);  // no account entry yet (and nothing spent)
  BudgetEntry account;
  account.step = "acct";
  account.epsilon = 1.0;
  account.delta = 1e-6;
  account.measure = PrivacyMeasure::approximate;
  account.joint = "acct";
  account.joint_total = true;
  l.charge(account);
  EXPECT_NO_THROW(l.verify());
  const auto j = l.to_json();
  EXPECT_EQ(j["steps"][0]["joint"], "acct");
  EXPECT_FALSE(j["steps"][0].contains("joint_total"));
  EXPECT_EQ(j["steps"][2]["joint_total"], true);
  // A step of the account that spends something of its own, or an account recorded twice, is refused.
  BudgetLedger twice(2.0, 2e-6);
  twice.charge(step("counts", "acct"));
  twice.charge(account);
  twice.charge(account);
  EXPECT_THROW(twice.verify(), std::logic_error);
  BudgetLedger spends(1.5, 1e-6);
  BudgetEntry bad = step("counts", "acct");
  bad.epsilon = 0.5;
  spends.charge(bad);
  spends.charge(account);
  EXPECT_THROW(spends.verify(), std::logic_error);
}

TEST(Ledger, OverspendingIsCaught) {
  BudgetLedger l(0.5);
  l.spend("a", 0.5);
  l.spend("b", 0.01);
  EXPECT_THROW(l.verify(), std::logic_error);
}

TEST(Ledger, NonPrivateLedgerRefusesToSpend) {
  BudgetLedger l;
  EXPECT_FALSE(l.is_private());
  EXPECT_THROW(l.spend("x", 0.1), std::logic_error);
  EXPECT_NO_THROW(l.verify());
}

// A choice that takes a value of the data makes the trial unbounded and says which values of its entries
// carry the data (a release withholds them); an unbounded sampler alone does not.
TEST(Ledger, DataDerivedChoicesAreUnboundedAndListed) {
  BudgetLedger l(1.0);
  l.spend("counts", 1.0, "sensitivity 1");
  l.declare_unbounded("a continuous sampler");
  EXPECT_TRUE(l.unbounded());
  EXPECT_FALSE(l.data_derived());
  EXPECT_FALSE(l.to_json().contains("data_derived"));
  l.declare_data_derived("the radius is the data's largest norm");
  EXPECT_TRUE(l.data_derived());
  const nlohmann::json j = l.to_json();
  EXPECT_EQ(j["unbounded_reasons"], nlohmann::json({"a continuous sampler", "the radius is the data's largest norm"}));
  EXPECT_EQ(j["data_derived"], nlohmann::json({"the radius is the data's largest norm"}));
  EXPECT_NO_THROW(l.verify());
  BudgetLedger none;
  EXPECT_THROW(none.declare_data_derived("x"), std::logic_error);  // a non-private ledger has no bound to lose
}

TEST(Ledger, RejectsImpossibleTotals) {
  EXPECT_THROW(BudgetLedger(0.0), std::logic_error);
  EXPECT_THROW(BudgetLedger(-1.0), std::logic_error);
  EXPECT_THROW(BudgetLedger(1.0, 1.5), std::logic_error);
}

TEST(Params, RangeChecks) {
  auto eps = real_param("epsilon", 1.0, "privacy budget", 0.0, std::nullopt, true);
  EXPECT_EQ(eps.check(0.5), "");
  EXPECT_NE(eps.check(0.0), "");  // open at 0
  EXPECT_NE(eps.check(-1.0), "");
  EXPECT_NE(eps.check(std::string("x")), "");
  EXPECT_EQ(eps.check(std::int64_t{2}), "");  // integers are fine for reals
  auto split = real_param("rho", 0.9, "budget split", 0.0, 1.0, true, true);
  EXPECT_NE(split.check(1.0), "");
  EXPECT_NE(split.check(0.0), "");
  EXPECT_EQ(split.check(0.99), "");
  EXPECT_EQ(split.allowed(), "a real number in (0, 1)");
  auto minpts = int_param("min_pts", std::nullopt, "MinPts", 1);
  EXPECT_TRUE(minpts.required());
  EXPECT_NE(minpts.check(0.5), "");  // a real is not an integer
  EXPECT_NE(minpts.check(std::int64_t{0}), "");
  auto noise = choice_param("noise", "laplace", {"laplace", "geometric"}, "noise");
  EXPECT_NE(noise.check(std::string("gauss")), "");
  EXPECT_EQ(noise.check(std::string("geometric")), "");
}

TEST(Params, CanonicalTextIsSortedAndExact) {
  ParamSet p;
  p.set("z", std::int64_t{3});
  p.set("a", 0.1);
  p.set("m", std::string("haar"));
  EXPECT_EQ(p.canonical(), "a=0.1;m=\"haar\";z=3");
  EXPECT_DOUBLE_EQ(p.real("z"), 3.0);
  EXPECT_THROW(p.integer("a"), std::logic_error);
  EXPECT_THROW(p.real("missing"), std::logic_error);
}

TEST(Params, PerDimBroadcastsScalars) {
  ParamSet p;
  p.set("g", 40.0);
  EXPECT_EQ(p.per_dim("g", 3), (RealVector{40, 40, 40}));
  p.set("g", RealVector{40, 50});
  EXPECT_EQ(p.per_dim("g", 2), (RealVector{40, 50}));
  EXPECT_THROW(p.per_dim("g", 3), std::invalid_argument);
}

TEST(Errors, EditDistanceAndSuggestions) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  std::vector<std::string> keys{"datasets", "methods", "metrics", "trials"};
  EXPECT_EQ(closest_match("mehtods", keys), "methods");
  EXPECT_EQ(closest_match("trails", keys), "trials");
  EXPECT_EQ(closest_match("zzzzzzzzzzzz", keys), "");
}

TEST(Errors, MessageCarriesWhereAndFix) {
  InputError e("a.yaml:3:5 trials", "trials must be >= 1", "use a positive count");
  EXPECT_EQ(std::string(e.what()), "a.yaml:3:5 trials: trials must be >= 1\n  fix: use a positive count");
}

TEST(Dataset, BoundingBoxAndClusterCount) {
  Dataset d;
  d.n = 3;
  d.d = 2;
  d.coords = {0, 5, 2, -1, 1, 3};
  d.labels = {0, -1, 4};
  EXPECT_NO_THROW(d.check_invariants());
  Bounds b = bounding_box(d);
  EXPECT_EQ(b.lo, (std::vector<double>{0, -1}));
  EXPECT_EQ(b.hi, (std::vector<double>{2, 5}));
  EXPECT_EQ(count_clusters(d.labels), 2u);
  d.labels.pop_back();
  EXPECT_THROW(d.check_invariants(), std::logic_error);
}

TEST(Rng, UniformOpenNeverReachesOneOrZero) {
  // The top word used to round to exactly 1.0 (and Laplace noise to +inf).
  EXPECT_LT(Rng::open_unit(~0ULL), 1.0);
  EXPECT_EQ(Rng::open_unit(~0ULL), 0x1.fffffffffffffp-1);
  EXPECT_GT(Rng::open_unit(0), 0.0);
  EXPECT_EQ(Rng::open_unit(0), 0x1.0p-54);
  // Every other word keeps the value it always had.
  EXPECT_EQ(Rng::open_unit(1ULL << 63), (static_cast<double>((1ULL << 63) >> 11) + 0.5) * 0x1.0p-53);
  EXPECT_TRUE(std::isfinite(std::log(1.0 - Rng::open_unit(~0ULL))));
}

// randomness: secure. Two secure generators share nothing (64 words equal by chance: 2^-4096),
// have no seed to write down, and every draw (the samplers' words, Boost's distributions) goes through
// the CSPRNG.
TEST(Rng, SecureGeneratorsGiveDifferentStreamsAndHaveNoSeed) {
  Rng a = Rng::secure(), b = Rng::secure();
  EXPECT_TRUE(a.is_secure());
  EXPECT_EQ(a.mode(), Randomness::secure);
  EXPECT_FALSE(Rng(7).is_secure());
  std::vector<std::uint64_t> xa, xb;
  for (int i = 0; i < 64; ++i) xa.push_back(a.next_u64()), xb.push_back(b.next_u64());
  EXPECT_NE(xa, xb);
  EXPECT_THROW((void)a.seed(), std::logic_error);
  EXPECT_EQ(Rng(7).seed(), 7u);
  // More than one 512-word block, and distributions through the secure words: mean of 20000 uniforms
  // (sd 0.289 / sqrt(20000) = 0.002) and of 20000 Boost normals (sd 0.007).
  double u = 0, z = 0;
  for (int i = 0; i < 20000; ++i) u += a.uniform(), z += a.normal();
  EXPECT_NEAR(u / 20000, 0.5, 0.01);
  EXPECT_NEAR(z / 20000, 0.0, 0.035);
  // A secure generator's side streams are secure too.
  EXPECT_TRUE(a.split(1).is_secure());
}

// The seeded stream is the one it was before the secure mode: raw words are mt19937_64's, and Boost's
// normal drawn through Rng equals Boost's normal drawn from mt19937_64 itself.
TEST(Rng, SeededStreamIsBitIdenticalToMt19937) {
  Rng a = Rng::make(Randomness::seeded, 42);
  std::mt19937_64 e(42);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a.next_u64(), e());
  Rng b(99);
  std::mt19937_64 f(99);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(b.normal(), (boost::random::normal_distribution<double>(0.0, 1.0)(f)));
  EXPECT_EQ(Rng(5).split(9).next_u64(), Rng(splitmix64(5 ^ 9)).next_u64());
}

// core/mt19937_64.hpp replaces std::mt19937_64 (a branch-free refill); every seed must give the standard
// engine's words, across many refills of the 312-word state, including the seeds at the ends of the range.
TEST(Mt19937_64, SameSequenceAsTheStandardEngine) {
  for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{5489},
                                   std::uint64_t{0x9e3779b97f4a7c15}, ~std::uint64_t{0}, splitmix64(2026)}) {
    Mt19937_64 ours(seed);
    std::mt19937_64 standard(seed);
    for (int i = 0; i < 100000; ++i) ASSERT_EQ(ours(), standard()) << "seed " << seed << ", word " << i;
  }
  Mt19937_64 default_seeded;
  std::uint64_t x = 0;
  for (int i = 0; i < 10000; ++i) x = default_seeded();
  EXPECT_EQ(x, 9981545732273789042ULL);  // [rand.predef]
}

// discard(n) is n calls' worth of words: the standard engine's discard and ours agree, and Rng::discard
// continues the seeded stream where n calls of next_u64() would, for skips inside one refill, up to it,
// across it and across many (the state holds 312 words).
TEST(Mt19937_64, DiscardSkipsTheWordsTheCallsWouldRead) {
  for (const unsigned long long n : {0ULL, 1ULL, 155ULL, 311ULL, 312ULL, 313ULL, 624ULL, 1000ULL, 12345ULL}) {
    for (const int already : {0, 7, 311}) {  // words read before the skip
      Mt19937_64 ours(2026);
      std::mt19937_64 standard(2026);
      Rng rng(2026), stepped(2026);
      for (int i = 0; i < already; ++i) {
        ours();
        standard();
        rng.next_u64();
        stepped.next_u64();
      }
      ours.discard(n);
      standard.discard(n);
      rng.discard(n);
      for (unsigned long long i = 0; i < n; ++i) stepped.next_u64();
      for (int i = 0; i < 700; ++i) {
        const std::uint64_t w = standard();
        ASSERT_EQ(ours(), w) << "skip " << n << " after " << already << ", word " << i;
        ASSERT_EQ(rng.next_u64(), stepped.next_u64()) << "skip " << n << " after " << already << ", word " << i;
      }
    }
  }
}

TEST(Randomness, ParsesBothModesAndRefusesOthers) {
  EXPECT_EQ(parse_randomness("seeded", "x"), Randomness::seeded);
  EXPECT_EQ(parse_randomness("secure", "x"), Randomness::secure);
  EXPECT_STREQ(to_string(Randomness::secure), "secure");
  try {
    parse_randomness("crypto", "t.yaml:3:13 randomness");
    FAIL() << "accepted 'crypto'";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "t.yaml:3:13 randomness");
    EXPECT_NE(std::string(e.what()).find("seeded or secure"), std::string::npos);
  }
}
