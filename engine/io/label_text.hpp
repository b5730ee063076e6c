#pragma once
// Turns the text of a label column into dpclust labels in one pass: integer labels are kept, "noise"
// and -1 mean noise, and a column with any non-integer label is treated as categories numbered in
// order of first appearance. One pass matters for multi-million-row files: we cannot know whether a
// later row holds a non-integer label, so every distinct text gets a code and the codes are mapped
// to integers (or kept as category numbers) at the end.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust {

class LineReader;

// A name that says its column or attribute holds the class: class, label or target, in any case. The
// loaders take such a column as the label when the config names none (io/csv.hpp, io/arff.hpp).
bool label_like_name(std::string_view name);

class LabelText {
 public:
  // The provisional code of a label text (kNoise for noise); throws InputError at the reader's line
  // for an empty label, naming `record` (0-based) and never a label text.
  Label code(std::string_view text, const LineReader& in, const std::string& column, std::size_t record);
  // Rewrites provisional codes into final labels.
  void finish(Labels& labels) const;
  // True when every non-noise label text was an integer (labels kept as their values).
  bool integer() const { return all_int_; }
  // {"text": label} for categorical labels, for provenance.
  nlohmann::json mapping() const;

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, Label, Hash, std::equal_to<>> codes_;
  std::vector<std::string> texts_;    // code -> text
  std::vector<std::int64_t> values_;  // code -> integer value (when all_int_)
  bool all_int_ = true;
};

}  // namespace dpclust
