// Benenti's dynamical equations of the second kind: the field D on TQ,
// tangent to C, from the implicit constraints C^a(q, qdot) = 0 with the
// multipliers solved explicitly.
//
//   F^i     = g^ij (A_j - Gamma_hk,j qdot^h qdot^k)         (free acceleration)
//   H^ab    = C^a_i g^ij C^b_j,   H_ab = (H^ab)^-1            (r x r)
//   lambda_a = -H_ab (C^b_j F^j + qdot^j dC^b/dq^j)
//   R_i     = lambda_a C^a_i                                  (001 eq. 3.11)
//   D^i     = qddot^i = F^i + g^ij R_j
//
// (001 Thm 8.1-8.2, eqs. 8.6, 8.12, 8.13 with R read as contravariant;
// 000 eqs. 43-47, and 48-49 as corrected in docs/errata.md: the last term
// uses dC/dq, not dC/dqdot.)
#pragma once

#include "nhs/system.hpp"

namespace nhs {

/// The field D at (q, qdot) with the multipliers and reactive forces.
template <class S>
struct SecondKindField {
  Vec<S> qddot;        ///< D^i, size n
  Vec<S> multipliers;  ///< lambda_a, size r
  /// Lagrangian reactive forces R_i = lambda_a C^a_i, size n; with a
  /// non-ideal constraint (System::nonideal_constraint_force, which then is
  /// part of A) the total constraint force lambda_a C^a_i + C_i.
  Vec<S> reaction;
};

/// Evaluates D at (q, qdot) (both size n). The state need not lie on C (D
/// is defined on TQ). Throws SingularState when [dC^a/dqdot^i] loses rank
/// ("rank loss of dC/dqdot") or g is not positive definite ("singular
/// metric g").
template <class S>
SecondKindField<S> second_kind(const System<S>& sys, const Vec<S>& q, const Vec<S>& qd);

#define NHS_SECOND_KIND_INSTANTIATE(EXTERN, S)                                  \
  EXTERN template SecondKindField<S> second_kind<S>(const System<S>&, const Vec<S>&, \
                                                    const Vec<S>&);
#define NHS_EXTERN_SECOND_KIND_(S, NAME) NHS_SECOND_KIND_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_SECOND_KIND_)
#undef NHS_EXTERN_SECOND_KIND_

}  // namespace nhs
