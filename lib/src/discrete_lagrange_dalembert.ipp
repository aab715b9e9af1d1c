// The discrete Lagrange-d'Alembert steppers (nhs/discrete_lagrange_dalembert.hpp).
#pragma once

#include "nhs/discrete_lagrange_dalembert.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/errors.hpp"
#include "nhs/format.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>

#include <cmath>
#include <string>

namespace nhs {

namespace dla_detail {

/// (dT/dq, dT/dqdot) at (q, v) by one jet of T (outer directions: the 2n
/// unit vectors of (q, qdot)); with g, also the metric d^2T/dqdot^2 (inner
/// variables: qdot).
template <class S>
void kinetic_gradients(const System<S>& sys, const Vec<S>& q, const Vec<S>& v, Vec<S>& T_q, Vec<S>& T_v,
                       Mat<S>* g = nullptr) {
  const Eigen::Index n = sys.n;
  const Eigen::Index inner = g ? n : 1;  // without g, one zero slot: no inner derivative is read
  KineticEnergySeed<S> seed;
  seed.outer = 2 * n;
  seed.inner = inner;
  seed.q = q;
  seed.qd = v;
  seed.q_inner = Mat<S>::Zero(n, inner);
  seed.qd_inner = g ? Mat<S>(Mat<S>::Identity(n, n)) : Mat<S>(Mat<S>::Zero(n, 1));
  seed.q_outer = Mat<S>::Zero(n, 2 * n);
  seed.q_outer.leftCols(n) = Mat<S>::Identity(n, n);
  seed.qd_outer = Mat<S>::Zero(n, 2 * n);
  seed.qd_outer.rightCols(n) = Mat<S>::Identity(n, n);
  const KineticEnergyJet<S> jet = kinetic_energy_jet(sys, seed);
  T_q = jet.T_outer.head(n);
  T_v = jet.T_outer.tail(n);
  if (g) *g = jet.T_outer_inner.bottomRows(n);
}

/// The step's unknowns x = (v, h lambda, h mu) (mu for nh-rattle and
/// nh-midpoint only) from the starting guesses; a multiplier guess of
/// another size than r (none yet) starts at 0.
template <class S>
Vec<S> initial_unknowns(Eigen::Index n, Eigen::Index r, bool rattle, const S& h, const Vec<S>& v,
                        const Vec<S>& lambda, const Vec<S>& mu) {
  const Eigen::Index N = n + (rattle ? 2 : 1) * r;
  Vec<S> x(N);
  x.head(n) = v;
  x.segment(n, r) = lambda.size() == r ? Vec<S>(h * lambda) : Vec<S>(Vec<S>::Zero(r));
  if (rattle) x.tail(r) = mu.size() == r ? Vec<S>(h * mu) : Vec<S>(Vec<S>::Zero(r));
  return x;
}

/// Whether the Newton iteration has converged, at a correction of size
/// `size` (max norm) to x_new after one of size `last` (< 0: none yet), for
/// a step of size h from q0.
template <class S>
bool converged(const S& size, const S& last, const Vec<S>& x_new, const Vec<S>& q0, const S& h) {
  using std::abs;
  const S eps = epsilon<S>();
  // The round-off floor of v = (q1 - q0)/h is eps |q0| / |h|: q1 is
  // rounded at the size of q.
  const S scale = S(1) + x_new.cwiseAbs().maxCoeff() + q0.cwiseAbs().maxCoeff() / abs(h);
  // Converged: a correction at round-off, or one that no longer shrinks
  // within 1024 eps of the solution's scale (the iteration has reached
  // the equations' round-off, amplified by their condition: the
  // corrections are noise).
  return size <= S(4) * eps * scale || (last >= S(0) && size > last / S(2) && size <= S(1024) * eps * scale);
}

}  // namespace dla_detail

template <class S>
DiscreteLagrangeDAlembert<S>::DiscreteLagrangeDAlembert(const System<S>& sys, DiscreteScheme scheme,
                                                        const Vec<S>& q, const Vec<S>& qd)
    : sys_(sys), scheme_(scheme), a_(scheme == DiscreteScheme::dla ? S(1) : S(1) / S(2)),
      b_(scheme == DiscreteScheme::dla ? S(0) : S(1) / S(2)) {
  const std::string name = scheme == DiscreteScheme::dla         ? "dla"
                           : scheme == DiscreteScheme::nh_rattle ? "nh-rattle"
                                                                 : "nh-midpoint";
  if (!sys.info.linear_constraints) {
    std::string names;
    for (const auto& c : sys.info.constraint_names) names += (names.empty() ? "" : ", ") + c;
    throw NotApplicable("stepper " + name + " applies to constraints linear in qdot, A(q) qdot = 0 "
                        "(the discrete constraint A((q0 + q1)/2) (q1 - q0) = 0 needs them); the "
                        "constraints of '" + sys.info.name + "' (" + names +
                        ") are not all linear: use an adaptive stepper");
  }
  if (sys.info.semidefinite_metric)
    throw NotApplicable("stepper " + name + " needs a positive-definite metric g (the velocity of a "
                        "momentum is g^-1 p); '" + sys.info.name +
                        "' has massless parts (a semidefinite g): use an adaptive stepper");
  // T must be at most quadratic in qdot, T = T0(q) + b(q).qd + qd^T g qd / 2
  // (a gyroscopic b allowed): the velocity of a momentum is then
  // g^-1 (p - b). Checked at (q, qd) and (q, 2 qd).
  using std::abs;
  const Vec<S> zero = Vec<S>::Zero(sys.n);
  const Mat<S> g = inertia(sys, q, qd).g;
  const S T0 = sys.kinetic_energy(q, zero);
  const Vec<S> b = momentum(q, zero);
  for (int k = 1; k <= 2; ++k) {
    const Vec<S> w = S(k) * qd;
    const S T = sys.kinetic_energy(q, w);
    const S quadratic = T0 + b.dot(w) + w.dot(g * w) / S(2);
    if (!(abs(T - quadratic) <= S(64) * epsilon<S>() * (abs(T) + abs(quadratic) + S(1))))
      throw NotApplicable("stepper " + name + " needs T at most quadratic in qdot (T = T0(q) + b(q).qdot + "
                          "qdot^T g qdot / 2); at q = " + to_string(q) + ", qdot = " + to_string(w) +
                          " T = " + to_string<S>(T) + " but that form gives " + to_string<S>(quadratic));
  }
}

template <class S>
Vec<S> DiscreteLagrangeDAlembert<S>::momentum(const Vec<S>& q, const Vec<S>& qd) const {
  Vec<S> T_q, T_v;
  dla_detail::kinetic_gradients(sys_, q, qd, T_q, T_v);
  return T_v;
}

template <class S>
Vec<S> DiscreteLagrangeDAlembert<S>::velocity(const Vec<S>& q, const Vec<S>& p) const {
  const Vec<S> zero = Vec<S>::Zero(sys_.n);
  const Mat<S> g = inertia(sys_, q, zero).g;
  return g.ldlt().solve(p - momentum(q, zero));  // p = b(q) + g qdot
}

// The step's equations at x = (v, h lambda, h mu) (mu for nh-rattle only):
//   E1 = -D1 L_d - f- - p0 - a A(q0)^T (h lambda)          (n)
//   E2 = C((q0 + q1)/2, v)                                   (r)
//   E3 = C(q1, g(q1)^-1 p1),  p1 = D2 L_d + f+ + b A(q1)^T (h mu)   (r, nh-rattle)
// with q1 = q0 + h v. The unknowns are scaled (v; impulses h lambda, h mu)
// so that the Jacobian stays of order 1 as h -> 0.
template <class S>
Vec<S> DiscreteLagrangeDAlembert<S>::residual(const Vec<S>& q0, const Vec<S>& p0, const Mat<S>& A0, const S& h,
                                              const Vec<S>& x, DiscreteStep<S>* out) const {
  const Eigen::Index n = sys_.n, r = sys_.r;
  const bool rattle = scheme_ != DiscreteScheme::dla;  // the end constraint and mu
  const Vec<S> v = x.head(n);
  const Vec<S> l = x.segment(n, r);
  const Vec<S> q1 = q0 + h * v;
  const Vec<S> qm = (q0 + q1) / S(2);
  Vec<S> p0_plus, p1;
  Mat<S> g1;     // g(q1), for the end velocity (rattle)
  Vec<S> Tv_q1;  // dT/dqdot (q1, v)
  if (scheme_ == DiscreteScheme::nh_midpoint) {
    // L_d = h L(qm, v): D1 L_d = h/2 L_q - L_v, D2 L_d = h/2 L_q + L_v at (qm, v).
    Vec<S> Tq, Tv;
    dla_detail::kinetic_gradients(sys_, qm, v, Tq, Tv);
    const Vec<S> half = h / S(2) * (Tq + active_force(sys_, qm, v));
    p0_plus = Tv - half;
    p1 = Tv + half;
    Vec<S> Tq1;
    dla_detail::kinetic_gradients(sys_, q1, v, Tq1, Tv_q1, &g1);
  } else {
    // L_d = h/2 [L(q0, v) + L(q1, v)].
    Vec<S> Tq0, Tv0, Tq1, Tv1;
    dla_detail::kinetic_gradients(sys_, q0, v, Tq0, Tv0);
    dla_detail::kinetic_gradients(sys_, q1, v, Tq1, Tv1, rattle ? &g1 : nullptr);
    Tv_q1 = Tv1;
    const Vec<S> Tv = (Tv0 + Tv1) / S(2);
    p0_plus = Tv - h / S(2) * (Tq0 + active_force(sys_, q0, v));
    p1 = Tv + h / S(2) * (Tq1 + active_force(sys_, q1, v));
  }
  Vec<S> E(n + (rattle ? 2 : 1) * r);
  E.head(n) = p0_plus - p0 - a_ * (A0.transpose() * l);
  E.segment(n, r) = constraint_residuals(sys_, qm, v);
  Vec<S> m;
  if (rattle) {
    m = x.tail(r);
    const Mat<S> A1 = constraint_jacobians(sys_, q1, v).C_qdot;
    p1 += b_ * (A1.transpose() * m);
    // The velocity of p1 at q1: p1 = b(q1) + g(q1) w and dT/dqdot(q1, v) =
    // b(q1) + g(q1) v, so w = v + g^-1 (p1 - dT/dqdot(q1, v)).
    const Vec<S> w1 = v + g1.ldlt().solve(p1 - Tv_q1);
    E.tail(r) = constraint_residuals(sys_, q1, w1);
  }
  if (out) {
    out->q1 = q1;
    out->p1 = p1;
    out->v = v;
    out->lambda = l / h;
    out->mu = rattle ? Vec<S>(m / h) : Vec<S>();
    out->p0_plus = p0_plus;
  }
  return E;
}

template <class S>
Vec<S> DiscreteLagrangeDAlembert<S>::checked_residual(const Vec<S>& q0, const Vec<S>& p0, const Mat<S>& A0,
                                                      const S& h, const Vec<S>& y, DiscreteStep<S>* out,
                                                      std::uint64_t* evaluations) const {
  if (evaluations) ++*evaluations;
  Vec<S> E = residual(q0, p0, A0, h, y, out);
  if (!E.allFinite())
    throw NonFiniteValue("non-finite value: the discrete Lagrange-d'Alembert equations at q = " +
                         to_string(q0) + ", p = " + to_string(p0) + ", h = " + to_string<S>(h) +
                         " (an overflow)");
  return E;
}

template <class S>
void DiscreteLagrangeDAlembert<S>::finite_difference_jacobian(const Vec<S>& q0, const Vec<S>& p0, const Mat<S>& A0,
                                                              const S& h, const Vec<S>& y, const Vec<S>& Ey,
                                                              std::uint64_t* evaluations) const {
  using std::abs;
  using std::sqrt;
  const S root_eps = sqrt(epsilon<S>());
  const Eigen::Index N = y.size();
  J_.resize(N, N);
  for (Eigen::Index j = 0; j < N; ++j) {
    Vec<S> yj = y;
    const S d = root_eps * (S(1) + abs(y[j]));
    yj[j] += d;
    J_.col(j) = (checked_residual(q0, p0, A0, h, yj, nullptr, evaluations) - Ey) / (yj[j] - y[j]);
  }
  lu_.compute(J_);
  lu_h_ = h;
}

template <class S>
DiscreteStep<S> DiscreteLagrangeDAlembert<S>::step(const Vec<S>& q0, const Vec<S>& p0, const S& h,
                                                   const Vec<S>& v, const Vec<S>& lambda, const Vec<S>& mu,
                                                   std::uint64_t* evaluations) const {
  const Eigen::Index n = sys_.n, r = sys_.r;
  const bool rattle = scheme_ != DiscreteScheme::dla;
  Vec<S> x = dla_detail::initial_unknowns(n, r, rattle, h, v, lambda, mu);
  const Eigen::Index N = x.size();
  // A(q0) = dC/dqdot at q0: linear constraints, so independent of the
  // velocity, and the same for every evaluation of this step's equations.
  const Mat<S> A0 = constraint_jacobians(sys_, q0, Vec<S>(Vec<S>::Zero(n))).C_qdot;
  const auto eval = [&](const Vec<S>& y, DiscreteStep<S>* out) {
    return checked_residual(q0, p0, A0, h, y, out, evaluations);
  };
  const auto jacobian = [&](const Vec<S>& y, const Vec<S>& Ey) {
    finite_difference_jacobian(q0, p0, A0, h, y, Ey, evaluations);
  };
  Vec<S> E = eval(x, nullptr);
  // The last step's matrix serves, improved by Broyden's rank-one updates
  // after every iteration (superlinear convergence without new
  // evaluations); a finite-difference one is made when the step size
  // changed, when an iteration does not halve the correction, or after 8
  // iterations on the old one.
  const bool reuse = lu_h_ == h && J_.rows() == N;
  if (!reuse) jacobian(x, E);
  bool fresh = !reuse;  // the matrix was made by finite differences at this step
  int on_old = 0;       // iterations since
  S last = S(-1);
  for (int it = 1; it <= 60; ++it) {
    const Vec<S> dx = lu_.solve(E);
    const S size = dx.allFinite() ? S(dx.cwiseAbs().maxCoeff()) : S(-1);
    if (!fresh && (size < S(0) || (last >= S(0) && size > last / S(2)) || on_old >= 8)) {
      jacobian(x, E);
      fresh = true;
      on_old = 0;
      last = S(-1);
      continue;
    }
    if (size < S(0))
      throw IntegrationFailure("the discrete Lagrange-d'Alembert step is singular at q = " + to_string(q0) +
                               " (h = " + to_string<S>(h) + "): its Jacobian has no inverse");
    const Vec<S> x_new = x - dx;
    const bool done = dla_detail::converged(size, last, x_new, q0, h);
    DiscreteStep<S> out;
    const Vec<S> E_new = eval(x_new, &out);
    if (done) {
      out.iterations = it;
      return out;
    }
    // Broyden: J += (dE - J s) s^T / |s|^2 with s = x_new - x = -dx.
    const Vec<S> step = -dx;
    J_ += ((E_new - E) - J_ * step) * step.transpose() / step.squaredNorm();
    lu_.compute(J_);
    fresh = false;
    ++on_old;
    x = x_new;
    E = E_new;
    last = size;
  }
  throw IntegrationFailure("the discrete Lagrange-d'Alembert step did not converge in 60 Newton "
                           "iterations at q = " + to_string(q0) + " (h = " + to_string<S>(h) +
                           "; a smaller --step may help)");
}

}  // namespace nhs
