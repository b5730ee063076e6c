// The privacy audit: its statistics on hand-checked values, its pairs, and its teeth -- it
// reports a violation for deliberately broken mechanisms (noise halved, no noise) and is consistent for
// the correct ones at the configured epsilon.
//
// False-alarm rate of the statistical tests below: each "consistent" assertion fails for a correct
// mechanism with probability at most 5% over the seeds (the audit's confidence), but the seeds are fixed,
// so the outcome is deterministic; the margins printed with each assertion show how far from the edge.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "audit/auditor.hpp"
#include "audit/clopper_pearson.hpp"
#include "audit/events.hpp"
#include "audit/features.hpp"
#include "audit/neighbours.hpp"
#include "catalog/catalog.hpp"
#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/method.hpp"
#include "loading/dataset_loading.hpp"
#include "privacy/mechanism.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace dpclust;
using namespace dpclust::audit;
using nlohmann::json;

namespace {

ExperimentConfig parse(const std::string& text) {
  return parse_config(text, "audit.yaml", fs::temp_directory_path(), "");
}

Dataset points(std::vector<double> xy, Bounds b = {{0, 0}, {10, 10}}) {
  Dataset d;
  d.name = "pts";
  d.d = 2;
  d.n = xy.size() / 2;
  d.coords = std::move(xy);
  d.bounds = std::move(b);
  d.bounds_source = BoundsSource::config;
  return d;
}

// A small dp_dbscan / privqt audit on 200 blob points in [0, 10]^2 (a 7 x 7 grid of cells for DP-DBSCAN).
std::string small_audit(const std::string& method_and_params, const std::string& pairs, int runs = 4000) {
  return "experiment: audit_test\n"
         "datasets:\n"
         "  - name: b\n"
         "    generator: {type: blobs, n_samples: 200, centers: 2, cluster_std: 0.5, center_box_lo: 2, center_box_hi: "
         "5, seed: 3}\n"
         "    bounds: [[0, 10], [0, 10]]\n"
         "methods:\n"
         "  - " +
         method_and_params +
         "\n"
         "audit: {runs: " +
         std::to_string(runs) + ", pilot_runs: 300, pairs: [" + pairs + "], seed: 11}\n";
}

CellResult audit_one(const std::string& text, double noise_scale) {
  const ExperimentConfig cfg = parse(text);
  const std::vector<Cell> cells = expand_grid(cfg);
  EXPECT_EQ(cells.size(), 1u);
  const Dataset data = materialize_dataset(cfg.datasets[0]);
  AuditOptions o;
  o.noise_scale = noise_scale;
  o.progress = false;
  return audit_cell(cfg, cells[0], data, o);
}

const std::string kPrivqt = "{method: privqt, params: {epsilon: 1.0, g: 8, p: 0.5, release_counts: true}}";
const std::string kDbscan =
    "{method: dp_dbscan, params: {epsilon: 1.0, alpha: 2.0, min_pts: 5, histogram: naive, release_histogram: true}}";

}  // namespace

TEST(ClopperPearson, MatchesClosedFormsAndTables) {
  // k = 0: upper = 1 - a^(1/n); k = n: lower = a^(1/n) (a = 1 - level).
  EXPECT_NEAR(clopper_pearson_upper(0, 10, 0.975), 1 - std::pow(0.025, 0.1), 1e-12);
  EXPECT_NEAR(clopper_pearson_lower(10, 10, 0.975), std::pow(0.025, 0.1), 1e-12);
  EXPECT_EQ(clopper_pearson_lower(0, 10, 0.975), 0.0);
  EXPECT_EQ(clopper_pearson_upper(10, 10, 0.975), 1.0);
  // 5 of 10: the exact 95% interval [0.1871, 0.8129] (Clopper & Pearson 1934; standard tables).
  EXPECT_NEAR(clopper_pearson_lower(5, 10, 0.975), 0.18709, 1e-4);
  EXPECT_NEAR(clopper_pearson_upper(5, 10, 0.975), 0.81291, 1e-4);
  EXPECT_THROW(clopper_pearson_lower(11, 10, 0.975), std::invalid_argument);
}

TEST(ClopperPearson, EpsilonLowerBoundFromCounts) {
  // Every run on D in the event, none on D': ln(lower(n, n) / upper(0, n)) at 97.5% per side.
  const EpsilonBound b = epsilon_lower_bound(1000, 1000, 0, 1000, 0.0, 0.95);
  EXPECT_NEAR(b.eps_lower, std::log(std::pow(0.025, 1e-3) / (1 - std::pow(0.025, 1e-3))), 1e-9);
  EXPECT_NEAR(b.eps_lower, 5.60, 0.01);
  // The same frequencies: no evidence at all.
  EXPECT_EQ(epsilon_lower_bound(500, 1000, 500, 1000, 0.0, 0.95).eps_lower, 0.0);
  // delta eats the numerator: p_lo <= delta gives 0.
  EXPECT_EQ(epsilon_lower_bound(10, 1000, 0, 1000, 0.5, 0.95).eps_lower, 0.0);
}

TEST(AuditEvents, AnAtomOnOneSideIsChosenAndBounded) {
  // Feature 0: noise on both sides; feature 1: exactly 0 on D always, uniform on D'.
  FeatureMatrix d, dp;
  d.runs = dp.runs = 2000;
  d.features = dp.features = 2;
  for (std::size_t r = 0; r < 2000; ++r) {
    const double u = static_cast<double>((r * 7919) % 2000) / 2000.0;
    d.values.insert(d.values.end(), {u, 0.0});
    dp.values.insert(dp.values.end(), {u, 0.25 + u});
  }
  const std::vector<std::size_t> screened = screen_features(d, dp, 4);
  ASSERT_EQ(screened, std::vector<std::size_t>({1}));  // feature 0 is alike on both sides
  const Event e = choose_event(d, dp, 1000, 0.0, 0.95);
  EXPECT_EQ(e.feature, 1u);
  EXPECT_TRUE(e.numerator_is_d);
  const EventCounts c = count_event(e, d, dp, 1000, 2000);
  EXPECT_EQ(c.in_d, 1000u);
  EXPECT_EQ(c.in_d_prime, 0u);
}

TEST(AuditFeatures, ReleaseLeavesAndArraySizesAreNamedFeatures) {
  FeatureSchema s;
  const json release = {{"spans", json::array({json{{"cells", json::array({3, 4})}}})}, {"flag", true}, {"name", "x"}};
  const json diag = {{"k", 7}};
  s.learn(release, diag);
  ASSERT_EQ(s.size(), 6u);
  EXPECT_EQ(s.name(0), "release.flag");  // nlohmann::json orders object keys
  EXPECT_EQ(s.name(1), "release.spans#size");
  EXPECT_EQ(s.name(2), "release.spans[0].cells#size");
  EXPECT_EQ(s.name(5), "diagnostics.k");
  std::vector<double> v;
  s.extract({{"spans", json::array()}, {"flag", false}}, {{"k", 2}}, v);
  EXPECT_EQ(v[0], 0.0);
  EXPECT_EQ(v[1], 0.0);
  EXPECT_TRUE(std::isnan(v[3]));  // spans[0].cells[0] absent this run
  EXPECT_EQ(v[5], 2.0);
  std::vector<double> sel;
  s.extract_selected(release, diag, {5, 1}, sel);
  EXPECT_EQ(sel, std::vector<double>({7.0, 1.0}));
}

TEST(AuditPairs, BuiltInPairsChangeOneRecord) {
  // Points crowded in the lower-left corner: the empty cell is far from them.
  const Dataset d = points({1, 1, 1.2, 1.1, 0.9, 1.3, 1.1, 0.8, 4, 4});
  const NeighbourPair empty =
      make_pair(d, {"add_empty_cell", {}, std::nullopt}, NeighbourRelation::add_remove, false, 1, "t");
  EXPECT_EQ(empty.d_prime.n, 6u);
  EXPECT_DOUBLE_EQ(empty.record[0], 9.375);  // centre of the coarse cell (7.5 + 1.25) farthest away
  EXPECT_DOUBLE_EQ(empty.record[1], 9.375);
  const NeighbourPair corner =
      make_pair(d, {"add_domain_corner", {}, std::nullopt}, NeighbourRelation::add_remove, false, 1, "t");
  EXPECT_EQ(corner.record, std::vector<double>({10, 10}));
  const NeighbourPair removed =
      make_pair(d, {"remove_one", {}, std::nullopt}, NeighbourRelation::add_remove, false, 1, "t");
  EXPECT_EQ(removed.d_prime.n, 4u);  // the record (4, 4), farthest from the mean, is gone
  EXPECT_EQ(removed.d_prime.coords.back(), 0.8);
  const NeighbourPair replaced =
      make_pair(d, {"replace_domain_corner", {}, std::nullopt}, NeighbourRelation::replace_one, false, 1, "t");
  EXPECT_EQ(replaced.d_prime.n, 5u);
  const NeighbourPair local =
      make_pair(d, {"replace_local", {}, std::nullopt}, NeighbourRelation::add_remove, true, 0.5, "t");
  EXPECT_DOUBLE_EQ(local.d_prime.coords[0], 1.5);
  EXPECT_DOUBLE_EQ(local.local_distance, 0.5);
  // Descriptions (audit.json, the report) give coordinates only for the public corner; records placed
  // from the data are named by their rule.
  EXPECT_EQ(corner.description, "record added: [10, 10] (the public domain's upper corner)");
  EXPECT_EQ(empty.description, "record added: a point in the coarse cell farthest from the data");
  EXPECT_EQ(empty.description.find("9.375"), std::string::npos);
  const NeighbourPair boundary =
      make_pair(d, {"add_cluster_boundary", {}, std::nullopt}, NeighbourRelation::add_remove, false, 1, "t");
  EXPECT_EQ(boundary.description.find('['), std::string::npos) << boundary.description;
}

TEST(AuditPairs, BadPairsNameTheProblem) {
  const Dataset d = points({1, 1, 2, 2});
  auto msg = [&](const PairSpec& p, NeighbourRelation rel) {
    try {
      make_pair(d, p, rel, false, 1, "audit.yaml:9:5 audit.pairs[0]");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(
      msg({"far", {20, 1}, std::nullopt}, NeighbourRelation::add_remove).find("outside the dataset's public domain"),
      std::string::npos);
  EXPECT_NE(msg({"far", {1}, std::nullopt}, NeighbourRelation::add_remove).find("1 coordinates, the data 2"),
            std::string::npos);
  EXPECT_NE(msg({"gone", {}, 5}, NeighbourRelation::add_remove).find("record index 5 >= n = 2"), std::string::npos);
  EXPECT_NE(msg({"add_empty_cell", {}, std::nullopt}, NeighbourRelation::replace_one).find("replace_empty_cell"),
            std::string::npos);
  EXPECT_NE(msg({"mine", {3, 3}, std::nullopt}, NeighbourRelation::replace_one).find("remove: INDEX, with"),
            std::string::npos);
}

TEST(AuditConfig, SectionIsParsedAndChecked) {
  const ExperimentConfig cfg =
      parse(small_audit(kDbscan, "add_empty_cell, {name: mine, add: [9, 9]}, {name: swap, remove: 0, with: [1, 1]}"));
  EXPECT_EQ(cfg.audit.runs, 4000u);
  EXPECT_EQ(cfg.audit.pilot_runs, 300u);
  ASSERT_EQ(cfg.audit.pairs.size(), 3u);
  EXPECT_EQ(cfg.audit.pairs[1].add, std::vector<double>({9, 9}));
  EXPECT_EQ(*cfg.audit.pairs[2].remove, 0u);
  auto error = [](const std::string& text) {
    try {
      parse(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error(small_audit(kDbscan, "add_empty_cell", 10)).find("runs must be in [200"), std::string::npos);
  EXPECT_NE(error(small_audit(kDbscan, "{name: x, add: [1, 1], remove: 0}")).find("a config pair is"),
            std::string::npos);
  EXPECT_NE(error(small_audit(kDbscan, "a, a")).find("listed twice"), std::string::npos);
}

// The teeth: the cell count of an added record in an empty cell, Laplace(1/eps) vs 1 + Laplace(1/eps).
TEST(AuditTeeth, DpDbscanIsConsistentAsCalibratedAndViolatedWhenUnderNoised) {
  const std::string cfg = small_audit(kDbscan, "add_empty_cell");
  const CellResult ok = audit_one(cfg, 1.0);
  ASSERT_EQ(ok.pairs.size(), 1u);
  EXPECT_FALSE(ok.violation) << "eps_lower " << ok.eps_lower << " on " << ok.pairs[0].feature;
  EXPECT_GT(ok.eps_lower, 0.5) << "the audit should get close to eps = 1 on the added record's cell";
  EXPECT_NE(ok.pairs[0].feature.find("noisy_counts"), std::string::npos) << ok.pairs[0].feature;

  const CellResult half = audit_one(cfg, 0.5);  // true epsilon of the count: 2
  EXPECT_TRUE(half.violation) << "eps_lower " << half.eps_lower;
  EXPECT_GT(half.eps_lower, 1.2);

  const CellResult none = audit_one(cfg, 0.0);  // deterministic release
  EXPECT_TRUE(none.violation);
  EXPECT_GT(none.eps_lower, 5.0);
}

TEST(AuditTeeth, PrivQtIsConsistentAsCalibratedAndViolatedWhenUnderNoised) {
  const std::string cfg = small_audit(kPrivqt, "add_empty_cell");
  const CellResult ok = audit_one(cfg, 1.0);
  EXPECT_FALSE(ok.violation) << "eps_lower " << ok.eps_lower << " on " << ok.pairs[0].feature;
  const CellResult half = audit_one(cfg, 0.5);
  EXPECT_TRUE(half.violation) << "eps_lower " << half.eps_lower << " on " << half.pairs[0].feature;
}

// diffprivlib's gap (b): an empty cluster's centre is released unchanged. With public initial centres the
// third centre (9, 9) has no record on D: the release is exactly (9, 9), an atom; one record beside it on
// D' moves it. The corrected DPLloyd noises every cluster and stays consistent on the same pair.
TEST(AuditTeeth, DiffprivlibEmptyClusterIsAViolationDplloydIsNot) {
  const std::string cfg =
      "experiment: km\n"
      "datasets:\n"
      "  - name: two\n"
      "    generator: {type: blobs, n_samples: 200, centers: 2, center_list: {values: [-3, -3, 3, 3]}, cluster_std: "
      "0.5, seed: 4}\n"
      "    bounds: [[-10, 10], [-10, 10]]\n"
      "methods:\n"
      "  - {method: dp_kmeans, params: {epsilon: 1.0, k: 3, iterations: 3, variant: VARIANT, initial_centers: {values: "
      "[-3, -3, 3, 3, 9, 9]}}}\n"
      "audit: {runs: 2000, pilot_runs: 200, pairs: [{name: empty_cluster, add: [9.5, 9.5]}], seed: 2}\n";
  auto with = [&](const std::string& v) {
    std::string t = cfg;
    t.replace(t.find("VARIANT"), 7, v);
    return t;
  };
  const CellResult broken = audit_one(with("diffprivlib"), 1.0);
  EXPECT_TRUE(broken.violation) << broken.eps_lower;
  EXPECT_GT(broken.eps_lower, 3.0);
  EXPECT_EQ(broken.pairs[0].event.kind, EventKind::eq);
  EXPECT_EQ(broken.pairs[0].event.threshold, 9.0);
  const CellResult fixed = audit_one(with("dplloyd"), 1.0);
  EXPECT_FALSE(fixed.violation) << fixed.eps_lower << " on " << fixed.pairs[0].feature;
}

// PrivTHR_EM with the paper's data-derived threshold range (0, Max]: one duplicated record raises Max, and
// thresholds above the old Max appear only on D'. With a public em_upper the same pair is consistent.
TEST(AuditTeeth, PrivThrEmDataDerivedRangeIsAViolation) {
  const std::string cfg =
      "experiment: em\n"
      "datasets:\n"
      "  - name: spike\n"
      "    generator: {type: blobs, n_samples: 20, centers: 1, cluster_std: 0.001, center_box_lo: 5, center_box_hi: 5, "
      "seed: 1}\n"
      "    bounds: [[0, 10], [0, 10]]\n"
      "    params: {g: 8, p: 0.5}\n"
      "methods:\n"
      "  - {method: privthr_em, params: {epsilon: 1.0, em_upper: UPPER}}\n"
      "audit: {runs: 4000, pilot_runs: 300, pairs: [add_duplicate], seed: 4}\n";
  auto with = [&](const std::string& v) {
    std::string t = cfg;
    t.replace(t.find("UPPER"), 5, v);
    return t;
  };
  const CellResult data_range = audit_one(with("0.0"), 1.0);
  EXPECT_TRUE(data_range.violation) << data_range.eps_lower;
  EXPECT_EQ(data_range.pairs[0].feature, "diagnostics.threshold");
  EXPECT_FALSE(data_range.pairs[0].event.numerator_is_d);  // thresholds above the old Max: only on D'
  const CellResult public_range = audit_one(with("40.0"), 1.0);
  EXPECT_FALSE(public_range.violation) << public_range.eps_lower;
}

TEST(AuditRun, WritesAuditJsonWithProvenanceAndIsThreadIndependent) {
  const fs::path dir = dpclust::testing::temp_dir("audit_run");
  const ExperimentConfig cfg = parse(small_audit(kDbscan, "add_empty_cell", 1000));
  AuditOptions o;
  o.out_dir = dir / "two";
  o.threads = 2;
  o.progress = false;
  const AuditReport two = run_audit(cfg, o);
  o.out_dir = dir / "one";
  o.threads = 1;
  const AuditReport one = run_audit(cfg, o);
  const json a = json::parse(read_text_file(two.file)), b = json::parse(read_text_file(one.file));
  EXPECT_EQ(a.at("schema"), "dpclust.audit/1");
  EXPECT_EQ(a.at("cells").at(0).at("pairs").at(0).at("counts"), b.at("cells").at(0).at("pairs").at(0).at("counts"));
  EXPECT_EQ(a.at("cells").at(0).at("eps_lower"), b.at("cells").at(0).at("eps_lower"));
  EXPECT_EQ(a.at("provenance").at("threads"), 2);
  EXPECT_TRUE(a.at("provenance").contains("git_commit"));
  // A config without a private method is refused.
  const ExperimentConfig plain = parse(
      "experiment: p\ndatasets: [{name: m, generator: {type: moons, n_samples: 50}}]\nmethods: [{method: kmeans, "
      "params: {k: 2}}]\n");
  EXPECT_THROW(run_audit(plain, o), InputError);
}

// --- Bit channels: the audit sees the output's representation --------------------------
//
// `audit_fixture`: one noisy count of the records, n + Z with Z calibrated to epsilon (its ledger entry is
// right), released as release.value, and one deliberately broken channel (`leak`):
//   none     n + discrete Laplace(1/eps): a correct mechanism (must stay consistent)
//   lsb      n + continuous Laplace(1/eps), its lowest mantissa bit overwritten by the private bit n mod 2
//   parity   n + discrete Laplace(1/eps), moved up by one when its parity differs from n mod 2
//   grain    n + continuous Laplace(1/eps), rounded to a multiple of 2^-10 when n is odd (a lattice)
//   clip     max(n + Z, n): clipped at the true count
//   support  with probability support_mass one of 50 fixed reals in [1000, 1100) (one set per parity of n)
//            instead of n + Z
// leak_epsilon > 0 writes the private bit through randomized response (kept with probability
// e^l / (1 + e^l)): the channel alone is then l-DP, which is how the power table below grades the families
// (with count: false, Z alone is released, so that the channel is the only difference between the sides).
namespace {

const MethodInfo& fixture_method() {
  static const MethodInfo& info = [] {
    MethodInfo m;
    m.name = "audit_fixture";
    m.summary = "broken mechanisms for the audit's tests";
    m.differentially_private = true;
    m.params = {
        real_param("epsilon", std::nullopt, "claimed epsilon", 0.0, std::nullopt, true),
        choice_param("leak", "none", {"none", "lsb", "parity", "grain", "clip", "support"}, "the broken channel"),
        real_param("leak_epsilon", 0.0, "randomized response on the private bit (0: the bit itself)", 0.0),
        real_param("support_mass", 0.05, "leak support: probability of an exclusive value", 0.0, 1.0),
        bool_param("count", true, "false: release Z alone (the power table isolates the leaking channel)")};
    struct Fixture final : Method {
      MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
        const std::string& leak = p.string("leak");
        const bool continuous = leak == "lsb" || leak == "grain";
        const auto mech =
            privacy::CountMechanism::laplace(ledger, continuous ? privacy::Sampler::textbook : privacy::Sampler::secure,
                                             1.0, p.real("epsilon"), "noisy n");
        const double n = static_cast<double>(data.n);
        double v = mech.noisy(rng, p.boolean("count") ? n : 0.0);
        bool bit = data.n % 2 == 1;
        if (const double l = p.real("leak_epsilon"); l > 0 && rng.uniform() >= std::exp(l) / (1 + std::exp(l)))
          bit = !bit;
        if (leak == "lsb")
          v = std::bit_cast<double>((std::bit_cast<std::uint64_t>(v) & ~std::uint64_t{1}) | (bit ? 1u : 0u));
        if (leak == "parity" && (std::fmod(std::fabs(v), 2.0) == 1.0) != bit) v += 1;
        if (leak == "grain" && bit) v = std::ldexp(std::round(std::ldexp(v, 10)), -10);
        if (leak == "clip") v = std::max(v, p.boolean("count") ? n : 0.0);
        if (leak == "support" && rng.uniform() < p.real("support_mass")) {
          // 50 fixed values in [1000, 1100) per parity of n, interleaved: no threshold separates the sides.
          Rng pick(100 + data.n % 2);
          const std::uint64_t j = rng.below(50);
          for (std::uint64_t i = 0; i <= j; ++i) v = 1000 + 100 * pick.uniform();
        }
        MethodResult r;
        r.labels.assign(data.n, 0);
        r.release = {{"value", v}};
        return r;
      }
    };
    m.make = [] { return std::make_unique<Fixture>(); };
    return register_runtime_method(std::move(m));
  }();
  return info;
}

// An audit of the fixture on 200 blob points, D' = D plus one record (n odd on one side, even on the other).
CellResult audit_fixture(const std::string& params, std::uint64_t runs = 20000, std::uint64_t pilot = 1000,
                         double noise_scale = 1.0) {
  fixture_method();
  return audit_one(
      "experiment: fixture\n"
      "datasets:\n"
      "  - name: b\n"
      "    generator: {type: blobs, n_samples: 200, centers: 2, cluster_std: 0.5, center_box_lo: 2, center_box_hi: 5, "
      "seed: 3}\n"
      "    bounds: [[0, 10], [0, 10]]\n"
      "methods:\n"
      "  - {method: audit_fixture, params: {" +
          params +
          "}}\n"
          "audit: {runs: " +
          std::to_string(runs) + ", pilot_runs: " + std::to_string(pilot) +
          ", pairs: [{name: canary, add: [9.5, 9.5]}], seed: 8}\n",
      noise_scale);
}

std::string family(const PairResult& p) { return event_family(p.event, p.column.rep); }

}  // namespace

TEST(AuditRepresentations, BitsGrainAndParityOfADouble) {
  EXPECT_EQ(represent(Representation::lsb, 1.0), 0.0);
  EXPECT_EQ(represent(Representation::lsb, std::nextafter(1.0, 2.0)), 1.0);
  EXPECT_EQ(represent(Representation::low4, std::bit_cast<double>(std::bit_cast<std::uint64_t>(3.0) | 0xBu)), 11.0);
  EXPECT_EQ(represent(Representation::mantissa_zeros, 1.0), 52.0);
  EXPECT_EQ(represent(Representation::mantissa_zeros, 1.5), 51.0);  // 1.1b: one fraction bit set, the top one
  EXPECT_EQ(represent(Representation::grain, 0.375), -3.0);         // 3 * 2^-3
  EXPECT_EQ(represent(Representation::grain, 12.0), 2.0);           // 3 * 2^2
  EXPECT_EQ(represent(Representation::grain, 0.0), 2048.0);
  EXPECT_EQ(represent(Representation::grain, 0x1p-1074), -1074.0);  // the smallest subnormal
  EXPECT_EQ(represent(Representation::mod2, -3.0), 1.0);
  EXPECT_EQ(represent(Representation::mod3, -1.0), 2.0);
  EXPECT_EQ(represent(Representation::mod4, 10.0), 2.0);
  // The binade keys: the same low pattern in different binades, or of opposite signs, differs.
  EXPECT_NE(represent(Representation::binade_low4, 1.0), represent(Representation::binade_low4, 2.0));
  EXPECT_NE(represent(Representation::binade_zeros, 1.5), represent(Representation::binade_zeros, -1.5));
  EXPECT_EQ(represent(Representation::binade_zeros, 1.5), represent(Representation::binade_zeros, 1.75 - 0.25));
  EXPECT_TRUE(std::isnan(represent(Representation::lsb, std::numeric_limits<double>::infinity())));
  EXPECT_EQ(std::string(family_of(Representation::binade_low4)), "bits");
  EXPECT_EQ(std::string(family_of(Representation::mod3)), "parity");
  FeatureSchema s;
  s.learn({{"x", 3.0}}, json::object());
  EXPECT_EQ(s.name(FeatureRef{0, Representation::lsb}), "release.x~lsb");
  std::vector<double> v;
  s.extract_refs({{"x", std::nextafter(3.0, 4.0)}}, json::object(),
                 {{0, Representation::value}, {0, Representation::lsb}}, v);
  EXPECT_EQ(v, std::vector<double>({std::nextafter(3.0, 4.0), 1.0}));
}

TEST(AuditRepresentations, ScreeningFindsALeakedBitTheValueCannotShow) {
  // Feature 0: the same uniform values on both sides, except that the lowest fraction bit is 0 on D and
  // 1 on D'. Its value screening shows nothing; its lsb is selected.
  FeatureMatrix d, dp;
  d.runs = dp.runs = 1000;
  d.features = dp.features = 1;
  for (std::size_t r = 0; r < 1000; ++r) {
    const double u = 1.0 + static_cast<double>((r * 7919) % 1000) / 1000.0;
    const auto bits = std::bit_cast<std::uint64_t>(u) & ~std::uint64_t{1};
    d.values.push_back(std::bit_cast<double>(bits));
    dp.values.push_back(std::bit_cast<double>(bits | 1));
  }
  const std::vector<FeatureRef> reps = screen_representations(d, dp, 4);
  ASSERT_FALSE(reps.empty());
  EXPECT_EQ(reps[0], (FeatureRef{0, Representation::lsb}));
  // A non-finite value has no representation: left out of the screening, no crash.
  d.values[0] = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(screen_representations(d, dp, 4).empty());
}

TEST(AuditBitChannels, CorrectCountIsConsistent) {
  const CellResult ok = audit_fixture("epsilon: 1.0, leak: none");
  EXPECT_FALSE(ok.violation) << ok.eps_lower << " on " << ok.pairs[0].feature;
  EXPECT_GT(ok.eps_lower, 0.6);  // the count's own loss is found (eps = 1)
}

TEST(AuditBitChannels, APrivateBitInTheLowestMantissaBitIsAViolation) {
  const CellResult c = audit_fixture("epsilon: 1.0, leak: lsb");
  EXPECT_TRUE(c.violation) << c.eps_lower << " on " << c.pairs[0].feature;
  EXPECT_GT(c.eps_lower, 5.0);
  EXPECT_EQ(family(c.pairs[0]), "bits") << to_json(c).dump();
  EXPECT_EQ(c.pairs[0].feature, "release.value~lsb");
}

TEST(AuditBitChannels, TheCountsParityIsAViolationAtSmallEpsilon) {
  for (const char* eps : {"0.1", "0.001"}) {
    const CellResult c = audit_fixture(std::string("epsilon: ") + eps + ", leak: parity");
    EXPECT_TRUE(c.violation) << eps << ": " << c.eps_lower << " on " << c.pairs[0].feature;
    EXPECT_EQ(family(c.pairs[0]), "parity") << to_json(c).dump();
  }
}

TEST(AuditBitChannels, ALatticeChosenByThePrivateBitIsAViolation) {
  const CellResult c = audit_fixture("epsilon: 1.0, leak: grain");
  EXPECT_TRUE(c.violation) << c.eps_lower << " on " << c.pairs[0].feature;
  EXPECT_EQ(family(c.pairs[0]), "grain") << to_json(c).dump();
}

TEST(AuditBitChannels, UnderNoisedClippedAndExclusiveOutputsAreViolations) {
  const CellResult third =
      audit_fixture("epsilon: 1.0, leak: none", 20000, 1000, 1.0 / 3.0);  // Laplace at a third of its scale
  EXPECT_TRUE(third.violation) << third.eps_lower;
  EXPECT_EQ(family(third.pairs[0]), "value");
  const CellResult clip = audit_fixture("epsilon: 1.0, leak: clip");
  EXPECT_TRUE(clip.violation) << clip.eps_lower;
  const CellResult support = audit_fixture("epsilon: 1.0, leak: support, support_mass: 0.02");
  EXPECT_TRUE(support.violation) << to_json(support).dump();
  EXPECT_EQ(family(support.pairs[0]), "support") << to_json(support).dump();
  // S holds only values the other side never produced in the first half: the exclusive reals and a few
  // rare tail counts, never the common counts both sides take (with different frequencies).
  for (double v : support.pairs[0].event.values) EXPECT_GT(std::fabs(v - 200.5), 6.0) << v;
}

// The old continuous PrivTHR_EM threshold (configs/audit/privthr_em_continuous.yaml): its set of reachable
// doubles depends on the smallest coefficient, 2 on D and 1.5 on D' (record 1 removed), and thresholds
// off the lattice 2^-52 Z occur on D' only. The lattice threshold on the same pair is consistent.
TEST(AuditBitChannels, ContinuousPrivThrEmIsAViolationTheLatticeOneIsNot) {
  const std::string cfg =
      read_text_file(fs::path(DPCLUST_TEST_SOURCE_DIR) / "configs" / "audit" / "privthr_em_continuous.yaml");
  const CellResult continuous = audit_one(cfg, 1.0);
  EXPECT_TRUE(continuous.violation) << to_json(continuous).dump();
  EXPECT_EQ(continuous.pairs[0].feature, "diagnostics.threshold~grain");
  EXPECT_EQ(family(continuous.pairs[0]), "grain");
  EXPECT_FALSE(continuous.pairs[0].event.numerator_is_d);  // off-lattice thresholds: only on D'
  std::string lattice = cfg;
  lattice.replace(lattice.find("threshold_output: continuous}"), 28, "threshold_output: lattice");
  const CellResult ok = audit_one(lattice, 1.0);
  EXPECT_FALSE(ok.violation) << to_json(ok).dump();
}

// The shipped pairwise-baseline audit (configs/audit/dp_dbscan_pairwise.yaml) has teeth: the entry-wise
// sensitivity the baselines state is a violation, the whole-matrix one is not. Its parameters must not make
// every point core in every run: the release would be constant and nothing would be tested.
TEST(AuditTeeth, PairwiseEntrySensitivityIsAViolationTheMatrixOneIsNot) {
  std::string cfg = read_text_file(fs::path(DPCLUST_TEST_SOURCE_DIR) / "configs" / "audit" / "dp_dbscan_pairwise.yaml");
  for (const char* sensitivity : {"matrix", "entry"}) {
    std::string one = cfg;
    one.replace(one.find("sensitivity: [matrix, entry]"), 28, std::string("sensitivity: ") + sensitivity);
    const CellResult r = audit_one(one, 1.0);
    EXPECT_EQ(r.violation, std::string(sensitivity) == "entry") << sensitivity << " " << to_json(r).dump();
  }
}

// The power table of docs/privacy.md "Privacy audit" (not run by default: about a minute; run it with
// --gtest_also_run_disabled_tests --gtest_filter='*AuditPower*'). With the default runs (100,000 per side,
// pilot 2,000) and one pair, for each event family the smallest leak of the fixture above that the audit
// flags: for value, the true epsilon of a Laplace count under-noised by the audit's noise_scale; for
// bits, parity and grain, the epsilon l of the randomized response that writes the private bit into Z
// (count: false: the channel is all that differs, so the mechanism's true epsilon is l against the claim);
// for support, the probability of the exclusive outputs (their epsilon is infinite).
TEST(AuditPower, DISABLED_SmallestViolationEachFamilyDetects) {
  const std::uint64_t runs = AuditConfig{}.runs, pilot = AuditConfig{}.pilot_runs;
  auto row = [&](const std::string& fam, double claimed, const std::vector<double>& grid, auto&& cell_for) {
    for (double x : grid) {
      const CellResult c = cell_for(x);
      const PairResult& p = c.pairs[0];
      std::printf("%-8s claimed %-5g leak %-8g eps_lower %-8.4f %-11s %s (%s)\n", fam.c_str(), claimed, x, c.eps_lower,
                  c.violation ? "VIOLATION" : "consistent", describe_event(p.feature, p.event).c_str(),
                  family(p).c_str());
      if (c.violation) break;
    }
  };
  for (double eps : {0.1, 1.0}) {
    const std::string e = "epsilon: " + std::to_string(eps);
    row("value", eps, {1.02, 1.05, 1.1, 1.2, 1.5, 2.0, 3.0}, [&](double ratio) {  // true epsilon = ratio * eps
      return audit_fixture(e + ", leak: none", runs, pilot, 1.0 / ratio);
    });
    for (const char* leak : {"lsb", "parity", "grain"}) {
      std::vector<double> grid;
      for (double m : {1.02, 1.05, 1.1, 1.2, 1.5, 2.0, 3.0, 5.0}) grid.push_back(m * eps);
      row(leak, eps, grid, [&](double l) {
        return audit_fixture(e + ", count: false, leak: " + leak + ", leak_epsilon: " + std::to_string(l), runs, pilot);
      });
    }
  }
  row("support", 1.0, {0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02}, [&](double q) {
    return audit_fixture("epsilon: 1.0, count: false, leak: support, support_mass: " + std::to_string(q), runs, pilot);
  });
}

// The shipped audits of the newer methods' data-derived choices (configs/audit/eugkm.yaml, lsh_clustering.yaml)
// have teeth, and their accounting states no epsilon for the cells they flag: EUGkM's grid from the true n at
// the rule's jump (379 points, m = 6; 378, m = 5) and LSH clustering's radius from the data (one far record
// moves it from 2.43 to 6.36) are violations whose accounting is unbounded; the noisy N and the public radius
// are consistent and accounted at their epsilon. Fewer runs than the files' (the leaks are deterministic).
TEST(AuditTeeth, DataDerivedChoicesOfTheNewerMethodsAreViolationsTheAccountingDoesNotBound) {
  auto fewer_runs = [](std::string cfg) {
    cfg.replace(cfg.find("runs: 20000"), 11, "runs: 3000");
    cfg.replace(cfg.find("pilot_runs: 1000"), 16, "pilot_runs: 400");
    return cfg;
  };
  const std::string eugkm =
      fewer_runs(read_text_file(fs::path(DPCLUST_TEST_SOURCE_DIR) / "configs" / "audit" / "eugkm.yaml"));
  for (const char* source : {"noisy", "data"}) {
    std::string one = eugkm;
    one.replace(one.find("n_source: [noisy, data]"), 23, std::string("n_source: ") + source);
    const CellResult r = audit_one(one, 1.0);
    const bool data = std::string(source) == "data";
    EXPECT_EQ(r.violation, data) << source << " " << to_json(r).dump();
    EXPECT_EQ(r.accounting.value("unbounded", false), data) << r.accounting.dump();
    if (!data) {
      EXPECT_DOUBLE_EQ(r.accounting["epsilon"].get<double>(), 0.95);
    }
  }
  std::string lsh =
      fewer_runs(read_text_file(fs::path(DPCLUST_TEST_SOURCE_DIR) / "configs" / "audit" / "lsh_clustering.yaml"));
  // The public ball and the radius from the data (the first two methods of the file).
  lsh = lsh.substr(0, lsh.find("  - method: lsh_clustering\n    as: lsh_centre_data")) + lsh.substr(lsh.find("audit:"));
  const ExperimentConfig cfg = parse(lsh);
  const std::vector<Cell> cells = expand_grid(cfg);
  ASSERT_EQ(cells.size(), 2u);
  const Dataset data = materialize_dataset(cfg.datasets[0]);
  AuditOptions o;
  o.progress = false;
  for (const Cell& c : cells) {
    const CellResult r = audit_cell(cfg, c, data, o);
    const bool from_data = c.method_label == "lsh_radius_from_data";
    EXPECT_EQ(r.violation, from_data) << c.method_label << " " << to_json(r).dump();
    EXPECT_EQ(r.accounting.value("unbounded", false), from_data) << r.accounting.dump();
  }
}
