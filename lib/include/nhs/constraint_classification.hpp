// What kind of constraints a system has: linear or not in the velocities,
// their degree of homogeneity, whether linear constraints are integrable
// (Frobenius), and which coordinates the dynamics does not depend on
// (cyclic coordinates, Chaplygin's form). The theory, the numerical method
// and its thresholds are in docs/constraint-classification.md.
#pragma once

#include "nhs/scalar.hpp"
#include "nhs/system.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace nhs {

/// What the classification samples and how: `samples` points q near the
/// given q0, q_i = q0_i + radius (1 + |q0_i|) u_i with u_i uniform in
/// [-1, 1] from a generator seeded with `seed` (the result is the same on
/// every run). A point where dC/dqdot loses rank is replaced by another
/// draw (at most 20 per point). The Frobenius test may evaluate the frame of
/// ker A `max_frame_evaluations` times per point (a level-k bracket costs
/// about 3^(k-1)); when they run out, it is reported as not done, with the
/// growth found so far.
struct ClassificationOptions {
  int samples = 3;
  double radius = 0.05;
  std::uint64_t seed = 20261129;
  long max_frame_evaluations = 20000;
};

/// One constraint C^a: linear in qdot or not, and its degree of homogeneity
/// k, C^a(q, s qdot) = s^k C^a(q, qdot) for s > 0, found numerically at
/// random (q, qdot) (not necessarily on C).
struct ConstraintKind {
  std::string name;
  bool linear = false;     ///< C^a(q, u + s v) = C^a(q, u) + s C^a(q, v)
  /// C^a = A^a_i(q) qdot^i + a0^a(q) with a0^a = C^a(q, 0) != 0 at some
  /// sample point: linear in qdot up to a velocity-free term (a moving
  /// support, docs/affine-constraints.md). Then `linear` and `homogeneous`
  /// are false.
  bool affine = false;
  bool homogeneous = false;
  double degree = 0;       ///< k when homogeneous (an integer up to round-off, or not)
};

/// One Lie bracket [X_alpha, X_beta] of the frame of ker A at the first
/// sample point, and what the constraint forms say of it: A [X_alpha, X_beta]
/// (size r) is zero exactly when the bracket stays in ker A (Frobenius).
struct BracketEvidence {
  std::string first, second;  ///< the independent velocities that name X_alpha, X_beta
  Vec<mp100> constraint_forms;  ///< A(q) [X_alpha, X_beta](q), size r
};

/// A combination mu_a C^a of the constraints that is integrable: its form
/// nu = mu^T A (size n) annihilates the involutive closure of ker A, so that
/// nu . dq = 0 is (up to a factor) the differential of a holonomic
/// constraint f(q) = const that the motions keep. Values at the first
/// sample point, scaled so that the entry of mu largest in modulus is 1.
struct IntegrableCombination {
  Vec<mp100> mu;  ///< size r, coefficients of C^1..C^r
  Vec<mp100> nu;  ///< size n, the form mu^T A, coefficients of dq^1..dq^n
};

/// The classification of a system's constraints (classify_constraints).
struct ConstraintClassification {
  std::vector<ConstraintKind> constraints;  ///< size r, in the system's order
  bool all_linear = false;
  /// The Frobenius test, done when every constraint is linear in qdot.
  bool frobenius_done = false;
  std::string frobenius_skipped;  ///< why not, when it was not done
  /// Names of the frame fields X_alpha of ker A: the independent velocities
  /// (size m = n - r); X_alpha has qdot of that coordinate 1, the other
  /// independent ones 0, and the dependent ones solved from A qdot = 0.
  std::vector<std::string> frame;
  /// dim D_1 = n - r, dim D_2, ... of the filtration D_{k+1} = D_k +
  /// [D_1, D_k] up to the involutive closure (Murray, Li, Sastry 1994,
  /// ch. 7 §2: the growth vector), the same at every sample point.
  std::vector<int> growth;
  /// n - growth.back() (the codimension of the involutive closure): how
  /// many independent holonomic constraints the
  /// linear constraints imply (0: completely non-holonomic; r: every
  /// constraint is integrable, "holonomic in disguise").
  int hidden_holonomic = 0;
  std::vector<IntegrableCombination> combinations;  ///< size hidden_holonomic
  std::vector<BracketEvidence> brackets;            ///< every pair alpha < beta
  /// The largest |A [X_alpha, X_beta]| over the pairs, and the largest
  /// distance from D_k of a bracket counted as inside it (round-off of
  /// the method; docs/constraint-classification.md).
  double largest_bracket_form = 0, largest_inside_residual = 0;
  /// Coordinates on which T, C and the generalized forces (-dV/dq + F and
  /// a non-ideal constraint force) do not depend, at these parameters.
  std::vector<std::string> cyclic;
  /// Chaplygin's form: linear constraints that give the declared dependent
  /// velocities (SystemInfo::dependent_velocities) in terms of the others,
  /// with every dependent coordinate cyclic.
  bool chaplygin = false;
  std::vector<Vec<mp100>> sample_points;  ///< the q where it was computed
};

/// Classifies the constraints of `sys` (n coordinates, r constraints) at
/// `options.samples` points near q0 (size n).
///
/// Linearity and the degree of homogeneity are tested on the functions C^a
/// themselves; for linear constraints A(q) qdot = 0 (A = dC/dqdot, r x n,
/// rank r) the Frobenius test computes the filtration of the distribution
/// ker A by Lie brackets of a frame X_alpha of it, D_{k+1} = D_k + [D_1,
/// D_k], until it stops growing: the involutive closure, whose leaves are
/// the sets the constraints let the system reach (Frobenius' theorem; Chow's
/// theorem; Murray, Li, Sastry, "A Mathematical Introduction to Robotic
/// Manipulation", CRC 1994, ch. 7 §2). Its codimension is the number of
/// holonomic constraints hidden in A qdot = 0.
///
/// Computed in mp100: A by automatic differentiation, the brackets by
/// central differences of the frame (nested once per bracket level), with
/// the step chosen so that round-off and truncation balance at the deepest
/// level that r and the budget allow (docs/constraint-classification.md).
///
/// Throws UsageError when q0 has the wrong size or r > n; SingularState
/// ("rank loss of dC/dqdot") when no point near q0 has dC/dqdot of rank r;
/// InvalidState when a rank is undecided (a distance from D_k between the
/// round-off bound and 1e-8 of the frame's scale: a parameter that makes a
/// bracket tiny), naming the level and the value; NonFiniteValue when C, T,
/// a force or the frame is not finite at a sample point, naming the point.
ConstraintClassification classify_constraints(const System<mp100>& sys, const Vec<mp100>& q0,
                                              const ClassificationOptions& options = {});

}  // namespace nhs
