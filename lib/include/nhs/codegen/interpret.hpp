// A Graph (expr.hpp) evaluated at run time, in any scalar type, by the
// operations of operations.hpp: a traced field's graph -- the straight-line
// program that emit.hpp writes as C++, run by an interpreter instead of the
// compiler -- or an expression program's (nhs/expression.hpp, whose Decimal
// and Pi leaves it converts once, as the program's own evaluation does).
// For systems known only at run time (system files,
// nhs/studies/system_file.hpp): their fields are traced when they are first
// used and then cost, per evaluation, the arithmetic of the generated code
// plus, per operation, the reading of its register numbers
// (reports/README.md gives the ratio). The operations are scheduled in runs
// of one kind (one dispatch per run), and a product used once by a sum or
// difference is fused into it.
//
// The same semantics as the emitted function: only the nodes that an output
// or a guard needs are evaluated; the nodes that do not depend on the
// inputs (constants, 100 epsilon, ...) are computed once, in S, when the
// Interpreter is built; a rational constant num/den is S(num) / S(den); the
// guards are checked in node order and the first that fails returns its
// index + 1, with the outputs incomplete.
#pragma once

#include "nhs/codegen/expr.hpp"
#include "nhs/scalar.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace nhs::codegen {

struct GraphAnalysis;  // graph_analysis.hpp

/// A Graph compiled for evaluation in S. Shapes: `arrays` input arrays
/// (Node::array 0 .. arrays - 1, e.g. p and x), `outputs` the nodes written
/// to out. Thread-safe: run() evaluates in a set of registers that no
/// other run uses at the same time (taken from the interpreter's pool, one
/// set per concurrent caller, made on first need).
template <class S>
class Interpreter {
 public:
  /// Throws TracingError for an output or guard that is not a node, or an
  /// input array >= arrays.
  Interpreter(const Graph& graph, const std::vector<int>& outputs, int arrays);

  /// Evaluates the outputs at the inputs (inputs[k] is array k, with as
  /// many elements as the graph reads from it) into out. Returns 0, or
  /// g + 1 when guard g of the graph failed (its node not > 0, or NaN).
  int run(const S* const* inputs, S* out) const noexcept;

  /// Operations per run (the nodes that depend on the inputs).
  int operations() const { return operations_; }

 private:
  /// One scheduled operation: d = op(a, b), or a fused form of the
  /// graph's nodes (kind > Op::Atanh): a product whose only use is a sum or
  /// difference is evaluated inside it (d = a*b + c, a*b - c, c - a*b,
  /// a*b + c*e, a*b - c*e), rounded as the unfused nodes are (the product
  /// is rounded to S before the sum; interpret.cpp is compiled without
  /// contraction into fused multiply-adds); in the hardware types, sin a
  /// and cos a by one sincos call (d and register b).
  struct Instruction {
    int dst, a, b, c, e;  ///< registers; unused operands repeat dst
  };
  /// Consecutive instructions of one kind (the schedule groups the ready
  /// ones by kind, so that the dispatch is once per run).
  struct Run {
    int kind;        ///< an Op, or one of the fused kinds (interpret.cpp)
    int begin, end;  ///< into code_
  };
  struct Load {
    int reg, array, index;
  };
  struct GuardCheck {
    int reg, guard;
  };
  /// The constructor's first pass: one register per needed node, in node
  /// order, then a scratch register (prototype_); the fixed nodes computed, the
  /// input loads listed (loads_; TracingError for an array >= arrays).
  /// Returns each node's register (-1: not needed); `operations` gets the
  /// nodes that depend on the inputs, in node order.
  std::vector<int> assign_registers(const Graph& graph, const GraphAnalysis& analysis, int arrays,
                                    std::vector<int>& operations);

  std::vector<Run> runs_;
  std::vector<Instruction> code_;
  std::vector<Load> loads_;
  std::vector<GuardCheck> guards_;    ///< in node order, checked after the operations
  std::vector<int> out_regs_;
  int operations_ = 0;
  S huge_;                            ///< 1e300: beyond it sin, cos, tan give NaN (operations.hpp, beyond_reduction)
  /// The registers of one evaluation in progress.
  struct Registers {
    std::vector<S> value;  ///< the last register is scratch (fused kinds)
    /// Where each register's value is read from: itself, or (multiprecision
    /// types, whose copies cost) the caller's input element, set per run.
    std::vector<const S*> from;
  };
  /// A set of registers for one run: the idle one (one atomic exchange),
  /// else a spare, else a new copy of the prototype.
  Registers* take() const noexcept;
  /// Returns a set taken by take().
  void give_back(Registers* r) const noexcept;
  /// A new set: the prototype's values, each register read from itself.
  std::unique_ptr<Registers> make_registers() const;
  std::vector<S> prototype_;  ///< the registers as built: the fixed nodes computed
  mutable std::atomic<Registers*> idle_{nullptr};
  mutable std::mutex pool_mutex_;                          ///< guards pool_ and spare_
  mutable std::vector<std::unique_ptr<Registers>> pool_;  ///< every set, owned
  mutable std::vector<Registers*> spare_;                 ///< sets not in use, besides idle_
};

#define NHS_INTERPRETER_INSTANTIATE(EXTERN, S) EXTERN template class Interpreter<S>;
#define NHS_EXTERN_INTERPRETER_(S, NAME) NHS_INTERPRETER_INSTANTIATE(extern, S)
NHS_FOR_EACH_SCALAR(NHS_EXTERN_INTERPRETER_)
#undef NHS_EXTERN_INTERPRETER_

}  // namespace nhs::codegen
