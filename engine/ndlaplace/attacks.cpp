// Membership inference and reconstruction on the nD-Laplace release (thesis Ch. 4); see attacks.hpp.
#include "ndlaplace/attacks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "ndlaplace/privacy.hpp"

namespace dpclust::ndlaplace {
namespace {

// Member and non-member (leave-one-out) scores of every true point.
void scores(const double* x, const double* z, std::size_t n, std::size_t d, std::vector<double>& member,
            std::vector<double>& nonmember) {
  if (n < 2) throw std::invalid_argument("membership inference needs at least 2 points");
  member.assign(n, std::numeric_limits<double>::infinity());
  nonmember.assign(n, std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      const double dd = euclidean_distance(x + i * d, z + j * d, d);
      member[i] = std::min(member[i], dd);
      if (j != i) nonmember[i] = std::min(nonmember[i], dd);
    }
  }
}

}  // namespace

double expected_noise_distance(std::size_t d, double rate) {
  if (!(rate > 0)) throw std::invalid_argument("expected_noise_distance: rate must be > 0");
  return static_cast<double>(d) / rate;
}

MembershipAttack membership_inference(const double* x, const double* z, std::size_t n, std::size_t d, double tau) {
  std::vector<double> m, o;
  scores(x, z, n, d, m, o);
  MembershipAttack a;
  a.threshold = tau;
  std::size_t tp = 0, fp = 0;
  for (std::size_t i = 0; i < n; ++i) {
    tp += m[i] <= tau ? 1 : 0;
    fp += o[i] <= tau ? 1 : 0;
  }
  a.tpr = static_cast<double>(tp) / static_cast<double>(n);
  a.fpr = static_cast<double>(fp) / static_cast<double>(n);
  a.advantage = a.tpr - a.fpr;
  return a;
}

MembershipAttack membership_inference_best(const double* x, const double* z, std::size_t n, std::size_t d) {
  std::vector<double> m, o;
  scores(x, z, n, d, m, o);
  // Sweep tau over the scores: +1 to TP at a member score, +1 to FP at a non-member score.
  std::vector<std::pair<double, int>> ev;
  ev.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    ev.emplace_back(m[i], 1);
    ev.emplace_back(o[i], 0);
  }
  std::sort(ev.begin(), ev.end());
  MembershipAttack best;  // tau below every score: TPR = FPR = 0
  best.threshold = ev.front().first - 1.0;
  std::size_t tp = 0, fp = 0;
  for (std::size_t k = 0; k < ev.size();) {
    const double v = ev[k].first;
    for (; k < ev.size() && ev[k].first == v; ++k) (ev[k].second ? tp : fp) += 1;
    const double adv = (static_cast<double>(tp) - static_cast<double>(fp)) / static_cast<double>(n);
    if (adv > best.advantage) {
      best.advantage = adv;
      best.tpr = static_cast<double>(tp) / static_cast<double>(n);
      best.fpr = static_cast<double>(fp) / static_cast<double>(n);
      best.threshold = v;
    }
  }
  return best;
}

std::vector<double> reconstruct_posterior_mean(const double* z, std::size_t n, std::size_t d, double rate) {
  if (!(rate > 0) || !std::isfinite(rate)) throw std::invalid_argument("reconstruction: rate must be finite and > 0");
  std::vector<double> out(n * d, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double wsum = 0.0;
    double* xi = out.data() + i * d;
    for (std::size_t j = 0; j < n; ++j) {
      const double w = std::exp(-rate * euclidean_distance(z + i * d, z + j * d, d));  // w_ii = 1: never all zero
      wsum += w;
      for (std::size_t c = 0; c < d; ++c) xi[c] += w * z[j * d + c];
    }
    for (std::size_t c = 0; c < d; ++c) xi[c] /= wsum;
  }
  return out;
}

double mean_distance(const double* a, const double* b, std::size_t n, std::size_t d) {
  if (n == 0) return 0.0;
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += euclidean_distance(a + i * d, b + i * d, d);
  return s / static_cast<double>(n);
}

}  // namespace dpclust::ndlaplace
