// What the measures share; see measure_support.hpp.
#include "metrics/measure_support.hpp"

#include <stdexcept>

#include "core/rng.hpp"

namespace dpclust::measures {

std::uint64_t fingerprint(const MetricInput& in) {
  return *per_dataset<std::uint64_t>(in, "measures.coordinates_fingerprint", [&] {
    return coordinates_fingerprint(in.data.coords.data(), in.data.n, in.data.d);
  });
}

bool has_centres(const MetricInput& in) { return in.result.centres.rows() > 0; }

void check_centres(const MetricInput& in, const char* metric) {
  if (static_cast<std::size_t>(in.result.centres.cols()) != in.data.d)
    throw std::logic_error(std::string("metric '") + metric + "': method '" + in.method.name +
                           "' released centres with " + std::to_string(in.result.centres.cols()) +
                           " coordinates for data of dimension " + std::to_string(in.data.d));
}

const NearestCentres& nearest(const MetricInput& in, const char* metric) {
  check_centres(in, metric);
  return per_trial<NearestCentres>(in, "measures.nearest_centres", [&] {
    return nearest_centres(in.data.coords.data(), in.data.n, in.data.d, in.result.centres);
  });
}

const Labels& measure_labels(const MetricInput& in, const char* metric) {
  if (has_centres(in)) return nearest(in, metric).labels;
  if (in.result.labels.size() != in.data.n)
    throw std::invalid_argument(std::string("metric '") + metric + "': the method returned " +
                                std::to_string(in.result.labels.size()) + " labels for " + std::to_string(in.data.n) +
                                " points");
  return in.result.labels;
}

void require_true_labels(const MetricInput& in, const char* metric) {
  if (!in.data.has_labels())
    throw std::invalid_argument(std::string("metric '") + metric + "' needs ground-truth labels but dataset '" +
                                in.data.name + "' has none");
}

MetricInfo centre_measure(std::string name, std::string summary, std::function<double(const MetricInput&)> f) {
  MetricInfo m;
  m.name = std::move(name);
  m.summary = std::move(summary);
  m.needs_truth = false;
  m.needs_centres = true;
  m.by_default = false;
  m.compute = [f = std::move(f)](const MetricInput& in) { return has_centres(in) ? f(in) : kUndefined; };
  return m;
}

MetricInfo label_measure(std::string name, std::string summary, bool needs_truth,
                         std::function<double(const MetricInput&)> f) {
  MetricInfo m;
  m.name = std::move(name);
  m.summary = std::move(summary);
  m.needs_truth = needs_truth;
  m.by_default = false;
  m.compute = std::move(f);
  return m;
}

}  // namespace dpclust::measures
