// The Jacobian of a formulation's first-order field at a state, by forward
// differentiation of its traced field (nhs/codegen/differentiate.hpp), run
// by the interpreter in S. `nhs accel --jacobian`, `nhs linearize` and the
// Python module's Field.jac and System.accel(jacobian=True) read it.
#pragma once

#include "nhs/errors.hpp"
#include "nhs/regularity.hpp"  // Context
#include "nhs/system.hpp"

#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// The Jacobian of a formulation's first-order field x' = f(x) at a state
/// (001 eqs. 7.5, 8.12): N x N, x = (q, qdot) with f = (qdot, qddot) for
/// the second kind, x = (q, z) with f = (psi(q, z), Z(q, z)) for the first
/// kind and Gibbs-Appell.
template <class S>
struct FieldJacobian {
  std::string formulation;          ///< the traced formulation differentiated
  std::vector<std::string> state;   ///< the names of x (N): q, then qdot names (q_dot) or z
  Mat<S> J;                         ///< J(i, j) = d f_i / d x_j
  Vec<S> f;                         ///< the field f(x), N
  /// N * N, row-major: 0 where J(i, j) is identically 0 (the constant 0 of
  /// the differentiated graph), else 1; ignorable_coordinates reads it.
  std::vector<char> depends;
  /// The eigenvalues of J (N), as (real part, imaginary part), from the
  /// real Schur form (Eigen's RealSchur: Francis QR, in S), sorted by real
  /// part, then imaginary part, decreasing; a complex pair is written
  /// (re, +im) then (re, -im). At a steady motion these are the exponents
  /// of its linear stability.
  std::vector<std::pair<S, S>> eigenvalues;
};

/// The Jacobian of `formulation`'s field of `study` (a built-in study's id
/// or a system file's path) with parameters sys.parameters at (q, qdot) on
/// C (z = the chart's z(q, qdot) for the first kind), computed in S by the
/// interpreter from the traced field differentiated forward
/// (nhs/codegen/differentiate.hpp): the same derivatives in every
/// precision. Throws UsageError for a formulation that is not traceable
/// (second-kind, first-kind, gibbs-appell are) or a first kind without a
/// chart, NotApplicable as trace_formulation does, SingularState when a
/// guard of the field fails (e.g. "singular metric g"), NonFiniteValue for
/// an entry that is not finite (|a| or max(a, b) differentiated where a = 0
/// or a = b); each message starts with `name`, the input that asked for
/// the Jacobian (the tool's --jacobian).
template <class S>
FieldJacobian<S> field_jacobian_at(const std::string& study, const std::string& formulation, const System<S>& sys,
                                   const Vec<S>& q, const Vec<S>& qdot, const std::string& name);

/// field_jacobian_at at the formulation's own state x: (q, qdot), size 2n,
/// for the second kind; (q, z), size n + m, for the first kind and
/// Gibbs-Appell. `context` describes the state in error messages. Throws
/// as field_jacobian_at, and UsageError when x has the wrong size.
template <class S>
FieldJacobian<S> field_jacobian_at_state(const std::string& study, const std::string& formulation,
                                         const System<S>& sys, const Vec<S>& x, const Context& context,
                                         const std::string& name);

}  // namespace nhs
