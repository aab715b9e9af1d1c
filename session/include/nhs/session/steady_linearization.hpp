// The linear stability of the steady motions of a study's family
// (Study::steady_families): one motion linearized (linearize_steady) and a
// scan along one family parameter with its crossings (scan_stability),
// from the Jacobian of the traced field (field_jacobian.hpp) split as
// nhs/linearization.hpp does. Typed: `nhs linearize`, `nhs stability` and
// the Python module's System.linearize and System.stability call these;
// their JSON and CSV are linearization_report.hpp's. Theory:
// docs/linearization.md.
#pragma once

#include "nhs/linearization.hpp"
#include "nhs/studies/study.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// The request for the steady motions of a family, typed.
template <class S>
struct SteadySpec {
  /// A built-in study's id, a system file's path or a bundled system's name.
  std::string system;
  /// The family's name (Study::steady_families; `nhs list SYSTEM`).
  std::string steady;
  /// first-kind or gibbs-appell: the state (q, z) on C.
  std::string formulation = "first-kind";
  /// The system's parameter overrides (parameter_overrides), in order.
  std::vector<std::pair<std::string, S>> parameters;
  /// The family's parameter values mu given (`--at name=value`), by name.
  std::vector<std::pair<std::string, S>> at;
};

/// A steady motion of a study's family linearized (linearize_steady): the
/// state x = (q, z) with its names, and the Linearization
/// (nhs/linearization.hpp).
template <class S>
struct SteadyLinearization {
  std::string system, formulation, family, source;
  std::vector<std::string> family_parameters;         ///< mu names (p)
  Vec<S> mu;                                          ///< p
  std::vector<std::pair<std::string, S>> parameters;  ///< the system's
  std::vector<std::string> state;                     ///< names of x (N)
  Vec<S> x;                                           ///< N
  Linearization<S> lin;
};

/// The family's parameter values mu (size p, in the family's order) from
/// spec.at: every parameter exactly once (UsageError "--at: ..." naming
/// the missing, unknown or repeated one, or an unknown family, listing the
/// known); `optional` may stay unset and is returned as 0.
template <class S>
Vec<S> family_values(const SteadySpec<S>& spec, const std::string& optional = "");

/// Linearizes spec.formulation's field (first-kind or gibbs-appell: the
/// state (q, z) on C) at the steady motion of the family at mu (size p,
/// in the family's order): the state from the family's formulas (q
/// admitted onto the holonomic constraints; qdot given: z = chart(q, qdot),
/// dz/dmu from psi_z dz = dqdot - psi_q dq), the Jacobian by forward
/// differentiation of the traced field (field_jacobian_at_state), then
/// linearize() (docs/linearization.md; Meijaard et al. 2007 for the
/// bicycle's benchmark). Throws UsageError for an unknown family (listing
/// the known), a formulation other than first-kind and gibbs-appell
/// (second-kind's state has directions off C, whose eigenvalues are not
/// the motion's), a system without psi; InvalidState when qdot is off C
/// (with max |C|) or the state is not steady; SingularState,
/// NonFiniteValue as field_jacobian_at.
template <class S>
SteadyLinearization<S> linearize_steady(const SteadySpec<S>& spec, const Vec<S>& mu);

/// The steady motions of a family on an even grid of `points` values of
/// its parameter `vary` in [from, to], the others at spec.at, with the
/// crossings of the stability boundary (find_crossings, refined to the
/// digits of S).
template <class S>
struct StabilityScan {
  std::string system, formulation, family, vary;
  S from, to;
  std::vector<S> grid;                           ///< points values, grid[0] = from, last = to
  std::vector<SteadyLinearization<S>> motions;   ///< one per grid value
  std::vector<Crossing<S>> crossings;
};

/// The scan of spec's family along `vary` (empty: the family's only
/// parameter). Throws UsageError ("--vary", "--at", "--from", "--points")
/// for an unknown or missing parameter, the varied one given in spec.at,
/// from >= to, points outside 2 .. 1000000; InvalidState, naming the grid
/// value, and what linearize_steady throws at a grid point.
template <class S>
StabilityScan<S> scan_stability(const SteadySpec<S>& spec, const std::string& vary, const S& from, const S& to,
                                std::uint64_t points);

/// The verdict of a linearization: "unstable", "linearly stable, not
/// asymptotically: eigenvalues on the imaginary axis" or "asymptotically
/// stable".
template <class S>
std::string stability_verdict(const Linearization<S>& lin);

}  // namespace nhs
