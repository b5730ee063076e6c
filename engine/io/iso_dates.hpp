#pragma once
// ISO 8601 calendar dates and timestamps as a table column holds them (pandas' to_csv, R's write.csv,
// databases' exports): "2019-03-23", "2019-03-23 20:21:09", "2019-03-23T20:21:09.250", with or without a
// zone ("Z", "+01:00", "+0100", "+01"). Such a value is never a number: "2019-03-23" does not parse as
// one, and a loader must not read it as its year either.
#include <optional>
#include <string_view>

namespace dpclust {

struct IsoTime {
  double seconds = 0;     // since 1970-01-01T00:00:00Z; a time without a zone is read as UTC
  bool has_time = false;  // a timestamp, not a date alone
  bool has_zone = false;  // the value states its offset from UTC
};

// The value when the whole of `s` is one of:
//   YYYY-MM-DD
//   YYYY-MM-DD(T| )hh:mm[:ss[.fraction]][zone],  zone = Z | z | (+|-)hh[[:]mm]
// with a four-digit year (0000-9999), a real day of its month (leap years by the Gregorian rule),
// hh 00-23, mm 00-59, ss 00-59, offsets below 24 h; nullopt otherwise (so "2019-02-30", "2019-3-4",
// "20190323" and "2019" are not dates). Whole seconds are exact (|seconds| < 2^53); a fraction is added
// as its nearest double.
std::optional<IsoTime> parse_iso8601(std::string_view s);

// Days from 1970-01-01 to the given proleptic Gregorian date (negative before it); month 1-12.
long long days_from_civil(long long year, unsigned month, unsigned day);

}  // namespace dpclust
