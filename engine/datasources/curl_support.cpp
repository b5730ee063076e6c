#include "datasources/curl_support.hpp"

#include <mutex>

namespace dpclust::datasources {

void curl_global() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string url_part(CURLU* u, CURLUPart part, unsigned int flags) {
  char* s = nullptr;
  if (curl_url_get(u, part, &s, flags) != CURLUE_OK || !s) return "";
  std::string out(s);
  curl_free(s);
  return out;
}

}  // namespace dpclust::datasources
