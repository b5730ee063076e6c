#pragma once
// The method `dpm` (dpm.hpp) in the catalog.
#include "core/method_folder.hpp"

namespace dpclust {

// The catalog's entry for this folder (engine/methods.cmake): the method; the k-means measures read its
// MethodResult::centres.
MethodFolder dpm_folder();

namespace dpm {
const MethodInfo& dpm_method_info();
// The options from validated parameters (the epsilon, delta and sampler included).
struct DpmOptions;
DpmOptions options_of(const ParamSet& p);
}  // namespace dpm

}  // namespace dpclust
