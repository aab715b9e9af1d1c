// Implementation of maggi.hpp; included once per scalar type by the
// generated instantiation units (lib/src/instantiate.cpp.in).
#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/maggi.hpp"
#include "nhs/regularity.hpp"

#include <Eigen/LU>

#include <algorithm>

namespace nhs {
namespace maggi_detail {

// Derivatives of T and of the momenta p_i = dT/dqdot^i along K directions
// (dq_k, dqd_k) of (q, qdot) space (the columns of dq, dqd, n x K), at
// (q, qd): dT[k] = T'(q, qd)(dq_k, dqd_k), dp(i, k) = p_i'(q, qd)(dq_k, dqd_k).
// One second-order evaluation of T (kinetic_energy_jet) per 2n directions:
// outer variables the directions, inner variables qdot (n).
template <class S>
void directional_derivatives(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd,
                             const Mat<S>& dq, const Mat<S>& dqd, Vec<S>& dT, Mat<S>& dp) {
  const Eigen::Index n = sys.n, K = dq.cols(), slots = 2 * n;
  dT.setZero(K);
  dp.setZero(n, K);
  KineticEnergySeed<S> seed;
  seed.inner = n;
  seed.q = q;
  seed.qd = qd;
  seed.q_inner = Mat<S>::Zero(n, n);
  seed.qd_inner = Mat<S>::Identity(n, n);
  for (Eigen::Index start = 0; start < K; start += slots) {
    const Eigen::Index count = std::min(slots, K - start);
    seed.outer = count;
    seed.q_outer = dq.middleCols(start, count);
    seed.qd_outer = dqd.middleCols(start, count);
    const KineticEnergyJet<S> jet = kinetic_energy_jet(sys, seed);
    dT.segment(start, count) = jet.T_outer;
    dp.middleCols(start, count) = jet.T_outer_inner.transpose();  // (i, k): d/dqdot_i of d/d dir k
  }
}

}  // namespace maggi_detail

template <class S>
MaggiField<S> maggi(const System<S>& sys, const Vec<S>& q, const Vec<S>& z) {
  const ParametrizationJacobians<S> P = parametrization_jacobians(sys, q, z);
  const auto context = [&] { return "at q = " + to_string(q) + ", z = " + to_string(z); };
  require_full_rank<S>(P.psi_z, "rank loss of dpsi/dz", context);
  const Eigen::Index n = sys.n, m = sys.m;

  // 000 eq. 34: qddot = (d_h psi) psi^h + psi_beta zdot^beta.
  const Vec<S> drift = P.psi_q * P.psi;

  // Directions in (q, qdot) space: the motion at zdot = 0, the m zdot
  // directions, the n coordinate directions of q.
  Mat<S> dq = Mat<S>::Zero(n, 1 + m + n), dqd = Mat<S>::Zero(n, 1 + m + n);
  dq.col(0) = P.psi;
  dqd.col(0) = drift;
  dqd.middleCols(1, m) = P.psi_z;
  dq.rightCols(n) = Mat<S>::Identity(n, n);
  Vec<S> dT;
  Mat<S> dp;
  maggi_detail::directional_derivatives(sys, q, P.psi, dq, dqd, dT, dp);

  const Vec<S> dp_dt = dp.col(0);               // d/dt dT/dqdot^i at zdot = 0
  const Mat<S> dp_dt_dzdot = dp.middleCols(1, m);  // its zdot-Jacobian, n x m
  const Vec<S> dT_dq = dT.tail(n);              // dT/dq^i

  // 000 eq. 32: E(zdot) = psi_z^T (dp/dt - dT/dq) - psi_z^T A = 0, affine in zdot.
  const Vec<S> A = active_force(sys, q, P.psi);
  const Vec<S> E0 = P.psi_z.transpose() * (dp_dt - dT_dq - A);
  MaggiField<S> out;
  out.matrix = P.psi_z.transpose() * dp_dt_dzdot;

  require_finite(out.matrix, "the Maggi matrix psi^T d(dp/dt)/dzdot", context);
  require_finite(E0, "the Maggi equations' constant term", context);
  Eigen::FullPivLU<Mat<S>> lu(out.matrix);
  lu.setThreshold(regularity_tolerance<S>());
  if (!lu.isInvertible()) {
    const std::string condition = "singular Maggi matrix";
    throw SingularState(condition, "singular state: " + condition + " psi^T d(dp/dt)/dzdot (" +
                                       std::to_string(m) + "x" + std::to_string(m) + ", rank " +
                                       std::to_string(lu.rank()) + ", LU pivots " +
                                       to_string<S>(Vec<S>(lu.matrixLU().diagonal())) + ") " +
                                       context());
  }
  out.qdot = P.psi;
  out.zdot = lu.solve(Vec<S>(-E0));
  out.qddot = drift + P.psi_z * out.zdot;
  return out;
}

}  // namespace nhs
