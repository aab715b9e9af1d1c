// Systems whose metric g (seed 003's mass matrix M) is only positive
// semidefinite: massless parts, coordinates that carry no kinetic energy.
//
// Seed 003 (its paragraph on a semidefinite M) and Udwadia and Phohomsiri,
// Proc. R. Soc. A 462 (2006) 2097-2117: with A qddot = b (A = dC/dqdot,
// r x n), the accelerations are unique if and only if the (n + r) x n
// matrix [g; A] has full column rank n. Then, for any s > 0,
//
//   M_A = g + s A^+ A      (n x n, positive definite),
//   Q_b = Q + s A^+ b      (n),
//   M_A qddot = Q_b + Q_c,  A qddot = b,
//
// because A^+ A qddot = A^+ b on every motion (A^+ A is the orthogonal
// projector onto the row space of A, and b lies in the range of A). The
// reaction Q_c is the same: it is ideal (in the range of A^T) for M_A as
// for g, so the Udwadia-Kalaba formula with M_A in place of M gives it
// (udwadia_kalaba.hpp). s = 1 is seed 003's printed form; the library takes
// s = the largest eigenvalue of g, so that both terms have the units of g
// and M_A is as well conditioned as g allows (docs/errata.md, 003).
//
// [g; A] and M_A have the same null space (g and A^+ A are positive
// semidefinite, and A^+ A v = 0 iff A v = 0), so the rank test is made on
// M_A: its symmetric eigen-decomposition (its SVD) with the convention of
// regularity_tolerance, an eigenvalue <= 100 epsilon times the largest
// counts as zero. The eigenvectors of those eigenvalues are the directions
// in which qddot is undetermined.
#pragma once

#include "nhs/regularity.hpp"
#include "nhs/system.hpp"

#include <string>
#include <vector>

namespace nhs {

/// The auxiliary mass matrix of a system with a positive semidefinite g.
template <class S>
struct AuxiliaryMass {
  Mat<S> M_A;     ///< g + s A^+ A, n x n, positive definite
  Vec<S> mu;      ///< eigenvalues of M_A, increasing, size n
  Mat<S> V;       ///< orthonormal eigenvectors of M_A (columns), n x n
  Mat<S> A_pinv;  ///< A^+ (Moore-Penrose; singular values <= regularity_tolerance * largest as 0), n x r
  S scale;        ///< s: the largest eigenvalue of g, 1 when g vanishes
  int rank_A = 0; ///< numerical rank of A, <= min(r, n)
};

/// Builds M_A = g + s A^+ A from the metric g (n x n, symmetric) and the
/// constraint matrix A = dC/dqdot (r x n, r >= 0), with s the largest
/// eigenvalue of g (1 when g = 0). `coordinates` (size n, the q^i names of
/// SystemInfo) label the message; context() (e.g. state_context(q, qd)) ends
/// it.
///
/// Throws NonFiniteValue when g or A has non-finite entries, or when M_A
/// or an eigenvalue of g or M_A overflows (g near the largest finite
/// value);
/// SingularState("singular metric g") when g is not positive semidefinite
/// (an eigenvalue < -regularity_tolerance * the largest |eigenvalue|, or
/// n = 0); SingularState("accelerations undetermined") when [g; A] has
/// rank < n, i.e. M_A has an eigenvalue <= regularity_tolerance * its
/// largest: the message gives the rank, the eigenvalues of M_A and a basis
/// of the null space of [g; A], each vector as "(name = value, ...)" with
/// its components above regularity_tolerance, largest component positive:
/// the directions along which qddot is free. Source: seed 003 (paragraph
/// on a semidefinite M); Udwadia and Phohomsiri (2006).
template <class S>
AuxiliaryMass<S> auxiliary_mass(const Mat<S>& g, const Mat<S>& A,
                                const std::vector<std::string>& coordinates,
                                const Context& context);

/// The metric in which project_velocity measures the correction of qdot:
/// g itself when it is positive definite (every pivot of its LDLT >
/// regularity_tolerance * the largest: the test of
/// factor_positive_definite), else g + s N, where N is the orthogonal
/// projector onto the eigenvectors of g whose eigenvalues are <=
/// regularity_tolerance * the largest (the massless directions) and s the
/// largest eigenvalue of g (1 when g = 0): the identity, in g's units, on
/// g's null space. g + s N is positive definite for every positive
/// semidefinite g, whether or not the constraints determine qddot, so that
/// a state is admitted and each formulation then says by its own name
/// whether it applies. Throws as auxiliary_mass for a g that is not
/// positive semidefinite ("singular metric g") or not finite.
template <class S>
Mat<S> projection_metric(const Mat<S>& g, const Context& context);

#define NHS_SEMIDEFINITE_MASS_INSTANTIATE(EXTERN, S)                                        \
  EXTERN template AuxiliaryMass<S> auxiliary_mass<S>(const Mat<S>&, const Mat<S>&,          \
                                                     const std::vector<std::string>&,       \
                                                     const Context&);                       \
  EXTERN template Mat<S> projection_metric<S>(const Mat<S>&, const Context&);
#define NHS_EXTERN_SEMIDEFINITE_MASS_(S, NAME) NHS_SEMIDEFINITE_MASS_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_SEMIDEFINITE_MASS_)
#undef NHS_EXTERN_SEMIDEFINITE_MASS_

}  // namespace nhs
