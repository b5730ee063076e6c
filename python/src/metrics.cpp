// The engine's metrics as functions of label arrays (scikit-learn's metrics.cluster style: scoring apart
// from estimating). The same code the runner calls, so a score computed in Python equals the one in a
// results file.
#include <any>
#include <cmath>
#include <map>

#include "bindings.hpp"
#include "convert.hpp"
#include "core/error.hpp"
#include "drbt/fmeasure.hpp"
#include "metrics/clustering_accuracy.hpp"
#include "metrics/clustering_scores.hpp"
#include "metrics/kmeans_measures.hpp"
#include "metrics/nearest_centre.hpp"
#include "metrics/pair_counting.hpp"
#include "metrics/validity_indices.hpp"
#include "wavecluster/measures.hpp"

namespace dpclust::python {
namespace {

std::pair<Labels, Labels> pair_of(py::handle a, py::handle b, const char* first, const char* second) {
  Labels x = labels_from(a, first), y = labels_from(b, second);
  if (x.size() != y.size())
    throw InputError(second,
                     "has " + std::to_string(y.size()) + " labels but " + first + " has " + std::to_string(x.size()),
                     "both must label the same points in the same order");
  if (x.empty()) throw InputError(first, "no labels");
  return {std::move(x), std::move(y)};
}

// OCM and 2CE number the classes 0 = C0 (noise), 1.. = clusters (Sec. 6.2); Python passes the usual
// labels (-1 = noise), shifted here.
std::vector<std::int32_t> classes_of(const Labels& l) {
  std::vector<std::int32_t> c(l.size());
  for (std::size_t i = 0; i < l.size(); ++i) c[i] = l[i] < 0 ? 0 : l[i] + 1;
  return c;
}

// A grid of cell labels (-1 = not significant) as the Clustering DSG_C compares (Sec. 6.1): cluster ids
// renumbered 0.. in row-major order of first appearance (DSG_C does not depend on the numbering).
wavecluster::Clustering clustering_of(py::handle cells, const char* what) {
  const auto np = py::module_::import("numpy");
  py::array a = np.attr("asarray")(cells);
  wavecluster::Clustering c;
  for (py::ssize_t k = 0; k < a.ndim(); ++k) c.shape.dims.push_back(static_cast<std::size_t>(a.shape(k)));
  const Labels flat = labels_from(a.attr("reshape")(-1), what);
  std::map<Label, std::int32_t> ids;
  c.cell_cluster.resize(flat.size(), -1);
  for (std::size_t i = 0; i < flat.size(); ++i) {
    if (flat[i] < 0) continue;
    auto it = ids.emplace(flat[i], static_cast<std::int32_t>(ids.size())).first;
    c.cell_cluster[i] = it->second;
    ++c.n_significant;
  }
  c.n_clusters = ids.size();
  return c;
}

// The k-means measures through the same MetricInfo the runner calls (kmeans_measures.hpp), on a trial made
// of X (and y), the centres and/or the labels: so a value computed here equals the one in a results file
// for the same data, centres and k. No DatasetCache: the reference run is recomputed per call (its seed comes
// from the data, so the value is the same).
struct MeasureCall {
  Dataset data;
  MethodResult result;
  ParamSet params;
  MethodInfo method;
};

MeasureCall measure_call(py::handle X, py::handle y) {
  MeasureCall c;
  c.data = dataset_from(X, y, "X");
  for (double v : c.data.coords)
    if (!std::isfinite(v)) throw InputError("X", "X holds a value that is not a finite number");
  c.method.name = "python";
  c.method.releases_centres = true;
  return c;
}

void set_centres(MeasureCall& c, py::handle centres) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(centres);
  if (!a || a.ndim() != 2) throw InputError("centres", "centres must be a 2-d array (n_centres, n_features)");
  if (static_cast<std::size_t>(a.shape(1)) != c.data.d)
    throw InputError("centres",
                     "centres have " + std::to_string(a.shape(1)) + " features, X has " + std::to_string(c.data.d));
  if (a.shape(0) == 0) throw InputError("centres", "no centres");
  c.result.centres = Eigen::Map<const RowMatrix>(a.data(), a.shape(0), a.shape(1));
  for (Eigen::Index i = 0; i < c.result.centres.size(); ++i)
    if (!std::isfinite(c.result.centres.data()[i]))
      throw InputError("centres", "a centre holds a value that is not a finite number");
  c.result.labels.assign(c.data.n, 0);
}

double measure(MeasureCall& c, const char* name, const EvaluationSettings& settings = {},
               SampledValue* sampled = nullptr) {
  for (const MetricInfo& m : kmeans_measures())
    if (m.name == name) {
      std::map<std::string, std::any> cache;
      const MetricInput in{c.data, c.result, c.params, c.method, 0, cache, nullptr, &settings, sampled};
      return m.compute(in);
    }
  throw std::logic_error(std::string("no measure ") + name);
}

double centre_measure(py::handle X, py::handle centres, py::handle k, py::handle bounds, const char* name) {
  MeasureCall c = measure_call(X, py::none());
  set_centres(c, centres);
  // The reference's k: the given one, else the number of centres (no true labels here).
  if (!k.is_none()) {
    const auto kk = k.cast<std::int64_t>();
    if (kk < 1) throw InputError("k", "k must be at least 1");
    c.params.set("k", kk);
  }
  if (!bounds.is_none()) c.data.bounds = bounds_from(bounds, c.data.d, "bounds");
  return measure(c, name);
}

}  // namespace

void bind_metrics(py::module_& m) {
  m.def(
      "ari",
      [](py::handle t, py::handle p) {
        auto [a, b] = pair_of(t, p, "labels_true", "labels_pred");
        return adjusted_rand_score(a, b);
      },
      py::arg("labels_true"), py::arg("labels_pred"));
  m.def(
      "ami",
      [](py::handle t, py::handle p) {
        auto [a, b] = pair_of(t, p, "labels_true", "labels_pred");
        return adjusted_mutual_info_score(a, b);
      },
      py::arg("labels_true"), py::arg("labels_pred"));
  m.def(
      "nmi",
      [](py::handle t, py::handle p) {
        auto [a, b] = pair_of(t, p, "labels_true", "labels_pred");
        return normalized_mutual_info_score(a, b);
      },
      py::arg("labels_true"), py::arg("labels_pred"));
  m.def(
      "f_measure",
      [](py::handle t, py::handle p) {
        auto [a, b] = pair_of(t, p, "labels_true", "labels_pred");
        return wavecluster::f_measure(a, b);
      },
      py::arg("labels_true"), py::arg("labels_pred"));
  m.def(
      "overall_f_measure",
      [](py::handle o, py::handle t, const std::string& matching) {
        auto [a, b] = pair_of(o, t, "labels_original", "labels_transformed");
        return drbt::overall_f_measure(a, b, drbt::parse_of_matching(matching));
      },
      py::arg("labels_original"), py::arg("labels_transformed"), py::arg("matching") = "best");
  m.def(
      "ocm",
      [](py::handle t, py::handle p, const std::string& matching) -> py::object {
        auto [a, b] = pair_of(t, p, "pred_true", "pred_private");
        if (matching == "max_intersection") return py::float_(wavecluster::ocm(classes_of(a), classes_of(b)));
        if (matching == "authors_set_difference") {
          const auto v = wavecluster::ocm_authors(classes_of(a), classes_of(b));
          return v ? py::object(py::float_(*v)) : py::object(py::none());
        }
        throw InputError("matching", "must be max_intersection or authors_set_difference, got '" + matching + "'");
      },
      py::arg("pred_true"), py::arg("pred_private"), py::arg("matching") = "max_intersection");
  m.def(
      "two_ce",
      [](py::handle t, py::handle p) {
        auto [a, b] = pair_of(t, p, "pred_true", "pred_private");
        return wavecluster::two_ce(classes_of(a), classes_of(b));
      },
      py::arg("pred_true"), py::arg("pred_private"));
  m.def(
      "dsg_c",
      [](py::handle t, py::handle p) {
        const wavecluster::Clustering a = clustering_of(t, "cells_true"), b = clustering_of(p, "cells_private");
        if (!(a.shape == b.shape)) throw InputError("cells_private", "the two cell grids have different shapes");
        return wavecluster::dsg_c(a, b);
      },
      py::arg("cells_true"), py::arg("cells_private"));
  m.def(
      "inertia",
      [](py::handle X, py::handle centres) { return centre_measure(X, centres, py::none(), py::none(), "inertia"); },
      py::arg("X"), py::arg("centres"));
  m.def(
      "inertia_per_point",
      [](py::handle X, py::handle centres) {
        return centre_measure(X, centres, py::none(), py::none(), "inertia_per_point");
      },
      py::arg("X"), py::arg("centres"));
  m.def(
      "normalized_kmeans_cost",
      [](py::handle X, py::handle centres, py::handle k) {
        return centre_measure(X, centres, k, py::none(), "normalized_kmeans_cost");
      },
      py::arg("X"), py::arg("centres"), py::arg("k") = py::none());
  m.def(
      "centre_distance",
      [](py::handle X, py::handle centres, py::handle k, py::handle bounds) {
        return centre_measure(X, centres, k, bounds, "centre_distance");
      },
      py::arg("X"), py::arg("centres"), py::arg("k") = py::none(), py::arg("bounds") = py::none());
  m.def(
      "silhouette",
      [](py::handle X, py::handle labels, py::handle sample_size, const std::string& sampling,
         bool return_standard_error) -> py::object {
        MeasureCall c = measure_call(X, py::none());
        c.method.releases_centres = false;
        c.result.labels = labels_from(labels, "labels");
        if (c.result.labels.size() != c.data.n)
          throw InputError("labels", "has " + std::to_string(c.result.labels.size()) + " labels for " +
                                         std::to_string(c.data.n) + " points");
        // sample_size: the runner's `silhouette_sample` (None: every point).
        EvaluationSettings settings;
        if (sample_size.is_none()) {
          settings.silhouette_sample = 0;
        } else {
          const auto size = sample_size.cast<std::int64_t>();
          if (size < 3)
            throw InputError("sample_size",
                             "sample_size must be at least 3 (or None: every point), got " + std::to_string(size));
          settings.silhouette_sample = static_cast<std::size_t>(size);
        }
        bool known = false;
        for (const auto& choice : kSilhouetteSamplings)
          if (sampling == choice.name) settings.silhouette_sampling = choice.kind, known = true;
        if (!known) throw InputError("sampling", "sampling must be 'stratified' or 'subset', got '" + sampling + "'");
        SampledValue sampled;
        const double score = measure(c, "silhouette", settings, &sampled);
        if (!return_standard_error) return py::float_(score);
        return py::make_tuple(score, sampled.points > 0 ? sampled.standard_error : 0.0);
      },
      py::arg("X"), py::arg("labels"), py::arg("sample_size") = EvaluationSettings{}.silhouette_sample,
      py::arg("sampling") = "stratified", py::arg("return_standard_error") = false);
  m.def(
      "accuracy",
      [](py::handle t, py::handle p) {
        auto [a, b] = pair_of(t, p, "labels_true", "labels_pred");
        return clustering_accuracy(a, b);
      },
      py::arg("labels_true"), py::arg("labels_pred"));
  m.def(
      "purity",
      [](py::handle t, py::handle p) {
        auto [a, b] = pair_of(t, p, "labels_true", "labels_pred");
        return purity(a, b);
      },
      py::arg("labels_true"), py::arg("labels_pred"));
  m.def(
      "false_match_fraction",
      [](py::handle t, py::handle p) {
        auto [a, b] = pair_of(t, p, "labels_true", "labels_pred");
        return false_match_fraction(a, b);
      },
      py::arg("labels_true"), py::arg("labels_pred"));
  m.def(
      "true_non_match_fraction",
      [](py::handle t, py::handle p) {
        auto [a, b] = pair_of(t, p, "labels_true", "labels_pred");
        return true_non_match_fraction(a, b);
      },
      py::arg("labels_true"), py::arg("labels_pred"));
  // The validity indices of X and labels (FastLloyd's evaluation; engine/metrics/validity_indices.hpp).
  const auto on_labels = [](py::handle X, py::handle labels,
                            double (*index)(const double*, std::size_t, std::size_t, const Labels&)) {
    MeasureCall c = measure_call(X, py::none());
    const Labels l = labels_from(labels, "labels");
    if (l.size() != c.data.n)
      throw InputError("labels",
                       "has " + std::to_string(l.size()) + " labels for " + std::to_string(c.data.n) + " points");
    return index(c.data.coords.data(), c.data.n, c.data.d, l);
  };
  m.def(
      "davies_bouldin",
      [on_labels](py::handle X, py::handle labels) { return on_labels(X, labels, davies_bouldin_score); }, py::arg("X"),
      py::arg("labels"));
  m.def(
      "calinski_harabasz",
      [on_labels](py::handle X, py::handle labels) { return on_labels(X, labels, calinski_harabasz_score); },
      py::arg("X"), py::arg("labels"));
  m.def(
      "dunn", [on_labels](py::handle X, py::handle labels) { return on_labels(X, labels, dunn_index); }, py::arg("X"),
      py::arg("labels"));
  m.def(
      "nicv",
      [](py::handle X, py::handle centres) {
        return centre_measure(X, centres, py::none(), py::none(), "inertia_per_point");
      },
      py::arg("X"), py::arg("centres"));
  m.def(
      "bcss",
      [](py::handle X, py::handle centres) {
        MeasureCall c = measure_call(X, py::none());
        set_centres(c, centres);
        const NearestCentres nc = nearest_centres(c.data.coords.data(), c.data.n, c.data.d, c.result.centres);
        return between_cluster_ss(c.data.coords.data(), c.data.n, c.data.d, c.result.centres, nc.labels);
      },
      py::arg("X"), py::arg("centres"));
}

}  // namespace dpclust::python
