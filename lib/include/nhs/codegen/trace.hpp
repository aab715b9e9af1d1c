// A formulation of a system traced into a Graph (expr.hpp), ready for
// emit.hpp: the formulation's own template code (first_kind.ipp,
// second_kind.ipp) run once over Expr, with the system's parameters and the
// state as the inputs of the generated function.
#pragma once

#include "nhs/codegen/expr.hpp"
#include "nhs/system.hpp"

#include <functional>
#include <string>
#include <vector>

namespace nhs::codegen {

/// A system over Expr from its parameters (Expr inputs), e.g.
/// `[](const std::vector<Expr>& p) { return describe<Expr, D>(p); }`.
using TracedSystemBuilder = std::function<System<Expr>(const std::vector<Expr>&)>;

/// The formulations that can be traced, and the layout of their generated
/// functions `int f<S>(const S* p, const S* x, S* out)`, with
/// p the parameters (info.parameters order):
///   "second-kind": x = (q, qdot), 2n; out = (qddot, lambda_a), n + r
///                  (001 Thm 8.1 / eq. 8.12, second_kind.hpp);
///   "first-kind":  x = (q, z), n + m; out = (qdot = psi, zdot, qddot),
///                  n + m + n (000 eq. 27, first_kind.hpp);
///   "gibbs-appell": the same layout (001 eq. 5.2, gibbs_appell.hpp), for
///                  systems with bodies.
/// Not traceable: Maggi and Lagrange multipliers (full-pivoting LU),
/// Udwadia-Kalaba (SVD pseudoinverse), Voronec (its own state coordinates).
inline const std::vector<std::string>& traceable_formulations() {
  static const std::vector<std::string> names = {"second-kind", "first-kind", "gibbs-appell"};
  return names;
}

/// A traced formulation: the graph, its output nodes and the sizes.
struct TracedFormulation {
  std::string system;       ///< SystemInfo::name
  std::string formulation;  ///< one of traceable_formulations()
  int n = 0, r = 0, m = 0;
  int parameters = 0;       ///< size of p
  int inputs = 0;           ///< size of x
  Graph graph;
  std::vector<int> outputs; ///< node ids, in the order of `out`
};

/// Traces `formulation` of the system that `build` makes from
/// `parameters` Expr inputs (array 0) and the state inputs (array 1).
/// Throws UsageError for a formulation not in traceable_formulations(),
/// NotApplicable for "first-kind" or "gibbs-appell" on a system without psi
/// (or without bodies) and for "second-kind" on a system with
/// SystemInfo::semidefinite_metric, and TracingError
/// when the system's description or the formulation branches on the state
/// (expr.hpp).
TracedFormulation trace_formulation(const TracedSystemBuilder& build, int parameters,
                                    const std::string& formulation);

}  // namespace nhs::codegen
