// The cross-check of formulations at one state: every applicable
// formulation's qddot at (q, qdot), and how far they disagree (relative,
// max-norm: relative_difference in nhs/norms.hpp). The check that `nhs
// verify` and the tests run at random regular states, and that a user runs
// on a system of their own (examples/external).
//
// Here in the library because it needs only a System and the formulations.
// What needs a Study (its random regular states, invariants, special
// motions: the nhs_studies library, which links nhs, never the reverse) is
// in nhs/studies/verification.hpp. The bound a disagreement is held to is
// precision_policy<S>().cross (nhs/precision_policy.hpp).
#pragma once

#include "nhs/formulation.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace nhs {

/// What one formulation gave at the state of a cross-check.
template <class S>
struct FormulationResult {
  const Formulation<S>* formulation = nullptr;
  std::string name;               ///< formulation->name()
  bool negative_control = false;  ///< formulation->is_negative_control()
  /// Non-empty: not evaluated, and why ("negative control",
  /// "not applicable: <reason>").
  std::string skipped;
  /// Non-empty: acceleration() threw; its message (what()).
  std::string error;
  bool singular = false;  ///< the error was a SingularState
  /// qddot, the multipliers and the reaction, when evaluated without error.
  std::optional<Acceleration<S>> acceleration;
  /// The largest relative_difference of this qddot against every other
  /// valid one (evaluated, not a negative control); empty when there is no
  /// other. For a negative control too (then it is never held to a bound).
  std::optional<S> disagreement;
  /// The valid formulation where `disagreement` is largest (the first in
  /// order among equals); empty when none.
  std::string worst_with;
  /// relative_difference against the reference (CrossCheck::reference);
  /// empty for the reference itself and where either is missing.
  std::optional<S> versus_reference;
  /// Filled by compare_reactions: the largest difference of the reactions
  /// R_i, and of the multipliers as forces C_qdot^T lambda, against every
  /// other valid formulation that defines them, relative to the size of the
  /// Lagrange equation's terms; empty when none is defined by two.
  std::optional<S> reaction_disagreement;

  /// Evaluated without error.
  bool evaluated() const { return acceleration.has_value(); }
  /// Evaluated and not a negative control: takes part in the agreement.
  bool valid() const { return evaluated() && !negative_control; }
};

/// The cross-check of formulations at one state (cross_check_state).
template <class S>
struct CrossCheck {
  /// One per formulation given, in their order (skipped ones included).
  std::vector<FormulationResult<S>> results;
  /// Index in results of the reference: the first valid result; empty when
  /// none is valid.
  std::optional<std::size_t> reference;
  /// The largest relative disagreement over every pair of valid results
  /// (0 with fewer than two), and that pair (names; empty with fewer than
  /// two).
  S worst = S(0);
  std::string worst_first, worst_second;

  /// The number of valid results (those compared).
  std::size_t compared() const;
  /// Some formulation threw SingularState.
  bool singular() const;
  /// The result of the formulation `name`; nullptr when it is not there.
  const FormulationResult<S>* find(const std::string& name) const;
};

/// What cross_check_state evaluates.
struct CrossCheckOptions {
  /// Evaluate the negative controls (naive-reduced) too: their qddot and
  /// disagreement against the valid ones are reported; they never serve
  /// as a reference nor as the other side of anyone's disagreement.
  bool include_negative_controls = false;
};

/// Evaluates every formulation of `formulations` at (q, qdot) of sys (q,
/// qdot size n, on C: the formulations' own preconditions) that is
/// applicable (Formulation::not_applicable_reason(sys) empty) and, unless
/// options.include_negative_controls, not a negative control; the others
/// are recorded as skipped with the reason. An exception of a formulation
/// is recorded in its result (error, singular), never thrown. Then, over
/// the valid results: each one's disagreement with the others (and with
/// whom), against the reference (the first valid), and the worst pair.
/// Throws only UsageError when q or qdot is not of size n. Source: the
/// cross-validation of `nhs verify` (docs/cli.md) and the tests'
/// cross_check.hpp.
template <class S>
CrossCheck<S> cross_check_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qdot,
                                const std::vector<const Formulation<S>*>& formulations,
                                const CrossCheckOptions& options = {});

/// cross_check_state over every registered formulation (formulations<S>(),
/// nhs/formulation.hpp), in the registry's order.
template <class S>
CrossCheck<S> cross_check_state(const System<S>& sys, const Vec<S>& q, const Vec<S>& qdot,
                                const CrossCheckOptions& options = {});

/// Fills FormulationResult::reaction_disagreement of every evaluated result
/// of `check` (made by cross_check_state at the same sys, q, qdot): for each
/// pair (i, j), j valid and j != i, where both define reactions R (size n),
/// max_k |R_i,k - R_j,k| / scale, and where both define multipliers lambda
/// (size r), the same of C_qdot^T (lambda_i - lambda_j); scale = max(max |A|,
/// max |Gamma|, max |g qddot_i|, the smallest normal number of S), the size
/// of the terms of the Lagrange equation (R may vanish: the rolling sphere).
/// Throws what inertia, constraint_jacobians and active_force throw at the
/// state (nhs/derivatives.hpp: SingularState, NonFiniteValue) when some
/// result defines a reaction or multipliers.
template <class S>
void compare_reactions(const System<S>& sys, const Vec<S>& q, const Vec<S>& qdot, CrossCheck<S>& check);

#define NHS_VERIFICATION_INSTANTIATE(EXTERN, S)                                                    \
  EXTERN template struct CrossCheck<S>;                                                            \
  EXTERN template CrossCheck<S> cross_check_state<S>(const System<S>&, const Vec<S>&,              \
                                                     const Vec<S>&,                                \
                                                     const std::vector<const Formulation<S>*>&,    \
                                                     const CrossCheckOptions&);                    \
  EXTERN template CrossCheck<S> cross_check_state<S>(const System<S>&, const Vec<S>&,              \
                                                     const Vec<S>&, const CrossCheckOptions&);     \
  EXTERN template void compare_reactions<S>(const System<S>&, const Vec<S>&, const Vec<S>&,        \
                                            CrossCheck<S>&);
#define NHS_EXTERN_VERIFICATION_(S, NAME) NHS_VERIFICATION_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_VERIFICATION_)
#undef NHS_EXTERN_VERIFICATION_

}  // namespace nhs
