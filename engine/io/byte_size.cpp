#include "io/byte_size.hpp"

#include <cctype>
#include <cstdio>
#include <limits>

#include "core/error.hpp"
#include "io/text.hpp"

namespace dpclust {

namespace {

constexpr const char* kBinaryUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
// Longer numbers are not sizes anyone writes (the largest, 2^64 - 1, has 20 digits).
constexpr std::size_t kMaxNumberChars = 30;

// The power of two a unit stands for (0 for none or B, 10 for K, ... 40 for T); -1 when `unit` is not one.
int unit_shift(std::string_view unit) {
  if (unit.empty() || text::iequals(unit, "b")) return 0;
  const char* units = "KMGT";
  const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(unit.front())));
  int shift = -1;
  for (int i = 0; i < 4; ++i)
    if (units[i] == u) shift = 10 * (i + 1);
  const std::string_view rest = unit.substr(1);
  if (shift < 0 || !(rest.empty() || text::iequals(rest, "b") || text::iequals(rest, "ib"))) return -1;
  return shift;
}

// floor(0.<digits> x 2^shift), exactly: the decimal fraction doubled `shift` times, each doubling's carry
// out of its first digit the next bit of the result.
std::uint64_t fraction_times_power_of_two(std::string digits, int shift) {
  std::uint64_t out = 0;
  for (int s = 0; s < shift; ++s) {
    int carry = 0;
    for (std::size_t i = digits.size(); i-- > 0;) {
      const int d = (digits[i] - '0') * 2 + carry;
      digits[i] = static_cast<char>('0' + d % 10);
      carry = d / 10;
    }
    out = out * 2 + static_cast<std::uint64_t>(carry);
  }
  return out;
}

}  // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  const std::string_view s = text::trim(text);
  std::size_t end = 0;
  while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.')) ++end;
  const std::string_view number = s.substr(0, end);
  const int shift = unit_shift(s.substr(end));
  if (shift < 0 || number.empty() || number.size() > kMaxNumberChars) return std::nullopt;
  const std::size_t dot = number.find('.');
  const std::string_view whole = number.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : number.substr(dot + 1);
  if ((whole.empty() && fraction.empty()) || fraction.find('.') != std::string_view::npos) return std::nullopt;
  std::uint64_t units = 0;
  for (const char c : whole) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (units > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return std::nullopt;
    units = units * 10 + digit;
  }
  // units x 2^shift plus a part below 2^shift stays below 2^64 exactly when units < 2^(64 - shift).
  if (units > (std::numeric_limits<std::uint64_t>::max() >> shift)) return std::nullopt;
  const std::uint64_t bytes = (units << shift) + fraction_times_power_of_two(std::string(fraction), shift);
  if (bytes == 0) return std::nullopt;
  return bytes;
}

std::uint64_t byte_size_or_throw(std::string_view text, const std::string& where) {
  if (const auto bytes = parse_byte_size(text)) return *bytes;
  throw InputError(
      where, "'" + text::printable(text, 40) + "' is not a size in bytes",
      "write a number of bytes (at least 1), optionally with a K, M, G or T suffix (powers of 1024), e.g. 8G, "
      "1.5T or 512MiB; or leave it out for the default");
}

std::string format_bytes(std::uint64_t bytes) {
  int unit = 0;
  std::uint64_t whole = bytes;
  while (unit < 6 && whole >= 1024) {
    whole >>= 10;
    ++unit;
  }
  if (unit == 0) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  const int shift = 10 * unit;
  if ((bytes & ((std::uint64_t{1} << shift) - 1)) == 0) return std::to_string(whole) + " " + kBinaryUnits[unit];
  char buf[32];
  const double in_unit = static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << shift);
  std::snprintf(buf, sizeof buf, "%.1f %s", in_unit, kBinaryUnits[unit]);
  return buf;
}

std::string format_bytes(double bytes) {
  if (!(bytes > 0)) return format_bytes(std::uint64_t{0});
  if (bytes >= 18446744073709551616.0) return "more than 16 EiB";  // 2^64
  return format_bytes(static_cast<std::uint64_t>(bytes));
}

}  // namespace dpclust
