// The trivial baseline: k centres uniform in the public domain; see uniform_centres.hpp.
#include "cluster/uniform_centres/uniform_centres.hpp"

#include <memory>
#include <string>
#include <vector>

#include "cluster/kmeans/nearest_search.hpp"
#include "core/error.hpp"

namespace dpclust {

UniformCentres uniform_centres(const Dataset& data, const Bounds& bounds, std::size_t k, Rng& rng) {
  const std::size_t d = data.d;
  if (bounds.dims() != d) throw std::logic_error("uniform_centres: bounds of another dimension than the data");
  UniformCentres out;
  out.centres.resize(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t j = 0; j < d; ++j) out.centres(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(j)) = rng.uniform(bounds.lo[j], bounds.hi[j]);
  out.labels.assign(data.n, 0);
  const NearestSearch search(out.centres.data(), k, d);
  std::vector<double> best(data.n), scratch;
  if (data.n > 0) search.search(data.coords.data(), data.n, out.labels.data(), best.data(), nullptr, scratch);
  return out;
}

namespace {

class UniformCentresMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& /*ledger: 0-DP, nothing to charge*/) const override {
    if (data.bounds.empty())
      throw InputError("bounds", "uniform_centres draws its centres from the public domain, and dataset '" + data.name + "' has none",
                       "give the dataset public bounds: [[lo, hi], ...]");
    const auto k = static_cast<std::size_t>(params.integer("k"));
    UniformCentres u = uniform_centres(data, data.bounds, k, rng);
    MethodResult r;
    r.labels = std::move(u.labels);
    r.labels_are_release = false;
    nlohmann::json centres = nlohmann::json::array();
    for (Eigen::Index c = 0; c < u.centres.rows(); ++c) {
      nlohmann::json row = nlohmann::json::array();
      for (Eigen::Index j = 0; j < u.centres.cols(); ++j) row.push_back(u.centres(c, j));
      centres.push_back(std::move(row));
    }
    r.release = {{"centers", std::move(centres)}};
    r.centres = std::move(u.centres);
    return r;
  }
};

}  // namespace

const MethodInfo& uniform_centres_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "uniform_centres";
    m.releases_centres = true;
    m.labels_are_nearest_centre = true;
    m.summary = "trivial baseline: k centres drawn uniformly from the public domain, without looking at the data (0-DP, no budget)";
    m.reference = "Hay, Machanavajjhala, Miklau, Chen & Zhang, Principled evaluation of differentially private algorithms using "
                  "DPBench, SIGMOD 2016 (data-independent baselines)";
    m.differentially_private = true;
    m.trivial_baseline = true;
    m.needs_bounds = true;
    m.relation = NeighbourRelation::add_remove;
    m.releases = "the k centres (drawn without the data)";
    m.private_when = "always (0-DP: the output does not depend on the data)";
    m.params = {gives(int_param("k", std::nullopt, "number of centres (k)", 1), "k")};
    m.make = [] { return std::make_unique<UniformCentresMethod>(); };
    return m;
  }();
  return info;
}

}  // namespace dpclust
