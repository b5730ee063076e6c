#include "io/text.hpp"

#include <charconv>
#include <cstring>

namespace dpclust::text {

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && is_blank(s[a])) ++a;
  while (b > a && is_blank(s[b - 1])) --b;
  return s.substr(a, b - a);
}

static char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

bool is_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool parse_double(std::string_view s, double& out) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

bool parse_int(std::string_view s, std::int64_t& out) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

void split_fields(std::string_view line, char delim, std::string_view quotes, std::vector<std::string_view>& out) {
  out.clear();
  const char* p = line.data();
  const char* const end = p + line.size();
  for (;;) {
    while (p < end && (*p == ' ' || (*p == '\t' && delim != '\t'))) ++p;
    const char* field_end;
    const char* next;
    if (p < end && quotes.find(*p) != std::string_view::npos) {
      const char q = *p;
      const char* close = p + 1;
      for (;;) {  // a doubled quote is an escaped quote, not the end of the field
        close = static_cast<const char*>(std::memchr(close, q, static_cast<std::size_t>(end - close)));
        if (!close || close + 1 >= end || close[1] != q) break;
        close += 2;
      }
      if (!close) close = end;  // unterminated: take the rest, the caller reports what it can't parse
      const char* d = static_cast<const char*>(std::memchr(close, delim, static_cast<std::size_t>(end - close)));
      out.emplace_back(p + 1, static_cast<std::size_t>(close - p - 1));
      if (!d) return;
      p = d + 1;
      continue;
    }
    const char* d = static_cast<const char*>(std::memchr(p, delim, static_cast<std::size_t>(end - p)));
    field_end = d ? d : end;
    next = d ? d + 1 : nullptr;
    out.push_back(trim(std::string_view(p, static_cast<std::size_t>(field_end - p))));
    if (!next) return;
    p = next;
  }
}

std::string_view unquote(std::string_view s, std::string_view quotes) {
  if (s.size() >= 2 && s.front() == s.back() && quotes.find(s.front()) != std::string_view::npos)
    return s.substr(1, s.size() - 2);
  return s;
}

std::string join(const std::vector<std::string>& items, std::size_t max_items) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < max_items; ++i) {
    if (i) out += ", ";
    out += items[i];
  }
  if (items.size() > max_items) out += ", ... (" + std::to_string(items.size()) + " in all)";
  return out;
}

}  // namespace dpclust::text
