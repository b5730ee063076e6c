#include "io/label_text.hpp"

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "io/line_reader.hpp"
#include "io/text.hpp"

namespace dpclust {

// Integer labels written as floats ("1.0", as pandas does after a NaN) still count as integers.
static bool integer_value(std::string_view t, std::int64_t& out) {
  if (text::parse_int(t, out)) return true;
  double v;
  if (!text::parse_double(t, v) || !std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 2e9) return false;
  out = static_cast<std::int64_t>(v);
  return true;
}

bool label_like_name(std::string_view name) {
  return text::iequals(name, "class") || text::iequals(name, "label") || text::iequals(name, "target");
}

Label LabelText::code(std::string_view t, const LineReader& in, const std::string& column, std::size_t record) {
  if (auto it = codes_.find(t); it != codes_.end()) return it->second;
  if (t.empty())
    throw InputError(in.where(),
                     text::record_label(record) + ": label column '" + text::printable(column) + "' is empty",
                     "give every row a label (use noise or -1 for noise)");
  std::int64_t v = 0;
  const bool is_int = integer_value(t, v);
  Label c;
  if (text::iequals(t, "noise") || (is_int && v == -1)) {
    c = kNoise;
  } else {
    if (!is_int || v < std::numeric_limits<Label>::min() || v > std::numeric_limits<Label>::max()) all_int_ = false;
    c = static_cast<Label>(texts_.size());
    texts_.emplace_back(t);
    values_.push_back(v);
  }
  codes_.emplace(std::string(t), c);
  return c;
}

void LabelText::finish(Labels& labels) const {
  if (!all_int_) return;  // the codes already are the category numbers
  for (Label& l : labels)
    if (l != kNoise) l = static_cast<Label>(values_[static_cast<std::size_t>(l)]);
}

nlohmann::json LabelText::mapping() const {
  nlohmann::json m = nlohmann::json::object();
  for (std::size_t i = 0; i < texts_.size(); ++i) m[texts_[i]] = i;
  for (const auto& [t, c] : codes_)
    if (c == kNoise) m[t] = kNoise;
  return m;
}

}  // namespace dpclust
