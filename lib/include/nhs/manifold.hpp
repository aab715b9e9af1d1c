// States on the constraint manifold C = {(q, qdot) : C^a(q, qdot) = 0}:
// admission of user states and projection of qdot back onto C.
#pragma once

#include "nhs/system.hpp"

namespace nhs {

/// Default admission tolerance for states typed by a user: 1e-10, relative
/// to 1 + |qdot|^2 (constraints may be quadratic in qdot). It bounds how far
/// input may be from C before it is refused, not the accuracy of the result:
/// admitted states are projected onto C in full precision.
template <class S>
S default_manifold_tolerance() {
  return S(1) / S(10000000000LL);
}

/// Projects qdot onto C at fixed q along the g-orthogonal direction
/// (Newton iteration on C^a(q, qdot + g^-1 C_qdot^T mu) = 0), until every
/// |C^a| <= 10 epsilon max(1 + |qdot|^2, sum_i |dC^a/dqdot^i qdot^i|) (the
/// round-off level of C^a: its terms' size, which for the bipendulum's
/// quadratic C grows with |q| |qdot|^2) or 50 iterations. q, qd: size n.
/// Where g is only positive semidefinite (massless parts), g + s N
/// replaces it: N projects onto g's null space, s is g's largest
/// eigenvalue (projection_metric, semidefinite_mass.hpp), so the massless
/// velocities are corrected by their least change; whether the
/// accelerations are determined there is each formulation's check.
/// Where dC/dqdot loses rank (dependent constraints, which udwadia-kalaba
/// takes) the step is the minimum-norm one of the pseudoinverse. Throws
/// SingularState where g is not positive semidefinite ("singular metric
/// g"), InvalidState when Newton does not converge (inconsistent
/// constraints among dependent ones).
template <class S>
Vec<S> project_velocity(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// Checks a user state: sizes n (UsageError, naming q or qdot), finite
/// values (UsageError), and |C^a| <= tolerance max(1 + |qdot|^2, sum_i
/// |dC^a/dqdot^i qdot^i|) for each a, the scale of project_velocity's test,
/// so that a constraint written times 1e200 is judged by its own size
/// (InvalidState "off the constraint manifold", with the residuals;
/// NonFiniteValue when C itself overflows).
/// Returns qdot projected onto C.
template <class S>
Vec<S> admit_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd, const S& tolerance);

#define NHS_MANIFOLD_INSTANTIATE(EXTERN, S)                                                 \
  EXTERN template Vec<S> project_velocity<S>(const System<S>&, const Vec<S>&, const Vec<S>&); \
  EXTERN template Vec<S> admit_state<S>(const System<S>&, const Vec<S>&, const Vec<S>&,       \
                                        const S&);
#define NHS_EXTERN_MANIFOLD_(S, NAME) NHS_MANIFOLD_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_MANIFOLD_)
#undef NHS_EXTERN_MANIFOLD_

}  // namespace nhs
