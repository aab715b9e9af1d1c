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
// One AD2 evaluation of T per 2n directions: outer variables are the
// directions (2n of them, the size the system's AD2 parameters are made
// for; unused ones zero), inner variables qdot (n).
template <class S>
void directional_derivatives(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd,
                             const Mat<S>& dq, const Mat<S>& dqd, Vec<S>& dT, Mat<S>& dp) {
  const Eigen::Index n = sys.n, K = dq.cols(), slots = 2 * n;
  dT.setZero(K);
  dp.setZero(n, K);
  const Vec<S> inner_zero = Vec<S>::Zero(n);
  for (Eigen::Index start = 0; start < K; start += slots) {
    const Eigen::Index count = std::min(slots, K - start);
    Vec<AD2<S>> Q(n), QD(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      Vec<AD1<S>> outer_q(slots), outer_qd(slots);
      for (Eigen::Index k = 0; k < slots; ++k) {
        outer_q[k] = AD1<S>(k < count ? dq(i, start + k) : S(0), inner_zero);
        outer_qd[k] = AD1<S>(k < count ? dqd(i, start + k) : S(0), inner_zero);
      }
      Q[i] = AD2<S>(AD1<S>(q[i], inner_zero), outer_q);
      QD[i] = AD2<S>(AD1<S>(qd[i], Vec<S>::Unit(n, i)), outer_qd);
    }
    const AD2<S> T = sys.kinetic_energy_ad2(Q, QD);
    const Vec<AD1<S>>& d = T.derivatives();  // d/d(direction k), with inner d/dqdot
    if (d.size() == 0) continue;             // T constant along every direction
    for (Eigen::Index k = 0; k < count; ++k) {
      dT[start + k] = d[k].value();
      if (d[k].derivatives().size() == 0) continue;
      for (Eigen::Index i = 0; i < n; ++i) dp(i, start + k) = d[k].derivatives()[i];
    }
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

  Eigen::FullPivLU<Mat<S>> lu(out.matrix);
  lu.setThreshold(regularity_tolerance<S>());
  if (!out.matrix.allFinite() || !lu.isInvertible()) {
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
