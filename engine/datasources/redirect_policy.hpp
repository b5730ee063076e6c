#pragma once
// Which redirects a download follows: an answer of another server must not be able to send a file whose
// checksum the registry does not pin to an address of its choosing, nor any file to a protocol that is not
// http(s).
#include <string>

namespace dpclust::datasources {

// Whether a download follows one redirect from `from` (the URL just asked) to `to` (libcurl's
// CURLINFO_REDIRECT_URL: a relative Location already resolved against `from`). Each hop of a chain is
// judged against the hop before it, and download_file() bounds the chain's length.
struct RedirectDecision {
  enum class Rule {
    same_origin,    // followed: same scheme, host and port
    https_upgrade,  // followed: http://H[:80]/x -> https://H[:443]/y
    pinned,         // followed: another origin, but the file's checksum is pinned
    not_http,       // refused: the target's scheme is not http or https (pinned or not)
    not_a_url,      // refused: the target does not parse as a URL
    downgrade,      // refused: https -> http for a file without a pinned checksum
    other_origin,   // refused: another host, port or scheme for a file without a pinned checksum
  };
  Rule rule = Rule::not_a_url;
  // For a refusal: the InputError's problem (names both URLs, and the target's scheme when that is the
  // reason) and its fix. Credentials written into either URL (user:password@) are left out.
  std::string problem, fix;
  bool follow() const { return rule == Rule::same_origin || rule == Rule::https_upgrade || rule == Rule::pinned; }
};
RedirectDecision redirect_policy(const std::string& from, const std::string& to, bool pinned);

}  // namespace dpclust::datasources
