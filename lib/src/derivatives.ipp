// Implementation of derivatives.hpp; included once per scalar type by the
// generated instantiation units (lib/src/instantiate.cpp.in).
#include "nhs/derivatives.hpp"

namespace nhs {

template <class S>
Inertia<S> inertia(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  if (sys.fast.inertia) return sys.fast.inertia(q, qd);
  return ad::inertia<S, AD2<S>>(sys.kinetic_energy_ad2, q, qd);
}

template <class S>
KineticEnergyJet<S> kinetic_energy_jet(const System<S>& sys, const KineticEnergySeed<S>& seed) {
  if (sys.fast.kinetic_energy_jet) return sys.fast.kinetic_energy_jet(seed);
  return ad::kinetic_energy_jet<S, AD2<S>>(sys.kinetic_energy_ad2, seed);
}

template <class S>
Vec<S> active_force(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  Vec<S> A = sys.fast.minus_potential_gradient
                 ? sys.fast.minus_potential_gradient(q)
                 : ad::minus_potential_gradient<S, AD1<S>>(sys.potential_ad1, q);
  if (sys.nonconservative_force) {
    Vec<S> F = Vec<S>::Zero(q.size());
    sys.nonconservative_force(q, qd, F);
    A += F;
  }
  return A;
}

template <class S>
S energy(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  return sys.kinetic_energy(q, qd) + sys.potential(q);
}

template <class S>
ConstraintJacobians<S> constraint_jacobians(const System<S>& sys, const Vec<S>& q,
                                            const Vec<S>& qd) {
  if (sys.fast.constraint_jacobians) return sys.fast.constraint_jacobians(q, qd);
  return ad::constraint_jacobians<S, AD1<S>>(sys.constraints_ad1, sys.r, q, qd);
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
  if (sys.fast.parametrization_jacobians) return sys.fast.parametrization_jacobians(q, z);
  return ad::parametrization_jacobians<S, AD1<S>>(sys.parametrization_ad1, q, z);
}

}  // namespace nhs
