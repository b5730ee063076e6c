#pragma once
// URLs of downloads: their parts (libcurl's parser), their copy under a mirror, and how messages show them.
#include <string>

namespace dpclust::datasources {

// Host and path of an http(s) URL (curl's URL parser); throws InputError for anything else.
struct UrlParts {
  std::string scheme, host, path;
};
UrlParts parse_url(const std::string& url);

// The URL under a mirror that reproduces the upstream layout: MIRROR/<host>/<path>.
// "https://raw.githubusercontent.com/a/b/c.arff" + "http://127.0.0.1:8000" ->
// "http://127.0.0.1:8000/raw.githubusercontent.com/a/b/c.arff". An empty mirror returns the URL.
std::string mirrored_url(const std::string& upstream_url, const std::string& mirror);

// A URL as messages show it: without user:password@, control characters escaped (%XX) and cut after
// 300 characters, since a Location header is whatever a server chose to send.
std::string url_for_messages(const std::string& url);

}  // namespace dpclust::datasources
