// A gzip-compressed copy's text (rule in derivations.hpp).
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "datasources/dataset_state.hpp"
#include "datasources/derivations.hpp"

namespace dpclust::datasources {
namespace fs = std::filesystem;

DerivationReport derive_gunzip(const fs::path& in, const fs::path& out, std::uint64_t text_bytes) {
  std::error_code ec;
  const auto compressed = fs::file_size(in, ec);
  const std::uint64_t bound = text_bytes ? text_bytes + text_bytes / 16 + (1 << 20)
                                         : std::max<std::uint64_t>(ec ? 0 : compressed, 1 << 20) * kMaxGzipExpansion;
  gzFile g = gzopen(in.c_str(), "rb");
  if (!g) throw InputError(in.string(), "cannot open as gzip");
  std::FILE* f = std::fopen(out.c_str(), "wb");
  if (!f) {
    gzclose(g);
    throw InputError(out.string(), std::string("cannot write: ") + std::strerror(errno),
                     "check that the data root is writable");
  }
  std::vector<char> buf(1 << 20);
  std::uint64_t total = 0, lines = 0;
  int got = 0;
  bool too_big = false, write_failed = false;
  while ((got = gzread(g, buf.data(), static_cast<unsigned>(buf.size()))) > 0) {
    total += static_cast<std::uint64_t>(got);
    if (total > bound) {
      too_big = true;
      break;
    }
    for (int i = 0; i < got; ++i) lines += buf[static_cast<std::size_t>(i)] == '\n';
    write_failed =
        write_failed || std::fwrite(buf.data(), 1, static_cast<std::size_t>(got), f) != static_cast<std::size_t>(got);
  }
  int err = Z_OK;
  const char* msg = gzerror(g, &err);
  const std::string what = msg ? msg : "";
  gzclose(g);
  write_failed = std::fclose(f) != 0 || write_failed;
  if (too_big)
    throw InputError(in.string(), "inflates to more than " + std::to_string(bound) + " bytes, the bound for this file",
                     "this is not the expected file");
  if (got < 0 || err != Z_OK)
    throw InputError(in.string(), "corrupt gzip data (" + what + ")", "fetch it again, or from another source");
  if (write_failed)
    throw InputError(out.string(), "write failed", "check the data root's file system (space, permissions)");
  DerivationReport rep;
  rep.rows_read = lines;
  rep.rows_written = lines;
  return rep;
}

}  // namespace dpclust::datasources
