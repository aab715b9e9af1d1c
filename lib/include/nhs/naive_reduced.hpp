// NEGATIVE CONTROL, NOT A VALID FORMULATION: the "naive reduced Lagrangian"
// procedure (Hand and Finch, Analytical Mechanics §2.8) that seed 002
// (Lemos 2003) refutes with the rolling sphere, eq. 6. The constraints are
// substituted into the Lagrangian, Lbar(q, qdot_indep) (002 eq. 9, as for
// Voronec), and Lagrange's equations are applied to the independent
// coordinates only,
//
//   d/dt dLbar/dqdot_i - dLbar/dq_i = Q_i,       i = 1..m        (002 eq. 6)
//
// as if the dependent coordinates and the constraints no longer mattered:
// compared with Voronec's eq. 10 it drops both terms of the right-hand side,
// sum_nu dLbar/dq_{m+nu} a_nu,i and sum_{nu,j} dL/dqdot_{m+nu} b^nu_ij
// qdot_j. The dependent accelerations come from the time derivative of the
// constraints, qddot_dep = d/dt (a qdot_indep).
//
// Forces enter as the generalized forces of the independent coordinates,
// Q_i = A_i + a_nu,i A_{m+nu} (the virtual work of A = -dV/dq + F along the
// admissible displacements), as in voronec.hpp: the only departure from
// Voronec is then the omitted kinetic terms -- the error 002 exposes. (With
// this reading the procedure also gives the true motion of the rolling coin
// on an inclined plane, the case 002 says it was successfully applied to.)
//
// It agrees with the true motion only where those omitted terms vanish
// (tests/test_naive_reduced.cpp records where, study by study). It exists
// so that the comparisons can show a method that fails; it is never
// compared as if it were correct (Formulation::is_negative_control).
//
// Applicability and integration state as for Voronec: linear constraints
// with declared dependent velocities; x = (q, qdot_indep).
#pragma once

#include "nhs/voronec.hpp"

namespace nhs {

/// The naive procedure's accelerations at (q, qdot_indep).
template <class S>
struct NaiveReducedField {
  Vec<S> qdot;         ///< P(q) qdot_indep, size n
  Vec<S> qddot_indep;  ///< from 002 eq. 6 (generalized), size n - r
  Vec<S> qddot;        ///< all accelerations, size n; dependent ones from d/dt (a qdot_indep)
};

/// Solves d/dt dTbar/dqdot_i - dTbar/dq_i = A_i + a_nu,i A_{m+nu} (the naive
/// reduced Lagrange equations; 002 eq. 6 for the rolling sphere) at q (size
/// n), qdot_indep (size n - r):
///   Gbar qddot_indep = A_indep + a^T A_dep - G_q qdot + dTbar/dq_indep.
/// NOT the motion of the system in general (a negative control). Throws as
/// voronec(): NotApplicable, SingularState ("singular dependent block of
/// dC/dqdot", "singular reduced metric Gbar").
template <class S>
NaiveReducedField<S> naive_reduced(const System<S>& sys, const Vec<S>& q,
                                   const Vec<S>& qd_indep);

#define NHS_NAIVE_REDUCED_INSTANTIATE(EXTERN, S)                                          \
  EXTERN template NaiveReducedField<S> naive_reduced<S>(const System<S>&, const Vec<S>&, \
                                                        const Vec<S>&);
#define NHS_EXTERN_NAIVE_REDUCED_(S, NAME) NHS_NAIVE_REDUCED_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_NAIVE_REDUCED_)
#undef NHS_EXTERN_NAIVE_REDUCED_

}  // namespace nhs
