#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/manifold.hpp"
#include "nhs/regularity.hpp"
#include "nhs/semidefinite_mass.hpp"

#include <Eigen/QR>

namespace nhs {

namespace manifold_detail {

// The metric of the projection, factored: g where it is positive definite
// (as before), else projection_metric's g + s N (semidefinite_mass.hpp).
template <class S>
typename PositiveDefiniteFactor<S>::type projection_factor(const Mat<S>& g,
                                                           const Context& context) {
  try {
    return factor_positive_definite<S>(g, "singular metric g", context);
  } catch (const SingularState&) {
  }
  return factor_positive_definite<S>(projection_metric<S>(g, context), "singular metric g",
                                     context);
}

// Whether dC/dqdot has full row rank (require_full_rank's test).
template <class S>
bool full_rank(const Mat<S>& A) {
  try {
    require_full_rank<S>(A, "rank loss of dC/dqdot", [] { return std::string(); });
    return true;
  } catch (const SingularState&) {
    return false;
  }
}

}  // namespace manifold_detail

template <class S>
Vec<S> project_velocity(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd) {
  const auto g = manifold_detail::projection_factor<S>(inertia(sys, q, qd).g,
                                                       [&] { return state_context(q, qd); });
  const S floor = S(1) + qd.squaredNorm();
  Vec<S> v = qd;
  for (int iteration = 0; iteration < 50; ++iteration) {
    const ConstraintJacobians<S> J = constraint_jacobians(sys, q, v);
    if (J.C.size() == 0) return v;
    // Round-off level of each C^a: its terms' size sum_i |C^a_i qdot^i|
    // (the whole of C^a when it is homogeneous in qdot; the bipendulum's
    // x1 x1d y2d - ... grows with |q| |qdot|^2), at least 1 + |qdot|^2.
    const Vec<S> scale = (J.C_qdot.cwiseAbs() * v.cwiseAbs()).cwiseMax(floor);
    if ((J.C.cwiseAbs().array() <= S(10) * epsilon<S>() * scale.array()).all()) return v;
    const Mat<S> X = g.solve(Mat<S>(J.C_qdot.transpose()));
    const Mat<S> H = J.C_qdot * X;
    if (manifold_detail::full_rank<S>(J.C_qdot)) {
      v -= X * H.ldlt().solve(J.C);
    } else {
      // Dependent (redundant) constraints, which udwadia-kalaba takes: the
      // minimum-norm step, by the pseudoinverse of H. Inconsistent ones do
      // not converge (below).
      v -= X * Eigen::CompleteOrthogonalDecomposition<Mat<S>>(H).solve(J.C);
    }
  }
  throw InvalidState("cannot project qdot onto the constraint manifold C (Newton did not "
                     "converge; inconsistent constraints, if dC/dqdot has lost rank) " + state_context(q, qd));
}

template <class S>
Vec<S> admit_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd, const S& tolerance) {
  const auto check = [&](const Vec<S>& v, const char* what) {
    if (v.size() != sys.n)
      throw UsageError(std::string(what) + " has " + std::to_string(v.size()) + " values; '" +
                       sys.info.name + "' has n = " + std::to_string(sys.n) + " coordinates");
    if (!v.allFinite()) throw UsageError(std::string(what) + " is not finite: " + to_string(v));
  };
  check(q, "q");
  check(qd, "qdot");
  const Vec<S> C = constraint_residuals(sys, q, qd);
  if (!C.allFinite())
    throw NonFiniteValue("non-finite value: C = " + to_string(C) + " " + state_context(q, qd));
  if (C.size() == 0) return project_velocity(sys, q, qd);
  // Each C^a against its own size: its terms' (project_velocity's scale),
  // at least 1 + |qdot|^2.
  const ConstraintJacobians<S> J = constraint_jacobians(sys, q, qd);
  const Vec<S> bound =
      tolerance * (J.C_qdot.cwiseAbs() * qd.cwiseAbs()).cwiseMax(S(1) + qd.squaredNorm());
  if (!(C.cwiseAbs().array() <= bound.array()).all())
    throw InvalidState("state off the constraint manifold C: C = " + to_string(C) +
                       " exceeds the tolerance " + to_string(bound) + " " + state_context(q, qd));
  return project_velocity(sys, q, qd);
}

}  // namespace nhs
