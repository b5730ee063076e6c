#include "io/label_file.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "io/line_reader.hpp"
#include "io/text.hpp"

namespace dpclust {

Labels read_label_file(const std::filesystem::path& path) {
  LineReader in(path);
  Labels labels;
  std::size_t first_blank = 0;  // a blank line is fine only if nothing but blanks follows it
  std::string_view line;
  while (in.next(line)) {
    const std::string_view t = text::trim(line);
    if (t.empty()) {
      if (!first_blank) first_blank = in.line_number();
      continue;
    }
    if (first_blank)
      throw InputError(in.where(first_blank), "blank line before more labels",
                       "remove the blank line: a label file has exactly one label per point, in point order");
    std::int64_t v = 0;
    // The label of a record is data: named by line and record index, never shown.
    if (!text::parse_int(t, v))
      throw InputError(in.where(),
                       text::record_label(labels.size()) + ": expected one integer label; the line is not one" +
                           text::kValueNotShown,
                       "write one integer per line (-1 for noise)");
    if (v < -1 || v > std::numeric_limits<Label>::max())
      throw InputError(in.where(),
                       text::record_label(labels.size()) + ": the label is out of range" + text::kValueNotShown,
                       "labels are -1 (noise) or 0 .. 2147483647");
    labels.push_back(static_cast<Label>(v));
    in.check_values(labels.size());
  }
  if (labels.empty()) throw InputError(path.string(), "label file is empty", "write one integer label per point");
  return labels;
}

}  // namespace dpclust
