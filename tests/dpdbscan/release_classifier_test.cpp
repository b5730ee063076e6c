// Span release reuse (Sec. 3): the spans rebuilt from a trial's release alone classify points exactly
// as the trial's own span classifier did, including after a JSON text round trip; malformed releases
// are refused with the key that is wrong.
#include "dpdbscan/release_classifier.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "core/error.hpp"
#include "dpdbscan/register.hpp"

namespace dpclust::dpdbscan {
namespace {

using json = nlohmann::json;

ParamSet with_defaults(const MethodInfo& m, const std::map<std::string, ParamValue>& set) {
  ParamSet p;
  for (const ParamSpec& s : m.params)
    if (!s.required()) p.set(s.name, s.default_value);
  for (const auto& [k, v] : set) p.set(k, v);
  return p;
}

Dataset three_blobs() {
  Dataset d;
  d.name = "toy";
  d.d = 2;
  Rng r(11);
  const double cx[3] = {-1.5, 0.0, 1.5}, cy[3] = {-1.0, 1.2, -1.0};
  for (int i = 0; i < 3000; ++i) {
    d.coords.push_back(std::clamp(cx[i % 3] + 0.3 * r.normal(), -2.9, 2.9));
    d.coords.push_back(std::clamp(cy[i % 3] + 0.3 * r.normal(), -2.9, 2.9));
  }
  d.n = 3000;
  d.bounds = Bounds{{-3, -3}, {3, 3}};
  d.bounds_source = BoundsSource::config;
  return d;
}

std::string error_of(const json& release) {
  try {
    spans_from_release(release, "r.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ReleaseClassifier, ReproducesTheTrialsOwnLabelsFromTheReleaseAlone) {
  const Dataset d = three_blobs();
  const MethodInfo& m = dp_dbscan_method_info();
  for (const std::string hist : {"naive", "linear"}) {
    SCOPED_TRACE(hist);
    const ParamSet p = with_defaults(m, {{"alpha", 0.25}, {"min_pts", std::int64_t{10}}, {"histogram", hist}});
    BudgetLedger ledger(1.0);
    Rng rng(7);
    const MethodResult r = m.make()->run(d, p, rng, ledger);
    ASSERT_GE(r.diagnostics["spans"].get<int>(), 3);
    // Through the JSON text, as `dpclust classify` reads it from results.json.
    const ReleasedSpans back = spans_from_release(json::parse(r.release.dump()), "results.json");
    EXPECT_EQ(back.spans.n_spans, r.release["spans"].size());
    EXPECT_EQ(back.grid.universe, r.release["grid"]["universe_cells"].get<std::uint64_t>());
    EXPECT_EQ(back.grid.width, r.diagnostics["cell_width"].get<double>());
    EXPECT_EQ(classify_with_release(back, d.coords.data(), d.n), r.labels);
    // New points: a core cell's centre gets its span; outside the domain and an empty corner are noise.
    const json& cell0 = r.release["spans"][1]["cells"][0];
    const double w = back.grid.width;
    const std::vector<double> pts = {-3 + (cell0[0].get<double>() + 0.5) * w,
                                     -3 + (cell0[1].get<double>() + 0.5) * w,
                                     3.5,
                                     0.0,  // outside the public domain
                                     -2.99,
                                     2.99};  // empty corner
    EXPECT_EQ(classify_with_release(back, pts.data(), 3), (Labels{1, kNoise, kNoise}));
  }
}

TEST(ReleaseClassifier, HandComputedGrid) {
  // A 4 x 3 grid of width 1 over [0, 4) x [0, 3); span 0 = cells (0,0), (0,1); span 1 = cell (3,2).
  const json rel = {{"grid", {{"lo", {0.0, 0.0}}, {"hi", {3.5, 2.5}}, {"cell_width", 1.0}, {"cells_per_dim", {4, 3}}}},
                    {"spans", {{{"span", 0}, {"cells", {{0, 0}, {0, 1}}}}, {{"span", 1}, {"cells", {{3, 2}}}}}}};
  const ReleasedSpans s = spans_from_release(rel, "r.json");
  EXPECT_EQ(s.grid.universe, 12u);
  EXPECT_EQ(s.spans.codes, (std::vector<std::uint64_t>{0, 1, 11}));
  const std::vector<double> pts = {0.5, 0.5, 0.2, 1.9, 3.4, 2.4, 1.5, 0.5, 3.6, 2.4};
  EXPECT_EQ(classify_with_release(s, pts.data(), 5), (Labels{0, 0, 1, kNoise, kNoise}));
}

TEST(ReleaseClassifier, MalformedReleasesNameTheKey) {
  const json good = {{"grid", {{"lo", {0.0, 0.0}}, {"hi", {3.5, 2.5}}, {"cell_width", 1.0}, {"cells_per_dim", {4, 3}}}},
                     {"spans", {{{"span", 0}, {"cells", {{0, 0}}}}}}};
  EXPECT_EQ(error_of(good), "");
  json r = good;
  r.erase("grid");
  EXPECT_NE(error_of(r).find("release.grid: missing"), std::string::npos) << error_of(r);
  r = good;
  r["spans"][0]["cells"][0] = {4, 0};
  EXPECT_NE(error_of(r).find("outside the grid"), std::string::npos);
  r = good;
  r["spans"][0]["span"] = 3;
  EXPECT_NE(error_of(r).find("spans[0].span"), std::string::npos);
  r = good;
  r["spans"].push_back({{"span", 0}, {"cells", {{0, 0}}}});
  EXPECT_NE(error_of(r).find("two spans"), std::string::npos);
  r = good;
  r["grid"]["cell_width"] = -1;
  EXPECT_NE(error_of(r).find("cell_width"), std::string::npos);
  EXPECT_NE(error_of(r).find("output: {release: true}"), std::string::npos);
}

}  // namespace
}  // namespace dpclust::dpdbscan
