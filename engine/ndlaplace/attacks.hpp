#pragma once
// The thesis's Chapter 4 ("Attacks on privacy") as evaluations of the perturbation release: pure
// functions of the true points x and the released points z (both n x d row-major) and of public
// parameters. Evaluation only: nothing here is fed back into a release.
//
// Sec. 4.1 / 4.3, membership inference and the adversarial advantage. The thesis measures leaked
// privacy by the adversarial advantage TPR - FPR (Yeom et al. 2018, CSF), and sketches a
// "semi-supervised black-box" attack on clustering whose figure (4.2) is missing from the draft. The
// attack used here is therefore a documented standard one: Yeom et al.'s threshold attack, which the
// thesis cites and summarises as "the attacker knows the standard error and has access to the
// perturbation dataset", transposed from a model's loss to the release's geometry:
//   score(candidate c, release R) = min_{z in R} ||c - z||   (the "loss" of c under the release);
//   guess "member" iff score <= tau.
// Membership game (add/remove neighbours, the relation of the local ledger): for each true point x_i
// the adversary sees either the release Z of the dataset (x_i a member) or the release of the dataset
// without x_i, which for a local mechanism is exactly Z \ {z_i} (every point is perturbed on its own).
//   TPR = #{i : min_j ||x_i - z_j|| <= tau} / n,  FPR = #{i : min_{j != i} ||x_i - z_j|| <= tau} / n,
//   advantage = TPR - FPR (>= 0, since the member score never exceeds the non-member score).
// tau, Yeom et al.'s "expected loss": the expected perturbation distance of the noise the points were
// drawn with, E ||z - x|| = d / e for density proportional to exp(-e ||z - x||) in R^d (the radius is
// Gamma(d, 1/e); truncation ignored), a public function of the parameters. membership_inference_best
// takes the best tau in hindsight (the strongest threshold adversary; an upper envelope).
//
// Sec. 4.2, reconstruction: the adversary's estimate of each true point from the release, scored by the
// mean distance ||x_hat_i - x_i||. The thesis gives no algorithm ("focused on reconstructing the data").
// The maximum-likelihood estimate of x_i is z_i itself (its error is the metric avg_distance); the
// attack here is the Bayes estimate under squared loss, the posterior mean E[x | z_i], with the
// likelihood exp(-e ||z_i - x||) at the public draw rate e and, as prior, the empirical distribution of
// the release (the adversary knows the population only through Z):
//   x_hat_i = sum_j w_ij z_j / sum_j w_ij,  w_ij = exp(-e ||z_i - z_j||)   (j = i included).
// On clustered data it pulls each report towards its cluster, beating z_i when the noise is large.
#include <cstddef>
#include <vector>

namespace dpclust::ndlaplace {

struct MembershipAttack {
  double tpr = 0, fpr = 0, advantage = 0;
  double threshold = 0;  // tau
};

// Mean of the noise radius Gamma(d, 1/rate): the attack's public threshold.
double expected_noise_distance(std::size_t d, double rate);

// The threshold attack at tau (n >= 2; std::invalid_argument otherwise).
MembershipAttack membership_inference(const double* x, const double* z, std::size_t n, std::size_t d, double tau);
// The same attack at the tau that maximises TPR - FPR (ties: the smallest such tau).
MembershipAttack membership_inference_best(const double* x, const double* z, std::size_t n, std::size_t d);

// The posterior-mean reconstruction x_hat (n x d) from the release alone; rate > 0.
std::vector<double> reconstruct_posterior_mean(const double* z, std::size_t n, std::size_t d, double rate);
// mean_i ||a_i - b_i|| (0 when n = 0).
double mean_distance(const double* a, const double* b, std::size_t n, std::size_t d);

}  // namespace dpclust::ndlaplace
