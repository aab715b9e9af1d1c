// Forward-mode automatic differentiation of a traced Graph (expr.hpp): the
// derivatives of a graph's outputs with respect to one of its input arrays
// are appended to the graph as nodes of the same operation set, so that
// the interpreter (interpret.hpp) and the emitter (emit.hpp) evaluate a
// Jacobian in every scalar type, multiprecision included, as they evaluate
// the field. (Nesting Eigen's AutoDiffScalar a third time around the
// formulations, which already differentiate T and C twice, does not
// compile with the multiprecision types: autodiff.hpp.)
//
// Each operation's derivative is the textbook rule, d(a b) = a db + b da,
// d sin a = cos a da, ...; |a| and max(a, b) have the derivatives a/|a| da
// and (da + db + s (da - db))/2 with s = (a - b)/|a - b|, which are not
// defined (NaN) where a = 0 or a = b. The node order stays a topological
// order, and Graph::apply's simplifications (0 x = 0, 1 x = x, ...) keep
// identically zero derivatives from costing nodes.
#pragma once

#include "nhs/codegen/expr.hpp"
#include "nhs/codegen/trace.hpp"

#include <vector>

namespace nhs::codegen {

/// Appends to `graph` the derivatives of the nodes `outputs` (size k) with
/// respect to the elements 0 .. count - 1 of input array `array`, and
/// returns their node ids row-major: entry i * count + j is d outputs[i] /
/// d input(array, j) (the node of the constant 0 where it is identically
/// 0). Only the nodes the outputs depend on are differentiated, so that a
/// call costs the size of that cone, not of the whole graph (which may hold
/// the derivatives of earlier calls). Throws TracingError for an output that
/// is not a node of `graph`.
std::vector<int> jacobian_nodes(Graph& graph, const std::vector<int>& outputs, int array, int count);

/// Appends to `graph` the derivatives of the nodes `outputs` (size k) with
/// respect to the nodes `seeds` (size s), each seed taken as an independent
/// variable: the seeds' own operands are not differentiated through. Entry
/// i * s + j of the result is d outputs[i] / d seeds[j] (the constant 0
/// where identically 0). This is the partial derivative of a function of
/// the seeds when the outputs depend on the graph's inputs only through the
/// seeds (a support function h(u) compiled with u bound to the nodes of
/// u = -R^T up, say: docs/bodies.md); the caller guarantees it. The seeds
/// must be distinct nodes that are not leaves (append a fresh node for
/// each); TracingError otherwise, and for an output or seed that is not a
/// node of `graph`.
std::vector<int> gradient_nodes(Graph& graph, const std::vector<int>& outputs, const std::vector<int>& seeds);

/// The Jacobian of a traced formulation's first-order field x' = f(x) with
/// respect to its state x (array 1, size N = traced.inputs): x = (q, qdot)
/// with f = (qdot, qddot) for the second kind; x = (q, z) with f = (qdot,
/// zdot) = (psi(q, z), Z(q, z)) for the first kind and Gibbs-Appell (001
/// Thm 7.1). Returns `traced` with the derivative nodes appended and
/// `outputs` replaced by the N x N entries, row-major; the graph's guards
/// (a singular metric, ...) are kept. Sources: 001 eqs. 7.5 and 8.12 for
/// the fields.
TracedFormulation field_jacobian(TracedFormulation traced);

}  // namespace nhs::codegen
