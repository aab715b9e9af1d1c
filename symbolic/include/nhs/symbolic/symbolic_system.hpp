// A system's defining functions as GiNaC expressions: T(q, qdot), V(q),
// C^a(q, qdot), the forces, psi(q, z) and, for a system with bodies, the
// Appellian S(q, qdot, qddot). They are read off the system's own
// description run once over the tracing scalar (nhs/codegen/expr.hpp): every
// node of the recorded graph becomes the GiNaC expression of the same
// operation, so that a built-in study and a system file give their
// equations from the one code path the formulations use. GiNaC (Debian
// libginac-dev) is already the system files' symbolic checker
// (docs/system-files.md); docs/equations.md says what is derived from these.
#pragma once

#include "nhs/codegen/trace.hpp"

#include <ginac/ginac.h>

#include <optional>
#include <string>
#include <vector>

namespace nhs::symbolic {

/// The symbols and defining functions of a system, symbolic in its
/// parameters. Shapes: n coordinates, r constraints, m quasi-velocities
/// (m = 0 when the system has no psi).
///
/// Symbol names are those of the system's text format (docs/equations.md):
/// a coordinate `x`, its velocity `x_dot` and acceleration `x_ddot`; a
/// quasi-velocity `v` and its derivative `v_dot`; the multiplier of
/// constraint `C1` is `lambda_C1`; parameters keep their names. Each is a
/// GiNaC realsymbol with a LaTeX name (\dot{x}, \lambda_{C1}, \theta).
struct SymbolicSystem {
  SystemInfo info;
  int n = 0, r = 0, m = 0;
  std::vector<GiNaC::ex> parameters;  ///< info.parameters order
  std::vector<GiNaC::ex> q, qdot, qddot;  ///< size n each
  std::vector<GiNaC::ex> z, zdot;         ///< size m each
  std::vector<GiNaC::ex> lambda;          ///< size r
  GiNaC::ex T;                            ///< kinetic energy T(q, qdot)
  GiNaC::ex V;                            ///< potential V(q)
  std::vector<GiNaC::ex> C;               ///< constraints C^a(q, qdot), size r
  /// The non-conservative force F_i(q, qdot) plus the non-ideal constraint
  /// force C_i (003), size n: the applied force beyond -dV/dq (zeros when
  /// the system has neither).
  std::vector<GiNaC::ex> F;
  std::vector<GiNaC::ex> psi;  ///< qdot = psi(q, z), size n; empty without psi
  /// The Appellian S(q, qdot, qddot) of the bodies (001 eqs. 3.3, 5.3):
  /// sum 1/2 m a^2 over the points, 1/2 M a_G^2 + 1/2 eps.J eps +
  /// eps.(omega x J omega) over the rigid bodies; empty without bodies.
  std::optional<GiNaC::ex> appellian;
};

/// Reads the system that `build` makes, with `info`'s names, into GiNaC.
/// Throws codegen::TracingError when the description branches on the state
/// (as the traced fields do) and UsageError when it uses an operation with
/// no symbolic meaning here (the machine epsilon, max) or when two of the
/// text format's names coincide (a quasi-velocity named like a coordinate's
/// velocity, say), naming both.
SymbolicSystem symbolic_system(const codegen::TracedSystemBuilder& build, const SystemInfo& info);

/// The size of deriving the equations of the system `build` makes, as
/// `nhs equations` estimates it before deriving anything: n^2 x the nodes
/// of the system's traced graph (T, V, C, the forces, psi and the bodies,
/// each shared subexpression once). Cheap: one run of the description
/// over the tracing scalar. The work and memory of the derivation grow
/// about linearly in it (docs/equations.md, "Limits", with the n-trailer's
/// calibration).
double derivation_size(const codegen::TracedSystemBuilder& build, const SystemInfo& info);

/// The default budget of derivation_size: `nhs equations`, `nhs worksheet`
/// and System.equations refuse a larger system unless given a larger one
/// (--max-derivation-size; docs/equations.md, "Limits").
inline constexpr double kDefaultDerivationBudget = 4e5;

/// UsageError (exit 2) when derivation_size(build, info) exceeds `budget`,
/// naming the system, the estimate, the budget and `option`, which raises it.
void require_derivation_budget(const codegen::TracedSystemBuilder& build, const SystemInfo& info, double budget,
                               const std::string& option);

/// LaTeX for a name of the file syntax: a Greek letter's command, the
/// part after the first '_' or trailing digits as a subscript (theta1 ->
/// \theta_{1}, I_z -> I_{z}), other names of several letters upright;
/// further '_' in the subscript separate comma-separated indices (x_1_2 ->
/// x_{1,2}: one subscript, valid TeX), a '_' at either end of the name
/// stays in the base as \_ (_ -> \_, x_ -> \mathrm{x\_}). docs/equations.md,
/// "Names".
std::string tex_of_name(const std::string& name);

/// The symbol's name (symbols of SymbolicSystem are GiNaC realsymbols).
std::string name_of(const GiNaC::ex& symbol);

}  // namespace nhs::symbolic
