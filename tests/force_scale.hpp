// Scales for comparing reactions and multipliers between formulations
// (shared by the tests of the formulations that define them).
#pragma once

#include "scalar_test.hpp"

#include "nhs/derivatives.hpp"
#include "nhs/second_kind.hpp"

namespace nhs {

// Reactions and multipliers are compared against the size of the terms of
// the Lagrange equations g qddot + Gamma = A + R (001 eq. 3.14) that a
// reaction balances, not against their own size: where the reaction
// vanishes (rolling-sphere, docs/errata.md 002 eqs. 7, 16) each formulation
// leaves only the rounding of those terms. The multipliers' scale is that
// force over the size of dC/dqdot (R = lambda dC/dqdot).
template <class S>
struct ForceScale {
  S reaction;
  S multipliers;
};
template <class S>
ForceScale<S> force_scale(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd,
                          const SecondKindField<S>& D) {
  using std::max;
  const Inertia<S> I = inertia(sys, q, qd);
  const Vec<S> gq = I.g * D.qddot;
  const S f = max(max(gq.cwiseAbs().maxCoeff(), I.gamma.cwiseAbs().maxCoeff()),
                  max(active_force(sys, q, qd).cwiseAbs().maxCoeff(),
                      D.reaction.cwiseAbs().maxCoeff()));
  return {f, f / constraint_jacobians(sys, q, qd).C_qdot.cwiseAbs().maxCoeff()};
}

/// max|a - b| / max(max|a|, max|b|, floor, tiny) (0 when both are exactly 0,
/// e.g. the free parallel points: no force, no reaction).
template <class S>
S difference_over(const Vec<S>& a, const Vec<S>& b, const S& floor) {
  using std::max;
  return (a - b).cwiseAbs().maxCoeff() /
         max(max(a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff()),
             max(floor, std::numeric_limits<S>::min()));
}

}  // namespace nhs
