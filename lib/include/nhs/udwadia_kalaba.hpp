// The Udwadia–Kalaba equation: Gauss' principle of least constraint solved
// in closed form with the Moore–Penrose pseudoinverse (seed 003, section
// "Equazione di Udwadia-Kalaba"; Udwadia and Kalaba 1992).
//
//   M qddot = Q + Q_c,         M = g (n x n),  Q = A_i - Gamma_ij,k qdot^i qdot^j
//   A qddot = b,               A = [dC^a/dqdot^i] (r x n),  b = -(dC^a/dq^i) qdot^i
//   Q_c = M^{1/2} (A M^{-1/2})^+ (b - A M^{-1} Q) + K
//   K   = M^{1/2} [I - (A M^{-1/2})^+ A M^{-1/2}] M^{-1/2} C
//
// A qddot = b is d/dt C^a(q, qdot) = 0 (001 eq. 3.12 on a motion). Here A is
// seed 003's constraint matrix; the applied forces A_i of 001 eq. 3.16
// (applied_force) enter only through Q. C is seed 003's vector of a
// non-ideal constraint, delta W_c = C . delta q on the virtual displacements
// (System::nonideal_constraint_force; 003 names no equation numbers: these
// are the displays of its section "Equazione di Udwadia-Kalaba"); for ideal
// constraints (001 Def. 3.2) C = 0 and K vanishes. Q_c is the total
// constraint force, the Lagrangian reactive force R_i of 001 eq. 3.9 plus
// the non-ideal part: Q_c = A^T lambda + C, with lambda the multipliers of
// every other formulation, which take C as a generalized force
// (docs/numerics.md, non-ideal constraints, shows the two agree).
// M^{1/2} is the symmetric square root of g (its
// eigen-decomposition); the pseudoinverse comes from a JacobiSVD with
// singular values <= regularity_tolerance * largest treated as zero, so a
// rank-deficient A (redundant constraints) is allowed: qddot and Q_c are
// unique, the multipliers are not.
//
// A positive semidefinite M (massless parts; seed 003's paragraph on a
// semidefinite M; Udwadia and Phohomsiri, Proc. R. Soc. A 462 (2006)
// 2097-2117): qddot is unique iff [M; A] ((n + r) x n) has full rank n, and
// then the same formula with the auxiliary
//
//   M_A = M + s A^+ A,   Q_b = Q + s A^+ b,   M_A qddot = Q_b + Q_c',
//   Q_c' = M_A^{1/2} (A M_A^{-1/2})^+ (b - A M_A^{-1} Q_b)
//
// and K_A = M_A^{1/2} [I - (A M_A^{-1/2})^+ A M_A^{-1/2}] M_A^{-1/2} C added
// to Q_c', gives it, with Q_c' = Q_c (semidefinite_mass.hpp derives it;
// K_A differs from K, the ideal parts differ by the opposite; s = 1 is the
// seed's printed form, the library takes s = the largest eigenvalue of M;
// docs/errata.md, 003, records the check of M + A^+A against M + A^T A).
#pragma once

#include "nhs/system.hpp"

#include <optional>

namespace nhs {

/// qddot at (q, qdot) with the constraint force Q_c.
template <class S>
struct UdwadiaKalabaField {
  Vec<S> qddot;     ///< qddot = M^{-1} (Q + Q_c) (M_A^{-1} (Q_b + Q_c) if auxiliary), size n
  /// Q_c, the total constraint force, size n: the Lagrangian reactive
  /// forces R_i (001 eq. 3.9) plus, for a non-ideal constraint, its part
  /// K; Q_c = A^T lambda + C.
  Vec<S> reaction;
  /// Seed 003's K (K_A on the auxiliary path), size n: C less its part
  /// along the constraint directions in the metric M^{-1}, the part of Q_c
  /// that does work on the virtual displacements. Zero for ideal constraints.
  Vec<S> nonideal;
  /// lambda_a with A^T lambda = Q_c - C (R_i = lambda_a C^a_i, 001 eq. 3.11),
  /// size r: lambda = (A M^{-1} A^T)^{-1} (b - A M^{-1} (Q + C)), the same
  /// quantity as second_kind's multipliers (M_A and Q_b in place of M and
  /// Q on the auxiliary path: the same lambda). Present only when A has full
  /// row rank (rank == r); with redundant constraints lambda is not unique
  /// and is left empty.
  std::optional<Vec<S>> multipliers;
  int rank = 0;  ///< numerical rank of A M^{-1/2} (= rank of A), <= min(r, n)
  bool auxiliary = false;  ///< solved with M_A = M + s A^+ A (M semidefinite, or forced)
};

/// Which mass matrix the Udwadia–Kalaba equation is solved with.
enum class UdwadiaKalabaMass {
  /// M = g where g is positive definite (the 1992 equation, unchanged); the
  /// auxiliary M_A where g is only positive semidefinite.
  automatic,
  /// M_A = g + s A^+ A always: a check, it must agree with the automatic
  /// choice where g is positive definite.
  auxiliary,
};

/// Evaluates the Udwadia–Kalaba equation at (q, qdot) (both size n; r
/// constraints). The state need not lie on C, but the constraint
/// accelerations A qddot = b must be solvable there. With
/// UdwadiaKalabaMass::automatic, a positive definite g (smallest eigenvalue
/// > regularity_tolerance * largest) is used as M; a g that is only positive
/// semidefinite (no eigenvalue below -regularity_tolerance * the largest
/// |eigenvalue|) through M_A = g + s A^+ A (semidefinite_mass.hpp).
///
/// Throws SingularState when g is not positive semidefinite ("singular
/// metric g", with its eigenvalues); when g is singular and [g; A] has rank
/// < n ("accelerations undetermined": the message names the directions of
/// qddot left free, a basis of the null space of [g; A] by coordinate
/// name, with the eigenvalues of M_A); or when A qddot = b has no solution
/// ("inconsistent constraints A qddot = b": some row k has |(A qddot -
/// b)_k| > regularity_tolerance * (sum_i |A_ki| * p + |b_k|), p =
/// max(max|M^{-1} Q|, max|M^{-1} Q_c|), the size of the two parts of
/// qddot, with M_A and Q_b in place of M and Q on the auxiliary path).
/// Redundant constraints (rank A < r) are not an error. Source: seed 003;
/// Udwadia and Kalaba (1992); Udwadia and Phohomsiri (2006) for M_A.
template <class S>
UdwadiaKalabaField<S> udwadia_kalaba(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd,
                                     UdwadiaKalabaMass mass = UdwadiaKalabaMass::automatic);

#define NHS_UDWADIA_KALABA_INSTANTIATE(EXTERN, S)                                   \
  EXTERN template UdwadiaKalabaField<S> udwadia_kalaba<S>(const System<S>&, const Vec<S>&, \
                                                          const Vec<S>&, UdwadiaKalabaMass);
#define NHS_EXTERN_UDWADIA_KALABA_(S, NAME) NHS_UDWADIA_KALABA_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_UDWADIA_KALABA_)
#undef NHS_EXTERN_UDWADIA_KALABA_

}  // namespace nhs
