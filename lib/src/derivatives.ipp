// Implementation of derivatives.hpp; included once per scalar type by the
// generated instantiation units (lib/src/instantiate.cpp.in).
#include "nhs/derivatives.hpp"

namespace nhs {

template <class S>
Inertia<S> inertia(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  return sys.derivations.inertia(q, qd);
}

template <class S>
KineticEnergyJet<S> kinetic_energy_jet(const System<S>& sys, const KineticEnergySeed<S>& seed) {
  return sys.derivations.kinetic_energy_jet(seed);
}

template <class S>
Vec<S> applied_force(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  Vec<S> A = sys.derivations.minus_potential_gradient(q);
  if (sys.nonconservative_force) {
    Vec<S> F = Vec<S>::Zero(q.size());
    sys.nonconservative_force(q, qd, F);
    A += F;
  }
  return A;
}

template <class S>
Vec<S> nonideal_constraint_force(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  Vec<S> C = Vec<S>::Zero(q.size());
  if (sys.nonideal_constraint_force) sys.nonideal_constraint_force(q, qd, C);
  return C;
}

template <class S>
Vec<S> active_force(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  Vec<S> A = applied_force(sys, q, qd);
  if (sys.nonideal_constraint_force) A += nonideal_constraint_force(sys, q, qd);
  return A;
}

template <class S>
S energy(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  return sys.kinetic_energy(q, qd) + sys.potential(q);
}

template <class S>
ConstraintJacobians<S> constraint_jacobians(const System<S>& sys, const Vec<S>& q,
                                            const Vec<S>& qd) {
  return sys.derivations.constraint_jacobians(q, qd);
}

template <class S>
Vec<S> constraint_residuals(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  Vec<S> C(sys.r);
  sys.constraints(q, qd, C);
  return C;
}

template <class S>
ParametrizationJacobians<S> parametrization_jacobians(const System<S>& sys, const Vec<S>& q,
                                                      const Vec<S>& z) {
  if (!sys.has_parametrization())
    throw NotApplicable("system '" + sys.info.name + "' has no parametric representation psi");
  return sys.derivations.parametrization_jacobians(q, z);
}

}  // namespace nhs
