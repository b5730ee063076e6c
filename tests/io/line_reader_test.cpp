#include "io/line_reader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/files.hpp"
#include "io/io_test_util.hpp"
#include "io/text.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;
using testing::write_gzip;

std::vector<std::string> all_lines(const std::filesystem::path& p,
                                   std::size_t buffer = LineReader::kDefaultBufferBytes) {
  LineReader in(p, buffer);
  std::vector<std::string> out;
  std::string_view line;
  while (in.next(line)) {
    out.emplace_back(line);
    EXPECT_EQ(in.line_number(), out.size());
  }
  return out;
}

TEST(LineReader, SplitsLinesAndStripsCrAndBom) {
  auto p = write_file(temp_dir("lr") / "a.txt", "\xEF\xBB\xBFone\r\ntwo\n\nlast");
  EXPECT_EQ(all_lines(p), (std::vector<std::string>{"one", "two", "", "last"}));
}

TEST(LineReader, ReadsGzipTransparently) {
  auto p = write_gzip(temp_dir("lr") / "a.txt.gz", "x\ny\n");
  LineReader in(p);
  std::string_view line;
  ASSERT_TRUE(in.next(line));
  EXPECT_EQ(line, "x");
  EXPECT_TRUE(in.compressed());
  ASSERT_TRUE(in.next(line));
  EXPECT_EQ(line, "y");
  EXPECT_FALSE(in.next(line));
}

TEST(LineReader, LinesLongerThanTheBufferAndAcrossRefills) {
  std::string text, longline(1000, 'z');
  std::vector<std::string> expect;
  for (int i = 0; i < 300; ++i) {
    std::string l = (i % 50 == 7) ? longline : "line" + std::to_string(i);
    text += l + "\n";
    expect.push_back(l);
  }
  auto p = write_file(temp_dir("lr") / "long.txt", text);
  EXPECT_EQ(all_lines(p, 64), expect);
}

TEST(LineReader, MissingFileNamesThePath) {
  auto dir = temp_dir("lr");
  std::string msg = input_error([&] { LineReader in(dir / "nope.csv"); });
  EXPECT_NE(msg.find("nope.csv"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not found"), std::string::npos) << msg;
}

TEST(LineReader, TruncatedGzipIsAnInputError) {
  auto dir = temp_dir("lr");
  std::string body;
  for (int i = 0; i < 20000; ++i) body += std::to_string(i * 7919 % 10007) + "," + std::to_string(i) + "\n";
  auto good = write_gzip(dir / "good.csv.gz", body);
  std::string bytes = read_text_file(good);
  auto bad = write_file(dir / "bad.csv.gz", bytes.substr(0, bytes.size() / 2));
  EXPECT_EQ(all_lines(good).size(), 20000u);
  std::string msg = input_error([&] { all_lines(bad); });
  EXPECT_NE(msg.find("bad.csv.gz:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
}

TEST(Text, SplitFieldsTrimsAndHonoursQuotes) {
  std::vector<std::string_view> f;
  text::split_fields(" 1.5 , \"a,b\" ,x,", ',', "\"", f);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0], "1.5");
  EXPECT_EQ(f[1], "a,b");
  EXPECT_EQ(f[2], "x");
  EXPECT_EQ(f[3], "");
  text::split_fields("a\t\tb", '\t', "", f);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[1], "");
}

TEST(Text, ParseDoubleIsStrict) {
  double v = 0;
  EXPECT_TRUE(text::parse_double("+2.5e1", v));
  EXPECT_EQ(v, 25.0);
  EXPECT_FALSE(text::parse_double("2.5x", v));
  EXPECT_FALSE(text::parse_double("", v));
  EXPECT_FALSE(text::parse_double("+-1", v));
}

}  // namespace
}  // namespace dpclust
