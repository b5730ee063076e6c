#pragma once
// The one small interface every clustering method and private mechanism implements.
//
// A method receives the data, its validated parameters, its own random generator and the trial's
// budget ledger; it returns point labels (for evaluation) and the JSON of what it releases. Private
// mechanisms must record every data access in the ledger; the runner verifies the sum.
#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/params.hpp"
#include "core/rng.hpp"
#include "core/trial_cost.hpp"

namespace dpclust {

// What one trial of a method gives, split by what it may reveal:
//   release      what the mechanism publishes, covered by the ledger (spans, noisy centres, ...);
//   diagnostics  public numbers: functions of the release and the parameters only (k' counted on
//                the noisy synopsis, the iteration count a public rule fixed, the span count);
//   evaluation   exact statistics of the true data (the true k, |Z|, occupied cells, inertia on the
//                true points, ...), computed for the report and written under "evaluation" in the
//                results, which are not private; never part of the release;
//   details      the method's own typed result, which its family's metrics read (std::any_cast to
//                the type the family declares), so no metric looks numbers up by a string key.
struct MethodResult {
  Labels labels;  // one per input point, kNoise = -1
  // True when the labels themselves are the private release. When false for a private mechanism,
  // the labels were extracted for evaluation only and are flagged so in the results.
  bool labels_are_release = false;
  nlohmann::json release = nlohmann::json::object();
  nlohmann::json diagnostics = nlohmann::json::object();
  nlohmann::json evaluation = nlohmann::json::object();
  std::any details;
  std::vector<std::string> non_private_notes;  // reasons this output is not a private release
  // Public remarks on this output a user should read, e.g. why it found nothing by construction (public:
  // functions of the parameters and the public sizes); recorded once per cell and said on stderr.
  std::vector<std::string> notes;
  // The k x d centres the method releases (k-means family, EUGkM, LSH clustering, DPM, ...), in the data's
  // coordinates; empty (0 rows) for a method that releases no centres. The k-means measures (inertia,
  // normalised cost, distance to k-means++'s centres) read them here, never from the release JSON.
  RowMatrix centres;
};

class Method {
 public:
  virtual ~Method() = default;
  virtual MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const = 0;
  // Whether the caller reads the labels (a metric, the saved labels): set before run(), true unless a trial of
  // `dpclust run` computes no metric that reads them (MetricInfo::reads_labels) and saves none. A method may
  // then skip a step that only makes labels (DRBT's K-means in the stress tables), provided every other
  // number is the one it gives with the step (the generator skips the step's words); its labels are then
  // all kNoise.
  void set_labels_needed(bool needed) { labels_needed_ = needed; }
  bool labels_needed() const { return labels_needed_; }

 private:
  bool labels_needed_ = true;
};

// What is known about a dataset's shape before (or without) reading it: from a generator's parameters,
// the registry's declared row count, max_rows / sample, the coordinate columns or the configured bounds;
// or, once loaded, the data itself. Either size may be unknown.
struct DataShape {
  std::optional<std::uint64_t> n;  // number of points: exact, or an upper bound (clip_to_bounds may drop some)
  bool n_exact = false;            // n is the exact count (loaded data; generators without clipping)
  std::optional<std::size_t> d;    // dimension
  Bounds bounds;                   // the public domain when configured (empty: none or not known yet)
  std::string dataset;             // name, for messages
  // The number of points the config declares (a generator's n_samples, the registry's rows, max_rows,
  // sample: m), exact or an upper bound: public under every neighbouring relation. For loaded data `n` is
  // the count of the rows read, which add/remove DP keeps private unless it is this declared exact size.
  std::optional<std::uint64_t> declared_n;
  bool declared_n_exact = false;
};

// The shape of loaded data (exact n and d, final bounds; nothing declared).
DataShape shape_of(const Dataset& data);

// A number for messages: 6 significant digits ("1e+300", "0.5", "5e-324"), never 300 digits.
std::string short_number(double x);
// For check_shape hooks: a count parameter (k clusters, ...) that cannot exceed the number of points.
// Throws InputError("params.<key>", ...) when shape.n is known and smaller than the value.
void check_at_most_points(const ParamSet& params, const DataShape& shape, const std::string& key,
                          const std::string& what);

struct MethodInfo {
  std::string name;                     // config name, e.g. "dbscan"
  std::string summary;                  // one line
  std::string reference;                // paper and section
  bool differentially_private = false;  // private methods take "epsilon" (and maybe "delta")
  bool needs_bounds = false;            // uses the public domain bounds of the dataset
  // The neighbouring relation the method's sensitivities are computed under, and whether its
  // guarantee is local (per record, metric: nD-Laplace) rather than central.
  NeighbourRelation relation = NeighbourRelation::add_remove;
  bool local_privacy = false;
  // What one trial publishes, and when that is a private release: the conditions besides what every
  // private method needs (`randomness: secure`, `sampler: secure`, public bounds, no config-level
  // non_private note). docs/privacy.md's method table is generated from these (catalog/catalog_docs.hpp).
  std::string releases;
  std::string private_when;
  // The method fills MethodResult::centres (k x d centres in the data's coordinates) in every trial that
  // releases centres: the k-means measures (inertia, normalized_kmeans_cost, centre_distance, ...) apply
  // to it (MetricInfo::needs_centres).
  bool releases_centres = false;
  // Its labels are each point's nearest released centre (the k-means family): when a centre is moved into the
  // public domain (core/centres_domain.hpp) the labels are recomputed from the moved centres.
  bool labels_are_nearest_centre = false;
  // Benchmarks (docs/benchmark.md). The non-private method whose output this private method approximates, the
  // ceiling of a comparison (kmeans for the k-means family, dbscan for DP-DBSCAN, wavecluster for the
  // WaveCluster family); empty when there is none. `baselines: true` in a config adds it, and the report tests
  // each private method against it.
  std::string non_private_counterpart;
  // The parameters this non-private method runs with when `baselines: true` adds it as a counterpart, the ceiling
  // of a comparison (name -> value as a config writes it): kmeans runs the k-means measures' own reference
  // (`seeding: reference`), so that its normalised cost is the normaliser's.
  std::vector<std::pair<std::string, std::string>> as_ceiling;
  // A trivial baseline (uniform_centres): its output does not depend on the data, so it is 0-DP (a private
  // ledger of total 0, BudgetLedger::data_independent) and takes no epsilon. The report flags a private
  // method that does not beat it.
  bool trivial_baseline = false;
  // Inputs the method takes without a parameter naming them (side information, core/side_information.hpp):
  // e.g. DPM's noisy count of n. The parameters' own inputs are declared on their ParamSpec (`side`).
  std::vector<FixedSideInput> side_inputs;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Method>()> make;
  // Optional: checks of the (already range-checked) parameters against each other and against what is
  // known of the dataset's shape, run by `dpclust validate` and before any trial of `dpclust run`, so that
  // what would fail inside a trial (k > n, a per-dimension vector of the wrong length, a grid too large
  // for the dimension) fails before any work. Throws InputError with where = "params.<key>" (the caller
  // adds the config location of that key); must not allocate anything proportional to the data. A private
  // method is given the shape of shape_for_checks: the declared number of points, never the rows read.
  std::function<void(const ParamSet&, const DataShape&)> check_shape;
  // What one trial costs, from public inputs only (core/trial_cost.hpp): the model of the method's largest
  // structures and its work, written beside the algorithm in the method's folder (cost.cpp). Every built-in method
  // has CostHooks::trial; a method a config defines (`method: python`) has none and is counted as one pass over
  // the data.
  CostHooks cost;
  // The method's Python estimator, "module.Class" in the dpclust package ("cluster.DPM": python/dpclust/cluster.py),
  // or else why it has none (no_python_estimator). The package exports the estimators named here
  // (python/dpclust/_registry.py).
  std::string python_estimator;
  std::string no_python_estimator;
  // Methods a config defines itself (`method: python`, config/python_method.hpp): the callable, its
  // declared parameters and a digest of its source. Part of every cell's fingerprint, so that a changed
  // declaration or source is recomputed on resume; null for the built-in methods, whose code is covered by
  // the build's version.
  nlohmann::json definition;
  nlohmann::json to_json() const;
};

// Decisions before a run on the number of points (docs/privacy.md, "Checks before a run"). Under add/remove
// DP the true n of the data is private to a central private method: whether a run starts, and every message
// about it, may depend only on the n the config declares. Replace-one neighbours make n public by
// definition, a local release publishes every perturbed record (and so n), and a non-private method has
// nothing to protect.
// True when `shape.n` is the private count of the data for `info`: a central add/remove private method, and
// n not the declared size (loaded data: not the declared exact size).
bool n_is_private(const MethodInfo& info, const DataShape& shape);
// The shape `info.check_shape` decides on: n replaced by the declared size (exact or an upper bound; none
// when nothing is declared) when the true n is private to the method.
DataShape shape_for_checks(const MethodInfo& info, DataShape shape);

// The privacy notion of a method's release, in words: "none", "eps-DP (add/remove one record)",
// "eps-DP, or (eps, delta)-DP with Gaussian noise (...)", "eps-geo-indistinguishability (local, per record)".
std::string privacy_notion(const MethodInfo& info);

}  // namespace dpclust
