#pragma once
// FIMI `.dat` transaction files (the Frequent Itemset Mining Implementations repository, fimi.uantwerpen.be):
// the format of the DRBT paper's Accidents (340,183 x 18), Mushroom (8,124 x 23), Chess (3,196 x 37),
// Connect (67,557 x 43) and Pumsb (49,046 x 74). One transaction a line, its item ids as non-negative
// integers separated by blanks (a trailing space is common), plain or gzip.
//
// DRBT treats each transaction as a point whose attribute j is the j-th item of the line (that is how the
// paper's dimensions arise: Mushroom's lines all hold 23 items, Chess's 37, ...), so that is how they are
// loaded: coordinate j of point i = the j-th item id on line i, as a double (ids are small integers, so
// exact). Blank lines are skipped (they are not transactions in these files; a trailing one is common).
#include <cstddef>
#include <filesystem>
#include <string>

#include "core/dataset.hpp"

namespace dpclust {

// What to do when lines hold different numbers of items. Misaligned attributes would silently mean
// different things in different rows, so the default refuses.
enum class FimiRagged {
  error,     // (default) every line must hold as many items as the first; InputError at file:line otherwise
  pad,       // d = the longest line; shorter lines are padded with item id 0 at the end
  truncate,  // d = the shortest line; longer lines keep their first d items
};
const char* to_string(FimiRagged r);

struct FimiOptions {
  FimiRagged ragged = FimiRagged::error;
  // A fixed number of attributes (0 = decided by `ragged`): attribute j = the j-th item for j < N; a
  // longer line keeps its first N items, a shorter one is padded with item 0 under ragged: pad and
  // refused otherwise (ragged: truncate is not combined with it). DRBT's Accidents reading
  // (docs/choices.md): `items_per_row: 18, ragged: pad` gives the paper's 340,183 x 18 shape.
  std::size_t items_per_row = 0;
  // Read at most this many transactions; 0 (default) = all.
  std::size_t max_rows = 0;
  // Dataset name; empty (default) = the file name without extensions ("mushroom" for mushroom.dat.gz).
  std::string name{};
};

// d = items per transaction (see FimiRagged), columns "item0".."item<d-1>", no labels, no bounds.
// provenance: files = [fingerprint], format "fimi", ragged, rows, min_items, max_items, and the number
// of padded_rows / truncated_rows when those modes changed any row. Errors (InputError at file:line):
// a token that is not a non-negative integer (or exceeds 2^53, past which a double is not exact), a line
// whose length differs under ragged: error, and a file without transactions.
Dataset load_fimi(const std::filesystem::path& path, const FimiOptions& options = {});

}  // namespace dpclust
