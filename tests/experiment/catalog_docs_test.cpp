// docs/privacy.md's method table is the generated one (engine/catalog/catalog_docs.hpp): a method added or
// changed in the catalog without its row in docs/privacy.md fails here.
#include "catalog/catalog_docs.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "catalog/catalog.hpp"
#include "config/config_keys.hpp"

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

TEST(MethodTable, DocsHoldTheGeneratedTable) {
  const std::string readme = read_file(std::string(DPCLUST_TEST_SOURCE_DIR) + "/docs/privacy.md");
  const std::string begin = "<!-- method-table:begin (generated: dpclust list --method-table) -->\n",
                    end = "<!-- method-table:end -->";
  const auto b = readme.find(begin), e = readme.find(end);
  ASSERT_NE(b, std::string::npos) << "docs/privacy.md lacks the method-table markers";
  ASSERT_NE(e, std::string::npos);
  EXPECT_EQ(readme.substr(b + begin.size(), e - b - begin.size()), method_table_markdown())
      << "docs/privacy.md's method table is out of date: paste the output of `dpclust list --method-table`";
}

// docs/config-keys.md is generated; adding or changing a method's parameter without regenerating it fails here.
TEST(ConfigKeysDoc, DocsHoldTheGeneratedReference) {
  const std::string doc = read_file(DPCLUST_TEST_SOURCE_DIR "/docs/config-keys.md");
  EXPECT_EQ(doc, config_keys_markdown())
      << "docs/config-keys.md is out of date: run `dpclust list --config-keys > docs/config-keys.md`";
}

TEST(ConfigKeysDoc, EveryDeclaredParameterIsListed) {
  const std::string doc = config_keys_markdown();
  for (const MethodInfo& m : all_methods()) {
    if (!m.definition.is_null()) continue;
    const auto at = doc.find("### `" + m.name + "`");
    ASSERT_NE(at, std::string::npos) << m.name;
    const auto next = doc.find("### ", at + 4);
    for (const ParamSpec& p : m.params)
      EXPECT_NE(doc.substr(at, next - at).find("| `" + p.name + "` |"), std::string::npos) << m.name << "." << p.name;
  }
  EXPECT_NE(doc.find("| `epsilon` | a real number in [1e-06, 1e+06] | required |"), std::string::npos);  // e.g. privthr
}

// Every key the config reader accepts is documented: a key added to config_keys.hpp's lists without its
// entry in docs/config.md (or, for `audit:`, docs/privacy.md) fails here.
TEST(ConfigKeysDoc, EveryAcceptedConfigKeyIsDocumented) {
  const std::string config_md = read_file(std::string(DPCLUST_TEST_SOURCE_DIR) + "/docs/config.md");
  const std::string privacy_md = read_file(std::string(DPCLUST_TEST_SOURCE_DIR) + "/docs/privacy.md");
  auto documented = [](const std::string& doc, const std::string& key) {
    // In the schema block ("key:" after a space, '{', ',' or '#', or at a line start) or named in the text (`key`).
    for (const char* before : {"\n", " ", "{", ",", "#", "`"})
      if (doc.find(std::string(before) + key + ":") != std::string::npos) return true;
    return doc.find("`" + key + "`") != std::string::npos;
  };
  std::size_t checked = 0;
  for (const auto* keys : {&kTopKeys, &kDatasetKeys, &kMethodKeys, &kOutputKeys})
    for (const auto& key : *keys) {
      EXPECT_TRUE(documented(config_md, key)) << "docs/config.md does not document the config key '" << key << "'";
      ++checked;
    }
  for (const auto& key : kAuditKeys) {
    EXPECT_TRUE(documented(privacy_md, key)) << "docs/privacy.md does not document the audit key '" << key << "'";
    ++checked;
  }
  EXPECT_GE(checked, 50u);
  EXPECT_FALSE(documented(config_md, "no_such_key_xyz"));
}

}  // namespace
}  // namespace dpclust
