// Implementation of gauss.hpp; instantiated with the equations
// (equations.ipp).
#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/gauss.hpp"
#include "nhs/regularity.hpp"
#include "nhs/semidefinite_mass.hpp"

#include <Eigen/Eigenvalues>

namespace nhs {

template <class S>
GaussFunction<S> gauss_function(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd,
                                const Vec<S>& qddot) {
  const Eigen::Index n = sys.n;
  const Inertia<S> I = inertia(sys, q, qd);
  const Vec<S> Q = active_force(sys, q, qd) - I.gamma;  // applied + C - Gamma, n
  const auto context = [&] { return state_context(q, qd); };
  require_finite(I.g, "the metric g", context);
  require_finite(Q, "the force Q = A - Gamma", context);
  require_finite(qddot, "the trial qddot", context);
  // The test of udwadia_kalaba: g positive definite when its smallest
  // eigenvalue is > regularity_tolerance * the largest.
  const Eigen::SelfAdjointEigenSolver<Mat<S>> eig(I.g);
  const Vec<S> mu = eig.info() == Eigen::Success ? Vec<S>(eig.eigenvalues()) : Vec<S>();
  GaussFunction<S> out;
  Mat<S> M;
  if (mu.size() == n && n > 0 && mu[0] > regularity_tolerance<S>() * mu[n - 1]) {
    M = I.g;
    out.qddot_free = eig.eigenvectors() *
                     (eig.eigenvectors().transpose() * Q).cwiseQuotient(mu);  // g^{-1} Q
  } else {
    // g semidefinite: the auxiliary system M_A qddot_free = Q_b (semidefinite_mass.hpp).
    const ConstraintJacobians<S> J = constraint_jacobians(sys, q, qd);
    const Vec<S> b = -(J.C_q * qd);
    const AuxiliaryMass<S> aux = auxiliary_mass<S>(I.g, J.C_qdot, sys.info.coordinates, context);
    const Vec<S> Q_b = Q + aux.scale * (aux.A_pinv * b);
    M = aux.M_A;
    out.qddot_free = aux.V * (aux.V.transpose() * Q_b).cwiseQuotient(aux.mu);
    out.auxiliary = true;
  }
  const Vec<S> d = qddot - out.qddot_free;
  out.z = d.dot(M * d);
  // Z is quadratic in the forces: it overflows before qddot does.
  require_finite(Vec<S>::Constant(1, out.z), "Gauss's Z", context);
  return out;
}

template <class S>
S gauss_z(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd, const Vec<S>& qddot) {
  return gauss_function(sys, q, qd, qddot).z;
}

}  // namespace nhs
