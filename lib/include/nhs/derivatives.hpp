// The quantities every formulation is built from, derived from a System by
// forward automatic differentiation (autodiff.hpp). Nothing here is written
// for a particular system. The result types and the derivations themselves
// are in ad_derivations.hpp; these functions call the one binding describe()
// made for the system (System::derivations: fixed-size, inline or dynamic
// AD).
#pragma once

#include "nhs/system.hpp"

namespace nhs {

/// g and Gamma(qdot, qdot) at (q, qdot), from the Hessian of T by AD2
/// (outer derivatives in (q, qdot), 2n; inner in qdot, n). q, qd: size n.
template <class S>
Inertia<S> inertia(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// T and its derivatives at a second-order jet of (q, qdot)
/// (KineticEnergySeed: outer <= 2n directions, inner <= n variables;
/// ad_derivations.hpp), for Maggi's and Voronec's directional derivatives.
template <class S>
KineticEnergyJet<S> kinetic_energy_jet(const System<S>& sys, const KineticEnergySeed<S>& seed);

/// The generalized force of every formulation but Udwadia-Kalaba:
/// A_i = -dV/dq^i + F_i(q, qdot) + C_i(q, qdot), size n, the applied force
/// (applied_force) plus seed 003's non-ideal constraint force C_i, if any.
/// With ideal constraints (no C) it is 001 eq. 3.16's Lagrangian active
/// force. C enters here because only its part that the ideal reaction
/// cannot absorb moves the system: docs/numerics.md, non-ideal constraints.
template <class S>
Vec<S> active_force(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// The applied (given) forces -dV/dq^i + F_i(q, qdot) (001 eq. 3.16),
/// size n: active_force without the non-ideal constraint force. Seed 003's
/// Q is this minus Gamma; Udwadia-Kalaba adds C through its term K.
template <class S>
Vec<S> applied_force(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// Seed 003's non-ideal constraint vector C_i(q, qdot) (virtual work
/// delta W_c = C_i delta q^i), size n; zero when the system has none
/// (System::nonideal_constraint_force empty).
template <class S>
Vec<S> nonideal_constraint_force(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// Total energy T + V at (q, qdot).
template <class S>
S energy(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// C, dC/dqdot and dC/dq by AD1 over the 2n variables (q, qdot).
template <class S>
ConstraintJacobians<S> constraint_jacobians(const System<S>& sys, const Vec<S>& q,
                                            const Vec<S>& qd);

/// The constraint residuals C^a(q, qdot), size r.
template <class S>
Vec<S> constraint_residuals(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// psi, dpsi/dz and dpsi/dq by AD1 over the n + m variables (q, z).
/// Precondition: sys.has_parametrization() (NotApplicable otherwise).
template <class S>
ParametrizationJacobians<S> parametrization_jacobians(const System<S>& sys, const Vec<S>& q,
                                                      const Vec<S>& z);

#define NHS_DERIVATIVES_INSTANTIATE(EXTERN, S)                                                  \
  EXTERN template Inertia<S> inertia<S>(const System<S>&, const Vec<S>&, const Vec<S>&);       \
  EXTERN template KineticEnergyJet<S> kinetic_energy_jet<S>(const System<S>&,                   \
                                                           const KineticEnergySeed<S>&);        \
  EXTERN template Vec<S> active_force<S>(const System<S>&, const Vec<S>&, const Vec<S>&);      \
  EXTERN template Vec<S> applied_force<S>(const System<S>&, const Vec<S>&, const Vec<S>&);     \
  EXTERN template Vec<S> nonideal_constraint_force<S>(const System<S>&, const Vec<S>&,         \
                                                      const Vec<S>&);                          \
  EXTERN template S energy<S>(const System<S>&, const Vec<S>&, const Vec<S>&);                 \
  EXTERN template ConstraintJacobians<S> constraint_jacobians<S>(const System<S>&,             \
                                                                 const Vec<S>&, const Vec<S>&); \
  EXTERN template Vec<S> constraint_residuals<S>(const System<S>&, const Vec<S>&,              \
                                                 const Vec<S>&);                               \
  EXTERN template ParametrizationJacobians<S> parametrization_jacobians<S>(                    \
      const System<S>&, const Vec<S>&, const Vec<S>&);

#define NHS_EXTERN_DERIVATIVES_(S, NAME) NHS_DERIVATIVES_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_DERIVATIVES_)
#undef NHS_EXTERN_DERIVATIVES_

}  // namespace nhs
