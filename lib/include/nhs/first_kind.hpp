// Benenti's dynamical equations of the first kind: the vector field Z on the
// constraint manifold C, in the coordinates (q, z) of a parametric
// representation qdot = psi(q, z).
//
//   qdot^i = psi^i(q, z),
//   G_ab zdot^b = psi^k_a (A_k - Gamma_ij,k psi^i psi^j - g_ik (d_h psi^i) psi^h),
//   G_ab = g_ij psi^i_a psi^j_b
//
// (000 Thm 11.1, eq. 27; 001 Thm 7.1 with eq. 7.1 as corrected in
// docs/errata.md: the printed 7.1 drops the term g_ik (d_h psi^i) psi^h).
// G (m x m) is inverted, never g.
#pragma once

#include "nhs/system.hpp"

namespace nhs {

/// The field Z at (q, z) and the accelerations it implies.
template <class S>
struct FirstKindField {
  Vec<S> qdot;   ///< psi(q, z), size n
  Vec<S> zdot;   ///< Z^alpha(q, z), size m
  Vec<S> qddot;  ///< (d_h psi) psi^h + psi_alpha zdot^alpha, size n
};

/// Evaluates Z at (q, z) (q: n, z: m). Throws NotApplicable when the system
/// has no parametrization; SingularState when [psi^i_alpha] loses rank
/// ("rank loss of dpsi/dz") or G is not positive definite ("singular G =
/// psi^T g psi"). g itself may be singular (massless parts): where psi
/// spans the kernel of dC/dqdot, G is positive definite exactly when
/// [g; dC/dqdot] has full rank n, the condition under which
/// udwadia_kalaba's M_A exists (semidefinite_mass.hpp).
template <class S>
FirstKindField<S> first_kind(const System<S>& sys, const Vec<S>& q, const Vec<S>& z);

#define NHS_FIRST_KIND_INSTANTIATE(EXTERN, S) \
  EXTERN template FirstKindField<S> first_kind<S>(const System<S>&, const Vec<S>&, const Vec<S>&);
#define NHS_EXTERN_FIRST_KIND_(S, NAME) NHS_FIRST_KIND_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_FIRST_KIND_)
#undef NHS_EXTERN_FIRST_KIND_

}  // namespace nhs
