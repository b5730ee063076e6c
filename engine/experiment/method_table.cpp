#include "experiment/method_table.hpp"

#include <sstream>

#include "experiment/catalog.hpp"

namespace dpclust {

namespace {
std::string cell(const std::string& text) {  // a Markdown table cell: '|' escaped (|Z| in a release)
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}
}  // namespace

std::string method_table_markdown() {
  std::ostringstream out;
  out << "A trial's release is private (`private_release: true`) only when it used `randomness: secure`, the\n"
         "secure samplers (`sampler: secure`, the default), public domain bounds where the method needs them, and\n"
         "no `non_private` note applies; the last column gives what each method needs besides. A `method: python`\n"
         "mechanism that draws noise itself (`ledger.charge`) is never a private release.\n\n"
         "| method | privacy notion | releases | private release when |\n"
         "|---|---|---|---|\n";
  for (const MethodInfo& m : all_methods()) {
    if (!m.definition.is_null()) continue;  // config-defined (`method: python`) methods are not built in
    out << "| `" << m.name << "` | " << cell(privacy_notion(m)) << " | " << cell(m.releases) << " | "
        << cell(m.private_when.empty() ? "-" : m.private_when) << " |\n";
  }
  return out.str();
}

}  // namespace dpclust
