#pragma once
// Small text helpers shared by the loaders. They work on string_views into the reader's buffer so
// that parsing a row allocates nothing.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dpclust::text {

// Without leading/trailing blanks (space, tab, CR): data written by hand often has "1.5, 2.0".
std::string_view trim(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
std::string lower(std::string_view s);
// Non-empty and only 0-9: how a column given as "3" is told apart from a column named "x".
bool is_digits(std::string_view s);

// The whole of `s` as a double (std::from_chars: locale-independent, exact rounding); a leading '+'
// is accepted because some writers emit it. NaN/inf parse successfully: callers reject them with
// their own message.
bool parse_double(std::string_view s, double& out);
// The whole of `s` as an integer.
bool parse_int(std::string_view s, std::int64_t& out);

// Splits `line` at `delim` into `out` (cleared first; its capacity is reused across rows). Each field
// is trimmed of blanks; a field that starts with one of `quotes` runs to the matching closing quote
// (delimiters inside are kept) and the quotes are removed. A doubled quote inside stays doubled:
// the loaders never need the unescaped text of such fields.
void split_fields(std::string_view line, char delim, std::string_view quotes, std::vector<std::string_view>& out);

// Removes one pair of matching surrounding quotes, if present.
std::string_view unquote(std::string_view s, std::string_view quotes = "\"'");

// "a, b, c" for error messages listing the available names (at most `max_items`, then "..."; each
// item passed through printable()).
std::string join(const std::vector<std::string>& items, std::size_t max_items = 40);

// Offset of the first byte of `s` that is not valid UTF-8 (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF) or is NUL; npos when there is none. ASCII runs are checked 8 bytes at a time,
// so validating every line of a multi-gigabyte file costs a few percent of reading it.
std::size_t first_invalid_utf8(std::string_view s);
// How an offending byte is shown in a message: "0xff", or "NUL".
std::string describe_byte(unsigned char c);

// User text fit for an error message: at most `max` bytes (then "..."; never cut inside a UTF-8
// character), with control characters, DEL and bytes that are not valid UTF-8 escaped as \xNN, so a
// message never echoes raw binary or terminal escape sequences from a file.
std::string printable(std::string_view s, std::size_t max = 80);

// Error messages about a data record. A record is named by its 0-based index in
// file order ("record 12 (0-based)", beside the file:line of the reader), its column by name, and the
// problem in general terms ("not a number", "outside [-90, 90]"); its values are never shown -- not
// even the raw text of a field that fails to parse, which is as much the record's content as a number.
// Header lines, column names, declared nominal sets and configured bounds are public and may be shown.
std::string record_label(std::size_t record);
inline constexpr const char* kValueNotShown = " (the value is not shown: error messages never print a record's values)";

}  // namespace dpclust::text
