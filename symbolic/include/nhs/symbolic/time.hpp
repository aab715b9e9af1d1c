// The equations of a rheonomic system written in the time t. nhs writes a
// system that depends on t autonomously, with t as the clock coordinate
// tau (SystemInfo::clock_coordinate; docs/affine-constraints.md A5): q
// gains tau, C gains clock = tau_dot - 1, T gains 1/2 tau_dot^2. On C,
// tau = t, tau_dot = 1 and tau_ddot = 0, and the clock's own equation only
// determines the clock's reaction R_tau = -dL/dt (A8). On paper the
// equations read as a teacher writes them: in t, without the clock.
#pragma once

#include "nhs/symbolic/equations.hpp"

namespace nhs::symbolic {

/// f (a formulation's equations for s) written in the time t: tau -> t,
/// tau_dot -> 1, tau_ddot -> 0 in every definition, equation and (KKT)
/// augmented matrix; the unknowns tau_ddot and lambda_clock dropped with
/// the clock's Lagrange equation (the one that holds lambda_clock: it
/// gives lambda_clock = R_tau) and the equations that hold no other
/// unknown (d/dt of the clock's constraint, 0 = 0; Udwadia-Kalaba's
/// tau_ddot = Qc_tau); the definition tau_dot := 1 dropped, and any other
/// definition that only the dropped equations used (Udwadia-Kalaba's
/// Qc_tau). The
/// remaining equations are linear in the remaining unknowns as before, as
/// many as they. t is a new symbol named "t" (the loader keeps the name t
/// free of coordinates and parameters). f unchanged when s has no clock
/// coordinate (info.clock_coordinate < 0). Throws std::logic_error when
/// the clock's constraint tau_dot - 1 is not among s.C (a clock declared
/// without it). Source: docs/affine-constraints.md (A5, A8).
FormulationEquations in_time_t(const SymbolicSystem& s, FormulationEquations f);

}  // namespace nhs::symbolic
