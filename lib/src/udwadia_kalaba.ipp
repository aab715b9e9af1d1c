#include "nhs/derivatives.hpp"
#include "nhs/format.hpp"
#include "nhs/regularity.hpp"
#include "nhs/semidefinite_mass.hpp"
#include "nhs/udwadia_kalaba.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SVD>

namespace nhs {
namespace udwadia_kalaba_detail {

// The Udwadia-Kalaba equation with a positive definite mass matrix
// M = V diag(mu) V^T (mu > 0) and the non-ideal vector C (size n, zero for
// ideal constraints): fills out's qddot, reaction, nonideal, multipliers and
// rank; a = M^{-1} Q and correction = M^{-1} Q_c are the two parts of qddot.
template <class S>
void solve(const Mat<S>& V, const Vec<S>& mu, const Vec<S>& Q, const Vec<S>& C, const Mat<S>& A,
           const Vec<S>& b, UdwadiaKalabaField<S>& out, Vec<S>& a, Vec<S>& correction) {
  const Eigen::Index n = V.rows(), r = A.rows();
  // M^{+-1/2} = V diag(mu^{+-1/2}) V^T.
  const Vec<S> root = mu.cwiseSqrt();
  const Mat<S> M_half = V * root.asDiagonal() * V.transpose();
  const Mat<S> M_inv_half = V * root.cwiseInverse().asDiagonal() * V.transpose();

  a = M_inv_half * (M_inv_half * Q);  // M^{-1} Q, the unconstrained qddot
  const Vec<S> y = b - A * a;         // b - A M^{-1} Q, r

  // 003's K = M^{1/2} [I - B^+ B] M^{-1/2} C, B = A M^{-1/2}: k = M^{-1/2} K.
  const Vec<S> c = M_inv_half * C;  // M^{-1/2} C
  Vec<S> k = c;
  Vec<S> w = Vec<S>::Zero(n);  // (A M^{-1/2})^+ y
  if (r > 0) {
    const Mat<S> B = A * M_inv_half;  // A M^{-1/2}, r x n
    Eigen::JacobiSVD<Mat<S>> svd(B, Eigen::ComputeThinU | Eigen::ComputeThinV);
    svd.setThreshold(regularity_tolerance<S>());
    out.rank = static_cast<int>(svd.rank());
    w = svd.solve(y);  // minimum-norm least squares: the pseudoinverse
    const Vec<S> Bc = B * c;  // A M^{-1} C: C's part that the ideal reaction absorbs
    k -= svd.solve(Bc);       // (I - B^+ B) c
    if (out.rank == r) {
      // A^T lambda = Q_c - C (the ideal part, 001 eq. 3.11): lambda =
      // (B B^T)^{-1} (y - B c) = U Sigma^{-2} U^T (y - B c); y alone without C.
      const Vec<S> s2 = svd.singularValues().cwiseAbs2();
      out.multipliers = svd.matrixU() * (svd.matrixU().transpose() * (y - Bc)).cwiseQuotient(s2);
    }
  }
  correction = M_inv_half * (w + k);  // M^{-1} Q_c
  out.nonideal = M_half * k;          // K
  out.reaction = M_half * (w + k);    // Q_c = M^{1/2} B^+ y + K
  out.qddot = a + correction;         // M^{-1} (Q + Q_c)
}

}  // namespace udwadia_kalaba_detail

template <class S>
UdwadiaKalabaField<S> udwadia_kalaba(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd,
                                     UdwadiaKalabaMass mass) {
  const Eigen::Index n = sys.n, r = sys.r;
  const ConstraintJacobians<S> J = constraint_jacobians(sys, q, qd);
  const Inertia<S> I = inertia(sys, q, qd);
  // Seed 003's symbols: M qddot = Q + Q_c, A qddot = b.
  const Mat<S>& M = I.g;                                // g, n x n
  const Vec<S> Q = applied_force(sys, q, qd) - I.gamma;  // A_i - Gamma(qdot, qdot), n
  const Vec<S> C = nonideal_constraint_force(sys, q, qd);  // 003's C (0: ideal), n
  const Mat<S>& A = J.C_qdot;                           // dC/dqdot, r x n
  const Vec<S> b = -(J.C_q * qd);                       // -(dC/dq) qdot, r

  const auto context = [&] { return state_context(q, qd); };
  require_finite(M, "the metric g", context);
  require_finite(Q, "the force Q = A - Gamma", context);
  require_finite(C, "the non-ideal constraint force C", context);
  require_finite(A, "dC/dqdot", context);
  require_finite(b, "b = -(dC/dq) qdot", context);
  // M = V diag(mu) V^T.
  const Eigen::SelfAdjointEigenSolver<Mat<S>> eig(M);
  const Vec<S> mu = eig.info() == Eigen::Success ? Vec<S>(eig.eigenvalues()) : Vec<S>();
  const bool positive_definite =
      mu.size() == n && n > 0 && mu[0] > regularity_tolerance<S>() * mu[n - 1];

  UdwadiaKalabaField<S> out;
  Vec<S> a, correction;  // M^{-1} Q and M^{-1} Q_c (M_A and Q_b on the auxiliary path)
  if (positive_definite && mass == UdwadiaKalabaMass::automatic) {
    udwadia_kalaba_detail::solve<S>(eig.eigenvectors(), mu, Q, C, A, b, out, a, correction);
  } else {
    // 003 (semidefinite M): M_A qddot = Q_b + Q_c' with M_A = M + s A^+ A,
    // Q_b = Q + s A^+ b (semidefinite_mass.hpp). Throws "singular metric g"
    // when M is not positive semidefinite, "accelerations undetermined"
    // when [M; A] has rank < n. C enters as K_A, the same formula in M_A.
    const AuxiliaryMass<S> aux = auxiliary_mass<S>(M, A, sys.info.coordinates, context);
    const Vec<S> Q_b = Q + aux.scale * (aux.A_pinv * b);
    udwadia_kalaba_detail::solve<S>(aux.V, aux.mu, Q_b, C, A, b, out, a, correction);
    out.auxiliary = true;
  }

  // A qddot = b must hold: otherwise b has a part outside the range of A.
  // Row k is compared with the size of its terms; qddot = a + M^{-1} Q_c
  // may be much smaller than its two parts, whose rounding it carries.
  using std::abs;
  using std::max;
  require_finite(out.qddot, "qddot", context);
  const Vec<S> residual = A * out.qddot - b;
  const S parts = n ? max(a.cwiseAbs().maxCoeff(), correction.cwiseAbs().maxCoeff()) : S(0);
  for (Eigen::Index k = 0; k < r; ++k) {
    const S scale = A.row(k).cwiseAbs().sum() * parts + abs(b[k]);
    if (!(abs(residual[k]) <= regularity_tolerance<S>() * scale)) {
      const std::string condition = "inconsistent constraints A qddot = b";
      throw SingularState(condition, "singular state: " + condition + " (rank of dC/dqdot " +
                                         std::to_string(out.rank) + " of " + std::to_string(r) +
                                         ", residual A qddot - b = " + to_string<S>(residual) +
                                         ") " + state_context(q, qd));
    }
  }
  return out;
}

}  // namespace nhs
