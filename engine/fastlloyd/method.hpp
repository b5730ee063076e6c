#pragma once
// The method "fastlloyd": its declared parameters, the adapter from them to fastlloyd(), and what a trial releases
// (the centres, and the noisy N and counts), publishes as diagnostics (the plan: T, radii, noise scales, grids)
// and keeps for evaluation (inertia, the points outside every radius).
#include "core/method.hpp"
#include "fastlloyd/fastlloyd.hpp"

namespace dpclust::fastlloyd {

const MethodInfo& fastlloyd_method_info();

// The options a validated parameter set describes.
FastLloydOptions options_of(const ParamSet& params);

}  // namespace dpclust::fastlloyd
