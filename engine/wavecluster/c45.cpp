// A C4.5 tree's presorted instances, the checks of a fit's inputs, its predictions and its text (c45.hpp); growing
// it is c45_fit.cpp.
#include "wavecluster/c45.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace dpclust::wavecluster {

C45Presort C45Presort::of(std::vector<double> x, std::size_t n, std::size_t a) {
  if (x.size() != n * a) throw std::invalid_argument("C45Presort: input sizes do not match");
  if (n > std::numeric_limits<std::uint32_t>::max()) throw std::invalid_argument("C45Presort: too many instances");
  C45Presort p;
  p.n = n;
  p.a = a;
  p.x = std::move(x);
  p.order.assign(a, std::vector<std::uint32_t>(n));
  for (std::size_t att = 0; att < a; ++att) {
    std::vector<std::uint32_t>& o = p.order[att];
    std::iota(o.begin(), o.end(), 0u);
    std::stable_sort(o.begin(), o.end(),
                     [&](std::uint32_t i, std::uint32_t j) { return p.value(i, att) < p.value(j, att); });
  }
  return p;
}

C45Presort C45Presort::subset(const std::vector<std::uint8_t>& keep) const {
  if (keep.size() != n) throw std::invalid_argument("C45Presort::subset: one flag per instance");
  std::vector<std::uint32_t> renumber(n, 0);
  C45Presort p;
  p.a = a;
  for (std::size_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    renumber[i] = static_cast<std::uint32_t>(p.n++);
    p.x.insert(p.x.end(), x.begin() + static_cast<std::ptrdiff_t>(i * a),
               x.begin() + static_cast<std::ptrdiff_t>((i + 1) * a));
  }
  p.order.assign(a, {});
  for (std::size_t att = 0; att < a; ++att) {
    p.order[att].reserve(p.n);
    for (std::uint32_t i : order[att])
      if (keep[i]) p.order[att].push_back(renumber[i]);  // renumbering keeps the index order of ties
  }
  return p;
}

namespace {
void check_fit_input(std::size_t x_size, std::size_t n, std::size_t a, const std::vector<std::int32_t>& y,
                     std::size_t num_classes) {
  if (x_size != n * a || y.size() != n) throw std::invalid_argument("C45Tree::fit: input sizes do not match");
  if (num_classes == 0) throw std::invalid_argument("C45Tree::fit: no classes");
  for (auto c : y)
    if (c < 0 || static_cast<std::size_t>(c) >= num_classes)
      throw std::invalid_argument("C45Tree::fit: class index out of range");
}
}  // namespace

C45Tree C45Tree::fit(const std::vector<double>& x, std::size_t n, std::size_t a, const std::vector<std::int32_t>& y,
                     std::size_t num_classes, const C45Options& opt) {
  check_fit_input(x.size(), n, a, y, num_classes);
  return fit(C45Presort::of(x, n, a), y, num_classes, opt);
}

C45Tree C45Tree::fit(const C45Presort& data, const std::vector<std::int32_t>& y, std::size_t num_classes,
                     const C45Options& opt) {
  check_fit_input(data.x.size(), data.n, data.a, y, num_classes);
  return fit_impl(data, y, num_classes, opt, nullptr);
}

C45Tree C45Tree::fit(const C45Presort& data, const std::vector<std::int32_t>& y, std::size_t num_classes,
                     const C45Options& opt, std::vector<std::int32_t>& training_classes) {
  check_fit_input(data.x.size(), data.n, data.a, y, num_classes);
  return fit_impl(data, y, num_classes, opt, &training_classes);
}

std::int32_t C45Tree::predict(const double* x) const {
  std::size_t id = 0;
  while (nodes_[id].attribute >= 0) {
    const Node& nd = nodes_[id];
    const auto child = static_cast<std::size_t>(x[nd.attribute] <= nd.threshold ? nd.left : nd.right);
    if (nodes_[child].empty)
      return nd.majority;  // ClassifierTree.getProbs: an empty son uses the parent's distribution
    id = child;
  }
  return nodes_[id].majority;
}

std::size_t C45Tree::leaves() const {
  std::size_t c = 0;
  for (const auto& nd : nodes_) c += nd.attribute < 0;
  return c;
}

std::size_t C45Tree::size() const { return nodes_.size(); }

std::string C45Tree::to_text(const std::vector<std::string>& att, const std::vector<std::string>& cls) const {
  std::ostringstream os;
  std::function<void(std::size_t, int)> rec = [&](std::size_t id, int depth) {
    const Node& nd = nodes_[id];
    for (int side = 0; side < 2; ++side) {
      for (int i = 0; i < depth; ++i) os << "|   ";
      os << att[static_cast<std::size_t>(nd.attribute)] << (side == 0 ? " <= " : " > ") << nd.threshold;
      const Node& ch = nodes_[static_cast<std::size_t>(side == 0 ? nd.left : nd.right)];
      if (ch.attribute < 0) {
        const double t = ch.count, wrong = t - ch.correct;
        os << ": " << cls[static_cast<std::size_t>(ch.majority)] << " (" << std::fixed << std::setprecision(1) << t;
        if (wrong > 0) os << "/" << wrong;
        os << ")\n" << std::defaultfloat << std::setprecision(6);
      } else {
        os << "\n";
        rec(static_cast<std::size_t>(side == 0 ? nd.left : nd.right), depth + 1);
      }
    }
  };
  if (nodes_[0].attribute < 0)
    os << ": " << cls[static_cast<std::size_t>(nodes_[0].majority)] << " (" << nodes_[0].count << ")\n";
  else rec(0, 0);
  return os.str();
}

}  // namespace dpclust::wavecluster
