// Sizes in bytes (io/byte_size.hpp): the one rule every size option and variable is read by, and the one
// form messages show sizes in.
#include "io/byte_size.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <limits>

#include "io/line_reader.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

constexpr std::uint64_t kKiB = 1024, kMiB = kKiB << 10, kGiB = kMiB << 10, kTiB = kGiB << 10;

std::uint64_t size_of(const char* text) {
  const auto bytes = parse_byte_size(text);
  EXPECT_TRUE(bytes.has_value()) << "'" << text << "' was refused";
  return bytes.value_or(0);
}

TEST(ByteSize, UnitsArePowersOf1024InEitherCaseWithOrWithoutBOrIB) {
  EXPECT_EQ(size_of("1048576"), 1048576u);
  EXPECT_EQ(size_of("1K"), kKiB);
  EXPECT_EQ(size_of("512M"), 512 * kMiB);
  EXPECT_EQ(size_of("8G"), 8 * kGiB);
  EXPECT_EQ(size_of("8g"), 8 * kGiB);
  EXPECT_EQ(size_of("8GB"), 8 * kGiB);
  EXPECT_EQ(size_of("8GiB"), 8 * kGiB);
  EXPECT_EQ(size_of("8gib"), 8 * kGiB);
  EXPECT_EQ(size_of("2T"), 2 * kTiB);
  EXPECT_EQ(size_of("100B"), 100u);
  EXPECT_EQ(size_of("100b"), 100u);
  EXPECT_EQ(size_of(" 16G \t"), 16 * kGiB);  // blanks around the text, as an environment variable may carry
}

TEST(ByteSize, FractionsAreExactAndRoundedDownToWholeBytes) {
  EXPECT_EQ(size_of("1.5T"), kTiB + kTiB / 2);
  EXPECT_EQ(size_of("0.5K"), 512u);
  EXPECT_EQ(size_of(".5K"), 512u);
  EXPECT_EQ(size_of("1.K"), kKiB);
  EXPECT_EQ(size_of("1.5"), 1u);
  // 0.1 x 1024 = 102.4: rounded down; 0.3 x 2^40 = 329853488332.8, exactly, not through a double.
  EXPECT_EQ(size_of("0.1K"), 102u);
  EXPECT_EQ(size_of("0.3T"), 329853488332u);
  EXPECT_EQ(size_of("1.999999999999999999999999K"), 2047u);
}

TEST(ByteSize, TheLargestSizeIsJustBelow2To64) {
  EXPECT_EQ(size_of("18446744073709551615"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(size_of("16777215T"), std::uint64_t{16777215} << 40);
  EXPECT_FALSE(parse_byte_size("18446744073709551616"));
  EXPECT_FALSE(parse_byte_size("16777216T"));  // 2^64
  EXPECT_FALSE(parse_byte_size("99999999999999999999999999999T"));
}

TEST(ByteSize, AnythingElseIsNotASize) {
  for (const char* bad :
       {"", " ", "12Q", "G", "-1G", "+1G", "0", "0.4", "0K", "1.2.3M", "1 G", "1e6", "8GiBs", "8KB2", "lots", "."})
    EXPECT_FALSE(parse_byte_size(bad)) << "'" << bad << "' was taken as " << parse_byte_size(bad).value_or(0);
}

TEST(ByteSize, AnErrorNamesWhereTheTextCameFromShowsItEscapedAndStatesTheRule) {
  const std::string msg = testing::input_error([] { byte_size_or_throw("8X\x1b[31m", "--max-memory"); });
  EXPECT_NE(msg.find("--max-memory"), std::string::npos) << msg;
  EXPECT_NE(msg.find("is not a size in bytes"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\\x1b"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\x1b'), std::string::npos) << msg;
  EXPECT_NE(msg.find("powers of 1024"), std::string::npos) << msg;
  EXPECT_EQ(byte_size_or_throw("4G", "--max-memory"), 4 * kGiB);
}

TEST(ByteSize, ShownInTheLargestUnitWholeWhenExactElseWithOneDecimal) {
  EXPECT_EQ(format_bytes(std::uint64_t{0}), "0 bytes");
  EXPECT_EQ(format_bytes(std::uint64_t{1}), "1 byte");
  EXPECT_EQ(format_bytes(std::uint64_t{1000}), "1000 bytes");
  EXPECT_EQ(format_bytes(std::uint64_t{1023}), "1023 bytes");
  EXPECT_EQ(format_bytes(kKiB), "1 KiB");
  EXPECT_EQ(format_bytes(64 * kMiB), "64 MiB");
  EXPECT_EQ(format_bytes(kGiB + kGiB / 2), "1.5 GiB");
  EXPECT_EQ(format_bytes(std::uint64_t{1000000}), "976.6 KiB");
  EXPECT_EQ(format_bytes(std::uint64_t{16} << 40), "16 TiB");
  EXPECT_EQ(format_bytes(std::uint64_t{3} << 60), "3 EiB");
  EXPECT_EQ(format_bytes(std::numeric_limits<std::uint64_t>::max()), "16.0 EiB");
  // Estimates are doubles: the same form, rounded down to bytes; nothing below 0 or beyond 2^64.
  EXPECT_EQ(format_bytes(9.6e9), "8.9 GiB");
  EXPECT_EQ(format_bytes(800.7), "800 bytes");
  EXPECT_EQ(format_bytes(-5.0), "0 bytes");
  EXPECT_EQ(format_bytes(1e30), "more than 16 EiB");
}

// The environment's limits on data files read by the same rule as --max-memory: a fraction and a unit
// ending in B or iB were refused here before.
class ReadLimitVariable {
 public:
  ReadLimitVariable(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~ReadLimitVariable() { ::unsetenv(name_); }
  ReadLimitVariable(const ReadLimitVariable&) = delete;
  ReadLimitVariable& operator=(const ReadLimitVariable&) = delete;

 private:
  const char* name_;
};

TEST(ByteSize, DataReadLimitsTakeTheSameSizesAsMaxMemory) {
  {
    ReadLimitVariable data("DPCLUST_MAX_DATA_BYTES", "1.5G");
    ReadLimitVariable line("DPCLUST_MAX_LINE_BYTES", "64KiB");
    const ReadLimits limits = default_read_limits();
    EXPECT_EQ(limits.max_bytes, kGiB + kGiB / 2);
    EXPECT_EQ(limits.max_line_bytes, 64 * kKiB);
  }
  {
    ReadLimitVariable data("DPCLUST_MAX_DATA_BYTES", "512mb");
    EXPECT_EQ(default_read_limits().max_bytes, 512 * kMiB);
  }
  {
    // Beyond any file: kept within 2^62 so that the reader's "limit + 1" cannot wrap around.
    ReadLimitVariable data("DPCLUST_MAX_DATA_BYTES", "18446744073709551615");
    EXPECT_EQ(default_read_limits().max_bytes, std::uint64_t{1} << 62);
  }
  ReadLimitVariable bad("DPCLUST_MAX_LINE_BYTES", "0");
  const std::string msg = testing::input_error([] { default_read_limits(); });
  EXPECT_NE(msg.find("environment DPCLUST_MAX_LINE_BYTES: '0' is not a size in bytes"), std::string::npos) << msg;
}

}  // namespace
}  // namespace dpclust
