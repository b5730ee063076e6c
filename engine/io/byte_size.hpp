#pragma once
// Sizes in bytes: one rule for every size a user writes (--max-memory, DPCLUST_MAX_DATA_BYTES,
// DPCLUST_MAX_LINE_BYTES, DPCLUST_FETCH_MAX_BYTES) and one form for every size a message shows.
//
// Written: a number ("512", "1.5") and an optional unit K, M, G or T in either case. The units are powers
// of 1024, as in Slurm's --mem, ulimit and Java's -Xmx, the places a user of --max-memory has written sizes
// before; the unit may end in B or iB, so "8G", "8GB", "8gib" are all 8 x 2^30 bytes, and "B" alone is a
// byte. Blanks around the text are ignored. A fraction is rounded down to whole bytes; the result must be
// at least 1 byte and below 2^64 (16 EiB). Anything else ("12Q", "G", "-1G", "0", "1.2.3M") is not a size.
//
// Shown: in the largest binary unit that leaves at least 1 (bytes below 1 KiB): a whole number when the
// size is a whole number of that unit ("64 MiB", "1000 bytes"), else one decimal ("1.5 GiB").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dpclust {

// The size `text` writes by the rule above; nullopt when it is not one.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);
// The same, or an InputError at `where` (the option or variable the text came from: "--max-memory",
// "$DPCLUST_FETCH_MAX_BYTES") that shows the text escaped and states the rule.
std::uint64_t byte_size_or_throw(std::string_view text, const std::string& where);

// The size as a message shows it, by the rule above: "800 bytes", "64 MiB", "1.5 GiB".
std::string format_bytes(std::uint64_t bytes);
// An estimate (a double, possibly beyond 2^64): the same form; negative or NaN as 0, 16 EiB and more as
// "more than 16 EiB".
std::string format_bytes(double bytes);

}  // namespace dpclust
