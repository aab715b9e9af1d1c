// C++ source from a traced Graph (expr.hpp): one straight-line function
// template over the scalar type per traced formulation, with the graph's
// guards as early returns.
#pragma once

#include "nhs/codegen/expr.hpp"

#include <map>
#include <string>
#include <vector>

namespace nhs::codegen {

/// What to emit: the function's name, its input arrays (Node::array k is
/// the parameter named arrays[k], a `const S*`) and the nodes written to
/// `out[0 .. outputs.size())`.
struct FunctionSpec {
  std::string name;
  std::vector<std::string> arrays;
  std::vector<int> outputs;
  /// When not empty, the name of a function F (which the including code
  /// defines) through which a library function of a constant reads its
  /// arguments: `static const S t7 = sin(F(t6));`. For code that must not
  /// let the compiler fold such a call (correctly rounded) where the C
  /// library would round otherwise (compile.hpp). sqrt and abs, correctly
  /// rounded both ways, are left alone.
  std::string constant_argument_wrapper;
};

/// The size of what is emitted: the operations reachable from the outputs
/// and the guards that depend on the inputs (per call), by kind ("add",
/// "mul", "sin", ...); the operations on constants only are computed once
/// per scalar type and not counted.
struct EmitStats {
  int operations = 0;
  std::map<std::string, int> by_op;
};

/// The definition
///   template <class S> int NAME(const S* arrays[0], ..., S* out) noexcept
/// which computes the outputs in S, in the graph's node order, one
/// `const S tK` per operation that an output or a guard needs; constants
/// and operations on constants only (e.g. 100 epsilon) are `static const S`,
/// computed once per S in S's own precision (a rational num/den as
/// S(num) / S(den)). Functions are called unqualified after `using
/// std::sin;` etc. (so that MPFR types find theirs), max as
/// `generated_max` (which the including file defines: a < b ? b : a).
/// Returns 0 after writing every output, or g + 1 as soon as guard g of
/// graph.guards() fails (its node is not > 0, or is NaN); out is then
/// incomplete. Throws TracingError for an output or guard id that is not a
/// node, or an input array not named in spec.arrays.
std::string emit_function(const Graph& graph, const FunctionSpec& spec, EmitStats* stats = nullptr);

}  // namespace nhs::codegen
