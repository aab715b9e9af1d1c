// Every formulation's equations of motion as GiNaC expressions, symbolic in
// the parameters, written as each formulation writes them (docs/equations.md
// gives every form with its source):
//   first-kind            zdot^alpha = Z^alpha(q, z), qdot = psi(q, z)
//                         (000 Thm 11.1, eq. 27; 001 Thm 7.1)
//   second-kind           g_ij qddot^j + Gamma_i = A_i + lambda_a dC^a/dqdot^i,
//                         d/dt C^a = 0 determines lambda (001 Thm 8.1, eqs. 3.11, 8.12)
//   maggi                 psi^i_alpha (d/dt dT/dqdot^i - dT/dq^i) = psi^i_alpha A_i
//                         (000 eq. 32, Remark 11.7)
//   gibbs-appell          dS/dzdot^alpha = psi^i_alpha A_i, S the bodies' Appellian
//                         (001 §5, eqs. 3.3, 5.2-5.4; 000 eqs. 65-67)
//   voronec               the reduced T, its Euler-Lagrange operator and
//                         b^nu_ij qdot^j (002 eqs. 8-11)
//   udwadia-kalaba        g qddot = Q + Q_c, Q_c = A^T (A g^-1 A^T)^-1 (b - A g^-1 Q)
//                         (seed 003, "Equazione di Udwadia-Kalaba", ideal part; its C_i in Q)
//   lagrange-multipliers  [g  -A^T; A  0] (qddot, lambda) = (Q, b), the KKT system
//                         (seed 004, "Dinamica di Cetaev")
// with Gamma_i = d^2T/dqdot^i dq^j qdot^j - dT/dq^i (Benenti's
// Gamma_hk,i qdot^h qdot^k when T is quadratic), A_i = -dV/dq^i + F_i the
// active force, A = dC/dqdot and b = -dC/dq qdot.
//
// Every equation is linear in its unknowns (qddot, zdot, lambda): the
// machine check of docs/equations.md solves the printed equations for them
// at a state and compares with the numerical formulation.
#pragma once

#include "nhs/symbolic/symbolic_system.hpp"

#include <optional>
#include <string>
#include <vector>

namespace nhs::symbolic {

/// One equation lhs = rhs.
struct Equation {
  GiNaC::ex lhs, rhs;
};

/// An auxiliary definition `name := value` that the equations use (a
/// symbol such as Voronec's b^nu_ij) or that states a kinematic relation
/// (qdot = psi(q, z), the dependent velocities of Voronec's split).
struct Definition {
  GiNaC::ex symbol;  ///< a realsymbol; for a kinematic relation, the velocity's own symbol
  GiNaC::ex value;
  std::string meaning;  ///< one line, e.g. "Voronec's coefficient b^nu_ij (002 eq. 11)"
};

/// A formulation's equations of motion for one system.
struct FormulationEquations {
  std::string formulation;  ///< the library's name, e.g. "first-kind"
  std::string title;        ///< one line, with the seed source
  std::vector<Definition> definitions;
  std::vector<Equation> equations;
  std::vector<GiNaC::ex> unknowns;  ///< the symbols the equations are linear in
  /// The symbols each side is collected in (the velocities and unknowns),
  /// in the order terms are sorted by.
  std::vector<GiNaC::ex> collect_in;
  /// The KKT system's augmented matrix (lagrange-multipliers only), for the
  /// LaTeX forms: unknowns (qddot, lambda) in this order.
  std::optional<GiNaC::matrix> augmented_matrix;
};

/// The metric g_ij = d^2T/dqdot^i dqdot^j of s (n x n; 001 eq. 3.2).
GiNaC::matrix metric(const SymbolicSystem& s);

/// The constraint Jacobian A = dC^a/dqdot^i of s (r x n; 001 eq. 2.4).
GiNaC::matrix constraint_jacobian(const SymbolicSystem& s);

/// The formulations equations_of writes, in the order of `nhs list`.
const std::vector<std::string>& symbolic_formulations();

/// The equations of `formulation` for `s`, as derived (print.hpp
/// simplifies them as it prints). Throws UsageError for an unknown formulation
/// (listing the known ones) and NotApplicable where the numerical
/// formulation does not apply (no psi; no bodies for gibbs-appell; no
/// declared split of linear constraints for voronec; a semidefinite metric
/// for second-kind and udwadia-kalaba, whose written forms invert g).
FormulationEquations equations_of(const SymbolicSystem& s, const std::string& formulation);

/// e expanded, with sin(u)^2 -> 1 - cos(u)^2 for every u (every power of
/// sin: GiNaC's algebraic substitution), expanded again and put in GiNaC's
/// normal form (one fraction, numerator and denominator cancelled): both
/// steps are identities, so e is identically 0 when the result is 0. When
/// the expanded form has more than `max_nodes` nodes it is returned without
/// the normal form (still exact): GiNaC's gcds take erratic time on large
/// expressions (docs/equations.md, "Limits").
GiNaC::ex normal_form(const GiNaC::ex& e, std::size_t max_nodes);

/// The number of GiNaC nodes of e, counted up to limit + 1.
std::size_t size_of(const GiNaC::ex& e, std::size_t limit = 1000000);

/// X with M X = B (M square, n x n; B n x k), by Gauss-Jordan elimination
/// with each entry put in normal form after every step, pivoting on the
/// smallest non-zero entry of its column. Throws SingularState (condition
/// `what`) when M is singular identically, and NotApplicable naming
/// `formulation`, `system` and the budget when an entry given or made has
/// more than 4000 nodes (docs/equations.md, "Limits").
GiNaC::matrix solve_symbolic(GiNaC::matrix M, GiNaC::matrix B, const std::string& what,
                             const std::string& formulation, const std::string& system);

}  // namespace nhs::symbolic
