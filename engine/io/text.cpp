#include "io/text.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

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
    out += printable(items[i], 200);
  }
  if (items.size() > max_items) out += ", ... (" + std::to_string(items.size()) + " in all)";
  return out;
}

// Length of the valid UTF-8 sequence starting at s[i] (1-4), or 0 when it is invalid, truncated or NUL.
static std::size_t utf8_sequence(const unsigned char* s, std::size_t i, std::size_t n) {
  const unsigned char c = s[i];
  if (c < 0x80) return c == 0 ? 0 : 1;
  auto cont = [&](std::size_t k) { return i + k < n && (s[i + k] & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && s[i + 1] < 0xA0) return 0;   // overlong
    if (c == 0xED && s[i + 1] >= 0xA0) return 0;  // UTF-16 surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && s[i + 1] < 0x90) return 0;   // overlong
    if (c == 0xF4 && s[i + 1] >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;  // continuation byte without a lead, C0/C1 (overlong), F5..FF
}

std::size_t first_invalid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL, kOnes = 0x0101010101010101ULL;
  std::size_t i = 0;
  while (i < n) {
    // Eight ASCII bytes without a NUL at a time (the usual case for data files).
    while (i + 8 <= n) {
      std::uint64_t w;
      std::memcpy(&w, s + i, 8);
      if (((w | ((w - kOnes) & ~w)) & kHigh) != 0) break;  // a high bit set, or a zero byte
      i += 8;
    }
    if (i >= n) break;
    const std::size_t len = utf8_sequence(s, i, n);
    if (len == 0) return i;
    i += len;
  }
  return std::string_view::npos;
}

std::string describe_byte(unsigned char c) {
  if (c == 0) return "NUL";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", c);
  return buf;
}

std::string record_label(std::size_t record) { return "record " + std::to_string(record) + " (0-based)"; }

std::string printable(std::string_view text, std::size_t max) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::string out;
  out.reserve(std::min(n, max) + 8);
  std::size_t i = 0;
  while (i < n) {
    const std::size_t len = utf8_sequence(s, i, n);
    const bool escape = len == 0 || s[i] < 0x20 || s[i] == 0x7f;
    const std::size_t shown = escape ? 4 : len;
    if (out.size() + shown > max) return out + "...";
    if (escape) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", s[i]);
      out += buf;
      ++i;
    } else {
      out.append(text.data() + i, len);
      i += len;
    }
  }
  return out;
}

}  // namespace dpclust::text
