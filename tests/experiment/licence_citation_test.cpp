// The licence and the citation file a researcher needs to use and cite dpclust: LICENSE holds the full
// Apache-2.0 text, CITATION.cff the fields Citation File Format 1.2.0 requires (cff-version, message, title,
// authors) and those a citation needs (version = the build's, a release date, the licence),
// and the README points to both.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/files.hpp"

namespace dpclust {
namespace {

std::string source_file(const std::string& name) {
  std::ifstream in(std::string(DPCLUST_TEST_SOURCE_DIR) + "/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The top-level `key: value` lines of a YAML file (quotes removed); list items and comments are skipped.
std::map<std::string, std::string> top_level_keys(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  std::string line;
  const std::regex entry(R"(^([A-Za-z][A-Za-z0-9-]*):\s*(.*)$)");
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_match(line, m, entry)) {
      std::string v = m[2];
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
      out[m[1]] = v;
    }
  return out;
}

TEST(Licence, LicenseFileHoldsTheFullApacheTwoText) {
  const std::string text = source_file("LICENSE");
  EXPECT_NE(text.find("Apache License"), std::string::npos);
  EXPECT_NE(text.find("Version 2.0, January 2004"), std::string::npos);
  // The full text, not a notice: its nine sections and the appendix.
  for (const char* part : {"1. Definitions.", "2. Grant of Copyright License.", "3. Grant of Patent License.",
                           "4. Redistribution.", "9. Accepting Warranty or Additional Liability.",
                           "END OF TERMS AND CONDITIONS", "APPENDIX: How to apply the Apache License to your work."})
    EXPECT_NE(text.find(part), std::string::npos) << part;
}

TEST(Citation, CitationFileHasTheFieldsOfCffOneTwo) {
  const std::string text = source_file("CITATION.cff");
  ASSERT_FALSE(text.empty()) << "CITATION.cff is missing";
  const auto keys = top_level_keys(text);
  EXPECT_EQ(keys.count("cff-version") ? keys.at("cff-version") : "", "1.2.0");
  EXPECT_FALSE(keys.count("message") ? keys.at("message").empty() : true);
  EXPECT_EQ(keys.count("title") ? keys.at("title") : "", "dpclust");
  EXPECT_EQ(keys.count("type") ? keys.at("type") : "", "software");
  EXPECT_EQ(keys.count("license") ? keys.at("license") : "", "Apache-2.0");
  // authors: a non-empty list of persons or entities, each with a name.
  EXPECT_TRUE(std::regex_search(text, std::regex(R"(\nauthors:\n  - (name|family-names): \S)")));
  // The version is the one the build reports (CMakeLists.txt's project(), pyproject.toml's).
  EXPECT_EQ(keys.count("version") ? keys.at("version") : "", build_info().version);
  // date-released: a date (YYYY-MM-DD). repository-code, when given, is a URL: the project names no public address
  // it does not have, so the key is left out until the repository is published.
  EXPECT_TRUE(std::regex_match(keys.count("date-released") ? keys.at("date-released") : "",
                               std::regex(R"(\d{4}-\d{2}-\d{2})")));
  if (keys.count("repository-code")) {
    EXPECT_TRUE(std::regex_match(keys.at("repository-code"), std::regex(R"(https://\S+)")));
  }
  // Nothing at the top level that CFF 1.2.0 does not define (a typo such as `licence:` would be invalid CFF).
  const std::set<std::string> known = {"abstract",
                                       "authors",
                                       "cff-version",
                                       "commit",
                                       "contact",
                                       "date-released",
                                       "doi",
                                       "identifiers",
                                       "keywords",
                                       "license",
                                       "license-url",
                                       "message",
                                       "preferred-citation",
                                       "references",
                                       "repository",
                                       "repository-artifact",
                                       "repository-code",
                                       "title",
                                       "type",
                                       "url",
                                       "version"};
  for (const auto& [key, _] : keys)
    EXPECT_TRUE(known.count(key)) << "CITATION.cff: '" << key << "' is not a CFF 1.2.0 key";
}

TEST(Citation, ReadmeNamesTheLicenceAndTheCitationFile) {
  const std::string readme = source_file("README.md");
  EXPECT_NE(readme.find("(LICENSE)"), std::string::npos);
  EXPECT_NE(readme.find("(CITATION.cff)"), std::string::npos);
  EXPECT_NE(readme.find("Apache License 2.0"), std::string::npos);
}

}  // namespace
}  // namespace dpclust
