// Implementation of naive_reduced.hpp (a negative control); included once
// per scalar type by the generated instantiation units.
#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/naive_reduced.hpp"
#include "nhs/regularity.hpp"

namespace nhs {

template <class S>
NaiveReducedField<S> naive_reduced(const System<S>& sys, const Vec<S>& q,
                                   const Vec<S>& qd_indep) {
  const DependentVelocities<S> dv = dependent_velocities(sys, q);
  NaiveReducedField<S> out;
  out.qdot = full_velocity(dv, qd_indep);
  const auto context = [&] { return state_context(q, out.qdot); };

  const ReducedKineticEnergy<S> K = reduced_kinetic_energy(sys, dv, q, qd_indep);
  const Vec<S> A = active_force(sys, q, out.qdot);

  // d/dt dTbar/dqdot_i - dTbar/dq_i = Q_i, i independent only: Voronec's
  // right-hand side terms in dTbar/dq_dep and b are left out (the error).
  const Vec<S> rhs = A(dv.independent) + dv.a.transpose() * A(dv.dependent) -
                     K.G_q * out.qdot + K.Tbar_q(dv.independent);
  const auto G = factor_positive_definite<S>(K.G, "singular reduced metric Gbar", context);
  out.qddot_indep = G.solve(rhs);

  // The dependent accelerations from the constraints' time derivative.
  Mat<S> adot = Mat<S>::Zero(sys.r, dv.a.cols());
  for (Eigen::Index k = 0; k < sys.n; ++k) adot += dv.a_q[static_cast<std::size_t>(k)] * out.qdot[k];
  out.qddot.resize(sys.n);
  out.qddot(dv.independent) = out.qddot_indep;
  out.qddot(dv.dependent) = dv.a * out.qddot_indep + adot * qd_indep;
  return out;
}

}  // namespace nhs
