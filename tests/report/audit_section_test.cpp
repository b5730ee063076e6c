// The report's "Privacy audit" section (engine/report, `dpclust audit` results): one row per cell and
// pair, the claim beside eps_lower, the verdict and the event that shows it; nothing without audits.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"
#include "report/report.hpp"
#include "test_support.hpp"

using dpclust::report::Results;
using nlohmann::json;

namespace {

json audit_doc() {
  const json pair_ok = {
      {"pair", "add_empty_cell"},
      {"description", "record [9, 9] added"},
      {"eps_claimed", 1.0},
      {"delta", 0.0},
      {"eps_lower", 0.951},
      {"eps_estimate", 0.996},
      {"verdict", "consistent"},
      {"event",
       {{"feature", "release.histogram.noisy_counts[437]"}, {"kind", "<="}, {"threshold", 0.0}, {"numerator", "D"}}}};
  json pair_bad = pair_ok;
  pair_bad["pair"] = "remove_one";
  pair_bad["eps_lower"] = 1.87;
  pair_bad["eps_estimate"] = "inf";
  pair_bad["verdict"] = "violation";
  return {{"schema", "dpclust.audit/1"},
          {"experiment", "audit_x"},
          {"cells", json::array({{{"series", "dp_dbscan"},
                                  {"dataset", "blobs300"},
                                  {"params", {{"epsilon", 1.0}, {"histogram", "naive"}, {"alpha", 2.0}}},
                                  {"runs_per_side", 20000},
                                  {"verdict", "violation"},
                                  {"non_private", json::array({"noise scaled by 0.5"})},
                                  {"pairs", json::array({pair_ok, pair_bad})}}})}};
}

}  // namespace

TEST(AuditSection, RowsShowClaimBoundVerdictAndEvent) {
  Results results(std::map<std::string, json>{});
  results.add_audit("audit_x", audit_doc());
  const std::string md = dpclust::report::audit_section(results);
  EXPECT_NE(md.find("## Privacy audit"), std::string::npos);
  EXPECT_NE(md.find("1 cells audited, 1 violation."), std::string::npos) << md;
  EXPECT_NE(md.find("| audit_x | dp_dbscan | blobs300 | epsilon=1.0, histogram=naive | add_empty_cell | 1 | - | 0.951 "
                    "| 0.996 | consistent | "
                    "`release.histogram.noisy_counts[437] <= 0 (more often on D)` | 20000 | noise scaled by 0.5 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| remove_one | 1 | - | 1.87 | inf | **violation** |"), std::string::npos) << md;
  EXPECT_EQ(md.find("alpha="), std::string::npos);  // only the parameters that tell cells apart
}

// The accounting beside the claim: a cell whose accounting states no finite epsilon (PrivTHR_EM's data range)
// reads "unbounded"; a bounded one its per-pair epsilon (here a declared excess: 39).
TEST(AuditSection, AccountedEpsilonBesideTheClaim) {
  json doc = audit_doc();
  json& cell = doc["cells"][0];
  cell["accounting"] = {{"epsilon", nullptr},
                        {"unbounded", true},
                        {"unbounded_reasons", {"PrivTHR_EM's threshold range (0, Max]"}},
                        {"verdict", "no finite bound claimed"}};
  for (auto& p : cell["pairs"]) p["eps_accounted"] = nullptr;
  json bounded = doc["cells"][0];
  bounded["series"] = "dp_dbscan_pairwise";
  bounded["accounting"] = {{"epsilon", 39.0}, {"unbounded", false}, {"verdict", "consistent"}};
  for (auto& p : bounded["pairs"]) p["eps_accounted"] = 39.0;
  doc["cells"].push_back(bounded);
  Results results(std::map<std::string, json>{});
  results.add_audit("audit_x", doc);
  const std::string md = dpclust::report::audit_section(results);
  EXPECT_NE(
      md.find(
          "| audit_x | dp_dbscan | blobs300 | epsilon=1.0, histogram=naive | add_empty_cell | 1 | unbounded | 0.951 |"),
      std::string::npos)
      << md;
  EXPECT_NE(
      md.find(
          "| audit_x | dp_dbscan_pairwise | blobs300 | epsilon=1.0, histogram=naive | remove_one | 1 | 39 | 1.87 |"),
      std::string::npos)
      << md;
}

TEST(AuditSection, AbsentWithoutAuditsAndReadFromTheResultsDirectory) {
  EXPECT_EQ(dpclust::report::audit_section(Results(std::map<std::string, json>{})), "");
  const auto dir = dpclust::testing::temp_dir("audit_section");
  dpclust::testing::write_file(dir / "audit_x" / "audit.json", audit_doc().dump());
  const Results from_disk(dir);
  ASSERT_EQ(from_disk.audits().size(), 1u);
  EXPECT_EQ(from_disk.audits().begin()->first, "audit_x");
  // Not an audit: named, not silently skipped.
  dpclust::testing::write_file(dir / "other" / "audit.json", R"({"schema": "something else"})");
  EXPECT_THROW(Results{dir}, dpclust::InputError);
}
