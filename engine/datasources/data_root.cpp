#include "datasources/data_root.hpp"

#include <cstdlib>

#include "core/files.hpp"

namespace dpclust::datasources {

std::filesystem::path default_data_root(const std::string& explicit_root) { return resolve_data_root(explicit_root); }

std::string default_mirror(const std::string& explicit_mirror) {
  if (!explicit_mirror.empty()) return explicit_mirror;
  if (const char* env = std::getenv("DPCLUST_MIRROR"); env && *env) return env;
  return "";
}

}  // namespace dpclust::datasources
