#include "catalog/catalog.hpp"

#include <cmath>
#include <deque>
#include <mutex>
#include <stdexcept>

#include "core/error.hpp"
#include "core/method_folder.hpp"
#include "core/named_choice.hpp"
#include "data/ball_mixture.hpp"
#include "data/generators.hpp"
#include "metrics/clustering_metrics.hpp"
#include "metrics/kmeans_measures.hpp"
#include "metrics/paper_measures.hpp"

namespace dpclust {

// Each method folder's registration (its register.cpp), declared and called in the order of engine/methods.cmake.
#define DPCLUST_METHOD_FOLDER(folder) MethodFolder folder##_folder();
#include "catalog/method_folders.inc"
#undef DPCLUST_METHOD_FOLDER

const std::vector<MethodFolder>& method_folders() {
  static const std::vector<MethodFolder> folders = {
#define DPCLUST_METHOD_FOLDER(folder) folder##_folder(),
#include "catalog/method_folders.inc"
#undef DPCLUST_METHOD_FOLDER
  };
  return folders;
}

const std::vector<MethodInfo>& all_methods() {
  static const std::vector<MethodInfo> methods = [] {
    std::vector<MethodInfo> all;
    for (const MethodFolder& f : method_folders()) all.insert(all.end(), f.methods.begin(), f.methods.end());
    return all;
  }();
  return methods;
}

namespace {

// Runtime-registered methods: a deque, so that references handed out stay valid as it grows.
struct RuntimeMethods {
  std::mutex mu;
  std::deque<MethodInfo> entries;
};
RuntimeMethods& runtime_methods() {
  static RuntimeMethods r;
  return r;
}

}  // namespace

const MethodInfo* find_method(const std::string& name) {
  for (const auto& m : all_methods())
    if (m.name == name) return &m;
  RuntimeMethods& r = runtime_methods();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto it = r.entries.rbegin(); it != r.entries.rend(); ++it)  // the newest registration wins
    if (it->name == name) return &*it;
  return nullptr;
}

const MethodInfo& register_runtime_method(MethodInfo info) {
  for (const auto& m : all_methods())
    if (m.name == info.name)
      throw std::logic_error("register_runtime_method: '" + info.name + "' is a built-in method");
  RuntimeMethods& r = runtime_methods();
  std::lock_guard<std::mutex> lock(r.mu);
  for (auto it = r.entries.rbegin(); it != r.entries.rend(); ++it)
    if (it->name == info.name) {
      if (it->definition == info.definition) return *it;
      break;
    }
  r.entries.push_back(std::move(info));
  return r.entries.back();
}

const std::vector<MetricInfo>& all_metrics() {
  static const std::vector<MetricInfo> metrics = [] {
    std::vector<MetricInfo> all = clustering_metrics();
    for (const auto& m : kmeans_measures()) all.push_back(m);
    for (const auto& m : paper_measures()) all.push_back(m);
    for (const MethodFolder& f : method_folders()) all.insert(all.end(), f.metrics.begin(), f.metrics.end());
    return all;
  }();
  return metrics;
}

const MetricInfo* find_metric(const std::string& name) {
  for (const auto& m : all_metrics())
    if (m.name == name) return &m;
  return nullptr;
}

namespace {

std::size_t size_of(const ParamSet& p, const char* name) { return static_cast<std::size_t>(p.integer(name)); }
std::uint64_t seed_of(const ParamSet& p) { return static_cast<std::uint64_t>(p.integer("seed")); }

// Upper bounds keep a typo (n_samples: 1e11) from exhausting memory at run time; dpclust validate reports it.
ParamSpec n_samples(std::int64_t def) {
  return int_param("n_samples", def, "number of points, at most 1e8 (larger would not fit in memory)", 1, 100'000'000);
}
ParamSpec n_features_param() {
  return int_param("n_features", 2, "dimension, at most 1000 (n_samples x n_features is capped at 1e9 coordinates)", 1,
                   1000);
}
ParamSpec seed_param() { return int_param("seed", 0, "generator seed (sklearn random_state)", 0); }
ParamSpec shuffle_param() { return bool_param("shuffle", true, "shuffle the points (sklearn default)"); }
ParamSpec noise_param(double def) {
  return real_param("noise", def, "sd of Gaussian noise added to each coordinate", 0.0);
}

// A box [lo, hi] of a generator: finite ends, lo < hi (or lo <= hi when a point is allowed), and a
// finite width, since points are drawn as lo + u (hi - lo) (an infinite width gives infinite points).
void check_box(const ParamSet& p, const char* gen, const char* lo_key, const char* hi_key, bool allow_point) {
  const double lo = p.real(lo_key), hi = p.real(hi_key);
  const std::string pair = std::string(lo_key) + " = " + short_number(lo) + ", " + hi_key + " = " + short_number(hi);
  if (!(allow_point ? lo <= hi : lo < hi))
    throw InputError(hi_key,
                     std::string(gen) + ": " + lo_key + " must be " + (allow_point ? "at most " : "below ") + hi_key +
                         " (" + pair + ")",
                     std::string("give ") + lo_key + (allow_point ? " <= " : " < ") + hi_key + ", e.g. " + lo_key +
                         ": 0, " + hi_key + ": 1");
  if (!std::isfinite(hi - lo))
    throw InputError(hi_key, std::string(gen) + ": the box " + pair + " is wider than the largest double",
                     std::string("narrow ") + lo_key + " and " + hi_key + " (their difference must be finite)");
}

const Named<BallSdRule> kBallSdRules[] = {{"code", BallSdRule::code}, {"text", BallSdRule::text}};

// Blobs: the box of random centres, an explicit centre list of whole rows, one cluster_std or one per centre.
void check_blobs(const ParamSet& p) {
  check_box(p, "blobs", "center_box_lo", "center_box_hi", true);
  const std::size_t d = size_of(p, "n_features");
  const RealVector flat = as_vector(p.get("center_list"));
  if (flat.size() % d != 0)
    throw InputError("center_list",
                     "blobs: center_list has " + std::to_string(flat.size()) +
                         " numbers, not a multiple of n_features = " + std::to_string(d),
                     "give whole centres, row-major: {values: [x1, y1, x2, y2, ...]} with n_features numbers each");
  const std::size_t k = flat.empty() ? size_of(p, "centers") : flat.size() / d;
  const std::size_t stds = as_vector(p.get("cluster_std")).size();
  if (stds != 1 && stds != k)
    throw InputError("cluster_std",
                     "blobs: cluster_std has " + std::to_string(stds) + " values for " + std::to_string(k) + " centres",
                     "give one cluster_std for every centre, or one per centre");
}

// Google's clustering demo data (data/ball_mixture.hpp): no parameter check beyond the declared ranges.
GeneratorInfo ball_mixture_generator() {
  return {
      "ball_mixture",
      "Google's clustering demo data: Gaussian clusters with centres uniform in a ball, every point clipped to a "
      "larger ball (google/differential-privacy, learning/clustering/demo/data_generation.py)",
      {n_samples(100'000), int_param("n_features", 100, "dimension (the demo's dim), at most 1000", 1, 1000),
       int_param("centers", 64, "number of clusters (the demo's num_clusters), at most 1e6", 1, 1'000'000),
       real_param("cluster_ratio", 8.0,
                  "the demo's cluster_ratio: centres uniform in the ball of radius radius (1 - 1/cluster_ratio), "
                  "per-coordinate sd sqrt(radius) / (cluster_ratio sqrt(n_features))",
                  1.0),
       real_param("radius", 1.0,
                  "every point is clipped to the ball of this radius around the origin (the demo's radius)", 0.0,
                  std::nullopt, true),
       choice_param(
           "sd_rule", "code", names_of(kBallSdRules),
           "the Gaussians' sd: code = sqrt(radius) / (cluster_ratio sqrt(d)) as data_generation.py computes it; text "
           "= radius / cluster_ratio / sqrt(d) as the demo prints it (equal at radius 1)"),
       bool_param("shuffle", false, "shuffle the points (the demo keeps them in cluster order)"), seed_param()},
      [](const ParamSet& p) {
        BallMixtureOptions o;
        o.n_samples = size_of(p, "n_samples");
        o.n_features = size_of(p, "n_features");
        o.centers = size_of(p, "centers");
        o.cluster_ratio = p.real("cluster_ratio");
        o.radius = p.real("radius");
        o.sd_rule = kind_of(kBallSdRules, p, "sd_rule");
        o.shuffle = p.boolean("shuffle");
        o.seed = seed_of(p);
        return ball_mixture(o);
      },
      {}};
}

}  // namespace

const std::vector<GeneratorInfo>& all_generators() {
  static const std::vector<GeneratorInfo> gens = {
      {"moons",
       "two interleaving half circles (scikit-learn make_moons)",
       {n_samples(100), noise_param(0.0), shuffle_param(), seed_param(), random_stream_param()},
       [](const ParamSet& p) {
         return make_moons(MoonsOptions{size_of(p, "n_samples"), p.real("noise"), p.boolean("shuffle"), seed_of(p),
                                        random_stream_of(p)});
       },
       {}},  // no parameter check beyond the declared ranges
      {"circles",
       "a circle inside a circle (scikit-learn make_circles)",
       {n_samples(100), noise_param(0.0), real_param("factor", 0.8, "inner/outer radius ratio", 0.0, 1.0, false, true),
        shuffle_param(), seed_param(), random_stream_param()},
       [](const ParamSet& p) {
         return make_circles(CirclesOptions{size_of(p, "n_samples"), p.real("noise"), p.real("factor"),
                                            p.boolean("shuffle"), seed_of(p), random_stream_of(p)});
       },
       {}},  // no parameter check beyond the declared ranges
      {"blobs",
       "isotropic Gaussian blobs (scikit-learn make_blobs)",
       {n_samples(100),
        int_param("centers", 3,
                  "number of blobs, centres uniform in the centre box; at most 1e6 (one centre per point at most makes "
                  "sense)",
                  1, 1'000'000),
        real_vector_param("center_list", RealVector{},
                          "explicit centres, row-major {values: [x1, y1, x2, y2, ...]} (overrides centers)"),
        n_features_param(),
        real_vector_param("cluster_std", RealVector{1.0},
                          "sd of each blob: one value, or {values: [...]} one per centre", 0.0, true),
        real_param("center_box_lo", -10.0, "centre box lower end"),
        real_param("center_box_hi", 10.0, "centre box upper end"), shuffle_param(), seed_param(),
        random_stream_param()},
       [](const ParamSet& p) {
         check_blobs(p);
         BlobsOptions o;
         o.n_samples = size_of(p, "n_samples");
         o.n_centers = size_of(p, "centers");
         o.n_features = size_of(p, "n_features");
         const RealVector flat = as_vector(p.get("center_list"));
         if (!flat.empty()) {
           for (std::size_t i = 0; i < flat.size(); i += o.n_features)
             o.centers.emplace_back(flat.begin() + static_cast<std::ptrdiff_t>(i),
                                    flat.begin() + static_cast<std::ptrdiff_t>(i + o.n_features));
         }
         o.cluster_std = as_vector(p.get("cluster_std"));
         o.center_box = {p.real("center_box_lo"), p.real("center_box_hi")};
         o.shuffle = p.boolean("shuffle");
         o.seed = seed_of(p);
         o.stream = random_stream_of(p);
         return make_blobs(o);
       },
       check_blobs},
      {"gaussian_mixture",
       "isotropic Gaussian mixture, means uniform in a box, equal weights",
       {n_samples(1000),
        int_param("components", 5, "number of components, at most 10000 (their means are drawn before any point)", 1,
                  10'000),
        n_features_param(), real_param("sd", 1.0, "sd of every component", 0.0, std::nullopt, true),
        real_param("box_lo", -10.0, "means box lower end"), real_param("box_hi", 10.0, "means box upper end"),
        real_param("imbalance", 1.0,
                   "ratio of the largest to the smallest component's weight, at most 1e6: weights proportional to "
                   "imbalance^(-c/(k-1)) "
                   "for components c = 0..k-1 (1 = equal weights)",
                   1.0, 1e6),
        shuffle_param(), seed_param()},
       [](const ParamSet& p) {
         check_box(p, "gaussian_mixture", "box_lo", "box_hi", true);
         // The means come from the same seed (a separate stream), so the whole mixture is one seed.
         Rng rng(splitmix64(seed_of(p) ^ 0x6d69787475726573ULL));
         GaussianMixtureOptions o;
         o.n_samples = size_of(p, "n_samples");
         const std::size_t k = size_of(p, "components"), d = size_of(p, "n_features");
         for (std::size_t c = 0; c < k; ++c) {
           std::vector<double> mean(d);
           for (auto& m : mean) m = rng.uniform(p.real("box_lo"), p.real("box_hi"));
           o.means.push_back(mean);
         }
         o.sd = {p.real("sd")};
         // Imbalanced components (benchmark shapes): a geometric progression of weights from 1 down to 1/imbalance.
         if (const double ratio = p.real("imbalance"); ratio != 1.0 && k > 1)
           for (std::size_t c = 0; c < k; ++c)
             o.weights.push_back(std::pow(ratio, -static_cast<double>(c) / static_cast<double>(k - 1)));
         o.shuffle = p.boolean("shuffle");
         o.seed = seed_of(p);
         return gaussian_mixture(o);
       },
       [](const ParamSet& p) { check_box(p, "gaussian_mixture", "box_lo", "box_hi", true); }},
      {"spirals",
       "interleaved Archimedean spiral arms",
       {n_samples(1000), int_param("arms", 2, "number of arms, at most 1e6", 1, 1'000'000),
        real_param("turns", 1.0, "turns per arm", 0.0, std::nullopt, true), noise_param(0.0), shuffle_param(),
        seed_param()},
       [](const ParamSet& p) {
         return spirals(SpiralsOptions{size_of(p, "n_samples"), size_of(p, "arms"), p.real("noise"), p.real("turns"),
                                       p.boolean("shuffle"), seed_of(p)});
       },
       {}},  // no parameter check beyond the declared ranges
      ball_mixture_generator(),
      {"uniform",
       "uniform noise in a box, labelled -1",
       {n_samples(1000), n_features_param(), real_param("low", 0.0, "box lower end"),
        real_param("high", 1.0, "box upper end"), seed_param()},
       [](const ParamSet& p) {
         check_box(p, "uniform", "low", "high", false);
         Bounds b;
         b.lo.assign(size_of(p, "n_features"), p.real("low"));
         b.hi.assign(size_of(p, "n_features"), p.real("high"));
         return uniform_noise(size_of(p, "n_samples"), b, seed_of(p));
       },
       [](const ParamSet& p) { check_box(p, "uniform", "low", "high", false); }},
  };
  return gens;
}

const GeneratorInfo* find_generator(const std::string& name) {
  for (const auto& g : all_generators())
    if (g.name == name) return &g;
  return nullptr;
}

}  // namespace dpclust
