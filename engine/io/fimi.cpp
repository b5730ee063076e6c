#include "io/fimi.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/files.hpp"
#include "io/csv.hpp"
#include "io/line_reader.hpp"
#include "io/text.hpp"

namespace dpclust {

const char* to_string(FimiRagged r) {
  switch (r) {
    case FimiRagged::error: return "error";
    case FimiRagged::pad: return "pad";
    case FimiRagged::truncate: return "truncate";
  }
  return "?";
}

namespace {

// Largest integer a double holds exactly: ids above it would be rounded, and two items could merge.
constexpr std::uint64_t kMaxExactId = std::uint64_t{1} << 53;

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// Named by line, transaction index and position, never by the token (text.hpp): an
// item id of a private transaction is data whether or not it parses.
[[noreturn, gnu::cold, gnu::noinline]] void bad_token(const LineReader& in, std::size_t pos, std::size_t record) {
  throw InputError(in.where(),
                   text::record_label(record) + ", item " + std::to_string(pos + 1) +
                       ": not a non-negative integer item id (at most 2^53)" + text::kValueNotShown,
                   "a FIMI .dat line lists item ids separated by spaces; fix or remove the line "
                   "(is this the right file and format?)");
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_length(const LineReader& in, std::size_t expected, std::size_t found,
                                                       std::size_t first_line) {
  throw InputError(in.where(),
                   "transaction has " + std::to_string(found) + " items, but the first (line " +
                       std::to_string(first_line) + ") has " + std::to_string(expected) +
                       "; attribute j is the j-th item, so rows of different lengths would misalign",
                   "check the file (the DRBT sets hold the same number of items on every line); a dataset's "
                   "`ragged: pad` (with item 0) or `ragged: truncate` (to the shortest line), or `items_per_row: N`, "
                   "reads ragged files");
}

[[noreturn, gnu::cold, gnu::noinline]] void too_short(const LineReader& in, std::size_t wanted, std::size_t found) {
  throw InputError(
      in.where(),
      "transaction has " + std::to_string(found) + " items, fewer than items_per_row " + std::to_string(wanted),
      "add `ragged: pad` to pad short transactions with item 0, or lower items_per_row");
}

// Appends the items of `line` to `out`; returns how many.
std::size_t parse_items(std::string_view line, const LineReader& in, std::size_t record, std::vector<double>& out) {
  std::size_t count = 0;
  std::size_t i = 0;
  const std::size_t n = line.size();
  for (;;) {
    while (i < n && is_blank(line[i])) ++i;
    if (i == n) return count;
    const std::size_t start = i;
    while (i < n && !is_blank(line[i])) ++i;
    const std::string_view token = line.substr(start, i - start);
    std::uint64_t id = 0;
    // from_chars into an unsigned type accepts no sign, so "-3" and "+3" fail here, as do "3.5" and "x".
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), id);
    if (ec != std::errc() || end != token.data() + token.size() || id > kMaxExactId) bad_token(in, count, record);
    out.push_back(static_cast<double>(id));
    ++count;
  }
}

}  // namespace

Dataset load_fimi(const std::filesystem::path& path, const FimiOptions& options) {
  LineReader in(path);
  // Items of all lines back to back plus each line's length: under pad/truncate the dimension is known
  // only at the end. Under error (and whenever the lines agree) `items` already is the row-major matrix.
  std::vector<double> items;
  std::vector<std::uint32_t> lengths;
  std::size_t first_len = 0, first_line = 0, min_len = SIZE_MAX, max_len = 0;
  std::size_t min_seen = SIZE_MAX, max_seen = 0;  // items per line in the file (before items_per_row)
  std::size_t fixed_rows = 0;                     // lines cut or padded to items_per_row
  std::string_view line;
  while ((options.max_rows == 0 || lengths.size() < options.max_rows) && in.next(line)) {
    std::size_t len = parse_items(line, in, lengths.size(), items);
    if (len == 0) continue;  // a blank line is not a transaction
    min_seen = std::min(min_seen, len);
    max_seen = std::max(max_seen, len);
    if (options.items_per_row != 0 && len != options.items_per_row) {
      // A fixed width: the first items_per_row items, short lines padded with item 0 (or refused).
      if (len > options.items_per_row) {
        items.resize(items.size() - (len - options.items_per_row));
      } else {
        if (options.ragged != FimiRagged::pad) too_short(in, options.items_per_row, len);
        items.resize(items.size() + (options.items_per_row - len), 0.0);
      }
      ++fixed_rows;
      len = options.items_per_row;
    }
    if (lengths.empty()) {
      first_len = len;
      first_line = in.line_number();
      const std::size_t rows = in.estimated_bytes() / (line.size() + 1) * 9 / 8 + 16;
      items.reserve(std::min((options.max_rows ? std::min(rows, options.max_rows) : rows) * len, in.max_values()));
    } else if (len != first_len && options.ragged == FimiRagged::error) {
      bad_length(in, first_len, len, first_line);
    }
    min_len = std::min(min_len, len);
    max_len = std::max(max_len, len);
    lengths.push_back(static_cast<std::uint32_t>(len));
    in.check_values(items.size() + lengths.size() / 2);
  }
  if (lengths.empty())
    throw InputError(path.string(), "file is empty (no transactions)", "check that this is the right file");

  Dataset ds;
  ds.name = options.name.empty() ? dataset_stem(path) : options.name;
  ds.n = lengths.size();
  std::size_t changed = 0;  // rows padded or truncated
  if (min_len == max_len) {
    ds.d = max_len;
    ds.coords = std::move(items);
  } else {
    // Only reachable under pad or truncate (error mode threw at the first differing line).
    ds.d = options.ragged == FimiRagged::pad ? max_len : min_len;
    // Padding multiplies: one long line among many short ones would make n x d huge.
    in.check_values(ds.n > SIZE_MAX / ds.d ? SIZE_MAX : ds.n * ds.d);
    ds.coords.assign(ds.n * ds.d, 0.0);  // 0 is the pad item id
    std::size_t from = 0;
    for (std::size_t r = 0; r < ds.n; ++r) {
      const std::size_t len = lengths[r];
      std::copy_n(items.begin() + static_cast<std::ptrdiff_t>(from), std::min(len, ds.d),
                  ds.coords.begin() + static_cast<std::ptrdiff_t>(r * ds.d));
      changed += len != ds.d;
      from += len;
    }
  }
  if (ds.coords.capacity() > ds.coords.size() + ds.coords.size() / 4) ds.coords.shrink_to_fit();
  for (std::size_t j = 0; j < ds.d; ++j) ds.column_names.push_back("item" + std::to_string(j));

  ds.provenance["files"] = nlohmann::json::array({file_fingerprint(path)});
  ds.provenance["format"] = "fimi";
  ds.provenance["ragged"] = to_string(options.ragged);
  ds.provenance["rows"] = ds.n;
  ds.provenance["min_items"] = min_seen;
  ds.provenance["max_items"] = max_seen;
  if (options.items_per_row) {
    ds.provenance["items_per_row"] = options.items_per_row;
    if (fixed_rows) ds.provenance["cut_or_padded_rows"] = fixed_rows;
  }
  if (options.ragged == FimiRagged::pad && changed) ds.provenance["padded_rows"] = changed;
  if (options.ragged == FimiRagged::truncate && changed) ds.provenance["truncated_rows"] = changed;
  if (options.max_rows) ds.provenance["max_rows"] = options.max_rows;
  return ds;
}

}  // namespace dpclust
