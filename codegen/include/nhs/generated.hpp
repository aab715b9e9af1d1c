// Formulations compiled from generated code: for every built-in study, its
// second-kind field and (where it has psi) its first-kind field, traced once
// at build time through the library's own template code
// (nhs/codegen/trace.hpp) and written out as straight-line C++ in double by
// nhs_codegen (codegen/nhs_codegen.cpp). The same equations as the library's
// second_kind() and first_kind() (001 Thm 8.1 / eq. 8.12; 000 eq. 27), the
// same AD derivation of g, Gamma and the Jacobians, with the structural
// zeros, the AD bookkeeping, the dynamic matrices and the heap gone: the
// arithmetic that remains is all there is.
//
// Double only. A generated function reads the parameters at run time, so
// every parameter value works; the N-trailer is generated for
// N = kNTrailerDefault only.
#pragma once

#include <string_view>
#include <vector>

namespace nhs::generated {

/// int f(p, x, out): p the parameters (in SystemInfo::parameters order), x
/// the state, out the outputs (layouts in nhs/codegen/trace.hpp:
/// second-kind x = (q, qdot), out = (qddot, lambda); first-kind
/// x = (q, z), out = (qdot, zdot, qddot)). Returns 0, or g + 1 when guard g
/// failed (a singular state, or a non-finite input: `guards[g]` names the
/// condition, as SingularState::condition; out is then incomplete).
/// No allocation, no exception.
using Function = int (*)(const double* p, const double* x, double* out) noexcept;

/// One generated field and its sizes.
struct GeneratedField {
  const char* study;        ///< study id, e.g. "skate"
  const char* formulation;  ///< "second-kind" or "first-kind"
  int n, r, m;              ///< coordinates, constraints, quasi-velocities
  int parameters;           ///< size of p
  int inputs;               ///< size of x
  int outputs;              ///< size of out
  Function evaluate;
  const char* const* guards;  ///< guard_count condition names
  int guard_count;
  int operations;           ///< arithmetic operations and calls in evaluate
};

/// Every generated field, in the order of the studies.
const std::vector<GeneratedField>& generated_fields();

/// The generated field of `formulation` for `study`; nullptr if none.
const GeneratedField* find_generated(std::string_view study, std::string_view formulation);

}  // namespace nhs::generated
