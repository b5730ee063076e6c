#pragma once
// The private hierarchically separated tree (HST) of Cohen-Addad, Epasto, Mirrokni, Narayanan & Zhong (KDD
// 2022), as the authors' code builds it (google-research/google-research, hst_clustering/dp_hst.py):
//
//   the tree   a randomly split quadtree over the public box: L layers, each splitting every dimension once in
//              turn, so L d binary levels. The split of dimension j in layer l is at the same relative position
//              f_{l,j} = (1 + u) / 3, u uniform on [0, 1), in every cell of that layer (layer_dimension_threshold):
//              a cell [lo, hi] splits at f (hi_j - lo_j) + lo_j, the points with x_j >= split going to its
//              `upper` child (the authors' id character '0', their right child), the others to its `lower`
//              child ('1', their left child). Data-independent: drawn from its own stream, public.
//   the counts every occupied cell's count gets Gaussian noise and is released when the noisy count reaches
//              the threshold tau (privacy/gaussian_thresholding.hpp; GaussianThresholdMechansimFn). A record is
//              in one cell per level.
//   the tree that is kept: the released cells reachable from the root through released cells (validate_tree
//              with remove_unreachable_nodes); a released cell with one released child gets an empty sibling of
//              weight 0 (io.DataFrameToTree), one with none is a leaf.
//
// Built top down, breadth first: the children of a released cell are noised, those of a cell that did not
// reach tau are never looked at. The authors noise every occupied cell and then drop the ones below a missing
// ancestor; the noise of independent cells, never drawn for cells the result drops, leaves the distribution of
// the kept tree the same. An empty cell has no count and is never released (as in the authors' pipeline, which
// only ever sees occupied cells).
//
// The root (the public box) is a node of every tree. Whether its count is released is the caller's choice
// (`release_root`): the authors release it like any other cell; nothing downstream needs it, and without it a
// record changes exactly L d released counts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/cell_streams.hpp"
#include "core/dataset.hpp"
#include "core/rng.hpp"
#include "privacy/gaussian_thresholding.hpp"

namespace dpclust::hst {

// The relative split positions f_{l,j} in [1/3, 2/3), one per (layer, dimension).
class SplitFractions {
 public:
  SplitFractions() = default;
  // fractions: layers x d values, layer-major; each in (0, 1) (std::invalid_argument otherwise).
  SplitFractions(std::size_t layers, std::size_t d, std::vector<double> fractions);
  std::size_t layers() const { return layers_; }
  std::size_t dims() const { return d_; }
  std::size_t levels() const { return layers_ * d_; }
  double at(std::size_t layer, std::size_t dim) const { return f_[layer * d_ + dim]; }
  // The split taking a cell from binary level t to t + 1: dimension t mod d of layer t / d.
  std::size_t dimension_of_level(std::size_t t) const { return t % d_; }
  double fraction_of_level(std::size_t t) const { return f_[t]; }  // layer-major: index t = (t / d) d + t mod d
  const std::vector<double>& values() const { return f_; }

 private:
  std::size_t layers_ = 0, d_ = 0;
  std::vector<double> f_;
};

// f_{l,j} = (1 + u_{l,j}) / 3, u_{l,j} = the first uniform of the cell stream l d + j of `streams`.
SplitFractions draw_split_fractions(std::size_t layers, std::size_t d, const CellStreams& streams);

enum class NodeKind : std::uint8_t { root, released, completion };

struct HstNode {
  std::int32_t parent = -1;
  std::int32_t upper = -1;  // child with x_j >= split (id character '0')
  std::int32_t lower = -1;  // child with x_j < split ('1')
  std::uint32_t depth = 0;  // binary levels below the root
  bool is_upper = false;    // which child of its parent it is
  NodeKind kind = NodeKind::released;
  // The released noisy count; 0 for a completion node; for the root its released count, or (root not
  // released) the sum of its children's weights (post-processing, used by nothing but the tree cost at k = 0).
  double weight = 0;
  double diameter = 0;  // Euclidean length of the cell's diagonal (public: a function of the box and the splits)
  bool leaf() const { return upper < 0 && lower < 0; }
};

struct PrivateHst {
  std::vector<HstNode> nodes;        // breadth first: a parent before its children; nodes[0] is the root
  std::size_t released_cells = 0;    // noisy counts released (the root's included when released)
  std::size_t completion_nodes = 0;  // empty siblings added
  std::size_t leaves = 0;
  std::uint32_t depth = 0;  // deepest released cell (binary levels)
  bool root_released = false;
  bool root_below_threshold =
      false;  // release_root and the root's own noisy count missed tau: the tree is the root alone
  // Evaluation only (counts occupied cells, which the release does not show): the cells that drew noise.
  std::size_t cells_noised = 0;
};

// Builds the tree of the points (n x d, row-major; finite) in `box` (d dimensions; points outside it fall in
// the border cells, as if clamped) with `splits` (its layers x d levels). Each noised cell draws from its own
// stream of `noise`: cell i of the breadth-first order of the cells noised.
PrivateHst build_private_hst(const double* coords, std::size_t n, std::size_t d, const Bounds& box,
                             const SplitFractions& splits, const privacy::GaussianThresholding& counts,
                             bool release_root, const CellStreams& noise);

// The cell of node `node`: its box, walked down from the root with the same arithmetic as the build.
void cell_box(const PrivateHst& tree, std::size_t node, const Bounds& box, const SplitFractions& splits,
              std::vector<double>& lo, std::vector<double>& hi);
// Its midpoint (hi - lo) / 2 + lo (get_diameter_center_one_count_tuple's centre).
std::vector<double> cell_midpoint(const PrivateHst& tree, std::size_t node, const Bounds& box,
                                  const SplitFractions& splits);
// The authors' cell id: one character per level, '0' for an upper child, '1' for a lower one ("" = the root).
std::string cell_id(const PrivateHst& tree, std::size_t node);

}  // namespace dpclust::hst
