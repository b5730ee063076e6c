#include "io/iso_dates.hpp"

#include <charconv>

namespace dpclust {

// The count of days in eras of 400 years (146097 days each), as in H. Hinnant's "chrono-Compatible
// Low-Level Date Algorithms" (days_from_civil): the year is taken to start on 1 March, so the leap
// day is the last day of its year and the day of the year is a closed formula of the month.
long long days_from_civil(long long year, unsigned month, unsigned day) {
  year -= month <= 2 ? 1 : 0;
  const long long era = (year >= 0 ? year : year - 399) / 400;
  const long long year_of_era = year - era * 400;                            // [0, 399]
  const long long month_from_march = month > 2 ? month - 3 : month + 9;      // [0, 11]
  const long long day_of_year = (153 * month_from_march + 2) / 5 + day - 1;  // [0, 365]
  const long long day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;  // 719468: days from 0000-03-01 to 1970-01-01
}

namespace {

// `count` digits at s[at..] as a number; false when any is not a digit.
bool iso_digits(std::string_view s, std::size_t at, std::size_t count, unsigned& out) {
  if (at + count > s.size()) return false;
  unsigned v = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + static_cast<unsigned>(s[i] - '0');
  }
  out = v;
  return true;
}

bool leap_year(unsigned y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned days_in_month(unsigned y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap_year(y) ? 29 : kDays[m - 1];
}

// The zone at s[at..] (the rest of the string): Z, or (+|-)hh, (+|-)hh:mm, (+|-)hhmm; its offset east
// of UTC in seconds.
bool iso_zone(std::string_view s, std::size_t at, long long& offset) {
  const std::string_view z = s.substr(at);
  if (z == "Z" || z == "z") {
    offset = 0;
    return true;
  }
  if (z.size() < 3 || (z[0] != '+' && z[0] != '-')) return false;
  unsigned hh = 0, mm = 0;
  if (!iso_digits(z, 1, 2, hh)) return false;
  if (z.size() == 3) {
  } else if (z.size() == 6 && z[3] == ':') {
    if (!iso_digits(z, 4, 2, mm)) return false;
  } else if (z.size() == 5) {
    if (!iso_digits(z, 3, 2, mm)) return false;
  } else {
    return false;
  }
  if (hh > 23 || mm > 59) return false;
  offset = (z[0] == '-' ? -1 : 1) * static_cast<long long>(hh * 3600 + mm * 60);
  return true;
}

}  // namespace

std::optional<IsoTime> parse_iso8601(std::string_view s) {
  // The shortest form is a date (10 characters); anything not starting with one is not a date at all,
  // checked first because most fields of a table are numbers or words.
  if (s.size() < 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  unsigned year = 0, month = 0, day = 0;
  if (!iso_digits(s, 0, 4, year) || !iso_digits(s, 5, 2, month) || !iso_digits(s, 8, 2, day)) return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) return std::nullopt;
  IsoTime t;
  long long whole = days_from_civil(year, month, day) * 86400;
  double fraction = 0;
  if (s.size() > 10) {
    if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') return std::nullopt;
    unsigned hh = 0, mm = 0, ss = 0;
    if (s.size() < 16 || !iso_digits(s, 11, 2, hh) || s[13] != ':' || !iso_digits(s, 14, 2, mm)) return std::nullopt;
    std::size_t at = 16;
    if (at < s.size() && s[at] == ':') {
      if (!iso_digits(s, at + 1, 2, ss)) return std::nullopt;
      at += 3;
      if (at < s.size() && (s[at] == '.' || s[at] == ',')) {  // ISO 8601 allows either mark
        std::size_t end = at + 1;
        while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
        if (end == at + 1) return std::nullopt;
        std::string digits = "0.";
        digits.append(s.substr(at + 1, end - at - 1));
        std::from_chars(digits.data(), digits.data() + digits.size(), fraction);
        at = end;
      }
    }
    if (hh > 23 || mm > 59 || ss > 59) return std::nullopt;
    whole += static_cast<long long>(hh) * 3600 + mm * 60 + ss;
    t.has_time = true;
    if (at < s.size()) {
      long long offset = 0;
      if (!iso_zone(s, at, offset)) return std::nullopt;
      whole -= offset;
      t.has_zone = true;
    }
  }
  t.seconds = static_cast<double>(whole) + fraction;
  return t;
}

}  // namespace dpclust
