// The Udwadia–Kalaba equation: Gauss' principle of least constraint solved
// in closed form with the Moore–Penrose pseudoinverse (seed 003, section
// "Equazione di Udwadia-Kalaba"; Udwadia and Kalaba 1992).
//
//   M qddot = Q + Q_c,         M = g (n x n),  Q = A_i - Gamma_ij,k qdot^i qdot^j
//   A qddot = b,               A = [dC^a/dqdot^i] (r x n),  b = -(dC^a/dq^i) qdot^i
//   Q_c = M^{1/2} (A M^{-1/2})^+ (b - A M^{-1} Q)
//
// A qddot = b is d/dt C^a(q, qdot) = 0 (001 eq. 3.12 on a motion). Here A is
// seed 003's constraint matrix; the active forces A_i of 001 eq. 3.16 enter
// only through Q. The constraints are ideal (001 Def. 3.2), so seed 003's
// non-ideal term K vanishes (its C = 0). Q_c is the Lagrangian reactive
// force R_i of 001 eq. 3.9. M^{1/2} is the symmetric square root of g (its
// eigen-decomposition); the pseudoinverse comes from a JacobiSVD with
// singular values <= regularity_tolerance * largest treated as zero, so a
// rank-deficient A (redundant constraints) is allowed: qddot and Q_c are
// unique, the multipliers are not.
#pragma once

#include "nhs/system.hpp"

#include <optional>

namespace nhs {

/// qddot at (q, qdot) with the constraint force Q_c.
template <class S>
struct UdwadiaKalabaField {
  Vec<S> qddot;     ///< qddot = M^{-1} (Q + Q_c), size n
  Vec<S> reaction;  ///< Q_c, the Lagrangian reactive forces R_i (001 eq. 3.9), size n
  /// lambda_a with A^T lambda = Q_c (R_i = lambda_a C^a_i, 001 eq. 3.11),
  /// size r: lambda = (A M^{-1} A^T)^{-1} (b - A M^{-1} Q), the same
  /// quantity as second_kind's multipliers. Present only when A has full
  /// row rank (rank == r); with redundant constraints lambda is not unique
  /// and is left empty.
  std::optional<Vec<S>> multipliers;
  int rank = 0;  ///< numerical rank of A M^{-1/2} (= rank of A), <= min(r, n)
};

/// Evaluates the Udwadia–Kalaba equation at (q, qdot) (both size n). The
/// state need not lie on C, but the constraint accelerations A qddot = b
/// must be solvable there.
///
/// Throws SingularState when g is not positive definite ("singular metric
/// g": smallest eigenvalue <= regularity_tolerance * largest), or when
/// A qddot = b has no solution ("inconsistent constraints A qddot = b": some
/// row k has |(A qddot - b)_k| > regularity_tolerance * (sum_i |A_ki| * p +
/// |b_k|), p = max(max|M^{-1} Q|, max|M^{-1} Q_c|), the size of the two
/// parts of qddot). Redundant constraints (rank A < r) are not an error.
template <class S>
UdwadiaKalabaField<S> udwadia_kalaba(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

#define NHS_UDWADIA_KALABA_INSTANTIATE(EXTERN, S)                                   \
  EXTERN template UdwadiaKalabaField<S> udwadia_kalaba<S>(const System<S>&, const Vec<S>&, \
                                                          const Vec<S>&);
#define NHS_EXTERN_UDWADIA_KALABA_(S, NAME) NHS_UDWADIA_KALABA_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_UDWADIA_KALABA_)
#undef NHS_EXTERN_UDWADIA_KALABA_

}  // namespace nhs
