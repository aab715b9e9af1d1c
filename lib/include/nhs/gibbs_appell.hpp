// The Gibbs-Appell equations (001 §5, eqs. 5.2-5.4; 000 eqs. 65-67), from
// the Appellian computed by its definition, from the bodies' accelerations
// (bodies.hpp), in the coordinates (q, z) of a parametric representation
// qdot = psi(q, z):
//
//   qdot^i = psi^i(q, z),
//   dS/dzdot^alpha = A_alpha,   A_alpha = psi^i_alpha A_i,
//   S(q, z, zdot) = 1/2 sum_nu m_nu a_nu^2
//                 + sum_rigid [1/2 M a_G^2 + 1/2 eps . J eps + eps . (omega x J omega)],
//
// with the accelerations along the constrained motion (001 eq. 3.3)
//   a_nu = d_ij r_nu psi^i psi^j + d_i r_nu (psi^i_j psi^j + psi^i_alpha zdot^alpha),
// the same for a_G, and eps = d omega/dt = d_q omega psi + d_qdot omega qddot
// with qddot = (d_h psi) psi^h + psi_alpha zdot^alpha. The rigid-body term is
// Appell's (the Appellian of a rigid body up to terms free of eps); omega, J
// and eps in the space frame (bodies.hpp).
//
// AD levels (two at most, docs/numerics.md): the bodies are evaluated once in
// AD2, outer derivatives in (q, qdot) (2n), inner in the single direction
// (qdot, 0), which gives d r/dq, d^2 r/dq dq (qdot, qdot), d omega/dq and
// d omega/dqdot. With these, a and eps are affine in zdot with known
// coefficients, and S is evaluated as a function of zdot in AD2 over zdot
// (outer and inner m): its gradient at zdot = 0 is h and its Hessian H, so
// that dS/dzdot = H zdot + h exactly (S is quadratic in zdot; 001 §6), and
// H zdot = A_alpha - h is solved by LDLT. H equals G = psi^T g psi when the
// bodies reproduce T; it is never formed from g here. In double, long
// double and float128 both AD2 evaluations avoid the heap where the sizes
// allow: the bodies in FixedAD2 / InlineAD2 (System::derivations), S in InlineAD2
// when m <= 16.
#pragma once

#include "nhs/system.hpp"

#include <vector>

namespace nhs {

/// The bodies' kinematics at (q, qdot) (both size n; body_kinematics.hpp),
/// by one AD2 evaluation of the description's bodies (outer (q, qdot),
/// inner the direction (qdot, 0)), in the AD type System::derivations binds. Throws NotApplicable when the
/// system has no bodies; UsageError when a position has a size other than 2
/// or 3 or depends on qdot.
template <class S>
BodyKinematics<S> body_kinematics(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// The kinetic energy of the bodies, 1/2 sum m v^2 + sum (1/2 M v_G^2 +
/// 1/2 omega . J omega) with v = (dr/dq) qdot (001 eqs. 3.1, 3.15), at
/// (q, qdot) (size n); equals the system's T when the description is
/// consistent. Throws NotApplicable when the system has no bodies.
template <class S>
S body_kinetic_energy(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// The Appellian S(q, z, zdot) and its zdot-derivatives.
template <class S>
struct Appellian {
  S value;          ///< S (001 eq. 5.3 with the rigid-body term)
  Vec<S> gradient;  ///< dS/dzdot^alpha, size m
  Mat<S> hessian;   ///< d^2S/dzdot^alpha dzdot^beta, m x m (independent of zdot)
};

/// S at (q, z, zdot) (sizes n, m, m) from the bodies' accelerations, with
/// its gradient and Hessian in zdot by AD2 over zdot. Throws NotApplicable
/// when the system has no bodies or no parametrization.
template <class S>
Appellian<S> appellian(const System<S>& sys, const Vec<S>& q, const Vec<S>& z, const Vec<S>& zdot);

/// The Gibbs-Appell field at (q, z) and the accelerations it implies.
template <class S>
struct GibbsAppellField {
  Vec<S> qdot;   ///< psi(q, z), size n
  Vec<S> zdot;   ///< solution of dS/dzdot = A_alpha, size m
  Vec<S> qddot;  ///< (d_h psi) psi^h + psi_alpha zdot^alpha, size n
};

/// Solves the Gibbs-Appell equations (001 eq. 5.2; 000 eq. 66) at (q, z)
/// (sizes n, m). Throws NotApplicable when the system has no bodies or no
/// parametrization; SingularState "rank loss of dpsi/dz" when [psi^i_alpha]
/// (n x m) loses rank, "singular Appellian Hessian" when d^2S/dzdot^2 is not
/// positive definite.
template <class S>
GibbsAppellField<S> gibbs_appell(const System<S>& sys, const Vec<S>& q, const Vec<S>& z);

#define NHS_GIBBS_APPELL_INSTANTIATE(EXTERN, S)                                                  \
  EXTERN template BodyKinematics<S> body_kinematics<S>(const System<S>&, const Vec<S>&,         \
                                                       const Vec<S>&);                          \
  EXTERN template S body_kinetic_energy<S>(const System<S>&, const Vec<S>&, const Vec<S>&);     \
  EXTERN template Appellian<S> appellian<S>(const System<S>&, const Vec<S>&, const Vec<S>&,     \
                                            const Vec<S>&);                                     \
  EXTERN template GibbsAppellField<S> gibbs_appell<S>(const System<S>&, const Vec<S>&,          \
                                                      const Vec<S>&);
#define NHS_EXTERN_GIBBS_APPELL_(S, NAME) NHS_GIBBS_APPELL_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_GIBBS_APPELL_)
#undef NHS_EXTERN_GIBBS_APPELL_

}  // namespace nhs
