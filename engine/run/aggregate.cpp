#include "run/aggregate.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace dpclust {

nlohmann::json summarize(const std::vector<double>& values) {
  std::vector<double> v;
  for (double x : values)
    if (std::isfinite(x)) v.push_back(x);
  nlohmann::json j;
  j["n"] = v.size();
  if (v.size() != values.size()) j["missing"] = values.size() - v.size();
  if (v.empty()) return j;
  double sum = 0;
  for (double x : v) sum += x;
  const double mean = sum / static_cast<double>(v.size());
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  const double sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0.0;
  j["mean"] = mean;
  j["std"] = sd;
  if (v.size() > 1) {
    boost::math::students_t t(static_cast<double>(v.size() - 1));
    const double half =
        boost::math::quantile(boost::math::complement(t, 0.025)) * sd / std::sqrt(static_cast<double>(v.size()));
    j["ci95"] = {mean - half, mean + half};
  } else {
    j["ci95"] = nullptr;
  }
  j["min"] = *std::min_element(v.begin(), v.end());
  j["max"] = *std::max_element(v.begin(), v.end());
  return j;
}

}  // namespace dpclust
