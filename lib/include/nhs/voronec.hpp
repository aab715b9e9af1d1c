// Voronec's equations (seed 002, Lemos 2003, eqs. 8-11; Neimark-Fufaev
// ch. III §3): linear constraints solved for r dependent velocities,
//
//   qdot_{m+l} = a_lj(q) qdot_j,            l = 1..r, j = 1..m = n - r   (002 eq. 8)
//   Lbar(q, qdot_1..m) = L(q, qdot)  with qdot_{m+l} substituted        (002 eq. 9)
//   d/dt dLbar/dqdot_i - dLbar/dq_i
//     = sum_nu dLbar/dq_{m+nu} a_nu,i + sum_{nu,j} dL/dqdot_{m+nu} b^nu_ij qdot_j
//                                                                      (002 eq. 10)
//   b^nu_ij = da_nu,i/dq_j - da_nu,j/dq_i
//           + sum_mu (da_nu,i/dq_{m+mu} a_mu,j - da_nu,j/dq_{m+mu} a_mu,i)   (002 eq. 11)
//
// Here "independent" and "dependent" are index sets into q: the system
// declares the dependent ones (SystemInfo::dependent_velocities, in the
// order l = 1..r); the independent ones are the rest, in increasing order
// (j = 1..m). Nothing is written for a particular system:
//   - a = -(C_dep)^-1 C_indep, with C_qdot = dC/dqdot from AD
//     (constraint_jacobians); da/dq^k = -(C_dep)^-1 (dC_indep/dq^k +
//     dC_dep/dq^k a), with d(dC/dqdot)/dq from AD at unit velocities (the
//     constraints are linear, C^a = C^a_i(q) qdot^i, so C(q, e_i) is the
//     column C^a_i(q) and its q-Jacobian is dC^a_i/dq);
//   - Lbar and the derivatives eq. 10 needs come from one second-order AD
//     evaluation of T at qdot = P(q) qdot_indep (P: identity rows on the
//     independent velocities, a on the dependent ones), seeded with the
//     first-order jet of P (reduced_kinetic_energy).
// With L = T - V and non-conservative forces F, the potential's and F's
// part of eq. 10 is the virtual work of the active forces A_i = -dV/dq^i +
// F_i (001 eq. 3.16) along the admissible displacements: A_i + a_nu,i
// A_{m+nu} on the right-hand side; eq. 10 is used with T in place of L plus
// that force.
//
// Singular where the dependent block C_dep of dC/dqdot is singular (e.g.
// the skate's ydot = tan(theta) xdot at cos theta = 0): SingularState
// "singular dependent block of dC/dqdot" (the reduced metric Gbar, which
// grows like a^T a, then also degenerates: "singular reduced metric Gbar").
// g itself is never inverted: only Gbar = P^T g P must be positive
// definite, so a massless coordinate whose velocity the constraints fix
// (g singular, [g; dC/dqdot] of full rank: semidefinite_mass.hpp) is
// allowed, as in the first kind; where the constraints leave it free, Gbar
// is singular and the state is refused by that name.
// Near that set the accuracy degrades with the size of a: for the skate the
// relative difference from the second kind was measured at ~6e-16/|cos theta|
// in double (1e-12 is exceeded for |cos theta| < ~5e-4). Those checks are
// relative to the precision (100 eps), so a motion could step over the set
// without one of them tripping: integrate watches split_margin instead, at
// the same threshold as the system's margins in every precision.
//
// Affine constraints, A(q) qdot + a0(q) = 0 (docs/affine-constraints.md
// A6-A7): qdot_dep = a qdot_indep + a0 with a0 = -(C_dep)^-1 C(q, 0), Tbar
// taken on that split, and eq. 10 gains sum_nu p_nu b0_nu,i on its right.
//
// Not applicable (NotApplicable) to non-linear constraints or a system
// without declared dependent velocities; there is no fallback to another
// formulation.
//
// Integration state of the `voronec` formulation: x = (q, qdot_indep), size
// 2n - r; qdot = P(q) qdot_indep lies on C by construction.
#pragma once

#include "nhs/system.hpp"

#include <string>
#include <vector>

namespace nhs {

/// Empty when sys's constraints can be solved as qdot_dep = a(q) qdot_indep
/// + a0(q) (002 eq. 8; a0 = 0 unless affine): linear or affine constraints
/// (SystemInfo::linear_constraints, affine_constraints) and r distinct,
/// in-range dependent velocity indices declared. Otherwise the reason,
/// naming what is missing.
inline std::string dependent_velocity_reason(const SystemInfo& info) {
  if (!info.linear_constraints && !info.affine_constraints)
    return "the constraints are not linear in qdot (A(q) qdot + a0(q) = 0), so they cannot be solved as "
           "qdot_dep = a(q) qdot_indep + a0(q) (002 eq. 8)";
  const std::size_t n = info.coordinates.size(), r = info.constraint_names.size();
  const auto& dep = info.dependent_velocities;
  if (dep.empty())
    return "the system declares no dependent velocities (SystemInfo::dependent_velocities)";
  if (dep.size() != r)
    return "the system declares " + std::to_string(dep.size()) + " dependent velocities for " +
           std::to_string(r) + " constraints";
  std::vector<bool> seen(n, false);
  for (int i : dep) {
    if (i < 0 || static_cast<std::size_t>(i) >= n)
      return "dependent velocity index " + std::to_string(i) + " is not a coordinate index (n = " +
             std::to_string(n) + ")";
    if (seen[static_cast<std::size_t>(i)])
      return "dependent velocity index " + std::to_string(i) + " is declared twice";
    seen[static_cast<std::size_t>(i)] = true;
  }
  return {};
}

/// The independent velocity indices: those of 0..n-1 not declared
/// dependent, in increasing order (size n - r for a valid declaration).
inline std::vector<int> independent_velocities(const SystemInfo& info) {
  std::vector<int> out;
  const int n = static_cast<int>(info.coordinates.size());
  for (int i = 0; i < n; ++i) {
    bool dependent = false;
    for (int d : info.dependent_velocities) dependent = dependent || d == i;
    if (!dependent) out.push_back(i);
  }
  return out;
}

/// The solution of linear or affine constraints for the dependent
/// velocities at a configuration q (002 eq. 8; A6), with its q-derivatives
/// (for eq. 11 and A7).
template <class S>
struct DependentVelocities {
  std::vector<int> dependent;    ///< indices into q of qdot_{m+l}, l = 1..r (declared order)
  std::vector<int> independent;  ///< indices into q of qdot_j, j = 1..m = n - r (increasing)
  Mat<S> a;                      ///< a_lj, r x (n - r): qdot_dep = a qdot_indep (+ a0)
  std::vector<Mat<S>> a_q;       ///< a_q[k] = da/dq^k (r x (n - r)) for k = 0..n-1
  Vec<S> a0;                     ///< size r, the affine term; empty for homogeneous constraints (a0 = 0)
  Mat<S> a0_q;                   ///< r x n, column k = da0/dq^k; empty with a0
};

/// a(q) = -(C_dep)^-1 C_indep and da/dq at q (size n), with C_qdot =
/// dC/dqdot by AD (constraint_jacobians at the unit velocities); for
/// affine constraints (SystemInfo::affine_constraints) also a0(q) =
/// -(C_dep)^-1 C(q, 0) and da0/dq. Throws
/// NotApplicable (dependent_velocity_reason) and SingularState("singular
/// dependent block of dC/dqdot", with q and the singular values) where
/// C_dep (r x r) loses rank.
template <class S>
DependentVelocities<S> dependent_velocities(const System<S>& sys, const Vec<S>& q);

/// The conditioning of the velocity split at q, for the singular-set watch
/// (Formulation::singular_margins): the smallest singular value of the
/// independent rows Q_indep ((n - r) x (n - r)) of an orthonormal basis Q
/// (n x (n - r), from the SVD of dC/dqdot) of the admissible velocities
/// ker dC/dqdot, in [0, 1]: the cosine of the largest principal angle
/// between them and the independent velocities. Where C_dep is regular,
/// P = Q Q_indep^-1, so the margin is 1/sigma_max(P) = 1/sqrt(1 + |a|_2^2)
/// (the skate: |cos theta|), independent of how the constraints are scaled;
/// it bounds the reduced metric's conditioning,
/// cond(Gbar) <= cond(g) / margin^2 (Gbar = P^T g P, sigma_min(P) >= 1).
/// 0 exactly where C_dep is singular, where the dependent velocities are
/// undefined. Named "split_margin", condition "singular dependent block of
/// dC/dqdot" (what voronec() raises there). Valid where dC/dqdot has full
/// rank r (the system's own margin sigma_min_dC_dqdot watches that). 1 when
/// every velocity is dependent (n = r). Throws NotApplicable
/// (dependent_velocity_reason).
template <class S>
Margin<S> split_margin(const System<S>& sys, const Vec<S>& q);

/// The full velocity qdot = P qdot_indep (+ a0): qdot_indep in the
/// independent slots, a qdot_indep + a0 in the dependent ones. qd_indep:
/// size n - r; returns size n.
template <class S>
Vec<S> full_velocity(const DependentVelocities<S>& dv, const Vec<S>& qd_indep);

/// The reduced kinetic energy Tbar(q, qdot_indep) = T(q, P(q) qdot_indep)
/// (002 eq. 9 with T for L) and the derivatives Voronec's equations use, at
/// (q, qdot_indep), by one AD2 evaluation of T (outer variables q,
/// qdot_indep and an offset w of the dependent velocities at w = 0; inner
/// variables qdot_indep).
template <class S>
struct ReducedKineticEnergy {
  Mat<S> G;       ///< d^2 Tbar / dqdot_i dqdot_j, (n - r) x (n - r) (the reduced metric)
  Mat<S> G_q;     ///< d^2 Tbar / dqdot_i dq^k, (n - r) x n
  Vec<S> Tbar_q;  ///< dTbar/dq^k, size n (dependent coordinates included)
  Vec<S> p_dep;   ///< dT/dqdot_{m+l} at qdot = P qdot_indep, size r
};

/// Evaluates ReducedKineticEnergy at q (size n), qdot_indep (size n - r)
/// with dv = dependent_velocities(sys, q).
template <class S>
ReducedKineticEnergy<S> reduced_kinetic_energy(const System<S>& sys,
                                               const DependentVelocities<S>& dv,
                                               const Vec<S>& q, const Vec<S>& qd_indep);

/// Voronec's coefficients b^nu_ij (002 eq. 11) from a and da/dq: b[nu](i, j)
/// for nu = 0..r-1, i, j = 0..n-r-1 (indices into dv.independent); each
/// (n - r) x (n - r), antisymmetric in (i, j).
template <class S>
std::vector<Mat<S>> voronec_coefficients(const DependentVelocities<S>& dv);

/// The affine part of Voronec's coefficients (docs/affine-constraints.md
/// A7): b0(nu, i) = sum_mu da_nu,i/dq_{m+mu} a0_mu - da0_nu/dq_i
/// - sum_mu a_mu,i da0_nu/dq_{m+mu}, r x (n - r) (i indexes
/// dv.independent); zero (r x (n - r)) for homogeneous constraints. With
/// time as a clock coordinate tau (a0_tau = 1) its first sum holds
/// Neimark-Fufaev's da/dt.
template <class S>
Mat<S> voronec_affine_coefficients(const DependentVelocities<S>& dv);

/// Voronec's field at (q, qdot_indep).
template <class S>
struct VoronecField {
  Vec<S> qdot;         ///< P(q) qdot_indep, size n
  Vec<S> qddot_indep;  ///< the independent accelerations from eq. 10, size n - r
  Vec<S> qddot;        ///< all accelerations, size n: dependent ones from
                       ///< d/dt (a qdot_indep) = a qddot_indep + (da/dq^k qdot^k) qdot_indep
};

/// Solves Voronec's equations (002 eq. 10, b from eq. 11; with affine
/// constraints A7, b0 from voronec_affine_coefficients) at q (size n),
/// qdot_indep (size n - r) for the independent accelerations:
///   Gbar qddot_indep = A_indep + a^T A_dep - G_q qdot + dTbar/dq_indep
///                      + a^T dTbar/dq_dep + sum_nu p_nu (b^nu qdot_indep + b0_nu),
/// A the active forces at qdot = P qdot_indep. Throws NotApplicable,
/// SingularState ("singular dependent block of dC/dqdot"; "singular reduced
/// metric Gbar" when d^2 Tbar/dqdot_indep^2 is not positive definite).
template <class S>
VoronecField<S> voronec(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd_indep);

/// The integration state x = (q, qdot_indep) (size 2n - r) of (q, qdot) on
/// C. Throws NotApplicable, SingularState, and InvalidState when qdot's
/// dependent part differs from a qdot_indep by more than
/// 1000 epsilon (1 + max|qdot|) (qdot off C).
template <class S>
Vec<S> reduced_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

/// (q, qdot) from x = (q, qdot_indep): qdot = P(q) qdot_indep.
template <class S>
void from_reduced_state(const System<S>& sys, const Vec<S>& x, Vec<S>& q, Vec<S>& qd);

#define NHS_VORONEC_INSTANTIATE(EXTERN, S)                                                    \
  EXTERN template DependentVelocities<S> dependent_velocities<S>(const System<S>&,            \
                                                                 const Vec<S>&);              \
  EXTERN template Margin<S> split_margin<S>(const System<S>&, const Vec<S>&);                 \
  EXTERN template Vec<S> full_velocity<S>(const DependentVelocities<S>&, const Vec<S>&);      \
  EXTERN template ReducedKineticEnergy<S> reduced_kinetic_energy<S>(                          \
      const System<S>&, const DependentVelocities<S>&, const Vec<S>&, const Vec<S>&);         \
  EXTERN template std::vector<Mat<S>> voronec_coefficients<S>(const DependentVelocities<S>&); \
  EXTERN template Mat<S> voronec_affine_coefficients<S>(const DependentVelocities<S>&);       \
  EXTERN template VoronecField<S> voronec<S>(const System<S>&, const Vec<S>&, const Vec<S>&); \
  EXTERN template Vec<S> reduced_state<S>(const System<S>&, const Vec<S>&, const Vec<S>&);    \
  EXTERN template void from_reduced_state<S>(const System<S>&, const Vec<S>&, Vec<S>&,        \
                                             Vec<S>&);
#define NHS_EXTERN_VORONEC_(S, NAME) NHS_VORONEC_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_VORONEC_)
#undef NHS_EXTERN_VORONEC_

}  // namespace nhs
