// Configs with invalid UTF-8, NUL bytes or UTF-16; configs that are FIFOs or devices; the yaml-cpp 0.7
// infinite loop on a stray ','; and the exit code and message of `dpclust` for hostile data files.
// (The loader-level tests of the same rules are tests/io/hostile_files_test.cpp.)
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <string>

#include "config/config.hpp"
#include "config/yaml_reader.hpp"
#include "core/error.hpp"
#include "io/text.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

bool has(const std::string& msg, const std::string& part) { return msg.find(part) != std::string::npos; }

std::string error_of(const std::string& text) {
  try {
    parse_config(text, "x.yaml", std::filesystem::temp_directory_path(), "");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_clean(const std::string& msg) {
  EXPECT_FALSE(msg.empty());
  EXPECT_EQ(text::first_invalid_utf8(msg), std::string::npos) << msg;
  for (char c : msg) EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << msg;
}

TEST(HostileConfigText, InvalidUtf8IsRefusedBeforeYamlCppSeesIt) {
  const std::string msg = error_of("experiment: caf\xe9\ndatasets: []\n");
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:1:16: invalid UTF-8: byte 0xe9 (byte offset 15)")) << msg;
  EXPECT_TRUE(has(msg, "save the file as UTF-8")) << msg;
  // Line counting follows the reader: LF, CR LF and a lone CR each end a line.
  EXPECT_TRUE(has(error_of("a: 1\r\nb: 2\rc: \xff\n"), "x.yaml:3:4:"));
  // Overlong and surrogate forms.
  EXPECT_TRUE(has(error_of("experiment: \xC0\xAF\n"), "invalid UTF-8: byte 0xc0"));
  EXPECT_TRUE(has(error_of("experiment: \xED\xA0\x80\n"), "invalid UTF-8: byte 0xed"));
  // Valid UTF-8 goes on to the schema checks.
  EXPECT_FALSE(has(error_of("experiment: caf\xC3\xA9\n"), "UTF-8"));
}

TEST(HostileConfigText, NulAndUtf16AreRefused) {
  std::string msg = error_of(std::string("experiment: a\n\0datasets: []\n", 28));
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "x.yaml:2:1: NUL byte (byte offset 14)")) << msg;
  msg =
      error_of(std::string("\xFF\xFE"
                           "e\0x\0",
                           6));
  EXPECT_TRUE(has(msg, "UTF-16")) << msg;
}

TEST(HostileConfigText, StrayCommaDoesNotHangYamlCpp) {
  // yaml-cpp 0.7's LoadAll loops forever (allocating) on these; config/yaml_reader.cpp counts the documents itself.
  for (const char* text : {",", ", x", "---\n,", "experiment: a\n---\n,\n"}) {
    const auto start = std::chrono::steady_clock::now();
    const std::string msg = error_of(text);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)) << text;
    expect_clean(msg);
    EXPECT_TRUE(has(msg, "malformed YAML")) << msg;
  }
  EXPECT_TRUE(has(error_of(", x"), "x.yaml:1:1: malformed YAML: unexpected ','"));
  // Several documents are still told apart from the stuck parser.
  const std::string msg = error_of("experiment: a\n---\nexperiment: b\n---\nc: 1\n");
  EXPECT_TRUE(has(msg, "3 or more YAML documents")) << msg;
  EXPECT_TRUE(has(msg, "x.yaml:3:1")) << msg;  // where the second document's content starts
}

TEST(HostileConfigText, AnchorContainingItselfStopsQuickly) {
  // Found by the fuzz test: walking `d` with aliases expanded never ends, and building the key path at
  // every level made the walk quadratic (minutes and gigabytes before the node limit).
  const auto start = std::chrono::steady_clock::now();
  const std::string msg = error_of("experiment: anchors\ndefaults: &d {alpha: 0.5, min_pts: *d}\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  expect_clean(msg);
  EXPECT_TRUE(has(msg, "nests more than 256 levels")) << msg;
  EXPECT_TRUE(has(msg, "x.yaml:2:")) << msg;
  EXPECT_TRUE(has(msg, "min_pts.min_pts.min_pts")) << msg;
}

TEST(HostileConfigText, ConfigThatIsAFifoOrADeviceIsRefused) {
  const auto dir = testing::temp_dir("hostile_cfg");
  const auto fifo = dir / "c.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  std::string msg;
  try {
    load_config(fifo, "");
  } catch (const InputError& e) {
    msg = e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_TRUE(has(msg, "c.yaml: not a regular file: it is a FIFO")) << msg;
  try {
    load_config("/dev/zero", "");
    ADD_FAILURE() << "/dev/zero was read as a config";
  } catch (const InputError& e) {
    EXPECT_TRUE(has(e.what(), "/dev/zero: not a regular file: it is a character device")) << e.what();
  }
}

// ---- the `dpclust` command ----------------------------------------------------------------------

testing::CommandResult dpclust(const std::string& args) {
  const char* b = std::getenv("DPCLUST_BINARY");
  return testing::run_command(std::string(b ? b : DPCLUST_BINARY_PATH) + " " + args);
}

TEST(HostileFilesCli, SpecialDataFilesExitWithCode2) {
  const auto dir = testing::temp_dir("hostile_cli");
  const auto fifo = dir / "truth.txt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  testing::write_file(dir / "pred.txt", "0\n1\n");
  auto r = dpclust("score --truth " + fifo.string() + " --pred " + (dir / "pred.txt").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "truth.txt: not a regular file: it is a FIFO (named pipe)")) << r.output;
  r = dpclust("score --truth /dev/zero --pred " + (dir / "pred.txt").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "/dev/zero: not a regular file: it is a character device")) << r.output;
  r = dpclust("validate /dev/zero");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "not a regular file")) << r.output;
}

TEST(HostileFilesCli, BadBytesInDataExitWithCode2AndAreNotEchoed) {
  const auto dir = testing::temp_dir("hostile_cli");
  testing::write_file(dir / "truth.txt", "0\n1\n\xff\x1b[2J\n");
  testing::write_file(dir / "pred.txt", "0\n1\n1\n");
  const auto r = dpclust("score --truth " + (dir / "truth.txt").string() + " --pred " + (dir / "pred.txt").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_TRUE(has(r.output, "truth.txt:3: invalid UTF-8: byte 0xff at column 1 (byte offset 4)")) << r.output;
  expect_clean(r.output);
}

}  // namespace
}  // namespace dpclust
