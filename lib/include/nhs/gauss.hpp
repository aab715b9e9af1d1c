// Gauss's function Z, the quantity that Gauss's principle of least
// constraint minimises (C. F. Gauss, "Über ein neues allgemeines Grundgesetz
// der Mechanik", J. reine angew. Math. 4 (1829) 232-235; seed 003, section
// "Definizione": Z = sum_j m_j |r_j'' - F_j/m_j|^2), in generalized
// coordinates:
//
//   Z(qddot) = (qddot - qddot_free)^T M (qddot - qddot_free),
//   M qddot_free = Q,   M = g,   Q = A_i - Gamma_ij,k qdot^i qdot^j,
//
// with A_i the generalized force of every formulation (active_force: the
// applied forces plus a non-ideal constraint's C, so that for a non-ideal
// constraint Z is Udwadia and Kalaba's generalized Gauss function, the
// ideal Z minus 2 C . qddot up to a constant). The true accelerations
// minimise Z over all qddot with A qddot = b (A = dC/dqdot, b = -(dC/dq)
// qdot): Z grows by exactly v^T M v along every v with A v = 0. With no
// forces and unit masses in Cartesian coordinates Z = |qddot|^2 = (2T)^2 K,
// K the squared curvature of the path (Hertz's least curvature, 003 section
// "Principio di minima curvatura di Hertz").
#pragma once

#include "nhs/system.hpp"

namespace nhs {

/// Z at a trial acceleration, with what it was measured against.
template <class S>
struct GaussFunction {
  S z;               ///< Z(qddot) >= 0
  Vec<S> qddot_free; ///< the unconstrained acceleration M^{-1} Q (M_A^{-1} Q_b if auxiliary), size n
  bool auxiliary = false;  ///< g semidefinite: measured in M_A (see gauss_z)
};

/// Gauss's Z at (q, qdot) (size n) for the trial acceleration qddot (size
/// n), which need not satisfy the constraints. Where g is positive definite
/// (the test of factor_positive_definite) Z = d^T g d with d = qddot -
/// g^{-1} Q. Where g is only positive semidefinite (massless parts) g^{-1}
/// does not exist; Z is then the auxiliary system's, measured in M_A = g +
/// s A^+ A with qddot_free = M_A^{-1} Q_b, Q_b = Q + s A^+ b
/// (semidefinite_mass.hpp; seed 003's paragraph on a semidefinite M, Udwadia
/// and Phohomsiri 2006). On the constraints A qddot = b it differs from
/// qddot^T g qddot - 2 Q . qddot by a constant, so it has the same minimiser
/// and the same growth v^T g v along A v = 0; off them it is M_A's Z.
///
/// Throws SingularState("singular metric g") when g is not positive
/// semidefinite and SingularState("accelerations undetermined") when g is
/// singular and [g; dC/dqdot] has rank < n (auxiliary_mass): there Z has
/// no unique minimiser and is not defined here; NonFiniteValue on overflow.
/// Source: Gauss (1829); seed 003 (Z and the Udwadia-Kalaba section).
template <class S>
GaussFunction<S> gauss_function(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd,
                                const Vec<S>& qddot);

/// gauss_function(sys, q, qd, qddot).z: Gauss's Z, as above.
template <class S>
S gauss_z(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd, const Vec<S>& qddot);

#define NHS_GAUSS_INSTANTIATE(EXTERN, S)                                                    \
  EXTERN template GaussFunction<S> gauss_function<S>(const System<S>&, const Vec<S>&,       \
                                                     const Vec<S>&, const Vec<S>&);         \
  EXTERN template S gauss_z<S>(const System<S>&, const Vec<S>&, const Vec<S>&, const Vec<S>&);
#define NHS_EXTERN_GAUSS_(S, NAME) NHS_GAUSS_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_GAUSS_)
#undef NHS_EXTERN_GAUSS_

}  // namespace nhs
