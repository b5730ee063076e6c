#pragma once
// What every libcurl user in this room needs: libcurl initialised once per process (curl_global_init is
// not thread-safe, so it runs under std::call_once before the first handle), and one part of a parsed URL.
#include <curl/curl.h>

#include <string>

namespace dpclust::datasources {

void curl_global();
// The part of a parsed URL as text; "" when the URL has no such part.
std::string url_part(CURLU* url, CURLUPart part, unsigned int flags = 0);

}  // namespace dpclust::datasources
