#pragma once
// The method "uniform_centres": the trivial baseline of a benchmark, k centres uniform in the public domain
// (0-DP); release = the centres.
#include "core/method_folder.hpp"

namespace dpclust {

const MethodInfo& uniform_centres_method_info();
// The catalog's entry for this folder (engine/methods.cmake).
MethodFolder cluster_uniform_centres_folder();

}  // namespace dpclust
