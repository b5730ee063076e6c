// README.md's method table is the generated one (engine/experiment/method_table.hpp): a method added or
// changed in the catalog without its README row fails here.
#include "experiment/method_table.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "experiment/catalog.hpp"

namespace dpclust {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(MethodTable, EveryBuiltInMethodHasARowWithItsNotionAndRelease) {
  const std::string table = method_table_markdown();
  for (const MethodInfo& m : all_methods()) {
    if (!m.definition.is_null()) continue;
    EXPECT_NE(table.find("| `" + m.name + "` | " + privacy_notion(m) + " | "), std::string::npos) << m.name;
    EXPECT_FALSE(m.releases.empty()) << m.name << " does not say what it releases";
    EXPECT_FALSE(m.private_when.empty()) << m.name << " does not say when its release is private";
  }
  EXPECT_NE(table.find("| `privthr_em` | eps-DP (add/remove one record) |"), std::string::npos);
  EXPECT_NE(table.find("| `dp_dbscan_pairwise` | eps-DP (replace one record) |"), std::string::npos);
  EXPECT_NE(table.find("| `nd_laplace` | eps-geo-indistinguishability"), std::string::npos);
  EXPECT_NE(table.find("| `dbscan` | none |"), std::string::npos);
}

TEST(MethodTable, ReadmeHoldsTheGeneratedTable) {
  const std::string readme = read_file(std::string(DPCLUST_TEST_SOURCE_DIR) + "/README.md");
  const std::string begin = "<!-- method-table:begin (generated: dpclust list --method-table) -->\n", end = "<!-- method-table:end -->";
  const auto b = readme.find(begin), e = readme.find(end);
  ASSERT_NE(b, std::string::npos) << "README.md lacks the method-table markers";
  ASSERT_NE(e, std::string::npos);
  EXPECT_EQ(readme.substr(b + begin.size(), e - b - begin.size()), method_table_markdown())
      << "README.md's method table is out of date: paste the output of `dpclust list --method-table`";
}

}  // namespace
}  // namespace dpclust
