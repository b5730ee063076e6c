// Neighbouring datasets for the audit; see neighbours.hpp.
#include "audit/neighbours.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/method.hpp"

namespace dpclust::audit {
namespace {

constexpr const char* kAddPairs[] = {"add_empty_cell", "add_domain_corner", "add_cluster_boundary", "add_duplicate",
                                     "remove_one"};
constexpr const char* kReplacePairs[] = {"replace_empty_cell", "replace_domain_corner", "replace_cluster_boundary"};
constexpr const char* kLocalPairs[] = {"replace_local"};

double squared_distance(const double* a, const double* b, std::size_t d) {
  double s = 0;
  for (std::size_t j = 0; j < d; ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
  return s;
}

std::vector<double> mean_of(const Dataset& data) {
  std::vector<double> m(data.d, 0.0);
  for (std::size_t i = 0; i < data.n; ++i)
    for (std::size_t j = 0; j < data.d; ++j) m[j] += data.point(i)[j];
  for (double& v : m) v /= static_cast<double>(std::max<std::size_t>(1, data.n));
  return m;
}

std::size_t nearest_to(const Dataset& data, const std::vector<double>& x) {
  std::size_t best = 0;
  double best_d = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < data.n; ++i) {
    const double dd = squared_distance(data.point(i), x.data(), data.d);
    if (dd < best_d) best_d = dd, best = i;
  }
  return best;
}

std::size_t farthest_from(const Dataset& data, const std::vector<double>& x) {
  std::size_t best = 0;
  double best_d = -1;
  for (std::size_t i = 0; i < data.n; ++i) {
    const double dd = squared_distance(data.point(i), x.data(), data.d);
    if (dd > best_d) best_d = dd, best = i;
  }
  return best;
}

// The domain: the configured bounds, else the data's bounding box (then the added record may move a
// data-derived box, which is what such a mechanism must be charged for).
Bounds domain_of(const Dataset& data) { return data.bounds.empty() ? bounding_box(data) : data.bounds; }

// Centre of the coarse cell (8 per dimension over the domain; dimensions beyond the third at the
// domain's midpoint) farthest from every record, judged on at most 4,096 records (evenly spaced).
std::vector<double> empty_cell_point(const Dataset& data) {
  const Bounds b = domain_of(data);
  const std::size_t varied = std::min<std::size_t>(data.d, 3);
  std::size_t cells = 1;
  for (std::size_t j = 0; j < varied; ++j) cells *= 8;
  const std::size_t step = std::max<std::size_t>(1, data.n / 4096);
  std::vector<double> best(data.d), cur(data.d);
  double best_gap = -1;
  for (std::size_t c = 0; c < cells; ++c) {
    std::size_t code = c;
    for (std::size_t j = 0; j < data.d; ++j) {
      const double frac = j < varied ? (static_cast<double>(code % 8) + 0.5) / 8.0 : 0.5;
      if (j < varied) code /= 8;
      cur[j] = b.lo[j] + frac * (b.hi[j] - b.lo[j]);
    }
    double gap = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < data.n; i += step)
      gap = std::min(gap, squared_distance(data.point(i), cur.data(), data.d));
    if (gap > best_gap) best_gap = gap, best = cur;
  }
  return best;
}

std::vector<double> cluster_boundary_point(const Dataset& data) {
  const std::vector<double> mean = mean_of(data);
  std::vector<Label> ids;
  if (data.has_labels())
    for (Label l : data.labels)
      if (l != kNoise && std::find(ids.begin(), ids.end(), l) == ids.end() && ids.size() < 1000) ids.push_back(l);
  if (ids.size() < 2) {  // midway between the mean and the farthest record
    const double* far = data.point(farthest_from(data, mean));
    std::vector<double> m(data.d);
    for (std::size_t j = 0; j < data.d; ++j) m[j] = 0.5 * (mean[j] + far[j]);
    return m;
  }
  std::vector<std::vector<double>> cent(ids.size(), std::vector<double>(data.d, 0.0));
  std::vector<double> count(ids.size(), 0.0);
  for (std::size_t i = 0; i < data.n; ++i) {
    const auto it = std::find(ids.begin(), ids.end(), data.labels[i]);
    if (it == ids.end()) continue;
    const auto c = static_cast<std::size_t>(it - ids.begin());
    for (std::size_t j = 0; j < data.d; ++j) cent[c][j] += data.point(i)[j];
    count[c] += 1;
  }
  for (std::size_t c = 0; c < ids.size(); ++c)
    for (double& v : cent[c]) v /= count[c];
  std::size_t a = 0, bb = 1;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (std::size_t k = i + 1; k < ids.size(); ++k) {
      const double dd = squared_distance(cent[i].data(), cent[k].data(), data.d);
      if (dd < best) best = dd, a = i, bb = k;
    }
  std::vector<double> m(data.d);
  for (std::size_t j = 0; j < data.d; ++j) m[j] = 0.5 * (cent[a][j] + cent[bb][j]);
  return m;
}

Dataset with_added(const Dataset& d, const std::vector<double>& x) {
  Dataset out = d;
  out.coords.insert(out.coords.end(), x.begin(), x.end());
  if (out.has_labels()) out.labels.push_back(kNoise);  // ground truth of the canary: none
  ++out.n;
  return out;
}

Dataset with_removed(const Dataset& d, std::size_t i) {
  Dataset out = d;
  out.coords.erase(out.coords.begin() + static_cast<std::ptrdiff_t>(i * d.d),
                   out.coords.begin() + static_cast<std::ptrdiff_t>((i + 1) * d.d));
  if (out.has_labels()) out.labels.erase(out.labels.begin() + static_cast<std::ptrdiff_t>(i));
  --out.n;
  return out;
}

Dataset with_replaced(const Dataset& d, std::size_t i, const std::vector<double>& x) {
  Dataset out = d;
  std::copy(x.begin(), x.end(), out.point(i));
  return out;
}

std::string describe_point(const std::vector<double>& x) {
  std::string s = "[";
  for (std::size_t j = 0; j < x.size(); ++j) s += (j ? ", " : "") + short_number(x[j]);
  return s + "]";
}

void check_record(const Dataset& d, const std::vector<double>& x, const std::string& where) {
  if (x.size() != d.d)
    throw InputError(where,
                     "the record has " + std::to_string(x.size()) + " coordinates, the data " + std::to_string(d.d),
                     "give one coordinate per dimension");
  for (double v : x)
    if (!std::isfinite(v)) throw InputError(where, "the record has a non-finite coordinate");
  if (!d.bounds.empty() && !d.bounds.contains(x.data()))
    throw InputError(where, "the record " + describe_point(x) + " lies outside the dataset's public domain",
                     "give a record inside the bounds (a mechanism may clamp, but the pair should test the domain)");
}

}  // namespace

std::vector<std::string> builtin_pairs(NeighbourRelation relation, bool local_privacy) {
  std::vector<std::string> v;
  if (local_privacy) v.assign(std::begin(kLocalPairs), std::end(kLocalPairs));
  else if (relation == NeighbourRelation::replace_one) v.assign(std::begin(kReplacePairs), std::end(kReplacePairs));
  else v.assign(std::begin(kAddPairs), std::end(kAddPairs));
  return v;
}

bool is_builtin_pair(const std::string& name) {
  auto in = [&](auto& arr) { return std::find(std::begin(arr), std::end(arr), name) != std::end(arr); };
  return in(kAddPairs) || in(kReplacePairs) || in(kLocalPairs);
}

NeighbourPair make_pair(const Dataset& d, const PairSpec& spec, NeighbourRelation relation, bool local_privacy,
                        double local_distance, const std::string& where) {
  if (d.n == 0) throw InputError(where, "the dataset has no records to form neighbours from");
  NeighbourPair p;
  p.name = spec.name;
  const bool replace = relation == NeighbourRelation::replace_one || local_privacy;
  const std::vector<double> mean = mean_of(d);

  if (!is_builtin_pair(spec.name)) {  // a pair given in the config
    if (spec.remove && !spec.add.empty()) {
      if (*spec.remove >= d.n)
        throw InputError(where, "record index " + std::to_string(*spec.remove) + " >= n = " + std::to_string(d.n));
      check_record(d, spec.add, where);
      p.d_prime = with_replaced(d, *spec.remove, spec.add);
      p.record = spec.add;
      p.description = "record " + std::to_string(*spec.remove) + " replaced by " + describe_point(spec.add);
    } else if (replace) {
      throw InputError(where,
                       "the mechanism's neighbours differ in one replaced record (" +
                           std::string(local_privacy ? "local privacy" : "bounded DP") +
                           "); this pair adds or removes one",
                       "give {name, remove: INDEX, with: [x...]}");
    } else if (spec.remove) {
      if (*spec.remove >= d.n)
        throw InputError(where, "record index " + std::to_string(*spec.remove) + " >= n = " + std::to_string(d.n));
      p.d_prime = with_removed(d, *spec.remove);
      p.description = "record " + std::to_string(*spec.remove) + " removed";
    } else {
      check_record(d, spec.add, where);
      p.d_prime = with_added(d, spec.add);
      p.record = spec.add;
      p.description = "record " + describe_point(spec.add) + " added";
    }
    if (local_privacy) p.local_distance = std::sqrt(squared_distance(d.point(*spec.remove), spec.add.data(), d.d));
    return p;
  }

  const auto applicable = builtin_pairs(relation, local_privacy);
  if (std::find(applicable.begin(), applicable.end(), spec.name) == applicable.end()) {
    std::string list;
    for (const auto& s : applicable) list += (list.empty() ? "" : ", ") + s;
    throw InputError(where, "pair '" + spec.name + "' does not fit the mechanism's neighbouring relation",
                     "use one of: " + list);
  }
  if (spec.name == "replace_local") {
    if (!(local_distance > 0) || !std::isfinite(local_distance))
      throw InputError(where, "local_distance must be a finite number > 0");
    std::vector<double> x(d.point(0), d.point(0) + d.d);
    const Bounds b = domain_of(d);
    // Along the first axis, towards the side with room (the replaced point stays in the domain).
    x[0] += (x[0] + local_distance <= b.hi[0]) ? local_distance : -local_distance;
    p.d_prime = with_replaced(d, 0, x);
    p.record = x;
    p.local_distance = local_distance;
    p.description = "record 0 moved by " + short_number(local_distance) + " along the first axis";
    return p;
  }
  if (spec.name == "remove_one") {
    const std::size_t i = farthest_from(d, mean);
    p.d_prime = with_removed(d, i);
    p.description = "record " + std::to_string(i) + " (farthest from the mean) removed";
    return p;
  }
  if (spec.name == "add_duplicate") {
    const std::size_t i = nearest_to(d, mean);
    p.record.assign(d.point(i), d.point(i) + d.d);
    p.d_prime = with_added(d, p.record);
    p.description = "copy of record " + std::to_string(i) + " (nearest the mean) added";
    return p;
  }
  const std::string what = spec.name.substr(spec.name.find('_') + 1);  // empty_cell, domain_corner, cluster_boundary
  if (what == "empty_cell") p.record = empty_cell_point(d);
  else if (what == "domain_corner") p.record = domain_of(d).hi;
  else p.record = cluster_boundary_point(d);
  // The description goes into audit.json and the report: it names the added record by the rule that
  // placed it, with coordinates only for the domain corner (the public bounds). The empty cell and the
  // cluster boundary are placed from the data, so their coordinates would tell about its records
  // (a record is named by its index, never by its values).
  const std::string placed = what == "domain_corner" ? describe_point(p.record) + " (the public domain's upper corner)"
                             : what == "empty_cell"  ? "a point in the coarse cell farthest from the data"
                                                     : "a point midway between the two closest true clusters";
  if (replace) {
    const std::size_t i = nearest_to(d, mean);
    p.d_prime = with_replaced(d, i, p.record);
    p.description = "record " + std::to_string(i) + " (nearest the mean) replaced by " + placed;
  } else {
    p.d_prime = with_added(d, p.record);
    p.description = "record added: " + placed;
  }
  return p;
}

}  // namespace dpclust::audit
