// Structure-preserving steppers for systems with linear non-holonomic
// constraints A(q) qdot = 0: the discrete Lagrange-d'Alembert principle
// (Cortes & Martinez, Nonlinearity 14 (2001) 1365; McLachlan & Perlmutter,
// J. Nonlinear Sci. 16 (2006) 283, §3), with the trapezoidal discrete
// Lagrangian
//   L_d(q0, q1) = h/2 [L(q0, v) + L(q1, v)],   v = (q1 - q0)/h,  L = T - V,
// the other applied forces (F, a non-ideal constraint force) as
// Marsden-West discrete forces f- = h/2 A(q0, v), f+ = h/2 A(q1, v) (A the
// active force, derivatives.hpp), and the discrete constraint
//   C((q0 + q1)/2, v) = A((q0 + q1)/2) v = 0                          (D_d)
// (the midpoint rule, symmetric in q0 and q1). In momentum form, with
// p = dT/dqdot and the constraint forces h A^T lambda at the ends:
//   -D1 L_d(q0, q1) - f- = p0 + a h A(q0)^T lambda,     (q0, q1) in D_d,
//    p1 = D2 L_d(q0, q1) + f+ + b h A(q1)^T mu,
// and, when b > 0, the constraint on the end's velocity
//    C(q1, qdot1) = 0,  dT/dqdot(q1, qdot1) = p1.
//   dla        a = 1, b = 0: the discrete Lagrange-d'Alembert method of
//              Cortes & Martinez (D1 L_d(q_k, q_k+1) +
//              D2 L_d(q_k-1, q_k) in the annihilator of D at q_k). One
//              multiplier per step, at its start; its configurations form a
//              symmetric two-step recurrence. Velocities are reported from
//              the mean of the momenta on either side of q_k (p_k- and
//              p_k- + h A^T lambda_k), which needs the next step: a run
//              makes one step beyond t_end.
//   nh-rattle  a = b = 1/2: the constraint forces split between the ends,
//              and the end velocity on C at every step, as RATTLE does for
//              holonomic constraints: a symmetric (time-reversible) method
//              whose states stay on C to round-off. Its configurations are
//              dla's: both satisfy the same two-step recurrence
//              D2 L_d(q_k-1, q_k) + D1 L_d(q_k, q_k+1) + f = A(q_k)^T (...)
//              with D_d on every step, from the same first step (the mean
//              momentum at q0 is the given one in both); they differ in the
//              momentum carried, hence in the velocities reported.
//   nh-midpoint as nh-rattle with the midpoint discrete Lagrangian
//              L_d = h L((q0 + q1)/2, v) and forces f+- = h/2 A((q0 + q1)/2, v):
//              symmetric, on C at the step's ends, and other configurations.
// The step's equations are solved to round-off in S by a quasi-Newton
// iteration: a finite-difference Jacobian, improved by Broyden's updates and
// kept from step to step, made anew when the iteration slows.
#pragma once

#include "nhs/system.hpp"

#include <Eigen/LU>

#include <cstdint>

namespace nhs {

/// The two discretizations (see the header comment).
enum class DiscreteScheme { dla, nh_rattle, nh_midpoint };

/// One step (q0, p0) -> (q1, p1) of size h.
template <class S>
struct DiscreteStep {
  Vec<S> q1, p1;     ///< size n; p1 = dT/dqdot at the end (discrete Legendre transform)
  Vec<S> v;          ///< the discrete velocity (q1 - q0)/h, size n
  Vec<S> lambda;     ///< the multipliers at q0, size r (times h: impulses h lambda)
  Vec<S> mu;         ///< at q1 (nh-rattle, nh-midpoint), size r; empty for dla
  Vec<S> p0_plus;    ///< the momentum leaving q0: p0 + a h A(q0)^T lambda, size n
  int iterations = 0;  ///< Newton iterations
};

/// The discrete Lagrange-d'Alembert steppers of a system.
/// Preconditions, checked by the constructor (NotApplicable, a UsageError,
/// naming the condition): constraints linear in qdot
/// (SystemInfo::linear_constraints), a positive-definite metric g (not
/// SystemInfo::semidefinite_metric), T at most quadratic in qdot,
/// T0(q) + b(q).qdot + qdot^T g qdot / 2 (a gyroscopic b allowed; checked
/// at `q`, `qd` and `q`, 2 `qd` to 64 epsilon). Non-linear
/// constraints have no discrete constraint manifold D_d of this form; the
/// literature cited above treats linear ones only.
template <class S>
class DiscreteLagrangeDAlembert {
 public:
  DiscreteLagrangeDAlembert(const System<S>& sys, DiscreteScheme scheme, const Vec<S>& q,
                            const Vec<S>& qd);

  /// p = dT/dqdot (q, qd), size n.
  Vec<S> momentum(const Vec<S>& q, const Vec<S>& qd) const;
  /// The velocity with momentum p at q: g(q)^-1 (p - b(q)), size n.
  Vec<S> velocity(const Vec<S>& q, const Vec<S>& p) const;

  /// One step of size h > 0 (or h < 0: backward) from (q0, p0); v, lambda,
  /// mu: the starting guesses (size n, r, r; the previous step's). Counts
  /// every evaluation of the step's equations in *evaluations. Throws
  /// IntegrationFailure when Newton's method does not converge in 60
  /// iterations, NonFiniteValue when the equations overflow.
  DiscreteStep<S> step(const Vec<S>& q0, const Vec<S>& p0, const S& h, const Vec<S>& v,
                       const Vec<S>& lambda, const Vec<S>& mu, std::uint64_t* evaluations) const;

  DiscreteScheme scheme() const { return scheme_; }

 private:
  Vec<S> residual(const Vec<S>& q0, const Vec<S>& p0, const Mat<S>& A0, const S& h, const Vec<S>& x,
                  DiscreteStep<S>* out) const;
  /// residual(), counted in *evaluations (when not null); NonFiniteValue
  /// when the equations overflow.
  Vec<S> checked_residual(const Vec<S>& q0, const Vec<S>& p0, const Mat<S>& A0, const S& h, const Vec<S>& y,
                          DiscreteStep<S>* out, std::uint64_t* evaluations) const;
  /// The Newton matrix of the step's equations at y (Ey: their value
  /// there) by forward differences of size sqrt(epsilon) (1 + |y_j|), into
  /// J_, with its LU (lu_) made for h (lu_h_).
  void finite_difference_jacobian(const Vec<S>& q0, const Vec<S>& p0, const Mat<S>& A0, const S& h,
                                  const Vec<S>& y, const Vec<S>& Ey, std::uint64_t* evaluations) const;

  const System<S>& sys_;
  DiscreteScheme scheme_;
  S a_, b_;
  // The Newton matrix of the last step (its LU) and the step size it was
  // made for: reused by the next step of the same size while the
  // iteration contracts fast. One object serves one run (not thread-safe).
  mutable Mat<S> J_;
  mutable Eigen::PartialPivLU<Mat<S>> lu_;
  mutable S lu_h_ = S(0);
};

#define NHS_DLA_INSTANTIATE(EXTERN, S) EXTERN template class DiscreteLagrangeDAlembert<S>;
#define NHS_EXTERN_DLA_(S, NAME) NHS_DLA_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_DLA_)
#undef NHS_EXTERN_DLA_

}  // namespace nhs
