#pragma once
// Label files for `dpclust score`: the labels some other program produced, one per point, so that
// they are scored with exactly the metrics used for our own runs.
#include <filesystem>

#include "core/dataset.hpp"

namespace dpclust {

// One integer per line (-1 = noise, other labels >= 0); blank lines are allowed only at the end.
// Anything else is an InputError at file:line.
Labels read_label_file(const std::filesystem::path& path);

}  // namespace dpclust
