#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/regularity.hpp"
#include "nhs/second_kind.hpp"

namespace nhs {

template <class S>
SecondKindField<S> second_kind(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  const ConstraintJacobians<S> J = constraint_jacobians(sys, q, qd);
  require_full_rank<S>(J.C_qdot, "rank loss of dC/dqdot", [&] { return state_context(q, qd); });

  const Inertia<S> I = inertia(sys, q, qd);
  const Vec<S> A = active_force(sys, q, qd);
  // D needs g^-1 (001 Thm 8.1): a massless part is refused here, by name.
  const auto g = factor_positive_definite<S>(I.g, "singular metric g", [&] {
    return state_context(q, qd) +
           " (the second kind inverts g; where [g; dC/dqdot] has full rank, udwadia-kalaba, "
           "lagrange-multipliers and the formulations on C, first-kind, maggi and "
           "gibbs-appell, apply)";
  });

  const Vec<S> F = g.solve(A - I.gamma);                      // F^i
  const Mat<S> X = g.solve(Mat<S>(J.C_qdot.transpose()));     // g^ij C^a_j, n x r
  const Mat<S> Hinv = J.C_qdot * X;                           // H^ab, r x r
  const Vec<S> b = J.C_qdot * F + J.C_q * qd;                 // C^b_j F^j + qdot^j dC^b/dq^j
  const auto H = factor_positive_definite<S>(Hinv, "rank loss of dC/dqdot (H^ab singular)",
                                             [&] { return state_context(q, qd); });

  SecondKindField<S> out;
  out.multipliers = -H.solve(b);
  out.reaction = J.C_qdot.transpose() * out.multipliers;
  // A non-ideal constraint's C entered A above; the constraint force is the
  // ideal part plus C (system.hpp, nonideal_constraint_force).
  if (sys.nonideal_constraint_force) out.reaction += nonideal_constraint_force(sys, q, qd);
  out.qddot = F + X * out.multipliers;
  return out;
}

}  // namespace nhs
