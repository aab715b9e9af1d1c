// nhs.System's symbolic and structural queries (nhs._core): a
// formulation's equations as expression trees (System.equations builds
// sympy objects from them) and the classification of the constraints
// (System.classify).
#pragma once

#include "system.hpp"

#include <string>

namespace nhs::python {

/// System._equations_tree: one formulation's equations of `nhs equations`
/// as data, never as code: {title, symbols (names), definitions [(name,
/// tree)], equations [(lhs tree, rhs tree)], unknowns (names)}.
/// UsageError beyond the derivation budget (symbolic::require_derivation_budget).
py::dict equations_tree(const SystemHandle& s, const std::string& formulation, double max_derivation_size);

/// System._classify: classify_constraints at the default parameters near
/// the default q, as `nhs list SYSTEM` does, as plain Python data; the
/// mp100 values as exact mpmath.mpf (decimal strings without mpmath).
py::dict classification_dict(const SystemHandle& s);

}  // namespace nhs::python
