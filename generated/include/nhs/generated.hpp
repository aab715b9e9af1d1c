// Formulations compiled from generated code: for every built-in study, its
// second-kind field and (where it has psi) its first-kind field and (where
// it also has bodies) its Gibbs-Appell field, traced once
// at build time through the library's own template code
// (nhs/codegen/trace.hpp) and written out as straight-line C++ by
// nhs_codegen (generated/nhs_codegen.cpp). The same equations as the library's
// second_kind(), first_kind() and gibbs_appell() (001 Thm 8.1 / eq. 8.12;
// 000 eq. 27; 001 eq. 5.2), the
// same AD derivation of g, Gamma and the Jacobians, with the structural
// zeros, the AD bookkeeping, the dynamic matrices and the heap gone: the
// arithmetic that remains is all there is.
//
// Every function is a template over the scalar type, instantiated for
// every type of NHS_FOR_EACH_SCALAR: its constants are exact rationals
// computed in the type's own precision, its guards use the type's epsilon.
// A generated function reads the parameters at run time, so every
// parameter value works; the N-trailer is generated for
// N = kNTrailerDefault only.
#pragma once

#include "nhs/scalar.hpp"

#include <string_view>
#include <vector>

namespace nhs::generated {

/// int f<S>(p, x, out): p the parameters (in SystemInfo::parameters order), x
/// the state, out the outputs (layouts in nhs/codegen/trace.hpp:
/// second-kind x = (q, qdot), out = (qddot, lambda); first-kind and
/// gibbs-appell x = (q, z), out = (qdot, zdot, qddot)). Returns 0, or g + 1 when guard g
/// failed (a singular state, or a non-finite input: `guards[g]` names the
/// condition, as SingularState::condition; out is then incomplete).
/// No allocation, no exception.
template <class S>
using Function = int (*)(const S* p, const S* x, S* out) noexcept;

/// One generated field in scalar type S, and its sizes.
template <class S>
struct GeneratedField {
  const char* study;        ///< study id, e.g. "skate"
  const char* formulation;  ///< "second-kind", "first-kind" or "gibbs-appell"
  int n, r, m;              ///< coordinates, constraints, quasi-velocities
  int parameters;           ///< size of p
  int inputs;               ///< size of x
  int outputs;              ///< size of out
  Function<S> evaluate;
  const char* const* guards;  ///< guard_count condition names
  int guard_count;
  int operations;           ///< arithmetic operations and calls per evaluation
};

/// Every generated field in S, in the order of the studies (defined in the
/// generated source for every type of NHS_FOR_EACH_SCALAR).
template <class S>
const std::vector<GeneratedField<S>>& generated_fields();

/// The generated field of `formulation` for `study` in S; nullptr if none.
template <class S>
const GeneratedField<S>* find_generated(std::string_view study, std::string_view formulation) {
  for (const auto& f : generated_fields<S>())
    if (study == f.study && formulation == f.formulation) return &f;
  return nullptr;
}

}  // namespace nhs::generated
