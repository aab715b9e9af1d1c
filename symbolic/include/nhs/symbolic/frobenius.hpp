// The Frobenius test done symbolically, for a teacher who checks it by
// hand (the worksheet, docs/constraint-classification.md): for linear
// constraints A(q) qdot = 0 (A = dC/dqdot, r x n), a frame X_alpha of the
// distribution ker A (m = n - r fields), their Lie brackets
// [X_alpha, X_beta]^i = X_alpha^j d_j X_beta^i - X_beta^j d_j X_alpha^i and
// the constraint forms A [X_alpha, X_beta]: ker A is involutive, so that
// the constraints are integrable (holonomic in disguise), exactly when
// every form is identically 0 (Frobenius' theorem; Murray, Li, Sastry,
// "A Mathematical Introduction to Robotic Manipulation", CRC 1994, ch. 7
// §2). This is the first level of the numerical test of
// nhs/constraint_classification.hpp, which goes on to the growth vector
// and the hidden holonomic combinations; here each form is an exact
// expression, and "identically 0" is a normal form of 0 (an identity).
#pragma once

#include "nhs/symbolic/symbolic_system.hpp"

#include <string>
#include <vector>

namespace nhs::symbolic {

/// One bracket of the frame and its constraint forms.
struct SymbolicBracket {
  std::string first, second;           ///< the independent velocities naming X_alpha, X_beta
  std::vector<GiNaC::ex> bracket;      ///< [X_alpha, X_beta], size n, each in normal form
  std::vector<GiNaC::ex> constraint_forms;  ///< A [X_alpha, X_beta], size r, each in normal form
};

/// The symbolic Frobenius test of a system (symbolic_frobenius).
struct SymbolicFrobenius {
  bool done = false;
  std::string skipped;  ///< why not, when not done
  /// The independent velocities (size m, naming the frame's fields in
  /// q's order) and the dependent ones (size r), solved from A qdot = 0.
  std::vector<std::string> independent, dependent;
  /// X_alpha (m fields, each of size n): 1 at its own independent velocity,
  /// 0 at the other independent ones, the dependent ones solved.
  std::vector<std::vector<GiNaC::ex>> frame;
  std::vector<SymbolicBracket> brackets;  ///< every pair alpha < beta
  bool involutive = false;  ///< every constraint form is identically 0
};

/// The test for `s`. `independent` names the independent velocities (size
/// n - r, coordinates of s); empty: the system's declared dependent
/// velocities (SystemInfo::dependent_velocities) when it has them, else
/// the first set of r coordinates, in q's order, whose block of A is not
/// identically singular. Not done (with the reason) when a constraint is
/// not linear in qdot, when A's block for the chosen dependent velocities
/// is singular identically, or when an expression exceeds the size limits
/// of solve_symbolic. Throws UsageError when `independent` names an
/// unknown coordinate or has the wrong size.
SymbolicFrobenius symbolic_frobenius(const SymbolicSystem& s, const std::vector<std::string>& independent = {});

}  // namespace nhs::symbolic
