// ISO 8601 dates and timestamps (io/iso_dates.hpp) and the kinds a table's field is typed by
// (io/field_kind.hpp). Day counts by hand: 2019-03-23 is day 17978 after 1970-01-01 (49 years of 365 days,
// the 12 leap days of 1972..2016, then the 31 + 28 + 22 days of 2019 before 23 March); 1914-12-01 is day
// -20120 (the 31 days of December 1914, 55 years of 365 days and the 14 leap days of 1916..1968).
#include "io/iso_dates.hpp"

#include <gtest/gtest.h>

#include "io/field_kind.hpp"

namespace dpclust::iso_dates_test {
namespace {

TEST(IsoDates, DaysFromCivilAgreesWithHandCounts) {
  EXPECT_EQ(days_from_civil(1970, 1, 1), 0);
  EXPECT_EQ(days_from_civil(1970, 1, 2), 1);
  EXPECT_EQ(days_from_civil(1969, 12, 31), -1);
  EXPECT_EQ(days_from_civil(1972, 3, 1), 365 + 365 + 31 + 29);            // 1972 is a leap year
  EXPECT_EQ(days_from_civil(2000, 3, 1), 11017);                          // 2000 is one too (divisible by 400)
  EXPECT_EQ(days_from_civil(2019, 3, 23), 49 * 365 + 12 + 31 + 28 + 22);  // 17978
  EXPECT_EQ(days_from_civil(1914, 12, 1), -20120);                        // Dow Jones' first month
}

TEST(IsoDates, DatesAndTimestampsWithAndWithoutZone) {
  const auto date = parse_iso8601("2019-03-23");
  ASSERT_TRUE(date);
  EXPECT_EQ(date->seconds, 17978.0 * 86400);
  EXPECT_FALSE(date->has_time);
  const auto local = parse_iso8601("2019-03-23 20:21:09");
  ASSERT_TRUE(local);
  EXPECT_EQ(local->seconds, 17978.0 * 86400 + 20 * 3600 + 21 * 60 + 9);  // read as UTC
  EXPECT_TRUE(local->has_time);
  EXPECT_FALSE(local->has_zone);
  const auto zoned = parse_iso8601("2019-03-23T20:21:09+01:00");
  ASSERT_TRUE(zoned);
  EXPECT_EQ(zoned->seconds, local->seconds - 3600);
  EXPECT_TRUE(zoned->has_zone);
  EXPECT_EQ(parse_iso8601("2019-03-23T20:21:09Z")->seconds, local->seconds);
  EXPECT_EQ(parse_iso8601("2019-03-23T20:21:09-0530")->seconds, local->seconds + 5 * 3600 + 30 * 60);
  EXPECT_EQ(parse_iso8601("2019-03-23T20:21-02")->seconds, local->seconds - 9 + 2 * 3600);
  EXPECT_DOUBLE_EQ(parse_iso8601("2019-03-23 20:21:09.25")->seconds, local->seconds + 0.25);
  EXPECT_EQ(parse_iso8601("1914-12-01")->seconds, -20120.0 * 86400);
}

TEST(IsoDates, WhatIsNotADate) {
  for (const char* s : {"2019", "20190323", "2019-3-23", "2019-02-29", "2019-13-01", "2019-04-31",
                        "2019-03-23 24:00:00", "2019-03-23 20:61:00", "2019-03-23T20:21:09+25:00", "2019-03-23x",
                        "2019-03-23 20", "23/03/2019", "2019-03-23 20:21:09 UTC", "2019-03-23T20:21:09."})
    EXPECT_FALSE(parse_iso8601(s)) << s;
  EXPECT_TRUE(parse_iso8601("2020-02-29"));  // a leap day
}

TEST(FieldKinds, EachFieldByItsTextAlone) {
  EXPECT_EQ(classify_field(""), FieldKind::missing);
  EXPECT_EQ(classify_field("NA"), FieldKind::missing);
  EXPECT_EQ(classify_field("?"), FieldKind::missing);
  EXPECT_EQ(classify_field("3.5"), FieldKind::number);
  EXPECT_EQ(classify_field("2019"), FieldKind::number);  // a year alone is a number
  EXPECT_EQ(classify_field("NaN"), FieldKind::number);   // refused at its line if it is a coordinate
  for (const char* b : {"True", "False", "true", "false", "TRUE", "FALSE"})
    EXPECT_EQ(classify_field(b), FieldKind::boolean) << b;
  for (const char* t : {"yes", "no", "T", "F", "tRUE"}) EXPECT_EQ(classify_field(t), FieldKind::text) << t;
  EXPECT_EQ(classify_field("2019-03-23"), FieldKind::date);
  EXPECT_EQ(classify_field("2019-03-23 20:21:09"), FieldKind::timestamp);
  EXPECT_EQ(classify_field("Manhattan"), FieldKind::text);
  EXPECT_EQ(parse_boolean("True"), true);
  EXPECT_EQ(parse_boolean("FALSE"), false);
}

}  // namespace
}  // namespace dpclust::iso_dates_test
