#include "datasources/redirect_policy.hpp"

#include <cctype>

#include "datasources/curl_support.hpp"
#include "datasources/urls.hpp"
#include "io/text.hpp"

namespace dpclust::datasources {

namespace {

// The scheme a URL text starts with (RFC 3986: a letter, then letters, digits, '+', '-' or '.', then
// ':'), lower case; "" when it has none. Read from the text itself so that a refusal can name the scheme
// of a Location no URL parser accepts ("javascript:...", "data:...").
std::string scheme_of(const std::string& url) {
  const std::size_t colon = url.find(':');
  if (colon == std::string::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(url[0]))) return "";
  for (std::size_t i = 1; i < colon; ++i) {
    const unsigned char c = static_cast<unsigned char>(url[i]);
    if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return "";
  }
  return text::lower(std::string_view(url).substr(0, colon));
}

// Scheme, host and port (the scheme's default when the URL names none), lower case, of an http(s) URL;
// `ok` false when libcurl's parser refuses it.
struct Origin {
  bool ok = false;
  std::string scheme, host, port;
  std::string text() const { return scheme + "://" + host + ":" + port; }
};

Origin origin_parts(const std::string& url) {
  curl_global();
  Origin o;
  CURLU* u = curl_url();
  if (curl_url_set(u, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK) {
    o.scheme = text::lower(url_part(u, CURLUPART_SCHEME));
    o.host = text::lower(url_part(u, CURLUPART_HOST));
    o.port = url_part(u, CURLUPART_PORT, CURLU_DEFAULT_PORT);
    o.ok = (o.scheme == "http" || o.scheme == "https") && !o.host.empty() && !o.port.empty();
  }
  curl_url_cleanup(u);
  return o;
}

}  // namespace

RedirectDecision redirect_policy(const std::string& from, const std::string& to, bool pinned) {
  RedirectDecision d;
  const std::string shown = "redirect from " + url_for_messages(from) + " to " + url_for_messages(to) + " refused: ";
  // 1. Only http and https, even for a pinned file: another scheme is another protocol handler
  // (file: would read this machine's files, ftp:/gopher: speak to other services) and no checksum
  // makes that a dataset download. Named from the text, so "javascript:" is named too.
  const std::string scheme = scheme_of(to);
  if (scheme != "http" && scheme != "https") {
    d.rule = RedirectDecision::Rule::not_http;
    d.problem = shown +
                (scheme.empty() ? std::string("the address names no scheme") : "its scheme is '" + scheme + "'") +
                ", and a download follows only http and https";
    d.fix =
        "the server does not serve the file over http(s); use another mirror (--mirror URL), or download the file "
        "yourself and place it at its data_file path under the data root (`dpclust data verify` checks it)";
    return d;
  }
  const Origin a = origin_parts(from), b = origin_parts(to);
  if (!a.ok || !b.ok) {
    d.rule = RedirectDecision::Rule::not_a_url;
    d.problem = shown + "the address is not a valid http(s) URL";
    d.fix = "the server sends a broken Location header; use another mirror (--mirror URL)";
    return d;
  }
  // 2. The same origin (scheme, host and port): the server moved a file within itself.
  if (a.scheme == b.scheme && a.host == b.host && a.port == b.port) {
    d.rule = RedirectDecision::Rule::same_origin;
    return d;
  }
  // 3. http://H -> https://H on the standard ports: a site that serves everything over https (FIMI's own
  // server does) answers every plain-http request this way. The same host name, and a connection that
  // is now authenticated by its certificate, so nothing is lost. Other ports are other services.
  if (a.scheme == "http" && b.scheme == "https" && a.host == b.host && a.port == "80" && b.port == "443") {
    d.rule = RedirectDecision::Rule::https_upgrade;
    return d;
  }
  // 4. A pinned file may come from anywhere over http(s): its SHA-256 (or git blob id) is checked after
  // the transfer, which its size (else the unpinned bound) limits, so another host (a CDN, a moved
  // archive) or plain http cannot change what is accepted; a wrong file is removed with a checksum
  // mismatch. The cost: a mirror can make us send one GET to an http(s) address of its choosing.
  if (pinned) {
    d.rule = RedirectDecision::Rule::pinned;
    return d;
  }
  // 5. An unpinned file is trusted as its origin serves it (its first fetch's checksum is recorded), so
  // it must come from that origin: a mirror must not hand it on to an address of its choosing, and
  // https must not fall back to plain http, where anything on the path could change the bytes.
  if (a.scheme == "https" && b.scheme == "http") {
    d.rule = RedirectDecision::Rule::downgrade;
    d.problem =
        shown +
        "it leaves https for plain http, and the registry pins no checksum that would catch bytes changed on the way";
    d.fix =
        "use an https mirror that serves the file itself (--mirror URL); if you trust the plain-http server, give it "
        "as --mirror";
    return d;
  }
  d.rule = RedirectDecision::Rule::other_origin;
  d.problem = shown + "a file whose checksum the registry does not pin is only fetched from " + a.text() +
              " (or from https on the same host)";
  d.fix = "a mirror must serve the files itself; if you trust the server the redirect names, give it as --mirror";
  return d;
}

}  // namespace dpclust::datasources
