#pragma once
// Line-by-line reading of large text files, plain or gzip, at memory bandwidth: the loaders of
// multi-million-row data sets spend their time here, so lines are handed out as views into one big
// buffer (no allocation per line) and the 1-based line number is tracked for error messages.
//
// Every data file goes through here, so this is also where hostile files are stopped:
// - only regular files are read: a FIFO, a device such as /dev/zero, a socket or a directory is refused
//   before anything is read (the file is opened with O_NONBLOCK, so opening a FIFO cannot block, and
//   checked again with fstat after opening);
// - at most ReadLimits::max_bytes bytes of (decompressed) text are read from one file, so a gzip bomb
//   stops with an InputError instead of exhausting memory or time; loaders bound the memory of what
//   they parse by the same number (LineReader::check_values);
// - a line longer than ReadLimits::max_line_bytes is refused instead of being buffered whole;
// - every line must be valid UTF-8 (ASCII is UTF-8) without NUL bytes: the error names file:line, the
//   column and the byte offset, and shows the offending byte escaped ("0xff"), never raw.
// Sizes written in a file (the gzip ISIZE trailer) are only used as a hint, capped (estimated_bytes).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

struct gzFile_s;  // zlib's handle, kept out of this header

namespace dpclust {

struct ReadLimits {
  // Decompressed bytes read from one data file. Default: 16 GiB, or half the physical memory when that
  // is smaller (at least 1 GiB); environment DPCLUST_MAX_DATA_BYTES overrides it.
  std::uint64_t max_bytes = std::uint64_t{16} << 30;
  // Bytes in one line (without its terminator). Default 64 MiB; DPCLUST_MAX_LINE_BYTES overrides it.
  std::size_t max_line_bytes = std::size_t{64} << 20;
};
// The limits above with the environment applied. Throws InputError naming the variable when it is not
// a size in bytes by the rule of io/byte_size.hpp (e.g. 64G; K, M, G, T are powers of 1024).
ReadLimits default_read_limits();

class LineReader {
 public:
  // 4 MiB: large enough that gzread and memchr run in long streaks, small enough to stay in L2/L3.
  static constexpr std::size_t kDefaultBufferBytes = std::size_t{4} << 20;

  // Opens `path`; gzip is detected from the content (zlib reads plain files transparently).
  // Throws InputError when the file does not exist, is not a regular file or cannot be opened.
  explicit LineReader(std::filesystem::path path, std::size_t buffer_bytes = kDefaultBufferBytes);
  LineReader(std::filesystem::path path, std::size_t buffer_bytes, const ReadLimits& limits);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its terminator ("\n" or "\r\n"); a UTF-8 byte-order mark on the first line
  // is dropped. The view is valid until the next call. Returns false at the end of the file.
  // Throws InputError on corrupt gzip data, invalid UTF-8 or NUL, a line over the limit, or more text
  // than the limit.
  bool next(std::string_view& line);

  // 1-based number of the line last returned by next() (0 before the first call).
  std::size_t line_number() const { return line_no_; }
  // "path:line" for error messages: the line last returned, or an explicit line.
  std::string where() const { return where(line_no_); }
  std::string where(std::size_t line) const;
  const std::filesystem::path& path() const { return path_; }
  // True when the file is gzip-compressed (valid after the first next()).
  bool compressed() const;
  const ReadLimits& limits() const { return limits_; }

  // Upper-end estimate of the decompressed size in bytes, for reserving output vectors: the file size,
  // or for gzip the size its trailer records (a 32-bit field the file's author controls, so it is
  // clamped to [3, 16] times the compressed size), never more than limits().max_bytes.
  std::size_t estimated_bytes() const { return estimate_; }

  // The most numbers (doubles) a loader keeps from this file: limits().max_bytes / 8, so the memory of
  // the parsed points is bounded by the same limit as the text.
  std::size_t max_values() const { return static_cast<std::size_t>(limits_.max_bytes / sizeof(double)); }
  // Throws InputError at the current line when `values` exceeds max_values().
  void check_values(std::size_t values) const {
    if (values > max_values()) too_many_values(values);
  }

 private:
  bool refill();  // false when no more data could be read
  [[noreturn]] void too_many_values(std::size_t values) const;
  [[noreturn]] void line_too_long() const;
  [[noreturn]] void bad_text(std::string_view line, std::size_t at) const;

  std::filesystem::path path_;
  ReadLimits limits_;
  gzFile_s* file_ = nullptr;
  std::unique_ptr<char[]> buf_;  // unique_ptr<char[]>: no zero-fill of megabytes we overwrite anyway
  std::size_t cap_ = 0, begin_ = 0, end_ = 0;
  std::uint64_t buf_offset_ = 0;  // offset in the (decompressed) text of buf_[0]
  std::uint64_t total_ = 0;       // decompressed bytes read so far
  std::size_t estimate_ = 0;
  bool eof_ = false;
  std::size_t line_no_ = 0;
};

}  // namespace dpclust
