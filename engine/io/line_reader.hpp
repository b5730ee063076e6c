#pragma once
// Line-by-line reading of large text files, plain or gzip, at memory bandwidth: the loaders of
// multi-million-row data sets spend their time here, so lines are handed out as views into one big
// buffer (no allocation per line) and the 1-based line number is tracked for error messages.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

struct gzFile_s;  // zlib's handle, kept out of this header

namespace dpclust {

class LineReader {
 public:
  // 4 MiB: large enough that gzread and memchr run in long streaks, small enough to stay in L2/L3.
  static constexpr std::size_t kDefaultBufferBytes = std::size_t{4} << 20;

  // Opens `path`; gzip is detected from the content (zlib reads plain files transparently).
  // Throws InputError when the file does not exist or cannot be opened.
  explicit LineReader(std::filesystem::path path, std::size_t buffer_bytes = kDefaultBufferBytes);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its terminator ("\n" or "\r\n"); a UTF-8 byte-order mark on the first line
  // is dropped. The view is valid until the next call. Returns false at the end of the file.
  // Throws InputError on corrupt gzip data.
  bool next(std::string_view& line);

  // 1-based number of the line last returned by next() (0 before the first call).
  std::size_t line_number() const { return line_no_; }
  // "path:line" for error messages: the line last returned, or an explicit line.
  std::string where() const { return where(line_no_); }
  std::string where(std::size_t line) const;
  const std::filesystem::path& path() const { return path_; }
  // True when the file is gzip-compressed (valid after the first next()).
  bool compressed() const;

 private:
  bool refill();  // false when no more data could be read

  std::filesystem::path path_;
  gzFile_s* file_ = nullptr;
  std::unique_ptr<char[]> buf_;  // unique_ptr<char[]>: no zero-fill of megabytes we overwrite anyway
  std::size_t cap_ = 0, begin_ = 0, end_ = 0;
  bool eof_ = false;
  std::size_t line_no_ = 0;
};

// Upper-end estimate of the uncompressed size of a file in bytes (for reserving output vectors):
// the file size, or for gzip the size recorded in its trailer (modulo 4 GiB, so it is bounded below
// by 3x the compressed size to survive the wrap-around).
std::size_t estimated_text_bytes(const std::filesystem::path& path);

}  // namespace dpclust
