// The trivial baseline: k centres uniform in the public domain; see uniform_centres.hpp.
#include "cluster/uniform_centres/uniform_centres.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "cluster/kmeans/nearest_search.hpp"

namespace dpclust {

UniformCentres uniform_centres(const Dataset& data, const Bounds& bounds, std::size_t k, Rng& rng) {
  const std::size_t d = data.d;
  if (bounds.dims() != d) throw std::logic_error("uniform_centres: bounds of another dimension than the data");
  UniformCentres out;
  out.centres.resize(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t j = 0; j < d; ++j)
      out.centres(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(j)) = rng.uniform(bounds.lo[j], bounds.hi[j]);
  out.labels.assign(data.n, 0);
  const NearestSearch search(out.centres.data(), k, d);
  std::vector<double> best(data.n), scratch;
  if (data.n > 0) search.search(data.coords.data(), data.n, out.labels.data(), best.data(), nullptr, scratch);
  return out;
}

}  // namespace dpclust
