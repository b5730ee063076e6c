#include "wavecluster/wavecluster.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/error.hpp"

namespace dpclust::wavecluster {

WcParams WcParams::from(const ParamSet& params, std::size_t d) {
  WcParams w;
  for (double x : params.per_dim("g", d)) {
    if (x != std::floor(x) || x < 2 || x > 1e7)
      throw InputError("params.g",
                       "grid size g must be a whole number >= 2 in every dimension (got " + std::to_string(x) + ")",
                       "write g: 40 or g: {per_dim: [40, 50]}");
    w.g.push_back(static_cast<std::size_t>(x));
  }
  checked_cell_count(w.g);  // before anything is allocated: g^d may wrap around 64 bits
  w.p = params.real("p");
  w.wavelet.wavelet = choice_of<Wavelet>(params, "wavelet");
  w.wavelet.level = static_cast<int>(params.integer("level"));
  w.wavelet.boundary = choice_of<Boundary>(params, "boundary");
  w.full_connectivity = params.string("connectivity") == "full";
  const std::string& t = params.string("ties");
  w.ties = t == "exclude" ? Ties::exclude : t == "index" ? Ties::index : Ties::include;
  w.release_counts = params.has("release_counts") && params.boolean("release_counts");
  return w;
}

std::size_t top_k_count(double p, std::size_t positives) {
  const double x = (1.0 - p) * static_cast<double>(positives);
  const double k = std::ceil(x - 1e-9);
  return k <= 0 ? 0 : std::min(positives, static_cast<std::size_t>(k));
}

std::vector<double> positive_sorted(const std::vector<double>& w) {
  std::vector<double> l;
  for (double v : w)
    if (v > 0) l.push_back(v);
  std::sort(l.begin(), l.end());
  return l;
}

double select_top_k(const std::vector<double>& w, std::size_t k, std::vector<std::uint8_t>& significant, Ties ties) {
  significant.assign(w.size(), 0);
  if (k == 0) return std::numeric_limits<double>::infinity();
  std::vector<double> l = positive_sorted(w);
  if (k > l.size()) k = l.size();
  const double d = l[l.size() - k];  // the k-th largest positive value
  switch (ties) {
    case Ties::include:
      for (std::size_t i = 0; i < w.size(); ++i) significant[i] = w[i] >= d ? 1 : 0;
      break;
    case Ties::exclude:
      for (std::size_t i = 0; i < w.size(); ++i) significant[i] = w[i] > d ? 1 : 0;
      break;
    case Ties::index: {
      std::size_t above = 0;
      for (std::size_t i = 0; i < w.size(); ++i)
        if (w[i] > d) {
          significant[i] = 1;
          ++above;
        }
      for (std::size_t i = 0; i < w.size() && above < k; ++i)
        if (w[i] == d) {
          significant[i] = 1;
          ++above;
        }
      break;
    }
  }
  return d;
}

void select_above(const std::vector<double>& w, double threshold, std::vector<std::uint8_t>& significant) {
  significant.assign(w.size(), 0);
  for (std::size_t i = 0; i < w.size(); ++i) significant[i] = w[i] > threshold ? 1 : 0;
}

namespace {

// The number of neighbour offsets of a cell: 3^d - 1 (full) or 2 d (face); saturates at 2^62.
double neighbour_offsets(std::size_t d, bool full) {
  return full ? std::pow(3.0, static_cast<double>(d)) - 1.0 : 2.0 * static_cast<double>(d);
}

// Labels each connected component with the same ids, assigned in index order of its first cell, by
// either strategy below; the two give identical results and differ only in cost.
struct ComponentLabeler {
  const std::vector<std::uint8_t>& significant;
  const GridShape& shape;
  bool full;
  Clustering& c;

  // Strategy 1: every cell's neighbour offsets in {-1, 0, 1}^d (full) or the 2 d unit vectors (face), one
  // flat list of d ints each. 3^d of them: fine in the papers' 2-D and 3-D grids, hopeless past ~12-D.
  void by_offsets() {
    const std::size_t d = shape.dims.size(), n = shape.size();
    std::vector<int> offsets;  // count x d
    {
      std::vector<int> o(d, -1);
      while (true) {
        int nonzero = 0;
        for (int v : o) nonzero += v != 0;
        if (nonzero > 0 && (full || nonzero == 1)) offsets.insert(offsets.end(), o.begin(), o.end());
        std::size_t j = 0;
        while (j < d && o[j] == 1) o[j++] = -1;
        if (j == d) break;
        ++o[j];
      }
    }
    const std::size_t count = d ? offsets.size() / d : 0;
    const std::vector<std::size_t> strides = shape.strides();
    std::vector<std::size_t> stack, coord(d);
    std::int32_t next_id = 0;
    for (std::size_t s = 0; s < n; ++s) {
      if (!significant[s] || c.cell_cluster[s] >= 0) continue;
      ++c.n_significant;
      c.cell_cluster[s] = next_id;
      stack.assign(1, s);
      while (!stack.empty()) {
        const std::size_t cell = stack.back();
        stack.pop_back();
        unravel(cell, shape, coord.data());
        for (std::size_t k = 0; k < count; ++k) {
          const int* o = offsets.data() + k * d;
          std::size_t idx = 0;
          bool inside = true;
          for (std::size_t j = 0; j < d && inside; ++j) {
            const auto v = static_cast<std::ptrdiff_t>(coord[j]) + o[j];
            if (v < 0 || v >= static_cast<std::ptrdiff_t>(shape.dims[j])) inside = false;
            else idx += static_cast<std::size_t>(v) * strides[j];
          }
          if (!inside || !significant[idx] || c.cell_cluster[idx] >= 0) continue;
          c.cell_cluster[idx] = next_id;
          ++c.n_significant;
          stack.push_back(idx);
        }
      }
      ++next_id;
    }
    c.n_clusters = static_cast<std::size_t>(next_id);
  }

  // Strategy 2: the significant cells compared pairwise (adjacent: every coordinate within 1 (full), or
  // one coordinate off by 1 (face)). S^2 d / 2 work and S d coordinates of memory for S significant cells:
  // what a grid of many dimensions needs, where S is small against 3^d.
  void by_pairs(const std::vector<std::size_t>& cells) {
    const std::size_t d = shape.dims.size(), s_count = cells.size();
    std::vector<std::uint32_t> coords(s_count * d);
    std::vector<std::size_t> coord(d);
    for (std::size_t i = 0; i < s_count; ++i) {
      unravel(cells[i], shape, coord.data());
      for (std::size_t j = 0; j < d; ++j) coords[i * d + j] = static_cast<std::uint32_t>(coord[j]);
    }
    auto adjacent = [&](std::size_t a, std::size_t b) {
      std::size_t off = 0;
      for (std::size_t j = 0; j < d; ++j) {
        const std::uint32_t x = coords[a * d + j], y = coords[b * d + j];
        const std::uint32_t diff = x > y ? x - y : y - x;
        if (diff > 1) return false;
        off += diff;
        if (!full && off > 1) return false;
      }
      return off > 0;
    };
    std::vector<std::size_t> unassigned;  // positions in `cells` not yet in a component, any order
    unassigned.reserve(s_count);
    for (std::size_t i = s_count; i-- > 0;) unassigned.push_back(i);
    std::vector<std::uint8_t> done(s_count, 0);
    std::vector<std::size_t> stack;
    std::int32_t next_id = 0;
    for (std::size_t seed = 0; seed < s_count; ++seed) {  // seeds in index order, as strategy 1
      if (done[seed]) continue;
      done[seed] = 1;
      c.cell_cluster[cells[seed]] = next_id;
      ++c.n_significant;
      stack.assign(1, seed);
      while (!stack.empty()) {
        const std::size_t a = stack.back();
        stack.pop_back();
        std::size_t keep = 0;
        for (std::size_t k = 0; k < unassigned.size(); ++k) {
          const std::size_t b = unassigned[k];
          if (done[b]) continue;  // dropped from the list as it is walked
          if (adjacent(a, b)) {
            done[b] = 1;
            c.cell_cluster[cells[b]] = next_id;
            ++c.n_significant;
            stack.push_back(b);
            continue;
          }
          unassigned[keep++] = b;
        }
        unassigned.resize(keep);
      }
      ++next_id;
    }
    c.n_clusters = static_cast<std::size_t>(next_id);
  }
};

}  // namespace

double connected_components_memory(std::size_t d, bool full, double significant_cells) {
  const double offsets = neighbour_offsets(d, full);
  const double by_offsets = offsets * static_cast<double>(d) * 4;
  const double by_pairs = significant_cells * (static_cast<double>(d) * 4 + 3 * 8 + 1);
  return significant_cells > 0 && offsets * significant_cells <= significant_cells * significant_cells / 2 ? by_offsets
                                                                                                           : by_pairs;
}

Clustering connected_components(const std::vector<std::uint8_t>& significant, const GridShape& shape, bool full) {
  const std::size_t d = shape.dims.size(), n = shape.size();
  if (significant.size() != n) throw std::invalid_argument("connected_components: mask size does not match the shape");
  Clustering c;
  c.shape = shape;
  c.cell_cluster.assign(n, -1);
  std::vector<std::size_t> cells;
  for (std::size_t s = 0; s < n; ++s)
    if (significant[s]) cells.push_back(s);
  ComponentLabeler labeler{significant, shape, full, c};
  // The cheaper of the two (identical results): 3^d - 1 neighbours per significant cell, or half the pairs.
  const double per_cell = neighbour_offsets(d, full), s_count = static_cast<double>(cells.size());
  if (cells.empty()) return c;  // nothing to label (and no 3^d offsets to list for it)
  if (per_cell * s_count <= s_count * s_count / 2) labeler.by_offsets();
  else labeler.by_pairs(cells);
  return c;
}

Quantizer make_quantizer(const Dataset& data, const WcParams& params) {
  if (data.bounds.empty())
    throw InputError("dataset " + data.name,
                     "WaveCluster quantizes the public domain, but dataset '" + data.name + "' has no bounds",
                     "add bounds: [[lo, hi], ...] to the dataset");
  if (params.g.size() != data.d)
    throw InputError("params.g", "g has " + std::to_string(params.g.size()) + " entries but the data has " +
                                     std::to_string(data.d) + " dimensions");
  return Quantizer(params.g, data.bounds);
}

nlohmann::json WaveClusterOutput::diagnostics() const {
  nlohmann::json j = {{"significant_grids", clustering.n_significant}, {"clusters", clustering.n_clusters}};
  if (!is_private) return j;  // plain WaveCluster: k' = k and d are statistics of the true data (evaluation)
  if (!k_prime_from_true_data) j["k_prime"] = k_prime;
  j["threshold"] = threshold;
  if (l_prime > 0) j["L_prime"] = l_prime;
  for (auto it = public_extra.begin(); it != public_extra.end(); ++it) j[it.key()] = it.value();
  return j;
}

nlohmann::json WaveClusterOutput::evaluation() const {
  nlohmann::json j = {{"k", k}, {"L", l}, {"Z", z}};
  if (!is_private) {
    j["k_prime"] = k_prime;
    j["threshold"] = threshold;
  } else if (k_prime_from_true_data) {
    j["k_prime"] = k_prime;
  }
  return j;
}

void set_true_statistics(WaveClusterOutput& out, const std::vector<double>& w, double p) {
  std::size_t positives = 0;
  for (double v : w) positives += v > 0;
  out.l = positives;
  out.z = w.size() - positives;
  out.k = top_k_count(p, positives);
}

WaveClusterOutput significant_top_k(const std::vector<double>& w_noisy, const GridShape& shape, const WcParams& params,
                                    std::size_t l_size, std::size_t k_prime) {
  WaveClusterOutput out;
  std::vector<std::uint8_t> sig;
  const double d_prime = select_top_k(w_noisy, k_prime, sig, params.ties);
  out.clustering = connected_components(sig, shape, params.full_connectivity);
  out.transformed = w_noisy;
  out.k_prime = k_prime;
  out.l_prime = l_size;
  out.threshold = k_prime > 0 ? d_prime : 0.0;
  return out;
}

WaveClusterOutput wavecluster_from_transform(const std::vector<double>& w, const GridShape& shape,
                                             const WcParams& params) {
  std::size_t positives = 0;
  for (double v : w) positives += v > 0;
  WaveClusterOutput out = significant_top_k(w, shape, params, positives, top_k_count(params.p, positives));
  set_true_statistics(out, w, params.p);
  out.is_private = false;
  return out;
}

const std::vector<double>& count_matrix(const std::vector<double>* known, const Quantizer& q, const Dataset& data,
                                        std::vector<double>& storage) {
  if (known) {
    if (known->size() != q.shape().size())
      throw std::logic_error("count_matrix: the known counts do not fit the grid (" + std::to_string(known->size()) +
                             " for " + std::to_string(q.shape().size()) + " cells)");
    return *known;
  }
  storage = q.counts(data);
  return storage;
}

WaveClusterOutput run_wavecluster(const Dataset& data, const WcParams& params,
                                  const std::vector<double>* known_counts) {
  const Quantizer q = make_quantizer(data, params);
  std::vector<double> storage;
  const std::vector<double>& m = count_matrix(known_counts, q, data, storage);              // step 1: count matrix M
  const std::vector<double> w = approximation(m, q.shape(), params.wavelet);                // step 2: average subband W
  return wavecluster_from_transform(w, q.shape().coarsened(params.wavelet.level), params);  // steps 3-4
}

Labels label_points(const Dataset& data, const Quantizer& q, int level, const Clustering& c) {
  Labels labels(data.n);
  for (std::size_t i = 0; i < data.n; ++i) labels[i] = c.cell_cluster[q.cell_of(data.point(i), level)];
  return labels;
}

nlohmann::json clustering_release(const Clustering& c) {
  nlohmann::json cells = nlohmann::json::array();
  std::vector<std::size_t> coord(c.shape.dims.size());
  for (std::size_t i = 0; i < c.cell_cluster.size(); ++i) {
    if (c.cell_cluster[i] < 0) continue;
    unravel(i, c.shape, coord.data());
    nlohmann::json row = nlohmann::json::array();
    for (std::size_t x : coord) row.push_back(x);
    row.push_back(c.cell_cluster[i]);
    cells.push_back(std::move(row));
  }
  return {{"shape", c.shape.dims}, {"clusters", c.n_clusters}, {"significant_cells", std::move(cells)}};
}

Clustering clustering_from_release(const nlohmann::json& release) {
  Clustering c;
  c.shape.dims = release.at("shape").get<std::vector<std::size_t>>();
  c.cell_cluster.assign(c.shape.size(), -1);
  const std::vector<std::size_t> st = c.shape.strides();
  for (const auto& row : release.at("significant_cells")) {
    std::size_t idx = 0;
    for (std::size_t j = 0; j < st.size(); ++j) idx += row[j].get<std::size_t>() * st[j];
    c.cell_cluster[idx] = row[st.size()].get<std::int32_t>();
    ++c.n_significant;
  }
  c.n_clusters = release.at("clusters").get<std::size_t>();
  return c;
}

}  // namespace dpclust::wavecluster
