#pragma once
// The README's method table, generated from the catalog so that it cannot drift from the code: every
// registered method with its privacy notion (core/method.hpp privacy_notion), what one trial releases
// and when that release is private (MethodInfo::releases, private_when). `dpclust list --method-table`
// prints it; tests/experiment/method_table_test.cpp fails when README.md's copy differs.
#include <string>

namespace dpclust {

// Markdown: a lead paragraph and a table, between the markers <!-- method-table:begin/end -->.
std::string method_table_markdown();

}  // namespace dpclust
