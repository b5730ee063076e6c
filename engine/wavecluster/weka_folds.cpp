#include "wavecluster/weka_folds.hpp"

#include <numeric>
#include <stdexcept>
#include <utility>

#include "wavecluster/java_random.hpp"

namespace dpclust::wavecluster {

std::vector<std::uint32_t> weka_randomize(std::size_t n, std::int64_t seed) {
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw std::invalid_argument("weka_randomize: more instances than a Java int");
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  JavaRandom r(seed);
  for (std::size_t j = n; j-- > 1;)
    std::swap(order[j], order[static_cast<std::size_t>(r.next_int(static_cast<std::int32_t>(j + 1)))]);
  return order;
}

std::vector<std::uint32_t> weka_stratify(std::vector<std::uint32_t> order, const Labels& labels, std::size_t folds) {
  if (folds < 2) throw std::invalid_argument("weka_stratify: at least 2 folds");
  const std::size_t n = order.size();
  auto label = [&](std::uint32_t i) {
    if (i >= labels.size()) throw std::invalid_argument("weka_stratify: an instance has no label");
    return labels[i];
  };
  // Group by class (Instances.stratify's "sort by class" loop).
  std::size_t index = 1;
  while (index < n) {
    const Label c1 = label(order[index - 1]);
    for (std::size_t j = index; j < n; ++j)
      if (label(order[j]) == c1) std::swap(order[index++], order[j]);
    ++index;
  }
  // stratStep: positions start, start + folds, ... for start = 0, 1, ...
  std::vector<std::uint32_t> out;
  out.reserve(n);
  for (std::size_t start = 0; out.size() < n; ++start)
    for (std::size_t j = start; j < n; j += folds) out.push_back(order[j]);
  return out;
}

FoldBlock weka_test_block(std::size_t n, std::size_t folds, std::size_t f) {
  if (folds < 2 || f >= folds) throw std::invalid_argument("weka_test_block: fold out of range");
  FoldBlock b;
  b.size = n / folds;
  std::size_t offset = n % folds;
  if (f < n % folds) {
    ++b.size;
    offset = f;
  }
  b.first = f * (n / folds) + offset;
  return b;
}

std::vector<std::uint32_t> weka_fold_order(const Labels& labels, std::size_t folds, std::int64_t seed) {
  return weka_stratify(weka_randomize(labels.size(), seed), labels, folds);
}

}  // namespace dpclust::wavecluster
