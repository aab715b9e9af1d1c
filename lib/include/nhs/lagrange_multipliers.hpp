// The Lagrange equations with multipliers solved as one augmented (KKT)
// linear system for the accelerations and the multipliers together (seed
// 004, "Dinamica di Cetaev", the block system of its rolling-wheel code):
//
//   [ g   -C_qdot^T ] [ qddot  ]   [ A - Gamma(qdot, qdot) ]
//   [ C_qdot    0   ] [ lambda ] = [ -(dC/dq) qdot         ]
//
// with g (n x n) the metric, C_qdot = [dC^a/dqdot^i] (r x n), A_i the active
// forces. The first block row is g qddot + Gamma = A + R with
// R_i = lambda_a dC^a/dqdot^i (001 eqs. 3.11, 3.14), so lambda is exactly
// second_kind's multipliers; the second is d/dt C^a(q, qdot) = 0. Seed 004
// writes A(q) qdot = 0 for linear constraints and b = -(dA/dt) qdot; for
// C^a(q, qdot) in general that is b = -(dC^a/dq^i) qdot^i. The
// (n + r) x (n + r) matrix is factored directly (full-pivoting LU); nothing
// is eliminated first.
#pragma once

#include "nhs/system.hpp"

namespace nhs {

/// qddot and the multipliers from the KKT system.
template <class S>
struct LagrangeMultipliersField {
  Vec<S> qddot;        ///< size n
  Vec<S> multipliers;  ///< lambda_a, size r
  Vec<S> reaction;     ///< R_i = lambda_a C^a_i (+ the non-ideal C_i, if any), size n
};

/// Solves the KKT system at (q, qdot) (both size n). The state need not lie
/// on C. Throws SingularState("singular KKT matrix (rank loss of dC/dqdot or
/// singular g)") when the (n + r) x (n + r) matrix is singular: a pivot of
/// its full-pivoting LU <= regularity_tolerance * the largest pivot. That is
/// the case when dC/dqdot has rank < r (redundant constraints, where
/// second_kind fails too) or g is not positive definite on the kernel of
/// dC/dqdot; a g that is singular only off that kernel leaves the matrix
/// regular, and then this solves where second_kind reports "singular metric g"
/// (e.g. a massless part whose motion the constraints fix: a positive
/// semidefinite g with [g; dC/dqdot] of full rank, semidefinite_mass.hpp).
template <class S>
LagrangeMultipliersField<S> lagrange_multipliers(const System<S>& sys, const Vec<S>& q,
                                                 const Vec<S>& qd);

#define NHS_LAGRANGE_MULTIPLIERS_INSTANTIATE(EXTERN, S)                               \
  EXTERN template LagrangeMultipliersField<S> lagrange_multipliers<S>(const System<S>&, \
                                                                      const Vec<S>&,    \
                                                                      const Vec<S>&);
#define NHS_EXTERN_LAGRANGE_MULTIPLIERS_(S, NAME) NHS_LAGRANGE_MULTIPLIERS_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_LAGRANGE_MULTIPLIERS_)
#undef NHS_EXTERN_LAGRANGE_MULTIPLIERS_

}  // namespace nhs
