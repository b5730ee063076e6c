#include "core/method.hpp"

namespace dpclust {

nlohmann::json MethodInfo::to_json() const {
  nlohmann::json ps = nlohmann::json::array();
  for (const auto& p : params) ps.push_back(p.to_json());
  return {{"name", name},
          {"summary", summary},
          {"reference", reference},
          {"differentially_private", differentially_private},
          {"needs_bounds", needs_bounds},
          {"params", ps}};
}

}  // namespace dpclust
