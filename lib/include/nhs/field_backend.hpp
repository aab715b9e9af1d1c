// How a formulation's vector field is evaluated: the one name for it in the
// CLI (--library, --generated, --compiled), the Python module (field="...")
// and sweeps (keys library, compiled, field).
#pragma once

#include "nhs/errors.hpp"

#include <array>
#include <string>
#include <string_view>

namespace nhs {

/// The evaluator of a formulation's field. Every backend evaluates the same
/// equations in the same scalar type at the same state, and falls back on
/// the library's formulation where its guards fail (a singular or
/// non-finite state), so that the errors are the library's.
/// - library: the formulation's own C++ code (nhs/formulation.hpp), over
///   the system's derivatives by automatic differentiation.
/// - generated: code generated at build time for a built-in study and one
///   of the formulations second-kind, first-kind, gibbs-appell
///   (nhs/generated.hpp); every precision.
/// - traced: a system file's field traced into an expression graph and run
///   by its interpreter (nhs/codegen/interpret.hpp); every precision.
/// - compiled: that trace compiled at run time by the system's C++ compiler
///   (nhs/codegen/compile.hpp); double and long double.
enum class FieldBackend { library, generated, traced, compiled };

/// Every backend, in the order above.
inline constexpr std::array<FieldBackend, 4> kFieldBackends = {FieldBackend::library, FieldBackend::generated,
                                                               FieldBackend::traced, FieldBackend::compiled};

/// "library", "generated", "traced" or "compiled".
constexpr const char* field_backend_name(FieldBackend b) {
  switch (b) {
    case FieldBackend::library: return "library";
    case FieldBackend::generated: return "generated";
    case FieldBackend::traced: return "traced";
    case FieldBackend::compiled: return "compiled";
  }
  return "library";
}

/// The backend named `name` (field_backend_name); UsageError naming
/// `what` (e.g. "field"), the value and the known names otherwise.
inline FieldBackend parse_field_backend(std::string_view name, const std::string& what) {
  for (FieldBackend b : kFieldBackends)
    if (name == field_backend_name(b)) return b;
  throw UsageError(what + ": unknown field backend '" + std::string(name) +
                   "' (known: library, generated, traced, compiled)");
}

}  // namespace nhs
