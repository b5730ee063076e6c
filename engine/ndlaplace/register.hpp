#pragma once
// The nD-Laplace reproduction in the catalog: the method `nd_laplace` and the thesis's measures (paper_metrics.hpp).
#include "core/method_folder.hpp"

namespace dpclust {

namespace ndlaplace {
const MethodInfo& nd_laplace_method_info();
}  // namespace ndlaplace

// The catalog's entry for this folder (engine/methods.cmake).
MethodFolder ndlaplace_folder();

}  // namespace dpclust
