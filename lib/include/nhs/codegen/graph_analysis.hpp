// What emit.hpp and interpret.hpp both need to know of a traced Graph
// (expr.hpp) before they evaluate it: which nodes the outputs and guards
// need, and which do not depend on the inputs.
#pragma once

#include "nhs/codegen/expr.hpp"

#include <vector>

namespace nhs::codegen {

/// Per node (index = node id): `needed`, reachable from an output or a
/// guard (operands precede nodes); `fixed`, computable without the inputs
/// (constants and operations on them only: the emitted code's `static
/// const S`).
struct GraphAnalysis {
  std::vector<char> needed, fixed;
};

/// The analysis of `graph` for these outputs. Throws TracingError naming
/// `who` when an output or a guard is not a node.
GraphAnalysis analyse(const Graph& graph, const std::vector<int>& outputs, const char* who);

}  // namespace nhs::codegen
