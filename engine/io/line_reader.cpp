#include "io/line_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"
#include "io/byte_size.hpp"
#include "io/text.hpp"

namespace dpclust {
namespace fs = std::filesystem;

namespace {

// A limit from the environment, by the rule of io/byte_size.hpp. Capped at 2^62 bytes: far beyond any file,
// and room for the "+ 1" of the reader's arithmetic (a limit plus the byte that shows it is exceeded).
std::uint64_t env_size(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  return std::min(byte_size_or_throw(v, std::string("environment ") + name), std::uint64_t{1} << 62);
}

std::uint64_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

const char* file_kind(mode_t m) {
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISDIR(m)) return "a directory";
  return "not a regular file";
}

[[noreturn]] void not_regular(const fs::path& p, mode_t m) {
  if (S_ISDIR(m)) throw InputError(p.string(), "is a directory, not a data file", "name a file inside it");
  throw InputError(
      p.string(),
      std::string("not a regular file: it is ") + file_kind(m) + "; data files are read only from regular files",
      "save the data to a file first (e.g. `cat ... > data.csv`) and name that file");
}

// Opens a regular file for reading without ever blocking (a FIFO with no writer would block open()).
int open_regular(const fs::path& p) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR)
      throw InputError(p.string(), "file not found",
                       "check the path; relative paths are resolved against the data root or the working directory");
    throw InputError(p.string(), std::string("cannot access the file: ") + std::strerror(errno),
                     "check the path and its permissions");
  }
  if (!S_ISREG(st.st_mode)) not_regular(p, st.st_mode);
  const int fd = ::open(p.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    throw InputError(p.string(), std::string("cannot open file for reading: ") + std::strerror(errno),
                     "check the file's permissions");
  // The path may have been replaced between stat and open: check what was opened.
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const mode_t m = st.st_mode;
    ::close(fd);
    not_regular(p, m);
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

// See LineReader::estimated_bytes.
std::size_t estimate_size(int fd, std::uint64_t max_bytes) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size < 0) return 0;
  const auto size = static_cast<std::uint64_t>(st.st_size);
  std::uint64_t est = size;
  unsigned char magic[2] = {0, 0};
  unsigned char tail[4];
  if (size >= 18 && ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
    est = size * 4;
    if (::pread(fd, tail, 4, static_cast<off_t>(size - 4)) == 4) {
      const std::uint64_t isize = std::uint64_t{tail[0]} | std::uint64_t{tail[1]} << 8 | std::uint64_t{tail[2]} << 16 |
                                  std::uint64_t{tail[3]} << 24;
      // ISIZE is the size modulo 4 GiB and written by whoever made the file: a hint, never trusted.
      est = std::clamp(isize, size * 3, size * 16);
    }
  }
  return static_cast<std::size_t>(std::min(est, max_bytes));
}

}  // namespace

ReadLimits default_read_limits() {
  ReadLimits l;
  const std::uint64_t mem = physical_memory();
  if (mem) l.max_bytes = std::min(l.max_bytes, std::max(mem / 2, std::uint64_t{1} << 30));
  l.max_bytes = env_size("DPCLUST_MAX_DATA_BYTES", l.max_bytes);
  l.max_line_bytes = static_cast<std::size_t>(env_size("DPCLUST_MAX_LINE_BYTES", l.max_line_bytes));
  return l;
}

LineReader::LineReader(fs::path path, std::size_t buffer_bytes)
    : LineReader(std::move(path), buffer_bytes, default_read_limits()) {}

LineReader::LineReader(fs::path path, std::size_t buffer_bytes, const ReadLimits& limits)
    : path_(std::move(path)), limits_(limits) {
  limits_.max_line_bytes = std::max<std::size_t>(limits_.max_line_bytes, 1);
  const int fd = open_regular(path_);
  estimate_ = estimate_size(fd, limits_.max_bytes);
  file_ = gzdopen(fd, "rb");
  if (!file_) {
    ::close(fd);
    throw InputError(path_.string(), "cannot open file for reading (out of memory in zlib)",
                     "retry with more memory available");
  }
  // zlib's input buffer and ours: long runs for a large file, no larger than a small one needs (a loader reads a
  // file two or three times, and a test or a fuzzing run reads thousands of small files: megabytes allocated
  // for each took half the fuzzing time under the sanitizers). The buffer grows if a line does not fit, and
  // is not zero-filled: only bytes read into it are ever looked at.
  const std::size_t wanted = std::max<std::size_t>(estimate_ + 1, std::size_t{64} << 10);
  gzbuffer(file_, static_cast<unsigned>(std::min<std::size_t>(wanted, 256u << 10)));
  cap_ = std::max<std::size_t>(64, std::min({buffer_bytes, limits_.max_line_bytes + 1, wanted}));
  buf_ = std::make_unique_for_overwrite<char[]>(cap_);
}

LineReader::~LineReader() {
  if (file_) gzclose(file_);
}

std::string LineReader::where(std::size_t line) const { return path_.string() + ":" + std::to_string(line); }

bool LineReader::compressed() const { return file_ && gzdirect(file_) == 0; }

void LineReader::too_many_values(std::size_t values) const {
  throw InputError(where(),
                   "the data needs at least " + (values == SIZE_MAX ? std::string("2^64") : std::to_string(values)) +
                       " numbers in memory, more than the " + std::to_string(max_values()) + " (" +
                       format_bytes(limits_.max_bytes) + ") allowed for one data file",
                   "if the file really is this large, raise the limit with the environment variable "
                   "DPCLUST_MAX_DATA_BYTES (e.g. DPCLUST_MAX_DATA_BYTES=64G), or read fewer rows (max_rows)");
}

void LineReader::line_too_long() const {
  throw InputError(where(line_no_ + 1),
                   "line longer than " + format_bytes(limits_.max_line_bytes) +
                       " (the limit for one line); is this a binary file, or a file without line breaks?",
                   "check that this is the right file and format; if its lines really are this long, raise the limit "
                   "with the environment variable DPCLUST_MAX_LINE_BYTES");
}

void LineReader::bad_text(std::string_view line, std::size_t at) const {
  const auto c = static_cast<unsigned char>(line[at]);
  const std::uint64_t offset = buf_offset_ + static_cast<std::uint64_t>(line.data() - buf_.get()) + at;
  const std::string pos = " at column " + std::to_string(at + 1) + " (byte offset " + std::to_string(offset) +
                          (compressed() ? " of the decompressed text)" : ")");
  if (line_no_ == 0 && line.size() >= 2 &&
      ((line[0] == '\xFF' && line[1] == '\xFE') || (line[0] == '\xFE' && line[1] == '\xFF')))
    throw InputError(where(1),
                     "the file is UTF-16 text (it starts with a UTF-16 byte-order mark); data files must be UTF-8",
                     "convert it, e.g. `iconv -f utf-16 -t utf-8 in.csv > out.csv`");
  if (c == 0)
    throw InputError(where(line_no_ + 1), "NUL byte" + pos + "; data files must be text",
                     "check that this is the right file: a binary file, or text saved as UTF-16, contains NUL bytes");
  throw InputError(where(line_no_ + 1), "invalid UTF-8: byte " + text::describe_byte(c) + pos,
                   "data files must be UTF-8 text (ASCII is UTF-8); convert it, e.g. `iconv -f latin1 -t utf-8 "
                   "in.csv > out.csv`, or check that this is the right file");
}

bool LineReader::refill() {
  if (eof_) return false;
  // Keep the unfinished line, moved to the front, so a line never straddles two reads.
  if (begin_ > 0) {
    std::memmove(buf_.get(), buf_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    buf_offset_ += begin_;
    begin_ = 0;
  }
  if (end_ == cap_) {  // a single line longer than the buffer: grow rather than split it, up to the limit
    if (cap_ > limits_.max_line_bytes) line_too_long();
    const std::size_t bigger_cap = std::min(cap_ * 2, limits_.max_line_bytes + 1);
    auto bigger = std::make_unique_for_overwrite<char[]>(bigger_cap);
    std::memcpy(bigger.get(), buf_.get(), end_);
    buf_ = std::move(bigger);
    cap_ = bigger_cap;
  }
  // Never read more than one byte past the limit: enough to know it is exceeded.
  const std::uint64_t allowed = limits_.max_bytes - std::min(total_, limits_.max_bytes) + 1;
  const auto want = static_cast<unsigned>(std::min<std::uint64_t>({cap_ - end_, INT_MAX, allowed}));
  const int got = gzread(file_, buf_.get() + end_, want);
  if (got < 0) {
    int code = 0;
    const char* msg = gzerror(file_, &code);
    throw InputError(where(line_no_ + 1), "cannot read file: " + text::printable(msg ? msg : "zlib error", 200),
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
  total_ += static_cast<std::uint64_t>(got);
  if (total_ > limits_.max_bytes)
    throw InputError(
        where(line_no_ + 1),
        std::string("the file holds more than ") + format_bytes(limits_.max_bytes) +
            (compressed() ? " of decompressed text (a corrupt file or a decompression bomb?)" : " of text") +
            ", the limit for one data file",
        "check the file; if it really is this large, raise the limit with the environment variable "
        "DPCLUST_MAX_DATA_BYTES (e.g. DPCLUST_MAX_DATA_BYTES=64G)");
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
      if (stop - begin_ > limits_.max_line_bytes) line_too_long();
      line = std::string_view(base + begin_, stop - begin_);
      begin_ = stop + 1;
      break;
    }
    const std::size_t partial = end_ - begin_;
    if (partial > limits_.max_line_bytes) line_too_long();
    if (!refill()) {
      if (partial == 0) return false;
      line = std::string_view(buf_.get() + begin_, end_ - begin_);  // last line without a newline
      begin_ = end_;
      break;
    }
    scanned = partial;  // after refill the partial line starts at offset 0 and holds no newline
  }
  if (const std::size_t bad = text::first_invalid_utf8(line); bad != std::string_view::npos) bad_text(line, bad);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (++line_no_ == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  return true;
}

}  // namespace dpclust
