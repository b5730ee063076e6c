// The engine's metrics as functions of label arrays (scikit-learn's metrics.cluster style: scoring apart
// from estimating). The same code the runner calls, so a score computed in Python equals the one in a
// results file.
#include <map>

#include "bindings.hpp"
#include "convert.hpp"
#include "core/error.hpp"
#include "drbt/fmeasure.hpp"
#include "metrics/clustering_scores.hpp"
#include "wavecluster/measures.hpp"

namespace dpclust::python {
namespace {

std::pair<Labels, Labels> pair_of(py::handle a, py::handle b, const char* first, const char* second) {
  Labels x = labels_from(a, first), y = labels_from(b, second);
  if (x.size() != y.size())
    throw InputError(second, "has " + std::to_string(y.size()) + " labels but " + first + " has " + std::to_string(x.size()),
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

}  // namespace

void bind_metrics(py::module_& m) {
  m.def(
      "ari", [](py::handle t, py::handle p) { auto [a, b] = pair_of(t, p, "labels_true", "labels_pred"); return adjusted_rand_score(a, b); },
      py::arg("labels_true"), py::arg("labels_pred"));
  m.def(
      "ami", [](py::handle t, py::handle p) { auto [a, b] = pair_of(t, p, "labels_true", "labels_pred"); return adjusted_mutual_info_score(a, b); },
      py::arg("labels_true"), py::arg("labels_pred"));
  m.def(
      "nmi", [](py::handle t, py::handle p) { auto [a, b] = pair_of(t, p, "labels_true", "labels_pred"); return normalized_mutual_info_score(a, b); },
      py::arg("labels_true"), py::arg("labels_pred"));
  m.def(
      "f_measure", [](py::handle t, py::handle p) { auto [a, b] = pair_of(t, p, "labels_true", "labels_pred"); return wavecluster::f_measure(a, b); },
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
      "two_ce", [](py::handle t, py::handle p) { auto [a, b] = pair_of(t, p, "pred_true", "pred_private"); return wavecluster::two_ce(classes_of(a), classes_of(b)); },
      py::arg("pred_true"), py::arg("pred_private"));
  m.def(
      "dsg_c",
      [](py::handle t, py::handle p) {
        const wavecluster::Clustering a = clustering_of(t, "cells_true"), b = clustering_of(p, "cells_private");
        if (!(a.shape == b.shape)) throw InputError("cells_private", "the two cell grids have different shapes");
        return wavecluster::dsg_c(a, b);
      },
      py::arg("cells_true"), py::arg("cells_private"));
}

}  // namespace dpclust::python
