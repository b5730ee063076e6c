#pragma once
// The keys a config accepts, declared once: the reader checks against them (an unknown key is an error
// that suggests the closest) and tests/experiment/catalog_docs_test.cpp checks that docs/config.md
// documents every one of them.
#include <string>
#include <vector>

namespace dpclust {

extern const std::vector<std::string> kTopKeys;      // the document's top level
extern const std::vector<std::string> kDatasetKeys;  // an entry of `datasets:`
extern const std::vector<std::string> kMethodKeys;   // an entry of `methods:` (method: python adds its own)
extern const std::vector<std::string> kOutputKeys;   // `output:`
extern const std::vector<std::string> kAuditKeys;    // `audit:`

}  // namespace dpclust
