// Checks of a system description that the library can make by itself, at
// reproducible pseudo-random states: mistakes that would otherwise surface
// later as a wrong motion or as a misleading singular state.
#pragma once

#include "nhs/system.hpp"

namespace nhs {

/// Checks, at two pseudo-random states (q^i, qdot^i in [-1, 1], a fixed
/// sequence), that the description of sys is consistent with itself, and
/// throws UsageError naming the member and giving the values otherwise:
/// - `quasi_velocities`: with a parametrization psi, m = n - rank(dC/dqdot)
///   (the number of independent velocities; 001 §7);
/// - `bodies`: their kinetic energy (bodies.hpp; 001 eq. 5.1) equals
///   `kinetic_energy` T to 1000 eps (|T| + |T_bodies|): Gibbs-Appell builds
///   the Appellian from the bodies, every other formulation from T;
/// - `linear_constraints`: when declared, C^a(q, qdot) = (dC^a/dqdot) qdot at
///   two velocities (linear and homogeneous in qdot: Voronec's split,
///   002 eq. 8, needs it), to 1000 eps of the terms' size;
/// - `affine_constraints`: likewise C(q, qdot) - C(q, 0) = (dC/dqdot) qdot.
/// A check whose values are not finite at the state is skipped (the
/// parameters may overflow; the formulations report that by name).
/// Called by describe() for every scalar type except the tracing one.
template <class S>
void check_description(const System<S>& sys);

#define NHS_DESCRIPTION_CHECK_INSTANTIATE(EXTERN, S) \
  EXTERN template void check_description<S>(const System<S>&);
#define NHS_EXTERN_DESCRIPTION_CHECK_(S, NAME) NHS_DESCRIPTION_CHECK_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_DESCRIPTION_CHECK_)
#undef NHS_EXTERN_DESCRIPTION_CHECK_

}  // namespace nhs
