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
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace nhs {

/// How the messages of linearize_steady and scan_stability name their
/// inputs: the front end gives every name, session/ has none of its own.
/// The tool passes its options (cli_steady_names in apps/nhs/names.hpp:
/// --steady, --formulation, --at, --vary, --from, --to, --points, and
/// --jacobian for the field's Jacobian), the Python module its own.
struct SteadyNames {
  std::string steady, formulation, at, vary, from, to, points, jacobian;
};

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
  /// The family's parameter values mu given (the tool's --at
  /// name=value), by name.
  std::vector<std::pair<std::string, S>> at;
  SteadyNames names;
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
  /// The gradients of the holonomic constraints handed to linearize() (h x
  /// N, h = 0 without them): what steady_eigenmode rebuilds its level set from.
  Mat<S> holonomic;
  std::size_t coordinates = 0;  ///< n: the coordinates q, the first entries of x
};

/// The family's parameter values mu (size p, in the family's order) from
/// spec.at: every parameter exactly once (UsageError "<names.at>: ..." naming
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
/// the motion's; the other formulations' fields are not traced), a system
/// without psi; InvalidState when qdot is off C (with max |C|) or the
/// state is not steady; SingularState, NonFiniteValue as
/// field_jacobian_at, and NonFiniteValue when a number of the
/// linearization (D, an eigenvalue, its bound) overflows.
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
  /// The user's text of from and to, echoed by stability_json (empty:
  /// from and to written in full precision).
  std::string from_text, to_text;
  std::vector<S> grid;                           ///< points values, grid[0] = from, last = to
  std::vector<SteadyLinearization<S>> motions;   ///< one per grid value
  std::vector<Crossing<S>> crossings;
  /// The grid values where some eigenvalue is undecided (decided_spectrum):
  /// no crossing is bracketed by them (find_crossings).
  std::vector<S> undecided;
};

/// The largest --points of a scan: 10,000 linearizations take about 6
/// minutes for the bicycle in double (hours in mp50); a larger grid is
/// refused before anything is computed (UsageError, exit 2).
inline constexpr std::uint64_t kMaxStabilityPoints = 10000;

/// What a caller sees of a scan while it runs (each may be empty):
/// `motion` gets each grid value's linearization as soon as it is computed
/// (a CSV row written then survives an interruption); `watch` is called
/// before every linearization, the grid's and the refinement's, with the
/// value and the count of linearizations before it, and may throw to stop
/// the scan (Interrupted on SIGINT, WallTimeExceeded) or print progress.
template <class S>
struct ScanObservers {
  std::function<void(const S& value, const SteadyLinearization<S>& motion)> motion;
  std::function<void(const S& value, std::size_t done)> watch;
};

/// The scan of spec's family along `vary` (empty: the family's only
/// parameter), with `observers` told of each step. Throws UsageError
/// (naming names.vary, at, from, to, points) for an unknown or missing
/// parameter, the varied one given in spec.at, a range that is not finite,
/// from >= to, a width (to - from) (points - 1) that overflows S or a step
/// below the resolution of S, points outside 2 .. kMaxStabilityPoints, all
/// before any linearization; InvalidState, naming the grid value, and what
/// linearize_steady throws at a grid point (NonFiniteValue for an
/// overflow); what the observers throw.
template <class S>
StabilityScan<S> scan_stability(const SteadySpec<S>& spec, const std::string& vary, const S& from, const S& to,
                                std::uint64_t points, const ScanObservers<S>& observers = {});

/// An eigenvector of a steady motion's linearization on the full state x =
/// (q, z) (steady_eigenmode): x(t) = x + t f + eps Re(v e^(lambda t))
/// solves the field linearized at x to first order in eps, f the field at x.
template <class S>
struct Eigenmode {
  std::size_t index = 0;  ///< into Linearization::eigenvalues (0-based)
  S re, im;               ///< lambda
  /// v = v_re + i v_im (N each): the entry of q (the first n) largest in
  /// modulus is 1, so that max |v_i| over q is 1.
  Vec<S> v_re, v_im;
  /// max |J v - lambda v| / ((max |J| + |lambda|) max |v|): round-off for
  /// an eigenvector of J.
  S residual;
};

/// The eigenvalue that a mode animation shows by default: the largest real
/// part among those with |Im| above their error bound (the first of a
/// pair, Im > 0), else the largest real part (index 0). Precondition:
/// lin.eigenvalues not empty.
template <class S>
std::size_t default_eigenmode(const Linearization<S>& lin);

/// The eigenvector of s.lin.eigenvalues[k] mapped back from the deflated
/// basis of D to the full state x = (q, z) (N): rebuilding linearize()'s
/// bases (nhs/linearization.hpp) from its output, K (N_r x N_l, Householder
/// QR of the unit holonomic gradients G_r^T: ker G_r) and Q = [Q1 Q2] (N_l x
/// N_l, Q1 spanning the family's tangents on the level set), with B =
/// Q^T K^T J_rr K Q = [0 B12; 0 D], an eigenvector u of D (inverse
/// iteration in the real form of D - lambda I) gives J_rr's on the level
/// set w_r = K (Q1 B12 u / lambda + Q2 u), and the cyclic coordinates'
/// w_k = (lambda I - J_kk)^-1 J_kr w_r (J block lower triangular). Since G w
/// = 0, the dependent coordinates of the holonomic constraints are solved
/// to first order (each f^k(q + eps v) = O(eps^2)). Throws UsageError
/// "eigenvalue K of N (lambda = ...) is zero ..." (K 1-based) for an
/// eigenvalue within max(its bound, zero_tolerance) of 0 (a neutral mode:
/// no period nor e-folding time) and std::out_of_range for k >=
/// s.lin.eigenvalues.size().
template <class S>
Eigenmode<S> steady_eigenmode(const SteadyLinearization<S>& s, std::size_t k);

/// The verdict of a linearization: "unstable" (some eigenvalue decided
/// unstable), "undecided" (none unstable, some undecided: decided_spectrum),
/// "linearly stable, not asymptotically: eigenvalues on the imaginary axis"
/// or "asymptotically stable".
template <class S>
std::string stability_verdict(const Linearization<S>& lin);

}  // namespace nhs
