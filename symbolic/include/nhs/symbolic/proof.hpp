// Symbolic cross-checks of the formulations' equations (`nhs equations
// --prove`, docs/equations.md, "Proofs"): for each pair, either the
// difference simplifies to 0 in GiNaC (after sin^2 u -> 1 - cos^2 u and
// the normal form, both identities), which proves the equations agree, or
// "not shown symbolically" with the reason. Never a false "identical": a
// zero normal form is an identity of rational functions in the
// coordinates, velocities, parameters and the sines and cosines, so it
// holds for every value of them.
#pragma once

#include "nhs/symbolic/equations.hpp"

#include <string>
#include <vector>

namespace nhs::symbolic {

/// One pair's verdict.
struct ProofResult {
  std::string pair;        ///< e.g. "first-kind = maggi"
  bool identical = false;  ///< true: shown identical after simplification
  std::string detail;      ///< what was shown, or why it was not
  double seconds = 0;      ///< wall time spent on the pair
};

/// The pairs, for s:
///  - first-kind = maggi: Maggi's residuals vanish at zdot = Z(q, z);
///  - maggi = gibbs-appell: their residuals are equal (the same m
///    equations, the identity being the invertible matrix);
///  - second-kind = udwadia-kalaba: Udwadia-Kalaba's qddot, with lambda =
///    (A A^T)^-1 A (g qddot + Gamma - A), satisfies all n + r equations of
///    the second kind, whose solution is unique (g positive definite, A of
///    rank r): the same qddot.
/// A pair whose formulations are not written (not applicable, too large)
/// or whose difference does not simplify to 0 within the size limits is
/// "not shown symbolically". Throws nothing else than what GiNaC throws.
std::vector<ProofResult> prove(const SymbolicSystem& s);

}  // namespace nhs::symbolic
