#pragma once
// C4.5 decision tree (Quinlan 1993) with the semantics of Weka's J48, the classifier the DP WaveCluster
// authors used for OCM and 2CE (SPEC.md: J48 -U, i.e. unpruned, minimum 2 instances per leaf). Only
// numeric attributes and unit instance weights without missing values, which is all the
// clustering-first-then-classification evaluation needs (grid coordinates -> cluster label).
//
// What is reproduced from J48 (weka.classifiers.trees.j48, C45ModelSelection / C45Split /
// C45PruneableClassifierTree):
//  - binary splits "x <= t" on numeric attributes; candidate cut points between distinct sorted values
//    (gap > 1e-5); each side needs >= minSplit = clamp(0.1 * n / numClasses, minNumObj, 25) instances;
//  - information gain in bits, minus the MDL correction log2(#candidate cuts) / n (Quinlan 1996);
//  - the split with the best gain ratio among attributes whose gain >= average gain - 1e-3;
//  - no split when n < 2 minNumObj or the node is pure; comparisons with Weka's 1e-6 tolerance;
//  - the threshold is reset to the largest training value (of all the training data) <= the midpoint
//    (C45Split.setSplitPoint), so it is a value that occurs in the data, as in C4.5;
//  - "collapse" of subtrees that do not reduce training errors (done even when unpruned, as J48 does);
//  - optional pessimistic pruning with confidence CF (default 0.25) and subtree raising;
//  - leaf class = the majority class with ties to the lowest class index; an empty child predicts its
//    parent's majority class.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpclust::wavecluster {

// What a tree needs of its instances that does not depend on their classes: the attribute values and,
// per attribute, the instances in ascending order of value (ties by instance index, the order
// J48's stable per-node sort gives). Computed once for a set of points and shared by every tree built on
// it (cell_classifier: once per grid shape for all trials of a run), read-only, so trees on it may be
// built concurrently. A node's sorted lists are then cut out of its parent's by a stable partition
// (linear), instead of sorting every node's instances again (J48: O(m log m) per node and attribute).
struct C45Presort {
  std::size_t n = 0, a = 0;
  std::vector<double> x;                          // row-major n x a
  std::vector<std::vector<std::uint32_t>> order;  // order[att]: the n instances by (x[i * a + att], i)
  // Sorts the instances on every attribute (x: row-major n x a).
  static C45Presort of(std::vector<double> x, std::size_t n, std::size_t a);
  // The instances with keep[i] != 0, renumbered 0, 1, ... in index order; the orders are filtered,
  // not sorted again.
  C45Presort subset(const std::vector<std::uint8_t>& keep) const;
  double value(std::uint32_t i, std::size_t att) const { return x[static_cast<std::size_t>(i) * a + att]; }
};

struct C45Options {
  std::size_t min_leaf = 2;     // J48 -M
  bool prune = false;           // J48 default prunes; the authors ran -U (unpruned)
  double confidence = 0.25;     // J48 -C, used when pruning
  bool subtree_raising = true;  // J48 default (when pruning)
  bool collapse = true;         // J48 default
  bool mdl_correction = true;   // J48 default
};

class C45Tree {
 public:
  // x: row-major n x a attribute values; y: class index in [0, num_classes) per instance.
  static C45Tree fit(const std::vector<double>& x, std::size_t n, std::size_t a, const std::vector<std::int32_t>& y,
                     std::size_t num_classes, const C45Options& opt = {});
  // The same tree from presorted instances (split for split the tree of fit(data.x, ...)).
  static C45Tree fit(const C45Presort& data, const std::vector<std::int32_t>& y, std::size_t num_classes,
                     const C45Options& opt = {});
  // The same tree, and in `training_classes` predict() of every training instance (index order): without
  // pruning read off the leaves' ranges of the presorted orders, no walk per instance.
  static C45Tree fit(const C45Presort& data, const std::vector<std::int32_t>& y, std::size_t num_classes,
                     const C45Options& opt, std::vector<std::int32_t>& training_classes);
  std::int32_t predict(const double* x) const;
  std::size_t leaves() const;
  std::size_t size() const;  // number of nodes, Weka's "Size of the tree"
  // Weka-style text: "a1 <= 0.6: 0 (50.0)" lines with "|   " indentation.
  std::string to_text(const std::vector<std::string>& attribute_names,
                      const std::vector<std::string>& class_names) const;

  struct Node {
    std::int32_t attribute = -1;  // -1: leaf
    double threshold = 0;
    std::int32_t left = -1, right = -1;  // children (x <= threshold goes left)
    // The class counts of the node's training instances, kept as what collapsing, pruning and printing
    // read of them: their total and the count of the majority class (the first maximum). A tree of a
    // private release can have thousands of classes over millions of cells; one count per class and node
    // once took 4 GB at 16 dimensions. Unit-weight counts: sums of whole numbers, exact in any order.
    double count = 0;
    double correct = 0;
    std::int32_t majority = 0;
    bool empty = false;
  };
  // The nodes in preorder (node 0 is the root), e.g. to compare two trees split for split.
  const std::vector<Node>& nodes() const { return nodes_; }
  // Sets a node's count, correct and majority from its class counts (Distribution.maxClass: first maximum).
  static void set_distribution(Node& node, const std::vector<double>& per_class);

 private:
  static C45Tree fit_impl(const C45Presort& data, const std::vector<std::int32_t>& y, std::size_t num_classes,
                          const C45Options& opt, std::vector<std::int32_t>* training_classes);
  std::vector<Node> nodes_;
  friend struct C45Builder;
};

}  // namespace dpclust::wavecluster
