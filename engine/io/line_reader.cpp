#include "io/line_reader.hpp"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <fstream>

#include "core/error.hpp"

namespace dpclust {
namespace fs = std::filesystem;

LineReader::LineReader(fs::path path, std::size_t buffer_bytes) : path_(std::move(path)) {
  std::error_code ec;
  if (!fs::exists(path_, ec))
    throw InputError(path_.string(), "file not found",
                     "check the path; relative paths are resolved against the data root or the working directory");
  if (fs::is_directory(path_, ec))
    throw InputError(path_.string(), "is a directory, not a data file", "name a file inside it");
  file_ = gzopen(path_.c_str(), "rb");
  if (!file_) throw InputError(path_.string(), "cannot open file for reading", "check the file's permissions");
  // zlib's own input buffer: larger than the 8 KiB default so inflate is fed in long runs.
  gzbuffer(file_, 256u << 10);
  cap_ = std::max<std::size_t>(buffer_bytes, 64);
  buf_ = std::make_unique<char[]>(cap_);
}

LineReader::~LineReader() {
  if (file_) gzclose(file_);
}

std::string LineReader::where(std::size_t line) const { return path_.string() + ":" + std::to_string(line); }

bool LineReader::compressed() const { return file_ && gzdirect(file_) == 0; }

bool LineReader::refill() {
  if (eof_) return false;
  // Keep the unfinished line, moved to the front, so a line never straddles two reads.
  if (begin_ > 0) {
    std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == cap_) {  // a single line longer than the buffer: grow rather than split it
    auto bigger = std::make_unique<char[]>(cap_ * 2);
    std::memcpy(bigger.get(), buf_.get(), end_);
    buf_ = std::move(bigger);
    cap_ *= 2;
  }
  const auto want = static_cast<unsigned>(std::min<std::size_t>(cap_ - end_, INT_MAX));
  const int got = gzread(file_, buf_.get() + end_, want);
  if (got < 0) {
    int code = 0;
    const char* msg = gzerror(file_, &code);
    throw InputError(where(line_no_ + 1), std::string("cannot read file: ") + (msg ? msg : "zlib error"),
                     "the file is truncated or not valid gzip; re-download or re-compress it");
  }
  if (got == 0) {
    // zlib reports a truncated gzip stream only through gzerror, as a soft Z_BUF_ERROR at "end of file".
    int code = Z_OK;
    gzerror(file_, &code);
    if (code == Z_BUF_ERROR)
      throw InputError(where(line_no_ + 1), "unexpected end of gzip data (the file is truncated)",
                       "re-download or re-compress the file");
    eof_ = true;
    return false;
  }
  end_ += static_cast<std::size_t>(got);
  return true;
}

bool LineReader::next(std::string_view& line) {
  std::size_t scanned = begin_;  // bytes before this offset hold no newline: do not scan them twice
  for (;;) {
    const char* base = buf_.get();
    const void* nl = std::memchr(base + scanned, '\n', end_ - scanned);
    if (nl) {
      const auto stop = static_cast<std::size_t>(static_cast<const char*>(nl) - base);
      line = std::string_view(base + begin_, stop - begin_);
      begin_ = stop + 1;
      break;
    }
    const std::size_t partial = end_ - begin_;
    if (!refill()) {
      if (partial == 0) return false;
      line = std::string_view(buf_.get() + begin_, end_ - begin_);  // last line without a newline
      begin_ = end_;
      break;
    }
    scanned = partial;  // after refill the partial line starts at offset 0 and holds no newline
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (++line_no_ == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  return true;
}

std::size_t estimated_text_bytes(const fs::path& path) {
  std::error_code ec;
  const auto size = static_cast<std::size_t>(fs::file_size(path, ec));
  if (ec) return 0;
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[2] = {0, 0};
  in.read(reinterpret_cast<char*>(magic), 2);
  if (!in || magic[0] != 0x1f || magic[1] != 0x8b || size < 18) return size;
  unsigned char tail[4];
  in.seekg(-4, std::ios::end);
  in.read(reinterpret_cast<char*>(tail), 4);
  if (!in) return size * 4;
  const std::size_t isize = std::size_t{tail[0]} | std::size_t{tail[1]} << 8 | std::size_t{tail[2]} << 16 |
                            std::size_t{tail[3]} << 24;
  return std::max(isize, size * 3);
}

}  // namespace dpclust
