// The WaveCluster mechanisms on the privacy layer (engine/privacy/mechanism.hpp): typed ledger entries
// whose noise the mechanism derives itself, the `sampler` parameter, no direct noise or untyped spend
// left in engine/wavecluster; and the split of a result into release, public diagnostics, evaluation
// (exact statistics of the true data) and the typed details the metrics read.
#include <gtest/gtest.h>

#include <any>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/files.hpp"
#include "core/ledger.hpp"
#include "privacy/mechanism.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/register.hpp"
#include "wavecluster/wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

using dpclust::testing::blobs_dataset;
using dpclust::testing::wc_params;

const char* const kPrivate[] = {"privqt", "privthr", "privthr_em", "wc_baseline"};

ParamSet params_for(const std::string& method, double eps, const std::string& sampler = "") {
  ParamSet ps = wc_params(24, 0.3);
  for (const auto& info : wavecluster_methods())
    if (info.name == method)
      for (const auto& spec : info.params)
        if (!ps.has(spec.name) && !spec.required()) ps.set(spec.name, spec.default_value);
  if (method != "wavecluster") ps.set("epsilon", eps);
  if (!sampler.empty()) ps.set("sampler", sampler);
  return ps;
}

MethodResult run(const std::string& method, const Dataset& ds, const ParamSet& ps, BudgetLedger& ledger,
                 std::uint64_t seed = 5) {
  Rng rng(seed);
  return make_mechanism(method)->run(ds, ps, rng, ledger);
}

// --- defect 2: the privacy layer ------------------------------------------------------------------

TEST(PrivacyLayer, EveryPrivateMethodDeclaresTheSampler) {
  for (const auto& info : wavecluster_methods()) {
    const ParamSpec* sampler = nullptr;
    for (const auto& p : info.params)
      if (p.name == "sampler") sampler = &p;
    if (!info.differentially_private) {
      EXPECT_EQ(sampler, nullptr) << info.name;
      continue;
    }
    ASSERT_NE(sampler, nullptr) << info.name;
    EXPECT_EQ(sampler->default_value, ParamValue(std::string("secure"))) << info.name;
    EXPECT_EQ(info.relation, NeighbourRelation::add_remove) << info.name;
    EXPECT_FALSE(info.local_privacy) << info.name;
  }
}

TEST(PrivacyLayer, EveryLedgerEntryIsTypedAndSecureByDefault) {
  const Dataset ds = blobs_dataset(31, 400);
  for (const char* m : kPrivate) {
    BudgetLedger secure(0.8), textbook(0.8);
    const MethodResult rs = run(m, ds, params_for(m, 0.8), secure);
    const MethodResult rt = run(m, ds, params_for(m, 0.8, "textbook"), textbook);
    EXPECT_NO_THROW(secure.verify()) << m;
    EXPECT_NO_THROW(textbook.verify()) << m;
    for (const auto& e : secure.entries()) {
      EXPECT_TRUE(e.mechanism == "discrete_laplace" || e.mechanism == "exponential_exact")
          << m << ": " << e.step << " " << e.mechanism;
      EXPECT_GT(e.sensitivity, 0.0) << m << ": " << e.step;
      EXPECT_EQ(e.sensitivity_norm, e.mechanism == "exponential_exact" ? "utility" : "l1") << m << ": " << e.step;
      EXPECT_EQ(e.measure, PrivacyMeasure::pure) << m;
    }
    for (const auto& e : textbook.entries())
      EXPECT_TRUE(e.mechanism == "laplace (textbook)" || e.mechanism == "exponential_exact")
          << m << ": " << e.step << " " << e.mechanism;
    auto has_note = [](const MethodResult& r) {
      for (const auto& n : r.non_private_notes)
        if (n == privacy::kTextbookSamplerNote) return true;
      return false;
    };
    EXPECT_FALSE(has_note(rs)) << m;
    EXPECT_TRUE(has_note(rt)) << m;
  }
}

// Secure noise on counts is integer-valued: the noisy |Z| is a whole number, and every value of the
// noisy Haar subband W' is (an integer) / 2.
TEST(PrivacyLayer, SecureCountsAreIntegers) {
  const Dataset ds = blobs_dataset(32, 400);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    BudgetLedger l(0.5);
    const MethodResult r = run("privthr", ds, params_for("privthr", 0.5), l, seed);
    const double z = r.diagnostics["Z_noisy"].get<double>();
    EXPECT_EQ(z, std::round(z));
    const auto* out = output_of(r);
    ASSERT_NE(out, nullptr);
    for (double w : out->transformed) ASSERT_EQ(2 * w, std::round(2 * w));
  }
}

// No mechanism file may record an untyped entry or draw Laplace / Gaussian noise from Rng directly.
TEST(PrivacyLayer, NoUntypedSpendOrDirectNoiseInTheSources) {
  const std::filesystem::path dir = std::filesystem::path(build_info().source_dir) / "engine" / "wavecluster";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "source tree not found at " << dir;
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".cpp" && ext != ".hpp") continue;
    ++files;
    std::ifstream in(entry.path());
    std::string line;
    for (int no = 1; std::getline(in, line); ++no)
      for (const char* bad : {".spend(", ".laplace(", ".gaussian(", "laplace_textbook(", "gaussian_textbook("})
        EXPECT_EQ(line.find(bad), std::string::npos) << entry.path().filename().string() << ":" << no << ": " << line;
  }
  EXPECT_GE(files, 10u);
}

// --- defect 4: release, diagnostics, evaluation, details ------------------------------------------

TEST(ReleaseAndEvaluation, TrueStatisticsAreEvaluationNotDiagnostics) {
  const Dataset ds = blobs_dataset(33, 400);
  const WcParams wp = WcParams::from(wc_params(24, 0.3), 2);
  const WaveClusterOutput truth = run_wavecluster(ds, wp);
  for (const char* m : {"wavecluster", "privqt", "privthr", "privthr_em", "wc_baseline"}) {
    const bool priv = std::string(m) != "wavecluster";
    BudgetLedger l = priv ? BudgetLedger(1.0) : BudgetLedger();
    const MethodResult r = run(m, ds, params_for(m, 1.0), l);
    for (const char* key : {"k", "L", "Z"}) {
      EXPECT_FALSE(r.diagnostics.contains(key)) << m << " publishes the true " << key << " as a diagnostic";
      ASSERT_TRUE(r.evaluation.contains(key)) << m << " " << key;
    }
    EXPECT_EQ(r.evaluation["k"].get<std::size_t>(), truth.k) << m;
    EXPECT_EQ(r.evaluation["L"].get<std::size_t>(), truth.l) << m;
    EXPECT_EQ(r.evaluation["Z"].get<std::size_t>(), truth.z) << m;
    const WaveClusterOutput* out = output_of(r);
    ASSERT_NE(out, nullptr) << m;
    EXPECT_EQ(out->k, truth.k) << m;
    if (priv && m == std::string("privthr_em")) {
      // PrivTHR_EM's k' is the chosen threshold's rank among the TRUE coefficients: evaluation only.
      EXPECT_FALSE(r.diagnostics.contains("k_prime")) << m;
      EXPECT_EQ(r.evaluation["k_prime"].get<std::size_t>(), out->k_prime) << m;
    } else if (priv) {
      EXPECT_EQ(r.diagnostics["k_prime"].get<std::size_t>(), out->k_prime)
          << m;  // k' of the noisy synopsis stays public
    } else {
      EXPECT_FALSE(r.diagnostics.contains("k_prime"));  // for plain WaveCluster k' = k
      EXPECT_EQ(r.evaluation["k_prime"].get<std::size_t>(), truth.k);
    }
    EXPECT_EQ(r.diagnostics["significant_grids"].get<std::size_t>(), out->clustering.n_significant) << m;
    // No coordinate of the input in the release or the diagnostics: only cell indices and counts.
    for (const auto& cell : r.release["significant_cells"])
      for (const auto& x : cell) EXPECT_TRUE(x.is_number_integer()) << m;
  }
}

// The metrics read the typed result (MethodResult::details), not string keys: emptying (or tampering
// with) the JSON maps changes nothing.
TEST(ReleaseAndEvaluation, MetricsReadTheTypedResult) {
  const Dataset ds = blobs_dataset(34, 400);
  const std::vector<MetricInfo> metrics = wavecluster_folder().metrics;
  for (const auto& info : wavecluster_methods()) {
    if (info.name != "privthr" && info.name != "wavecluster") continue;
    const ParamSet ps = params_for(info.name, 1.0);
    BudgetLedger l = info.differentially_private ? BudgetLedger(1.0) : BudgetLedger();
    MethodResult r = run(info.name, ds, ps, l);
    const WaveClusterOutput* out = output_of(r);
    ASSERT_NE(out, nullptr);
    r.diagnostics = {{"k_prime", 12345}, {"significant_grids", -1}};
    r.evaluation = nlohmann::json::object();
    r.release = nlohmann::json::object();
    std::map<std::string, std::any> cache;
    MetricInput in{ds, r, ps, info, 77, cache};
    std::map<std::string, double> v;
    for (const auto& m : metrics)
      if (m.name != "ocm" && m.name != "two_ce") v[m.name] = m.compute(in);
    EXPECT_EQ(v["kprime"], static_cast<double>(out->k_prime)) << info.name;
    EXPECT_EQ(v["k_true"], static_cast<double>(out->k)) << info.name;
    EXPECT_EQ(v["significant_grids"], static_cast<double>(out->clustering.n_significant)) << info.name;
    EXPECT_EQ(v["wc_clusters"], static_cast<double>(out->clustering.n_clusters)) << info.name;
    EXPECT_NEAR(
        v["kprime_rel_error"],
        std::fabs(static_cast<double>(out->k_prime) - static_cast<double>(out->k)) / static_cast<double>(out->k),
        1e-15);
    EXPECT_TRUE(std::isfinite(v["dsg_c"]));
  }
}

}  // namespace
}  // namespace dpclust::wavecluster
