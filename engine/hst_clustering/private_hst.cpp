// The private HST, built top down on thresholded Gaussian counts; see private_hst.hpp.
#include "hst_clustering/private_hst.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dpclust::hst {
namespace {

double diagonal(const double* lo, const double* hi, std::size_t d) {
  double s = 0;
  for (std::size_t j = 0; j < d; ++j) s += (hi[j] - lo[j]) * (hi[j] - lo[j]);
  return std::sqrt(s);
}

// The split of a cell [lo, hi] along dimension j at relative position f, as the authors compute it.
double split_point(double f, double lo, double hi) { return f * (hi - lo) + lo; }

// A cell waiting to be split: its node, its points' rows [begin, end) and its box (2 d doubles in `boxes`).
struct Frame {
  std::int32_t node;
  std::size_t begin, end;
};

std::int32_t push_node(PrivateHst& t, const HstNode& node) {
  if (t.nodes.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw std::length_error("private HST: more than 2^31 - 1 nodes");
  t.nodes.push_back(node);
  return static_cast<std::int32_t>(t.nodes.size() - 1);
}

// Reorders the rows [begin, end) of a cell so that those with x_j >= split come first (the upper child's), and
// returns where the lower child's rows begin.
std::size_t partition_upper_first(std::vector<double>& rows, std::size_t d, std::size_t j, double split,
                                  std::size_t begin, std::size_t end) {
  std::size_t a = begin, b = end;
  while (a < b) {
    if (rows[a * d + j] >= split) {
      ++a;
    } else {
      --b;
      std::swap_ranges(rows.begin() + static_cast<std::ptrdiff_t>(a * d),
                       rows.begin() + static_cast<std::ptrdiff_t>((a + 1) * d),
                       rows.begin() + static_cast<std::ptrdiff_t>(b * d));
    }
  }
  return a;
}

// The node of one child of `parent` at `depth`: the upper or lower side of the parent's box [lo, lo + 2 d) split
// along j at `split`; `child` (2 d doubles) receives the child's box.
HstNode child_node(std::int32_t parent, std::size_t depth, bool upper, NodeKind kind, const double* lo, std::size_t d,
                   std::size_t j, double split, std::vector<double>& child) {
  std::copy(lo, lo + 2 * d, child.begin());
  (upper ? child[j] : child[d + j]) = split;
  HstNode c;
  c.parent = parent;
  c.depth = static_cast<std::uint32_t>(depth);
  c.is_upper = upper;
  c.kind = kind;
  c.diameter = diagonal(child.data(), child.data() + d, d);
  return c;
}

}  // namespace

SplitFractions::SplitFractions(std::size_t layers, std::size_t d, std::vector<double> fractions)
    : layers_(layers), d_(d), f_(std::move(fractions)) {
  if (f_.size() != layers_ * d_) throw std::invalid_argument("SplitFractions: need layers x d fractions");
  for (double f : f_)
    if (!(f > 0 && f < 1)) throw std::invalid_argument("SplitFractions: every fraction must be in (0, 1)");
}

SplitFractions draw_split_fractions(std::size_t layers, std::size_t d, const CellStreams& streams) {
  std::vector<double> f(layers * d);
  CellCursor cursor(streams);
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = (cursor.at(i).uniform() + 1.0) / 3.0;
  return SplitFractions(layers, d, std::move(f));
}

PrivateHst build_private_hst(const double* coords, std::size_t n, std::size_t d, const Bounds& box,
                             const SplitFractions& splits, const privacy::GaussianThresholding& counts,
                             bool release_root, const CellStreams& noise) {
  if (box.dims() != d || splits.dims() != d)
    throw std::invalid_argument("build_private_hst: the box and the splits need d dimensions");
  if (n == 0 || n > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("build_private_hst: need 1 to 2^32 - 1 points");
  PrivateHst t;
  CellCursor cursor(noise);
  HstNode root;
  root.kind = NodeKind::root;
  root.diameter = diagonal(box.lo.data(), box.hi.data(), d);
  push_node(t, root);
  if (release_root) {
    const auto r = counts.release(cursor.at(t.cells_noised++), static_cast<std::int64_t>(n));
    if (!r) {
      t.root_below_threshold = true;
      t.leaves = 1;
      return t;
    }
    t.nodes[0].weight = *r;
    t.root_released = true;
    ++t.released_cells;
  }

  // The points' rows, reordered in place so that every cell's points are one contiguous block: a level's pass
  // reads them in order (the original order through an index would be a cache miss a point and level).
  std::vector<double> rows(coords, coords + n * d);
  std::vector<Frame> frontier{{0, 0, n}}, next;
  std::vector<double> boxes, next_boxes, child(2 * d);
  boxes.insert(boxes.end(), box.lo.begin(), box.lo.end());
  boxes.insert(boxes.end(), box.hi.begin(), box.hi.end());
  const std::size_t levels = splits.levels();
  for (std::size_t level = 0; level < levels && !frontier.empty(); ++level) {
    const std::size_t j = splits.dimension_of_level(level);
    const double f = splits.fraction_of_level(level);
    next.clear();
    next_boxes.clear();
    for (std::size_t fi = 0; fi < frontier.size(); ++fi) {
      const Frame fr = frontier[fi];
      const double* lo = &boxes[fi * 2 * d];
      const double* hi = lo + d;
      const double split = split_point(f, lo[j], hi[j]);
      // Upper points first: rows [begin, mid) have x_j >= split, rows [mid, end) the rest.
      const std::size_t mid = partition_upper_first(rows, d, j, split, fr.begin, fr.end);
      std::int32_t made[2] = {-1, -1};
      for (int side = 0; side < 2; ++side) {
        const bool upper = side == 0;
        const std::size_t begin = upper ? fr.begin : mid, end = upper ? mid : fr.end;
        if (end == begin) continue;  // an empty cell: no count, never released
        const auto r = counts.release(cursor.at(t.cells_noised++), static_cast<std::int64_t>(end - begin));
        if (!r) continue;
        HstNode c = child_node(fr.node, level + 1, upper, NodeKind::released, lo, d, j, split, child);
        c.weight = *r;
        made[side] = push_node(t, c);
        ++t.released_cells;
        t.depth = c.depth;
        if (level + 1 < levels) {
          next.push_back({made[side], begin, end});
          next_boxes.insert(next_boxes.end(), child.begin(), child.end());
        }
      }
      // io.DataFrameToTree: a cell with one released child gets the other as an empty node of weight 0.
      if ((made[0] < 0) != (made[1] < 0)) {
        const bool upper = made[0] < 0;
        made[upper ? 0 : 1] =
            push_node(t, child_node(fr.node, level + 1, upper, NodeKind::completion, lo, d, j, split, child));
        ++t.completion_nodes;
      }
      t.nodes[static_cast<std::size_t>(fr.node)].upper = made[0];
      t.nodes[static_cast<std::size_t>(fr.node)].lower = made[1];
    }
    frontier.swap(next);
    boxes.swap(next_boxes);
  }
  if (!t.root_released) {
    HstNode& r = t.nodes[0];
    for (std::int32_t c : {r.upper, r.lower})
      if (c >= 0) r.weight += t.nodes[static_cast<std::size_t>(c)].weight;
  }
  for (const HstNode& v : t.nodes) t.leaves += v.leaf();
  return t;
}

void cell_box(const PrivateHst& tree, std::size_t node, const Bounds& box, const SplitFractions& splits,
              std::vector<double>& lo, std::vector<double>& hi) {
  std::vector<std::size_t> path;
  for (std::int32_t v = static_cast<std::int32_t>(node); v > 0; v = tree.nodes[static_cast<std::size_t>(v)].parent)
    path.push_back(static_cast<std::size_t>(v));
  lo = box.lo;
  hi = box.hi;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    const HstNode& v = tree.nodes[*it];
    const std::size_t level = v.depth - 1, j = splits.dimension_of_level(level);
    const double split = split_point(splits.fraction_of_level(level), lo[j], hi[j]);
    (v.is_upper ? lo[j] : hi[j]) = split;
  }
}

std::vector<double> cell_midpoint(const PrivateHst& tree, std::size_t node, const Bounds& box,
                                  const SplitFractions& splits) {
  std::vector<double> lo, hi;
  cell_box(tree, node, box, splits, lo, hi);
  std::vector<double> mid(lo.size());
  for (std::size_t j = 0; j < lo.size(); ++j) mid[j] = (hi[j] - lo[j]) / 2 + lo[j];
  return mid;
}

std::string cell_id(const PrivateHst& tree, std::size_t node) {
  std::string id;
  for (std::int32_t v = static_cast<std::int32_t>(node); v > 0; v = tree.nodes[static_cast<std::size_t>(v)].parent)
    id.push_back(tree.nodes[static_cast<std::size_t>(v)].is_upper ? '0' : '1');
  std::reverse(id.begin(), id.end());
  return id;
}

}  // namespace dpclust::hst
