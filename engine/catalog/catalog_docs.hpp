#pragma once
// Reference pages generated from the catalog, so that they cannot drift from the code:
//   method_table_markdown()  docs/privacy.md's method table: every registered method with its privacy
//                            notion (core/method.hpp privacy_notion), what one trial releases and when
//                            that release is private (MethodInfo::releases, private_when);
//                            `dpclust list --method-table`;
//   config_keys_markdown()   docs/config-keys.md: every method's, generator's and metric's declared
//                            parameters (ParamSpec: type, default, allowed values, meaning);
//                            `dpclust list --config-keys`.
// tests/experiment/catalog_docs_test.cpp fails when a committed copy differs from what the code declares.
#include <string>

namespace dpclust {

// Markdown: a lead paragraph and a table, between the markers <!-- method-table:begin/end -->.
std::string method_table_markdown();

// Markdown: the whole of docs/config-keys.md.
std::string config_keys_markdown();

}  // namespace dpclust
