#include "datasources/urls.hpp"

#include <cstdio>

#include "core/error.hpp"
#include "datasources/curl_support.hpp"

namespace dpclust::datasources {

UrlParts parse_url(const std::string& url) {
  curl_global();
  CURLU* u = curl_url();
  const CURLUcode rc = curl_url_set(u, CURLUPART_URL, url.c_str(), 0);
  UrlParts p;
  if (rc == CURLUE_OK) {
    p.scheme = url_part(u, CURLUPART_SCHEME);
    p.host = url_part(u, CURLUPART_HOST);
    p.path = url_part(u, CURLUPART_PATH);
    const std::string port = url_part(u, CURLUPART_PORT);
    if (!port.empty()) p.host += ":" + port;
  }
  curl_url_cleanup(u);
  if (rc != CURLUE_OK || (p.scheme != "http" && p.scheme != "https") || p.host.empty())
    throw InputError(
        url_for_messages(url),
        std::string("not an http(s) URL") + (rc != CURLUE_OK ? std::string(" (") + curl_url_strerror(rc) + ")" : ""),
        "give a URL such as http://127.0.0.1:8000 or https://mirror.example.org/dpclust");
  return p;
}

std::string mirrored_url(const std::string& upstream_url, const std::string& mirror) {
  if (mirror.empty()) return upstream_url;
  const UrlParts up = parse_url(upstream_url);
  parse_url(mirror);  // validates the mirror
  std::string base = mirror;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/" + up.host + up.path;
}

std::string url_for_messages(const std::string& url) {
  curl_global();
  std::string shown = url;
  // Credentials: through libcurl's parser when it takes the URL (any scheme), then by hand from
  // "scheme://" to the last '@' before the path, so that a URL no parser takes does not show its
  // password either.
  CURLU* u = curl_url();
  if (curl_url_set(u, CURLUPART_URL, url.c_str(), CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK) {
    curl_url_set(u, CURLUPART_USER, nullptr, 0);
    curl_url_set(u, CURLUPART_PASSWORD, nullptr, 0);
    curl_url_set(u, CURLUPART_OPTIONS, nullptr, 0);
    const std::string rebuilt = url_part(u, CURLUPART_URL);
    if (!rebuilt.empty()) shown = rebuilt;
  }
  curl_url_cleanup(u);
  const std::size_t authority = shown.find("://");
  if (authority != std::string::npos) {
    const std::size_t start = authority + 3;
    const std::size_t end = shown.find_first_of("/?#", start);
    const std::size_t at = shown.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
    if (at != std::string::npos && at >= start && (end == std::string::npos || at < end))
      shown.erase(start, at + 1 - start);
  }
  // A server's text reaches the user's terminal: no escape sequences, and not 100 kB of it.
  std::string out;
  for (const char ch : shown) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  constexpr std::size_t kMaxShown = 300;
  if (out.size() > kMaxShown) out = out.substr(0, kMaxShown) + "...";
  return out;
}

}  // namespace dpclust::datasources
