// The work-energy balance of a motion. Along a motion of any system,
// holonomic or not, d(T + V)/dt = (F + R) . qdot: the power of the
// non-conservative forces F and of the reactive forces R (001 eqs. 3.11,
// 3.16; the system written autonomously, a rheonomic one with its clock
// coordinate, docs/affine-constraints.md A5). So
//
//   E(t) - E(0) = W(t),   W(t) = integral from 0 to t of (F + R) . qdot ds,
//
// (A8 of docs/affine-constraints.md), where E = T + V. Ideal constraints
// linear and homogeneous in qdot do no work on C (R . qdot = lambda_a
// A^a . qdot = lambda_a C^a = 0); affine ones do (-lambda_a a0^a: a moving
// support), and so does the clock's (-dL/dt), a constraint not linear in
// qdot, a non-ideal constraint force, and F. integrate carries W along a
// run when given this power (IntegrationOptions::power), and the checks
// bound |E - E0 - W| (MotionCheck::balance_drift).
#pragma once

#include "nhs/derivatives.hpp"
#include "nhs/lagrange_multipliers.hpp"

#include <functional>
#include <optional>

namespace nhs {

/// The multipliers lambda_a (size r) of a system at (q, qdot) (size n
/// each), from a source cheaper than the KKT system: the second kind's
/// generated or traced field (reaction_multipliers,
/// nhs/session/problem.hpp). Empty result: none here (the KKT system's is
/// taken).
template <class S>
using MultipliersAt = std::function<std::optional<Vec<S>>(const System<S>&, const Vec<S>&, const Vec<S>&)>;

/// The power P = (F + R) . qdot of the non-conservative forces F_i
/// (System::nonconservative_force) and the reactive forces R_i at (q, qdot)
/// (both size n; on C, or near it along a run). R_i = lambda_a
/// dC^a/dqdot^i + C_i (C_i the non-ideal constraint force, when the system
/// has one). Where the constraints are linear and homogeneous
/// (SystemInfo::linear_constraints, or none), the ideal part's power
/// lambda_a C^a vanishes on C and P = (F + C) . qdot, no solve. Otherwise
/// lambda_a is computed at the state, whatever formulation integrates the
/// motion: by `multipliers` when given and it gives them (the second kind's
/// fast field: about one field evaluation), then lambda_a dC^a/dqdot^i
/// qdot^i is lambda_a (C^a(q, qdot) - C^a(q, 0)) for linear (affine)
/// constraints and an AD Jacobian of C for others; else R is the KKT
/// system's (lagrange_multipliers, AD Hessians of T: 20 to 30 times a
/// file's traced field). Throws what the multipliers' source throws
/// (SingularState where it is singular) and what the system's functions
/// throw. Units: those of E per unit time. Source: 001 eqs. 3.11, 3.16;
/// docs/affine-constraints.md (A8).
template <class S>
S power_of_forces_and_reactions(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd,
                                const MultipliersAt<S>& multipliers = {}) {
  S P(0);
  if (sys.nonconservative_force) {
    Vec<S> F = Vec<S>::Zero(sys.n);
    sys.nonconservative_force(q, qd, F);
    P += F.dot(qd);
  }
  if (sys.r > 0 && !sys.info.linear_constraints) {  // ideal and non-ideal parts
    const std::optional<Vec<S>> lambda = multipliers ? multipliers(sys, q, qd) : std::nullopt;
    if (!lambda) return P + lagrange_multipliers(sys, q, qd).reaction.dot(qd);
    if (sys.info.affine_constraints)  // C = A qdot + a0: A qdot = C(q, qdot) - C(q, 0)
      P += lambda->dot(constraint_residuals(sys, q, qd) - constraint_residuals(sys, q, Vec<S>(Vec<S>::Zero(sys.n))));
    else
      P += lambda->dot(constraint_jacobians(sys, q, qd).C_qdot * qd);
    if (sys.nonideal_constraint_force) P += nonideal_constraint_force(sys, q, qd).dot(qd);
  } else if (sys.nonideal_constraint_force)
    P += nonideal_constraint_force(sys, q, qd).dot(qd);
  return P;
}

}  // namespace nhs
