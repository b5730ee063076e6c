#pragma once
// Neighbouring datasets for the privacy audit (`dpclust audit`): from one dataset D, the D'
// that differs from it in one record under the mechanism's declared relation, chosen to stress the
// mechanism (DP auditing practice: Jagielski et al. 2020, Nasr et al. 2023 pick the "canary" record
// where the mechanism is weakest).
//
//   relation add_remove (MethodInfo::relation; the harness's default):
//     add_empty_cell      a record at the centre of the coarse cell (8 per dimension, at most 3 of them
//                         varied) farthest from every record: a count that was 0 becomes 1
//     add_domain_corner   a record at the domain's upper corner (bounds.hi): an extreme value
//     add_cluster_boundary  a record midway between the two closest cluster centroids (ground truth
//                         labels; without labels, midway between the data mean and its farthest point)
//     add_duplicate       a copy of the record nearest the data mean (dense region: raises a maximum)
//     remove_one          the record farthest from the data mean removed (an outlier: moves a range)
//   relation replace_one (bounded DP): the record nearest the mean replaced by each of the points above
//     (replace_empty_cell, replace_domain_corner, replace_cluster_boundary)
//   local privacy (nd_laplace): replace_local: record 0 replaced by a point at distance `local_distance`
//     along the first axis (inside the domain); the guarantee to check is eps * distance.
// Pairs given in the config: {name, add: [x...]} | {name, remove: i} | {name, replace: i, with: [x...]}.
//
// Both datasets keep D's public domain bounds and bounds source (the domain is not a function of the
// data; a mechanism that derives anything from the records is what the audit is for).
#include <optional>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"

namespace dpclust::audit {

struct PairSpec {
  std::string name;                   // a built-in generator, or a config pair's own name
  std::vector<double> add;            // config pair: the record to add (or the replacement)
  std::optional<std::size_t> remove;  // config pair: the record to remove (or to replace)
};

struct NeighbourPair {
  std::string name;
  std::string description;     // what changed, for the results
  Dataset d_prime;             // D' (D is the dataset itself)
  std::vector<double> record;  // the added / replacement record (empty for a removal)
  double local_distance = 0;   // replace_local: d(x, x')
};

// The built-in generators that apply to a relation (local: replace_local only).
std::vector<std::string> builtin_pairs(NeighbourRelation relation, bool local_privacy);
bool is_builtin_pair(const std::string& name);

// Builds D' for one pair. InputError (naming `where`) when the pair does not fit the data or the relation:
// a config record of the wrong dimension or outside the domain, an index >= n, add/remove under
// replace_one, a built-in pair of another relation, an empty D for remove_one.
NeighbourPair make_pair(const Dataset& d, const PairSpec& spec, NeighbourRelation relation, bool local_privacy,
                        double local_distance, const std::string& where);

}  // namespace dpclust::audit
