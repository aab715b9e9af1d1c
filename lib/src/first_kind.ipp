#include "nhs/derivatives.hpp"
#include "nhs/first_kind.hpp"
#include "nhs/format.hpp"
#include "nhs/regularity.hpp"

namespace nhs {

template <class S>
FirstKindField<S> first_kind(const System<S>& sys, const Vec<S>& q, const Vec<S>& z) {
  const ParametrizationJacobians<S> P = parametrization_jacobians(sys, q, z);
  const auto context = [&] { return "at q = " + to_string(q) + ", z = " + to_string(z); };
  require_full_rank<S>(P.psi_z, "rank loss of dpsi/dz", context);

  const Inertia<S> I = inertia(sys, q, P.psi);
  const Vec<S> A = active_force(sys, q, P.psi);

  // 000 eq. 27: G zdot = psi_z^T (A - Gamma(psi, psi) - g (d_q psi) psi).
  // Only G must be positive definite, never g: a g singular along
  // directions that psi_z does not reach (massless parts whose motion the
  // constraints fix) is allowed; g v = 0 with v = psi_z w makes G w = 0.
  const Mat<S> G = P.psi_z.transpose() * I.g * P.psi_z;
  const Vec<S> drift = P.psi_q * P.psi;  // (d_h psi^i) psi^h
  const Vec<S> Z = P.psi_z.transpose() * (A - I.gamma - I.g * drift);
  const auto ldlt = factor_positive_definite<S>(G, "singular G = psi^T g psi", context);

  FirstKindField<S> out;
  out.qdot = P.psi;
  out.zdot = ldlt.solve(Z);
  out.qddot = drift + P.psi_z * out.zdot;
  return out;
}

}  // namespace nhs
