// Hostile data files: special files (FIFO, /dev/zero, directory, socket), forged gzip trailers,
// decompression bombs, endless lines, invalid UTF-8 and NUL bytes. Each must stop at once with an
// InputError naming the file (and line), never block, exhaust memory or echo raw bytes.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>

#include "io/arff.hpp"
#include "io/csv.hpp"
#include "io/fimi.hpp"
#include "io/gowalla.hpp"
#include "io/io_test_util.hpp"
#include "io/label_file.hpp"
#include "io/line_reader.hpp"
#include "io/text.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::input_error;
using testing::temp_dir;
using testing::write_file;
using testing::write_gzip;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Sets an environment variable for the scope of one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~ScopedEnv() { ::unsetenv(name_); }

 private:
  const char* name_;
};

// Every byte of the message is printable ASCII or valid UTF-8 without control characters.
void expect_clean_message(const std::string& msg) {
  EXPECT_EQ(text::first_invalid_utf8(msg), std::string::npos) << msg;
  for (unsigned char c : msg) EXPECT_TRUE(c >= 0x20 || c == '\n') << "control byte " << int(c) << " in: " << msg;
}

// ---- special files ------------------------------------------------------------------------------

TEST(HostileFiles, FifoIsRefusedWithoutBlocking) {
  const auto dir = temp_dir("hostile");
  const auto fifo = dir / "points.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  const std::string msg = input_error([&] { load_csv(fifo); });  // no writer: a blocking open would hang here
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_TRUE(contains(msg, fifo.string())) << msg;
  EXPECT_TRUE(contains(msg, "not a regular file")) << msg;
  EXPECT_TRUE(contains(msg, "FIFO")) << msg;
  EXPECT_TRUE(contains(input_error([&] { read_label_file(fifo); }), "not a regular file"));
}

TEST(HostileFiles, DevZeroIsRefused) {
  const std::string msg = input_error([&] { load_csv("/dev/zero"); });
  EXPECT_TRUE(contains(msg, "/dev/zero")) << msg;
  EXPECT_TRUE(contains(msg, "not a regular file: it is a character device")) << msg;
  EXPECT_TRUE(contains(input_error([&] { load_arff("/dev/zero"); }), "character device"));
  EXPECT_TRUE(contains(input_error([&] { load_fimi("/dev/null"); }), "character device"));
  EXPECT_TRUE(contains(input_error([&] { load_gowalla("/dev/urandom"); }), "character device"));
}

TEST(HostileFiles, DirectoryAndSocketAreRefused) {
  const auto dir = temp_dir("hostile");
  EXPECT_TRUE(contains(input_error([&] { load_csv(dir); }), "is a directory"));

  const auto sock_path = dir / "s.csv";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(sock_path.string().size(), sizeof addr.sun_path);
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock_path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  const std::string msg = input_error([&] { load_csv(sock_path); });
  ::close(fd);
  EXPECT_TRUE(contains(msg, "not a regular file: it is a socket")) << msg;
}

TEST(HostileFiles, SymlinkToARegularFileIsRead) {
  const auto dir = temp_dir("hostile");
  const auto target = write_file(dir / "real.csv", "1,2\n3,4\n");
  std::filesystem::create_symlink(target, dir / "link.csv");
  EXPECT_EQ(load_csv(dir / "link.csv").n, 2u);
  std::filesystem::create_symlink("/dev/zero", dir / "zero.csv");
  EXPECT_TRUE(contains(input_error([&] { load_csv(dir / "zero.csv"); }), "character device"));
}

// ---- sizes from the file are not trusted --------------------------------------------------------

// Overwrites the gzip ISIZE trailer (the last 4 bytes) with `isize`.
void forge_isize(const std::filesystem::path& p, std::uint32_t isize) {
  std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(-4, std::ios::end);
  const char b[4] = {char(isize & 0xff), char(isize >> 8 & 0xff), char(isize >> 16 & 0xff), char(isize >> 24 & 0xff)};
  f.write(b, 4);
}

TEST(HostileFiles, ForgedGzipSizeIsOnlyACappedHint) {
  const auto dir = temp_dir("hostile");
  const auto p = write_gzip(dir / "p.csv.gz", "1,2\n3,4\n");
  forge_isize(p, 0xFFFFFFFFu);  // claims 4 GiB of text
  const auto compressed = std::filesystem::file_size(p);
  {
    LineReader in(p);
    EXPECT_LE(in.estimated_bytes(), 16 * compressed);
  }
  // The forged trailer no longer matches the data: zlib's length check fails at the end, as InputError
  // (and not std::bad_alloc from reserving 4 GiB worth of rows).
  const std::string msg = input_error([&] { load_csv(p); });
  EXPECT_TRUE(contains(msg, "p.csv.gz")) << msg;
  EXPECT_TRUE(contains(input_error([&] { load_gowalla(p); }), "p.csv.gz"));
  EXPECT_TRUE(contains(input_error([&] { load_fimi(p); }), "p.csv.gz"));
}

TEST(HostileFiles, GzipBombStopsAtTheByteLimit) {
  const auto dir = temp_dir("hostile");
  // Two rows, then 4 MiB of blank lines: ~4 KB compressed.
  const auto p = write_gzip(dir / "bomb.csv.gz", "x,y\n1,2\n" + std::string(std::size_t{4} << 20, '\n'));
  ASSERT_LT(std::filesystem::file_size(p), 100'000u);
  ReadLimits limits;
  limits.max_bytes = 1 << 20;
  LineReader in(p, LineReader::kDefaultBufferBytes, limits);
  std::string_view line;
  const std::string msg = input_error([&] {
    while (in.next(line)) {}
  });
  EXPECT_TRUE(contains(msg, "bomb.csv.gz:")) << msg;
  EXPECT_TRUE(contains(msg, "more than 1 MiB of decompressed text")) << msg;
  EXPECT_TRUE(contains(msg, "DPCLUST_MAX_DATA_BYTES")) << msg;

  // The same through a loader and the environment variable.
  ScopedEnv env("DPCLUST_MAX_DATA_BYTES", "2M");
  EXPECT_TRUE(contains(input_error([&] { load_csv(p); }), "more than 2 MiB of decompressed text"));
}

TEST(HostileFiles, ParsedValuesAreBoundedByTheSameLimit) {
  const auto dir = temp_dir("hostile");
  std::string text;
  for (int i = 0; i < 300'000; ++i) text += "1\n";  // 600 KB of text, 2.4 MB of doubles
  const auto p = write_file(dir / "ones.csv", text);
  ScopedEnv env("DPCLUST_MAX_DATA_BYTES", "1M");
  const std::string msg = input_error([&] { load_csv(p); });
  EXPECT_TRUE(contains(msg, "ones.csv:131073")) << msg;
  EXPECT_TRUE(contains(msg, "numbers in memory, more than the 131072 (1 MiB) allowed")) << msg;
  EXPECT_TRUE(contains(input_error([&] { read_label_file(p); }), "numbers in memory"));
}

TEST(HostileFiles, FimiPaddingCannotMultiplyMemory) {
  const auto dir = temp_dir("hostile");
  std::string text;
  for (int i = 0; i < 20'000; ++i) text += "1\n";
  for (int i = 0; i < 20'000; ++i) text += "2 ";  // one line of 20,000 items: padding makes 4e8 values
  const auto p = write_file(dir / "ragged.dat", text + "\n");
  ScopedEnv env("DPCLUST_MAX_DATA_BYTES", "64M");
  FimiOptions o;
  o.ragged = FimiRagged::pad;
  const std::string msg = input_error([&] { load_fimi(p, o); });
  EXPECT_TRUE(contains(msg, "ragged.dat:20001")) << msg;
  EXPECT_TRUE(contains(msg, "at least 400020000 numbers in memory")) << msg;
}

TEST(HostileFiles, BadLimitInTheEnvironmentIsAnInputError) {
  ScopedEnv env("DPCLUST_MAX_DATA_BYTES", "lots\x1b[31m");
  const std::string msg = input_error([&] { default_read_limits(); });
  EXPECT_TRUE(contains(msg, "DPCLUST_MAX_DATA_BYTES")) << msg;
  EXPECT_TRUE(contains(msg, "\\x1b")) << msg;
  expect_clean_message(msg);
}

// ---- long lines ---------------------------------------------------------------------------------

TEST(HostileFiles, LineLongerThanTheLimitIsRefusedNotBuffered) {
  const auto dir = temp_dir("hostile");
  const auto p = write_file(dir / "wide.csv", "x,y\n" + std::string(5000, '1') + "\n");
  ScopedEnv env("DPCLUST_MAX_LINE_BYTES", "1000");
  const std::string msg = input_error([&] { load_csv(p); });
  EXPECT_TRUE(contains(msg, "wide.csv:2")) << msg;
  EXPECT_TRUE(contains(msg, "line longer than 1000 bytes")) << msg;
  EXPECT_TRUE(contains(msg, "DPCLUST_MAX_LINE_BYTES")) << msg;
  // A line exactly at the limit is fine.
  const auto ok = write_file(dir / "ok.csv", "x\n" + std::string(1000, '1') + "\n2\n");
  LineReader in(ok);
  std::string_view line;
  ASSERT_TRUE(in.next(line) && in.next(line));
  EXPECT_EQ(line.size(), 1000u);
  EXPECT_TRUE(in.next(line) && line == "2");
}

TEST(HostileFiles, DefaultLineLimitStopsAFileWithoutNewlines) {
  // 80 MiB of digits and no newline (80 KB gzip): stops at the 64 MiB default, the buffer never larger.
  const auto dir = temp_dir("hostile");
  const auto p = dir / "one_line.csv.gz";
  gzFile f = gzopen(p.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  const std::string chunk(1 << 20, '7');
  for (int i = 0; i < 80; ++i)
    ASSERT_EQ(gzwrite(f, chunk.data(), static_cast<unsigned>(chunk.size())), int(chunk.size()));
  gzclose(f);
  const std::string msg = input_error([&] { load_csv(p); });
  EXPECT_TRUE(contains(msg, "one_line.csv.gz:1")) << msg;
  EXPECT_TRUE(contains(msg, "line longer than 64 MiB")) << msg;
}

// ---- encoding -----------------------------------------------------------------------------------

TEST(HostileFiles, InvalidUtf8IsRefusedWithLineColumnAndOffset) {
  const auto dir = temp_dir("hostile");
  const auto p = write_file(dir / "latin1.csv", "x,y,label\n1,2,caf\xe9\n");
  const std::string msg = input_error([&] { load_csv(p); });
  EXPECT_TRUE(contains(msg, "latin1.csv:2")) << msg;
  EXPECT_TRUE(contains(msg, "invalid UTF-8: byte 0xe9 at column 8 (byte offset 17)")) << msg;
  EXPECT_TRUE(contains(msg, "iconv")) << msg;
  expect_clean_message(msg);
  // Overlong forms, surrogates, code points past U+10FFFF and stray continuation bytes.
  for (const char* bad : {"\xC0\x80", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\x80", "\xC3", "\xFE"}) {
    const auto q = write_file(dir / "bad.csv", std::string("x,y\n1,2\n3,4") + bad + "\n");
    const std::string m = input_error([&] { load_csv(q); });
    EXPECT_TRUE(contains(m, "bad.csv:3")) << m;
    EXPECT_TRUE(contains(m, "invalid UTF-8")) << m;
    expect_clean_message(m);
  }
}

TEST(HostileFiles, ValidUtf8NamesAndLabelsLoad) {
  const auto dir = temp_dir("hostile");
  const auto p = write_file(dir / "utf8.csv",
                            "\xEF\xBB\xBFx\xC3\xA9,y\xE2\x82\xAC,classe\n1,2,caf\xC3\xA9\n3,4,\xF0\x9F\x98\x80\n");
  CsvOptions o;
  o.label = "classe";
  const Dataset ds = load_csv(p, o);
  EXPECT_EQ(ds.n, 2u);
  EXPECT_EQ(ds.column_names, (std::vector<std::string>{"x\xC3\xA9", "y\xE2\x82\xAC"}));
  EXPECT_EQ(ds.provenance["label_map"]["caf\xC3\xA9"], 0);
}

TEST(HostileFiles, NulBytesAreRefused) {
  const auto dir = temp_dir("hostile");
  const auto p = write_file(dir / "nul.csv", std::string("x,y\n1,2\n3,\0\n", 11));
  const std::string msg = input_error([&] { load_csv(p); });
  EXPECT_TRUE(contains(msg, "nul.csv:3")) << msg;
  EXPECT_TRUE(contains(msg, "NUL byte at column 3 (byte offset 10)")) << msg;
  expect_clean_message(msg);
  const auto labels = write_file(dir / "l.txt", std::string("1\n\0\n", 4));
  EXPECT_TRUE(contains(input_error([&] { read_label_file(labels); }), "l.txt:2: NUL byte at column 1 (byte offset 2)"));
  // UTF-16 text (here with its byte-order mark) is named as such.
  const auto u16 = write_file(dir / "u16.txt", std::string("\xFF\xFE"
                                                           "1\0\n\0",
                                                           6));
  const std::string m16 = input_error([&] { read_label_file(u16); });
  EXPECT_TRUE(contains(m16, "u16.txt:1: the file is UTF-16 text")) << m16;
}

TEST(HostileFiles, EveryLoaderChecksTheEncoding) {
  const auto dir = temp_dir("hostile");
  const auto arff =
      write_file(dir / "a.arff", "@relation r\n@attribute x numeric\n@attribute c {a,\xff}\n@data\n1,a\n");
  EXPECT_TRUE(contains(input_error([&] { load_arff(arff); }), "a.arff:3: invalid UTF-8: byte 0xff"));
  const auto fimi = write_file(dir / "f.dat", "1 2\n3 \xff\n");
  EXPECT_TRUE(contains(input_error([&] { load_fimi(fimi); }), "f.dat:2: invalid UTF-8"));
  const auto gow = write_file(dir / "g.txt", "0\tt\t1\t2\t3\n0\tt\xc3\x28\t1\t2\t3\n");
  EXPECT_TRUE(contains(input_error([&] { load_gowalla(gow); }), "g.txt:2: invalid UTF-8: byte 0xc3 at column 4"));
  const auto lab = write_file(dir / "l.txt", "1\n2\n\xef\xbf\n");
  EXPECT_TRUE(contains(input_error([&] { read_label_file(lab); }), "l.txt:3: invalid UTF-8"));
  // In gzip data the offset counts decompressed bytes.
  const auto gz = write_gzip(dir / "z.csv.gz", "x,y\n1,\x80\n");
  EXPECT_TRUE(contains(input_error([&] { load_csv(gz); }), "byte offset 6 of the decompressed text"));
}

TEST(HostileFiles, MessagesEscapeControlCharacters) {
  const auto dir = temp_dir("hostile");
  const auto p = write_file(dir / "esc.csv", "x,y\n1,2\n1,\x1b[2J\x07\n");
  CsvOptions named;
  named.header = true;
  named.columns = {"x", "y"};
  const std::string msg = input_error([&] { load_csv(p, named); });
  EXPECT_TRUE(contains(msg, "column 'y': the value is not a number")) << msg;
  EXPECT_FALSE(contains(msg, "2J")) << msg;
  expect_clean_message(msg);
  std::string long_label(500, 'z');
  long_label += "\x1b\n";  // appended: GCC 12 takes std::string(500, 'z') + "..." for an out-of-bounds memcpy
  const auto lab = write_file(dir / "l.txt", long_label);
  const std::string m2 = input_error([&] { read_label_file(lab); });
  EXPECT_LT(m2.size(), 400u) << m2;
  expect_clean_message(m2);
}

TEST(Text, Utf8ValidatorAndPrintable) {
  EXPECT_EQ(text::first_invalid_utf8(""), std::string::npos);
  EXPECT_EQ(text::first_invalid_utf8("plain ascii, long enough for the word loop 0123456789"), std::string::npos);
  EXPECT_EQ(text::first_invalid_utf8("\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF"),
            std::string::npos);
  EXPECT_EQ(text::first_invalid_utf8("abcdefghij\xFFk"), 10u);
  EXPECT_EQ(text::first_invalid_utf8(std::string("abcdefghijklmnop\0", 17)), 16u);
  EXPECT_EQ(text::first_invalid_utf8("ab\xE2\x82"), 2u);  // truncated at the end
  EXPECT_EQ(text::printable("a\xFF\x1b"
                            "b"),
            "a\\xff\\x1bb");
  EXPECT_EQ(text::printable(std::string(100, 'a'), 10), "aaaaaaaaaa...");
  EXPECT_EQ(text::printable("\xC3\xA9\xC3\xA9", 3), "\xC3\xA9...");  // never cut inside a character
}

}  // namespace
}  // namespace dpclust
