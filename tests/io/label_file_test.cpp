#include "io/label_file.hpp"

#include <gtest/gtest.h>

#include "io/io_test_util.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(LabelFile, ReadsIntegersWithTrailingBlankLines) {
  auto dir = temp_dir("lf");
  EXPECT_EQ(read_label_file(write_file(dir / "a.txt", "0\n1\n-1\n 2 \r\n\n\n")), (Labels{0, 1, -1, 2}));
  EXPECT_EQ(read_label_file(write_file(dir / "b.txt", "3")), (Labels{3}));
}

TEST(LabelFile, ErrorsNameFileAndLine) {
  auto dir = temp_dir("lf");
  std::string msg = input_error([&] { read_label_file(write_file(dir / "x.txt", "0\n1\nfoo\n")); });
  EXPECT_TRUE(contains(msg, "x.txt:3")) << msg;
  EXPECT_TRUE(contains(msg, "record 2 (0-based): expected one integer label")) << msg;
  EXPECT_FALSE(contains(msg, "foo")) << msg;  // a record's label is never shown
  msg = input_error([&] { read_label_file(write_file(dir / "f.txt", "0\n1.5\n")); });
  EXPECT_TRUE(contains(msg, "f.txt:2")) << msg;
  msg = input_error([&] { read_label_file(write_file(dir / "mid.txt", "0\n\n1\n")); });
  EXPECT_TRUE(contains(msg, "mid.txt:2")) << msg;
  EXPECT_TRUE(contains(msg, "blank line")) << msg;
  msg = input_error([&] { read_label_file(write_file(dir / "neg.txt", "0\n-2\n")); });
  EXPECT_TRUE(contains(msg, "neg.txt:2")) << msg;
  msg = input_error([&] { read_label_file(write_file(dir / "two.txt", "0 1\n")); });
  EXPECT_TRUE(contains(msg, "two.txt:1")) << msg;
  msg = input_error([&] { read_label_file(write_file(dir / "empty.txt", "")); });
  EXPECT_TRUE(contains(msg, "empty.txt")) << msg;
}

}  // namespace
}  // namespace dpclust
