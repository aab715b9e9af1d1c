#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/lagrange_multipliers.hpp"
#include "nhs/regularity.hpp"

#include <Eigen/LU>

namespace nhs {

template <class S>
LagrangeMultipliersField<S> lagrange_multipliers(const System<S>& sys, const Vec<S>& q,
                                                 const Vec<S>& qd) {
  const Eigen::Index n = sys.n, r = sys.r;
  const ConstraintJacobians<S> J = constraint_jacobians(sys, q, qd);
  const Inertia<S> I = inertia(sys, q, qd);

  // [g  -C_qdot^T; C_qdot  0] [qddot; lambda] = [A - Gamma; -(dC/dq) qdot]
  Mat<S> K = Mat<S>::Zero(n + r, n + r);
  K.topLeftCorner(n, n) = I.g;
  K.topRightCorner(n, r) = -J.C_qdot.transpose();
  K.bottomLeftCorner(r, n) = J.C_qdot;
  Vec<S> rhs(n + r);
  const Vec<S> force = active_force(sys, q, qd) - I.gamma;  // outside the comma initializer
  rhs << force, -(J.C_q * qd);

  const auto context = [&] { return state_context(q, qd); };
  require_finite(K, "the KKT matrix", context);
  require_finite(rhs, "the KKT right-hand side", context);
  Eigen::FullPivLU<Mat<S>> lu(K);
  lu.setThreshold(regularity_tolerance<S>());
  if (!lu.isInvertible()) {
    const std::string condition = "singular KKT matrix (rank loss of dC/dqdot or singular g)";
    throw SingularState(condition, "singular state: " + condition + " (" +
                                       std::to_string(n + r) + "x" + std::to_string(n + r) +
                                       ", rank " + std::to_string(lu.rank()) + ", LU pivots " +
                                       to_string<S>(Vec<S>(lu.matrixLU().diagonal())) + ") " +
                                       state_context(q, qd));
  }
  const Vec<S> x = lu.solve(rhs);

  LagrangeMultipliersField<S> out;
  out.qddot = x.head(n);
  out.multipliers = x.tail(r);
  out.reaction = J.C_qdot.transpose() * out.multipliers;
  if (sys.nonideal_constraint_force) out.reaction += nonideal_constraint_force(sys, q, qd);  // + C
  return out;
}

}  // namespace nhs
