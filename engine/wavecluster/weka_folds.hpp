#pragma once
// The cross-validation folds of the DP WaveCluster authors' evaluation (option `ocm_folds: weka`; the
// default `dpclust` shuffles with the trial's seed, measures.hpp). Their
// CrossValidationSingleRunUsingGridTraining.java (lchen10/DiffPrivWaveCluster, WaveCluster_PrivTHR*/
// WaveCluster_PrivQT) loads the ARFF file in file order, sets the last attribute (the label) as the
// class and does
//     randData.randomize(new Random(1)); randData.stratify(10);
//     for n in 0..9: train = randData.trainCV(10, n); test = randData.testCV(10, n);
// so the folds are the same in every run (seed 1), stratified on the dataset's labels. The paper
// (Sec. 6.2) says only "10-fold cross-validation". Weka's documented rules (weka.core.Instances):
//   randomize(r)  for j = n-1 .. 1: swap(j, r.nextInt(j + 1))           (java_random.hpp)
//   stratify(k)   nominal class: group the instances by class, one pass per class: the instances
//                 of the class of instance(index - 1) are swapped forward to index, index + 1, ...
//                 (scanning j = index .. n-1); then stratStep: the new order takes positions
//                 0, k, 2k, ..., then 1, k+1, ..., then 2, ...
//   testCV(k, f)  per = n / k (+1 when f < n % k); first = f (n / k) + min(f, n % k); the block
//                 [first, first + per) of the stratified order
//   trainCV(k, f) the rest, in order ([0, first) then [first + per, n))
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust::wavecluster {

// Weka's randomize: the permutation of 0..n-1 after Instances.randomize(new Random(seed)).
std::vector<std::uint32_t> weka_randomize(std::size_t n, std::int64_t seed);
// Weka's stratify(folds) of `order` (instance indices) by their labels (equal labels = same class;
// Weka's "both class values missing" is the label -1 here).
std::vector<std::uint32_t> weka_stratify(std::vector<std::uint32_t> order, const Labels& labels, std::size_t folds);
// [first, first + size) of fold f in the stratified order (testCV).
struct FoldBlock {
  std::size_t first = 0, size = 0;
};
FoldBlock weka_test_block(std::size_t n, std::size_t folds, std::size_t f);

// The authors' fold order: randomize(new Random(1)) then stratify(folds) on the labels.
inline constexpr std::int64_t kWekaFoldSeed = 1;  // CrossValidationSingleRunUsingGridTraining: int seed = 1
std::vector<std::uint32_t> weka_fold_order(const Labels& labels, std::size_t folds, std::int64_t seed = kWekaFoldSeed);

}  // namespace dpclust::wavecluster
