// Maggi's equations in their implicit form (000 eq. 32, Remark 11.7), on the
// constraint manifold C in the coordinates (q, z) of a parametric
// representation qdot = psi(q, z):
//
//   qdot^i = psi^i(q, z),
//   psi^i_alpha (d/dt dT/dqdot^i - dT/dq^i) = A_alpha,   A_alpha = psi^i_alpha A_i,
//
// where d/dt is taken along the constrained motion (000 eqs. 33-35):
// qdot = psi(q, z), qddot = (d_h psi) psi^h + psi_beta zdot^beta, so that the
// left side is affine in zdot.
//
// The route (not the first kind's; first_kind.hpp forms g and Gamma from
// the Hessian of T and then G = psi^T g psi): one forward AD2 evaluation of
// T with inner variables qdot gives the momenta p_i = dT/dqdot^i; its outer
// variables are directions in (q, qdot) space, along which p and T are
// differentiated:
//   (psi, (d_h psi) psi^h)  ->  d p_i/dt at zdot = 0,
//   (0, psi_beta)           ->  d(d p_i/dt)/d zdot^beta, the zdot-Jacobian,
//   (e_j, 0)                ->  dT/dq^j.
// The residual E_alpha(zdot) = psi^i_alpha (dp_i/dt - dT/dq^i) - A_alpha is
// thus known at zdot = 0 together with its derivative M = dE/dzdot (m x m),
// and M zdot = -E(0) is solved by LU with full pivoting. Neither g nor
// Gamma is formed. (M equals G = psi^T g psi of 000 eq. 35 mathematically;
// here it is assembled as the derivative of the residual.)
#pragma once

#include "nhs/system.hpp"

namespace nhs {

/// Maggi's field at (q, z) and the accelerations it implies.
template <class S>
struct MaggiField {
  Vec<S> qdot;    ///< psi(q, z), size n
  Vec<S> zdot;    ///< solution of 000 eq. 32, size m
  Vec<S> qddot;   ///< (d_h psi) psi^h + psi_alpha zdot^alpha, size n
  Mat<S> matrix;  ///< M_ab = d/dzdot^b [psi^i_a (dp_i/dt - dT/dq^i)], m x m
};

/// Solves Maggi's equations (000 eq. 32) for zdot at (q, z) (q: n, z: m).
/// Throws NotApplicable when the system has no parametrization psi;
/// SingularState "rank loss of dpsi/dz" when [psi^i_alpha] (n x m) loses
/// rank, "singular Maggi matrix" when M (m x m) is singular (e.g. where the
/// metric degenerates along the constraint).
template <class S>
MaggiField<S> maggi(const System<S>& sys, const Vec<S>& q, const Vec<S>& z);

#define NHS_MAGGI_INSTANTIATE(EXTERN, S) \
  EXTERN template MaggiField<S> maggi<S>(const System<S>&, const Vec<S>&, const Vec<S>&);
#define NHS_EXTERN_MAGGI_(S, NAME) NHS_MAGGI_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_MAGGI_)
#undef NHS_EXTERN_MAGGI_

}  // namespace nhs
