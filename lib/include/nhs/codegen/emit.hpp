// C++ source from a traced Graph (expr.hpp): one straight-line function in
// double per traced formulation, with the graph's guards as early returns.
#pragma once

#include "nhs/codegen/expr.hpp"

#include <map>
#include <string>
#include <vector>

namespace nhs::codegen {

/// What to emit: the function's name, its input arrays (Node::array k is
/// the parameter named arrays[k], a `const double*`) and the nodes written
/// to `out[0 .. outputs.size())`.
struct FunctionSpec {
  std::string name;
  std::vector<std::string> arrays;
  std::vector<int> outputs;
};

/// The size of what is emitted: the operations reachable from the outputs
/// and the guards (leaves excluded), by kind ("add", "mul", "sin", ...).
struct EmitStats {
  int operations = 0;
  std::map<std::string, int> by_op;
};

/// The definition
///   int NAME(const double* arrays[0], ..., double* out) noexcept
/// which computes the outputs in double, in the graph's node order, one
/// `const double tK` per operation that an output or a guard needs.
/// Returns 0 after writing every output, or g + 1 as soon as guard g of
/// graph.guards() fails (its node is not > 0, or is NaN); out is then
/// incomplete. Constants are written with 17 significant digits (exact).
/// Throws TracingError for an output or guard id that is not a node, or an
/// input array not named in spec.arrays.
std::string emit_function(const Graph& graph, const FunctionSpec& spec, EmitStats* stats = nullptr);

}  // namespace nhs::codegen
