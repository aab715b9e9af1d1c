// Order conditions of explicit Runge-Kutta methods, for the steppers' tests
// (test_rk8): Butcher's rooted trees and elementary weights (Hairer,
// Norsett, Wanner, Solving ODE I, 2nd ed., II.2, Theorem 2.13), and, for a
// continuous extension y(t + theta h) = y0 + h sum_i b_i(theta) k_i, the
// conditions sum_i b_i(theta) Phi_i(t) = theta^rho(t) / gamma(t) (ibid.
// II.6, Theorem 6.1 with the weights scaled by theta).
#pragma once

#include <array>
#include <cstddef>
#include <utility>
#include <vector>

namespace nhs {

/// The rooted trees of order <= max_order, each as the ids of its subtrees
/// (non-increasing: one multiset per tree), in order of their order.
struct RootedTrees {
  std::vector<std::vector<int>> children;
  std::vector<int> order;

  explicit RootedTrees(int max_order) {
    children.push_back({});
    order.push_back(1);
    for (int n = 2; n <= max_order; ++n) {
      const int known = static_cast<int>(order.size());  // the trees of order < n
      std::vector<int> current;
      grow(n - 1, known - 1, current, n);
    }
  }

 private:
  void grow(int remaining, int max_id, std::vector<int>& current, int n) {
    if (remaining == 0) {
      children.push_back(current);
      order.push_back(n);
      return;
    }
    for (int id = max_id; id >= 0; --id) {
      if (order[id] > remaining || order[id] >= n) continue;
      current.push_back(id);
      grow(remaining - order[id], id, current, n);
      current.pop_back();
    }
  }
};

/// The largest |sum_i w_i Phi_i(t) - theta^rho(t) / gamma(t)| over the trees
/// t of order rho(t) <= max_order, and the number of trees. a: the s x s
/// coefficients a[i][j] (j < i read), w: the s weights (b_i(theta) for a
/// continuous extension, b_i with theta = 1 for the method itself).
template <class M, std::size_t s>
std::pair<M, int> continuous_order_residual(const std::array<std::array<M, s>, s>& a,
                                            const std::array<M, s>& w, const RootedTrees& trees,
                                            int max_order, const M& theta) {
  std::vector<std::array<M, s>> phi;  // Phi_i(t) per tree, i = stage
  std::vector<M> gamma;
  M worst(0);
  int count = 0;
  for (std::size_t t = 0; t < trees.order.size(); ++t) {
    std::array<M, s> v;
    v.fill(M(1));
    M g(trees.order[t]);
    for (const int u : trees.children[t]) {
      for (std::size_t i = 0; i < s; ++i) {
        M sum(0);
        for (std::size_t j = 0; j < i; ++j) sum += a[i][j] * phi[u][j];
        v[i] *= sum;
      }
      g *= gamma[u];
    }
    phi.push_back(v);
    gamma.push_back(g);
    if (trees.order[t] > max_order) continue;
    M sum(0);
    for (std::size_t i = 0; i < s; ++i) sum += w[i] * v[i];
    M target(1);
    for (int k = 0; k < trees.order[t]; ++k) target *= theta;
    using std::abs;
    using std::max;
    worst = max(worst, abs(sum - target / g));
    ++count;
  }
  return {worst, count};
}

}  // namespace nhs
