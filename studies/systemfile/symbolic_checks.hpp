// The symbolic checks of a system file's expressions, by GiNaC (Debian
// libginac-dev; docs/system-files.md says why): an expression's exact form
// (to_ginac, which refuses a constant's division by zero and a function or
// power of a constant outside its real domain), and whether a constraint is
// linear, affine or homogeneous in the velocities. Private to the studies
// library (studies/systemfile/).
#pragma once

#include "nhs/expression.hpp"

#include <ginac/ginac.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace nhs::systemfile {

// Every name of a file is a real quantity: real symbols, so that GiNaC
// simplifies conjugate(x) to x (d|x|/dx = x/|x|, not (x + conjugate(x))/(2|x|)).
struct Symbolic {
  std::map<std::string, GiNaC::realsymbol> symbols;
  /// The GiNaC value of each [let] name read so far: a use of the name is
  /// its value (GiNaC shares it; no text is substituted).
  std::map<std::string, GiNaC::ex> lets;
  const GiNaC::realsymbol& symbol(const std::string& name) {
    auto it = symbols.find(name);
    if (it == symbols.end()) it = symbols.emplace(name, GiNaC::realsymbol(name)).first;
    return it->second;
  }
};

/// The syntax tree `root` as a GiNaC expression, its names as `sym`'s
/// symbols (pi as GiNaC's Pi unless a name of the file is pi). Throws
/// expression::ExpressionError at the node where GiNaC's exact evaluation
/// fails (a division by zero, log(0), a pole), at a literal that is not
/// finite in every precision, and at a function or power of a constant whose
/// value is not a finite real number (sqrt(-1), 0^-1, (-8)^(1/3)).
GiNaC::ex to_ginac(const expression::Ast& root, Symbolic& sym);

// Whether C is homogeneous in `velocities` in the sense of Euler's theorem:
// sum_i qdot^i dC/dqdot^i = k C with k free of the velocities, so that the
// reaction of the constraint C = 0 (Chetaev: lambda dC/dqdot) does no work
// on C (its power is lambda k C). True when velocity_degree finds a degree,
// or when normal() of (sum_i qdot^i dC/dqdot^i) / C has no velocity (or the
// sum is 0); false when neither proves it (GiNaC's simplification may miss
// an identity: then energy is not checked, never wrongly checked).
bool homogeneous_in(const GiNaC::ex& C, const std::vector<GiNaC::ex>& velocities);

// Whether C is linear in `velocities` (symbols): every first derivative
// dC/dqdot^i is free of the velocities (as GiNaC gives it, expanded, or
// brought to normal form). Second derivatives are not enough: sqrt(x_dot^2)
// = |x_dot| has d2/dx_dot2 = -(x_dot^2)^(-1/2) + x_dot^2 (x_dot^2)^(-3/2) =
// 0 wherever it is defined, but its first derivative x_dot/sqrt(x_dot^2) is
// the sign of x_dot: it is not A(q) qdot. A large power is taken as
// non-linear without expanding it (its expansion would not end); so is a
// derivative GiNaC cannot take, or an identity its simplification misses.
bool linear_in(const GiNaC::ex& C, const std::vector<GiNaC::ex>& velocities);

// C at q_dot = 0 when that is not 0 (the term of C free of the velocities:
// b(q) of an affine constraint A(q) q_dot + b(q)); nullopt when it is 0, or
// when GiNaC cannot decide it (a large power, an undefined value: left to
// the numerical checks).
std::optional<GiNaC::ex> velocity_free_term(const GiNaC::ex& C, const std::vector<GiNaC::ex>& velocities);

}  // namespace nhs::systemfile
